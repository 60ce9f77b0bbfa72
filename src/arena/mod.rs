//! `hisha match` (`match` is a keyword, hence `arena`): self-play and engine-vs-engine matches for
//! USI engines, and tournaments (round-robin, gauntlet) of any number of them, in parallel, with
//! openings, adjudication, statistics, crash-safe records, resume and sharding. With no arguments
//! it plays a short self-play match of hisha and writes `games.psn`.
//!
//! The engines are driven through [`crate::client`] (engine definitions, processes, time controls
//! and clocks); the report page draws with `chart`. The files, from the data up to the
//! runner that drives them:
//! - `settings` (what the match is asked to do, typed: `--shard`, `--resign`, … are read by the
//!   command line), `tournament` (the pairings), `stats` (Elo, LOS, SPRT, crosstable, ratings),
//!   `timestamp`, `file_error`, `identity` (what `--resume` checks), `state` (the state file),
//!   `openings`, `opening_use` (how often each is played, and when games at a fixed budget
//!   replay);
//! - `error`, the bottom floor of the runner: [`MatchError`], why a match did not complete, and
//!   the errors it wraps; the parts above return it and it imports none of them (the exit
//!   statuses are the binary's);
//! - `preflight` (the check before the first game), `game` (one game: asking, judging,
//!   adjudicating), `schedule` (the games to play);
//! - `earlier` (what the output files already hold), `output` (records, state lines, the log),
//!   `recorded` (a state file's games read back from its records), `report` (a match's results
//!   block), `standings` (a tournament's), `scoreboard` (either of them, as the runner keeps it),
//!   `report_html` (the `--report` page), `streak` (`--max-crashes`), `merge` (`--merge`);
//! - `runner` (workers, the main thread, Ctrl-C), which drives all of the above: [`run`].

mod earlier;
mod error;
mod events;
mod file_error;
pub(crate) mod game;
pub mod identity;
mod merge;
mod opening_use;
pub mod openings;
mod output;
mod preflight;
mod recorded;
mod report;
mod report_html;
mod runner;
pub(crate) mod schedule;
mod scoreboard;
mod settings;
mod standings;
pub mod state;
pub mod stats;
mod streak;
pub(crate) mod timestamp;
pub mod tournament;

pub use error::{BadReportTarget, HandshakeFailure, MatchError, MergeError};
pub use events::{MatchEvent, MatchObserver};
pub use file_error::{FileError, UnreadableGame};
pub use openings::{OpeningSettings, OpeningsError};
pub(crate) use output::spawn_logger;
pub use runner::run;
pub use settings::{GameSettings, MatchSettings, ParseScoreRuleError, ParseShardError, ScoreRule, Shard};
pub use streak::CrashLimit;
pub(crate) use streak::CrashStreaks;
pub use tournament::{ParseTournamentError, Tournament};
