//! Why a match, or a merge of matches, did not complete: the errors of `arena`, on its bottom
//! floor so that every part of the runner can return them and none of them imports a part.

use super::file_error::{FileError, UnreadableGame};
use super::openings::OpeningsError;
use super::state::StateError;
use super::streak::CrashLimit;
use crate::client::config::ConfigError;
use std::path::PathBuf;

/// An engine that failed its first handshake: its name, why, and the end of its stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeFailure {
    /// The engine's name.
    pub engine: String,
    /// What went wrong (the engine exited, no `usiok` in time …).
    pub why: String,
    /// The last lines it wrote on stderr (at most five).
    pub stderr_tail: Vec<String>,
}

impl std::fmt::Display for HandshakeFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine {} failed its first handshake (usi, usiok, isready, readyok): {}", self.engine, self.why)?;
        if self.stderr_tail.is_empty() {
            f.write_str("; it wrote nothing on stderr")?;
        } else {
            f.write_str("; the end of its stderr:")?;
            for line in &self.stderr_tail {
                write!(f, "\n    {line}")?;
            }
        }
        f.write_str("\nNo game was played and no file was written.")
    }
}

/// A `--report` the page cannot go to.
#[derive(Debug, thiserror::Error)]
pub enum BadReportTarget {
    /// A file the match reads or writes.
    #[error("--report {}: that is {what} {}; write the page to another file", report.display(), other.display())]
    InUse {
        /// The `--report` given.
        report: PathBuf,
        /// What the other file is to the match: `the record output`, `the openings file` …
        what: &'static str,
        /// The other file, as given.
        other: PathBuf,
    },
    /// A folder, or a file in a folder that does not exist.
    #[error("--report {}: {why}", .report.display())]
    NoFile {
        /// The `--report` given.
        report: PathBuf,
        /// `is a folder`, `no folder …`.
        why: String,
    },
}

/// Why state files cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A state file cannot be read.
    #[error(transparent)]
    State(#[from] StateError),
    /// Two state files of different matches.
    #[error("{} is a match of {pairing}, but {} of {other_pairing}", first.display(), other.display())]
    OtherEngines {
        /// The first state file with engines in its header.
        first: PathBuf,
        /// Its engines: `A vs B`.
        pairing: String,
        /// A state file with other engines.
        other: PathBuf,
        /// Its engines.
        other_pairing: String,
    },
    /// Two state files of one pairing with other engine settings, time controls or openings.
    #[error("{} and {} are matches with other settings:\n  {}", first.display(), other.display(), differences.join("\n  "))]
    OtherSettings {
        /// The first state file that records its settings.
        first: PathBuf,
        /// A state file with other settings.
        other: PathBuf,
        /// What differs, a line each.
        differences: Vec<String>,
    },
    /// `--anchor` names no engine of the merged games.
    #[error("--anchor {0:?} is not an engine of the merged games (their engines: {1})")]
    UnknownAnchor(String, String),
    /// No state file holds a game (and none names its engines).
    #[error("no games in the state files")]
    NoGames,
    /// A game in two state files.
    #[error("game {number} is in both {} and {}", first.display(), second.display())]
    GameTwice {
        /// The game number.
        number: usize,
        /// The first state file holding it.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
    /// An `--out` that is a shard's own record file.
    #[error("--out {} is one of the shards' record files; merge into a new file", .0.display())]
    OutIsShard(PathBuf),
    /// A game of a state file without its record.
    #[error("{}: no record of game {number}", path.display())]
    NoRecord {
        /// The record file.
        path: PathBuf,
        /// The game number.
        number: usize,
    },
    /// A record file that cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A game that cannot be read.
    #[error(transparent)]
    Game(#[from] UnreadableGame),
}

/// Why a match did not complete. Each kind has one of the exit statuses `hisha match --help` lists
/// (the binary decides which).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bad engine definition.
    #[error(transparent)]
    Engine(#[from] ConfigError),
    /// More than two `--engine`s without `--tournament`.
    #[error("a match has two engines (got {0}); give --tournament round-robin or gauntlet to play them all")]
    TooManyEngines(usize),
    /// `--sprt` in a tournament (an SPRT compares two engines).
    #[error("--sprt compares two engines: it cannot stop a tournament")]
    SprtInTournament,
    /// `--anchor` names no engine of the tournament.
    #[error("--anchor {0:?} is not an engine of the tournament (its engines: {1})")]
    UnknownAnchor(String, String),
    /// An engine's executable does not exist.
    #[error("engine {engine}: cannot find the command {}", command.display())]
    MissingCommand {
        /// The engine's name.
        engine: String,
        /// The command as given.
        command: PathBuf,
    },
    /// A `--report` that cannot be written, or onto a file the match reads or writes.
    #[error(transparent)]
    Report(#[from] BadReportTarget),
    /// The openings cannot be read.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An `--out` whose extension names no record format, without `--format`.
    #[error(
        "--out {}: no record format has this extension (psn, psn2, kif, kifu, ki2, ki2u, csa, usi); \
         name the file so or give --format",
        .0.display()
    )]
    OutFormat(PathBuf),
    /// `--resume` without a state file.
    #[error("--resume: there is no state file {} to resume (without --resume a new match starts)", .0.display())]
    NothingToResume(PathBuf),
    /// The state file to resume cannot be read.
    #[error(transparent)]
    ResumeState(StateError),
    /// `--resume` with other engines than the state file's.
    #[error(
        "{} is a match of {}, not {}: give the same engines to resume",
        state.display(), recorded.join(" vs "), given.join(" vs ")
    )]
    OtherEngines {
        /// The state file.
        state: PathBuf,
        /// Its engines.
        recorded: Vec<String>,
        /// The engines given.
        given: Vec<String>,
    },
    /// `--resume` with other engine settings, time controls or openings than the state file's.
    #[error(
        "{} is a match with other settings; give the same engines, time controls and openings to resume \
         (or start a new match without --resume):\n  {}",
        state.display(), differences.join("\n  ")
    )]
    OtherSettings {
        /// The state file.
        state: PathBuf,
        /// What differs, a line each.
        differences: Vec<String>,
    },
    /// Engines that failed their first handshake (one line or more each).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Handshake(Vec<HandshakeFailure>),
    /// A file of the match cannot be written (or an earlier state file moved aside).
    #[error(transparent)]
    File(#[from] FileError),
    /// A thread for the games cannot be started.
    #[error("{0}")]
    Thread(std::io::Error),
    /// `--merge` failed.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// An engine was faulty in `--max-crashes` games in a row.
    #[error("stopped: {limit}; {finished} games finished, {unplayed} not played; --resume continues the match")]
    Crashes {
        /// Which engine, and the limit.
        limit: CrashLimit,
        /// Games finished in this run.
        finished: usize,
        /// Scheduled games not played.
        unplayed: usize,
    },
    /// A tournament went on without engines that were faulty in `--max-crashes` games in a row.
    #[error(
        "the tournament went on without {}: {}; {finished} games finished, {unplayed} not played; \
         --resume plays their games",
        dropped.iter().map(|d| d.engine.as_str()).collect::<Vec<_>>().join(", "),
        dropped.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Dropped {
        /// The engines dropped, with the limit.
        dropped: Vec<CrashLimit>,
        /// Games finished in this run.
        finished: usize,
        /// Scheduled games not played.
        unplayed: usize,
    },
    /// Ctrl-C stopped the match after the running games.
    #[error("interrupted: {finished} games finished, {unplayed} not played; --resume continues the match")]
    Interrupted {
        /// Games finished in this run.
        finished: usize,
        /// Scheduled games not played.
        unplayed: usize,
    },
}
