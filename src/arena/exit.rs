//! How `hisha match` ends: its exit status and the error that says why it did not complete.

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
  2    usage: bad arguments or engine definitions, a command that does not exist, --resume
       without a state file or with other engines
  130  interrupted by Ctrl-C (once: after the running games finished; twice: at once)";

/// Why a match did not complete.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The command line or an engine definition is wrong (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// The match could not start or was stopped by errors (exit status 1).
    #[error("{0}")]
    Failed(String),
    /// Ctrl-C stopped the match after the running games (exit status 130).
    #[error("{0}")]
    Interrupted(String),
}

impl MatchError {
    /// The exit status.
    pub fn status(&self) -> u8 {
        match self {
            MatchError::Usage(_) => 2,
            MatchError::Failed(_) => 1,
            MatchError::Interrupted(_) => 130,
        }
    }

    /// A usage error (for `map_err`).
    pub fn usage(why: impl Into<String>) -> MatchError {
        MatchError::Usage(why.into())
    }

    /// A failure (for `map_err`).
    pub fn failed(why: impl Into<String>) -> MatchError {
        MatchError::Failed(why.into())
    }
}

/// Runs `hisha match` with `args` and reports the outcome: an error on stderr and its exit
/// status.
pub fn main(args: super::MatchArgs) -> ExitCode {
    match super::run(args) {
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
        let cases = [
            (MatchError::usage("x"), 2, "\n  2 "),
            (MatchError::failed("x"), 1, "\n  1 "),
            (MatchError::Interrupted("x".into()), 130, "\n  130 "),
        ];
        for (e, status, line) in cases {
            assert_eq!(e.status(), status);
            assert!(EXIT_STATUS_HELP.contains(line), "{status} is documented");
        }
    }
}
