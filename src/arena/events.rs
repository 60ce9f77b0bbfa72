//! What a running match tells the one who runs it, as it happens: the library prints nothing;
//! the binary (`hisha match`) prints each event on the terminal, with its progress bar, and a
//! tool that runs matches itself may show them its own way or keep them.

use std::path::Path;

/// One thing a match has to say, in the order it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEvent<'a> {
    /// Something the user should know that does not stop the match (`warning: …` for a problem
    /// with an engine's options, other engines' games in a record file, an old state file, a page
    /// or record that could not be written; else what was done to the files, e.g. an earlier state
    /// kept aside). One line or more, for stderr, without the `hisha match: ` the terminal puts
    /// before it.
    Notice(&'a str),
    /// The games start: the match's first line (engines, time controls, date, records) and the
    /// number of games this run plays.
    Started {
        /// `=== hisha match A (tc) vs B (tc), DATE, records in FILE`.
        heading: &'a str,
        /// Games scheduled in this run.
        games: usize,
    },
    /// A game finished and was written: its `Finished game …` line and the score so far, for a
    /// progress display.
    GameFinished {
        /// `Finished game N (A vs B): 1-0 {Black wins by checkmate}`.
        line: &'a str,
        /// The running score, `A 3-1-0  Elo +190 …`.
        score: &'a str,
    },
    /// A line of the match's course for stdout: the SPRT decided, an engine reached
    /// `--max-crashes` (ends with a newline).
    Said(&'a str),
    /// The results block: every `--report-every` games and at the end (ends with a newline).
    Results(&'a str),
    /// No game is running any more; a progress display can go.
    GamesOver,
    /// The `--report` page was written there (said once, at the end).
    PageWritten(&'a Path),
    /// The last lines: this run's pace and where the records are (ends with a newline).
    Closing(&'a str),
    /// Ctrl-C was pressed: the first time (`again` false) the running games finish; the second
    /// time the engines are killed and the process exits with status 130 right after this event.
    Interrupted {
        /// The second press.
        again: bool,
    },
}

/// Receives a match's events; called from the runner's threads (the Ctrl-C handler's too).
pub trait MatchObserver: Send + Sync {
    /// Takes one event.
    fn event(&self, event: MatchEvent<'_>);
}

/// Collects events as text lines, for tests.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Collected(pub std::sync::Mutex<Vec<String>>);

#[cfg(test)]
impl MatchObserver for Collected {
    fn event(&self, event: MatchEvent<'_>) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(format!("{event:?}"));
    }
}
