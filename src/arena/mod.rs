//! `hisha match` (`match` is a keyword, hence `arena`): self-play and engine-vs-engine matches for
//! USI engines, in parallel, with openings, adjudication, statistics, crash-safe records, resume
//! and sharding. With no arguments it plays a short self-play match of hisha and writes
//! `games.psn`.
//!
//! The files, from the data up to the runner that drives them:
//! - `settings` (what the match is asked to do), `config` (engine definitions), `tc` (time controls
//!   and clocks), `stats` (Elo, LOS, SPRT), `file_error`, `state` (the state file), `openings`;
//! - `process` (one engine as a child process), `preflight` (the check before the first game),
//!   `game` (one game: asking, judging, adjudicating), `schedule` (the games to play);
//! - `earlier` (what the output files already hold), `output` (records, state lines, the log),
//!   `report` (the results block), `streak` (`--max-crashes`), `merge` (`--merge`);
//! - `runner` (workers, the main thread, Ctrl-C), which drives all of the above, and `exit` (`main`,
//!   the exit statuses and [`MatchError`], which wraps the other files' errors; the checks that
//!   decide an exit status themselves — `schedule`, `earlier`, `preflight`, `game::rules` — return
//!   it directly).

pub mod config;
mod earlier;
pub mod exit;
mod file_error;
mod game;
mod merge;
mod openings;
mod output;
mod preflight;
pub(crate) mod process;
mod report;
mod runner;
mod schedule;
mod settings;
pub mod state;
pub mod stats;
mod streak;
pub mod tc;

pub use exit::{MatchError, main};
pub use file_error::FileError;
pub use merge::MergeError;
pub use openings::OpeningsError;
pub use output::UnreadableGame;
pub use preflight::HandshakeFailure;
pub use runner::run;
pub use settings::MatchSettings;
pub use streak::CrashLimit;

use crate::record::Format;
use std::path::PathBuf;

/// Options of a match (the command line's `hisha match` arguments, see `hisha match --help`).
#[derive(Debug)]
pub struct MatchArgs {
    /// The engines, each as the words of one `--engine` (none: hisha plays itself; one: it plays
    /// hisha): `name=N cmd=PATH …`, a definition name in `engines/` or a `.toml` file.
    pub engines: Vec<Vec<String>>,
    /// Number of games (rounded up to whole colour-swapped pairs; at least 1).
    pub games: usize,
    /// Time control: byoyomi=MS, time=MS,byoyomi=MS, time=MS,inc=MS, time=MS, st=MS, nodes=N, depth=N.
    pub tc: tc::TimeControl,
    /// Games played at once (default: cores / threads per engine; at least 1).
    pub concurrency: Option<usize>,
    /// Record file(s), appended to; repeat for several outputs. Format from `--format` or the
    /// extension [default: games.psn]. With `--merge`: where the merged records go.
    pub out: Vec<PathBuf>,
    /// Record format for every output (psn, psn2, kif, kifu, ki2, csa, usi).
    pub format: Option<Format>,
    /// Openings: SFEN / `startpos moves …` lines or a record file (default: the built-in copy of
    /// book/openings.psn).
    pub openings: Option<PathBuf>,
    /// Plies of each opening to play before the engines take over.
    pub opening_plies: usize,
    /// Shuffle the openings with this seed (default: file order).
    pub seed: Option<u64>,
    /// Start every game from a handicap position (openings are not used).
    pub handicap: Option<crate::Handicap>,
    /// Continue an interrupted match from its state file.
    pub resume: bool,
    /// Play only shard K of N (`K/N`, pairs split round-robin).
    pub shard: Option<String>,
    /// Combine the state files of several shards and print the result (records too, with `--out`).
    pub merge: Vec<PathBuf>,
    /// SPRT, e.g. `elo0=0 elo1=5 alpha=0.05 beta=0.05`: stop when decided.
    pub sprt: Option<stats::Sprt>,
    /// Engine stderr and every game's USI transcript, appended (lines start with `[game N black|white
    /// ENGINE]`; records name it in a `Transcript` tag).
    pub log: Option<PathBuf>,
    /// Restart engines before every game (they are always restarted after a crash or stall).
    pub restart: bool,
    /// Stop the match when an engine crashes, stalls or fails to start in N of its games in a
    /// row (0: never). Finished games stay in the record files; `--resume` continues.
    pub max_crashes: u32,
    /// Draw after this many plies (the side to move loses if it has no legal move then).
    pub max_plies: u32,
    /// Resign adjudication `CP:PLIES`: both engines agree by CP for PLIES moves each.
    pub resign: Option<String>,
    /// Draw adjudication `CP:PLIES`: both scores within ±CP for PLIES moves each.
    pub draw: Option<String>,
    /// Milliseconds beyond the time allowance before a move loses on time (an engine's own
    /// `time_margin` overrides it).
    pub time_margin: u64,
    /// Entering-king rule for declarations: NoEnteringKing, CSARule24, CSARule27.
    pub entering_king_rule: String,
    /// Seconds to wait for `usiok` and `readyok` (an engine's own `usi_timeout` overrides it).
    pub usi_timeout: u64,
    /// Seconds an untimed (nodes/depth) move may take before the engine is deemed stalled.
    pub stall_timeout: u64,
    /// Print the results block every N games.
    pub report_every: usize,
    /// Folder of engine definitions for `--engine NAME`.
    pub engines_dir: PathBuf,
    /// No progress bar.
    pub quiet: bool,
}
