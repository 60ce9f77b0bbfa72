//! Why a tuning run did not complete ([`TuneError`]); the binary turns each into an exit status.

use super::params::ParamsError;
use super::state::StateError;
use crate::arena::{CrashLimit, FileError, OpeningsError};
use crate::client::config::ConfigError;
use std::path::PathBuf;

/// Why `hisha tune` did not complete.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The parameters file cannot be read.
    #[error(transparent)]
    ParamsFile(FileError),
    /// A line of the parameters file is wrong.
    #[error("{}: {error}", path.display())]
    Params {
        /// The file.
        path: PathBuf,
        /// Where and why.
        error: ParamsError,
    },
    /// A parameters file without a parameter.
    #[error("{}: no parameters in it", .0.display())]
    NoParams(PathBuf),
    /// A bad engine definition.
    #[error(transparent)]
    Engine(#[from] ConfigError),
    /// The engine's executable does not exist.
    #[error("engine {engine}: {} not found", command.display())]
    MissingCommand {
        /// The engine.
        engine: String,
        /// Its command.
        command: PathBuf,
    },
    /// The engine failed its first handshake.
    #[error("engine {engine} failed its first handshake (usi, usiok, isready, readyok): {why}")]
    Handshake {
        /// The engine.
        engine: String,
        /// Why.
        why: String,
    },
    /// Parameters that the engine does not list as options.
    #[error("{engine} has no option {}; it offers: {}", names.join(", "), if offered.is_empty() { "none".to_string() } else { offered.join(", ") })]
    NotAnOption {
        /// The engine.
        engine: String,
        /// The parameters it lacks.
        names: Vec<String>,
        /// The options it lists.
        offered: Vec<String>,
    },
    /// The openings cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An `--out` whose extension names no record format, without `--format`.
    #[error("{}: the extension names no record format; give --format", .0.display())]
    OutFormat(PathBuf),
    /// An `--out` in a format that holds one game per file.
    #[error("{}: tuning appends its games to one file: use .psn, .psn2, .csa or .usi", .0.display())]
    OneGamePerFile(PathBuf),
    /// `--resume` without a state file.
    #[error("{}: no state file to resume from", .0.display())]
    NothingToResume(PathBuf),
    /// A state file that cannot be read.
    #[error(transparent)]
    State(#[from] StateError),
    /// `--resume` with other settings than the state file's.
    #[error("{}: the run there differs: {}", path.display(), differences.join("; "))]
    OtherRun {
        /// The state file.
        path: PathBuf,
        /// What differs.
        differences: Vec<String>,
    },
    /// An engine crashed, stalled or failed to start in `--max-crashes` games in a row: the run
    /// stopped after the iteration it happened in.
    #[error("{0}; the iterations finished are kept, --resume continues")]
    Crashes(CrashLimit),
    /// A file that cannot be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A worker thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    /// Ctrl-C: the iterations done are in the state file, `--resume` continues.
    #[error("interrupted after {done} of {iterations} iterations (--resume continues)")]
    Interrupted {
        /// Iterations done.
        done: u64,
        /// Iterations of the run.
        iterations: u64,
    },
}
