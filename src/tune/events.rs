//! What a tuning run tells the one who runs it, as it happens: the library prints nothing; the
//! binary (`hisha tune`) prints each event on the terminal, with a progress bar.

use super::state::TuneState;
use std::path::Path;

/// One thing a tuning run has to say, in the order it happens.
#[derive(Clone, Copy, Debug)]
pub enum TuneEvent<'a> {
    /// Something the user should know that does not stop the run (a warning, a file that could
    /// not be written), without the `hisha tune: ` the terminal puts before it.
    Notice(&'a str),
    /// The games start: the run's first line and where it stands.
    Started {
        /// `=== hisha tune ENGINE, N iterations, …`.
        heading: &'a str,
        /// The state: iterations done (more than 0 when resumed), θ.
        state: &'a TuneState,
    },
    /// An iteration finished and its games and the state were written.
    Iteration {
        /// The state after it.
        state: &'a TuneState,
        /// Its pair result: wins minus losses of the θ + c·flip side.
        result: i32,
    },
    /// θ after `state.done` iterations, every `--report-every` iterations and at the end.
    Values(&'a TuneState),
    /// The games are over (the progress bar can go).
    GamesOver,
    /// The `--report` page was written.
    PageWritten(&'a Path),
    /// Ctrl-C: `again` false for the first press (the running pairs finish), true for the
    /// second (the engines are killed and the run exits at once).
    Interrupted {
        /// Whether this is the second press.
        again: bool,
    },
}

/// Receives a run's events (from its main thread and its Ctrl-C handler).
pub trait TuneObserver: Send + Sync {
    /// Takes one event.
    fn event(&self, event: TuneEvent<'_>);
}
