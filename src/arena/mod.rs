//! `hisha match` (`match` is a keyword, hence `arena`): self-play and engine-vs-engine matches for
//! USI engines, in parallel, with openings, adjudication, statistics, crash-safe records, resume
//! and sharding. With no arguments it plays a short self-play match of hisha and writes
//! `games.psn`.
//!
//! The files, from the data up to the runner that drives them:
//! - `settings` (what the match is asked to do), `config` (engine definitions), `tc` (time controls
//!   and clocks), `stats` (Elo, LOS, SPRT), `file_error`, `identity` (what `--resume` checks),
//!   `state` (the state file), `openings`,
//!   `chart` (the SVG line chart of the report page, which `hisha analyze --svg` draws with too);
//! - `process` (one engine as a child process; public for tools such as `examples/yardstick.rs`), `preflight` (the check before the first game),
//!   `game` (one game: asking, judging, adjudicating), `schedule` (the games to play);
//! - `earlier` (what the output files already hold), `output` (records, state lines, the log),
//!   `report` (the results block), `report_html` (the `--report` page), `streak` (`--max-crashes`), `merge` (`--merge`);
//! - `runner` (workers, the main thread, Ctrl-C), which drives all of the above, and `exit` (`main`,
//!   the exit statuses and [`MatchError`], which wraps the other files' errors; the checks that
//!   decide an exit status themselves — `schedule`, `earlier`, `preflight`, `game::rules` — return
//!   it directly).

pub(crate) mod chart;
pub mod config;
mod earlier;
pub mod exit;
mod file_error;
mod game;
pub mod identity;
mod merge;
pub mod openings;
mod output;
mod preflight;
pub mod process;
mod report;
mod report_html;
mod runner;
mod schedule;
mod settings;
pub mod state;
pub mod stats;
mod streak;
pub mod tc;

pub use exit::{MatchError, main};
pub use file_error::FileError;
pub(crate) use game::score_of;
pub use merge::MergeError;
pub use openings::OpeningsError;
pub use output::UnreadableGame;
pub use preflight::HandshakeFailure;
pub use report_html::BadReportTarget;
pub(crate) use runner::run;
pub use settings::MatchSettings;
pub use streak::CrashLimit;
