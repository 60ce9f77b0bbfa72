//! How `hisha match` ends: its exit status, from the error that says why it did not complete.

use super::match_terminal::Terminal;
use hisha::arena::{MatchError, MatchSettings};
use std::process::ExitCode;
use std::sync::Arc;

/// The exit statuses of `hisha match`, as `hisha match --help` lists them.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    the match ran to its end (every scheduled game, or until the SPRT decided), or --merge
       combined its state files
  1    the match could not start or was stopped by errors: an engine that fails its first
       handshake (nothing is written then), an engine that crashed, stalled or failed to start in
       --max-crashes of its games in a row (finished games stay in the record files; --resume
       continues; a tournament drops that engine and plays on), a file that cannot be written, a
       failed --merge
  2    usage: bad arguments or engine definitions, more than two engines without --tournament,
       --sprt in a tournament, an --anchor that names no engine, a --shard-from-env whose
       variables name no task, a command that does not exist, an --out whose extension names no
       record format (without --format), --resume without a state file or with other engines,
       engine settings, time controls or openings, a --report in no folder or onto a file the
       match reads or writes
  130  interrupted by Ctrl-C (once: after the running games finished; twice: at once)";

/// The exit status of a match that ended with `e`: 2 for usage errors (nothing was played or
/// written), 130 for Ctrl-C, 1 for the rest.
fn status(e: &MatchError) -> u8 {
    match e {
        MatchError::Engine(_)
        | MatchError::TooManyEngines(_)
        | MatchError::SprtInTournament
        | MatchError::UnknownAnchor(..)
        | MatchError::MissingCommand { .. }
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
        | MatchError::Crashes { .. }
        | MatchError::Dropped { .. } => 1,
    }
}

/// Runs `hisha match` with `settings`, showing it on the terminal (a progress bar unless
/// `quiet`), and reports the outcome: an error on stderr and its exit status.
pub fn run(settings: MatchSettings, quiet: bool) -> ExitCode {
    match hisha::arena::run(settings, Arc::new(Terminal::new(quiet))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha match: {e}");
            ExitCode::from(status(&e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_ending_has_its_documented_status() {
        let limit = hisha::arena::CrashLimit { engine: "e".into(), limit: 3 };
        let cases = [
            (MatchError::TooManyEngines(3), 2, "\n  2 "),
            (MatchError::NothingToResume("g.psn.state".into()), 2, "\n  2 "),
            (MatchError::Handshake(Vec::new()), 1, "\n  1 "),
            (MatchError::Crashes { limit, finished: 3, unplayed: 5 }, 1, "\n  1 "),
            (MatchError::Interrupted { finished: 1, unplayed: 2 }, 130, "\n  130 "),
        ];
        for (e, status, line) in cases {
            assert_eq!(super::status(&e), status, "{e}");
            assert!(EXIT_STATUS_HELP.contains(line), "{status} is documented");
        }
    }
}
