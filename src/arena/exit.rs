//! How `hisha match` ends: its exit status and the error that says why it did not complete.

use super::config::ConfigError;
use super::file_error::FileError;
use super::merge::MergeError;
use super::openings::OpeningsError;
use super::preflight::HandshakeFailure;
use super::report_html::BadReportTarget;
use super::settings::MatchSettings;
use super::state::StateError;
use super::streak::CrashLimit;
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit statuses of `hisha match`, as `hisha match --help` lists them.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    the match ran to its end (every scheduled game, or until the SPRT decided), or --merge
       combined its state files
  1    the match could not start or was stopped by errors: an engine that fails its first
       handshake (nothing is written then), an engine that crashed, stalled or failed to start in
       --max-crashes of its games in a row (finished games stay in the record files; --resume
       continues), a file that cannot be written, a failed --merge
  2    usage: bad arguments or engine definitions, a command that does not exist, an --out
       whose extension names no record format (without --format), --resume
       without a state file or with other engines, engine settings, time controls or openings,
       a --report in no folder or onto a file the match reads or writes
  130  interrupted by Ctrl-C (once: after the running games finished; twice: at once)";

/// Why a match did not complete. Each kind has one of the exit statuses of [`EXIT_STATUS_HELP`].
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A bad engine definition.
    #[error(transparent)]
    Engine(#[from] ConfigError),
    /// More than two `--engine`s.
    #[error("give at most two engines (got {0})")]
    TooManyEngines(usize),
    /// An engine's executable does not exist.
    #[error("engine {engine}: cannot find the command {}", command.display())]
    MissingCommand {
        /// The engine's name.
        engine: String,
        /// The command as given.
        command: PathBuf,
    },
    /// `--resign` or `--draw` that is not `CP:PLIES`.
    #[error("--{option} wants CP:PLIES, got {text:?}")]
    ScoreRule {
        /// `resign` or `draw`.
        option: &'static str,
        /// The value given.
        text: String,
    },
    /// `--resign` or `--draw` with a CP that is not a number.
    #[error("--{option}: bad CP {text:?}")]
    ScoreRuleCp {
        /// `resign` or `draw`.
        option: &'static str,
        /// The CP part given.
        text: String,
    },
    /// `--resign` or `--draw` with PLIES that are not a number.
    #[error("--{option}: bad PLIES {text:?}")]
    ScoreRulePlies {
        /// `resign` or `draw`.
        option: &'static str,
        /// The PLIES part given.
        text: String,
    },
    /// An `--entering-king-rule` hisha does not know (given in lower case).
    #[error("--entering-king-rule: unknown rule {0:?}")]
    EnteringKingRule(String),
    /// A `--shard` that is not `K/N` with 1 ≤ K ≤ N.
    #[error("--shard wants K/N with 1 <= K <= N, got {0:?}")]
    Shard(String),
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
        "{} is a match of {} vs {}, not {} vs {}: give the same engines to resume",
        state.display(), recorded[0], recorded[1], given[0], given[1]
    )]
    OtherEngines {
        /// The state file.
        state: PathBuf,
        /// Its engines.
        recorded: [String; 2],
        /// The engines given.
        given: [String; 2],
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
    /// Ctrl-C stopped the match after the running games.
    #[error("interrupted: {finished} games finished, {unplayed} not played; --resume continues the match")]
    Interrupted {
        /// Games finished in this run.
        finished: usize,
        /// Scheduled games not played.
        unplayed: usize,
    },
}

impl MatchError {
    /// The exit status: 2 for usage errors (nothing was played or written), 130 for Ctrl-C, 1
    /// for the rest.
    pub(crate) fn status(&self) -> u8 {
        match self {
            MatchError::Engine(_)
            | MatchError::TooManyEngines(_)
            | MatchError::MissingCommand { .. }
            | MatchError::ScoreRule { .. }
            | MatchError::ScoreRuleCp { .. }
            | MatchError::ScoreRulePlies { .. }
            | MatchError::EnteringKingRule(_)
            | MatchError::Shard(_)
            | MatchError::Openings(_)
            | MatchError::Report(_)
            | MatchError::OutFormat(_)
            | MatchError::NothingToResume(_)
            | MatchError::ResumeState(_)
            | MatchError::OtherEngines { .. }
            | MatchError::OtherSettings { .. } => 2,
            MatchError::Interrupted { .. } => 130,
            MatchError::Handshake(_)
            | MatchError::File(_)
            | MatchError::Thread(_)
            | MatchError::Merge(_)
            | MatchError::Crashes { .. } => 1,
        }
    }
}

/// Runs `hisha match` with `settings` and reports the outcome: an error on stderr and its exit
/// status.
pub fn main(settings: MatchSettings) -> ExitCode {
    match super::run(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha match: {e}");
            ExitCode::from(e.status())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_ending_has_its_documented_status() {
        let limit = CrashLimit { engine: "e".into(), limit: 3 };
        let cases = [
            (MatchError::TooManyEngines(3), 2, "\n  2 "),
            (MatchError::NothingToResume("g.psn.state".into()), 2, "\n  2 "),
            (MatchError::Handshake(Vec::new()), 1, "\n  1 "),
            (MatchError::Crashes { limit, finished: 3, unplayed: 5 }, 1, "\n  1 "),
            (MatchError::Interrupted { finished: 1, unplayed: 2 }, 130, "\n  130 "),
        ];
        for (e, status, line) in cases {
            assert_eq!(e.status(), status, "{e}");
            assert!(EXIT_STATUS_HELP.contains(line), "{status} is documented");
        }
    }
}
