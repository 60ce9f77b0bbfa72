//! How `hisha tune` shows a run on the terminal: its events ([`TuneEvent`]) printed as lines
//! (stdout: the heading and the parameters' values; stderr: notices, prefixed `hisha tune: `),
//! with a progress bar on stderr unless `--quiet` that shows θ after each iteration.

use super::progress::ProgressLines;
use hisha::tune::state::TuneState;
use hisha::tune::{TuneEvent, TuneObserver};

/// The terminal as a [`TuneObserver`].
pub struct Terminal {
    /// The lines, above the progress bar of the iterations.
    progress: ProgressLines,
}

impl Terminal {
    /// A terminal with a progress bar, unless `quiet`.
    pub fn new(quiet: bool) -> Terminal {
        Terminal { progress: ProgressLines::new(quiet) }
    }
}

/// `Name 41.27  Other 3.90`: θ with each parameter's name.
fn theta_line(state: &TuneState) -> String {
    state.values().iter().map(|(name, v)| format!("{name} {v:.2}")).collect::<Vec<_>>().join("  ")
}

/// The block of values after `state.done` iterations: a line per parameter with its start.
fn values_block(state: &TuneState) -> String {
    let mut s = format!("After {} of {} iterations:\n", state.done, state.identity.gains.iterations);
    let width = state.identity.params.iter().map(|p| p.name.chars().count()).max().unwrap_or(0);
    for (p, v) in state.identity.params.iter().zip(&state.theta) {
        s.push_str(&format!("  {:<width$}  {v:>9.2}  (start {}, {}..{})\n", p.name, p.start, p.min, p.max));
    }
    s
}

impl TuneObserver for Terminal {
    fn event(&self, event: TuneEvent<'_>) {
        match event {
            TuneEvent::Notice(text) => self.progress.above_bar(|| eprintln!("hisha tune: {text}")),
            TuneEvent::Started { heading, state } => {
                self.progress.above_bar(|| println!("{heading}"));
                self.progress.start(state.identity.gains.iterations, "iterations", |bar| {
                    bar.set_position(state.done);
                    bar.reset_eta();
                    bar.set_message(theta_line(state));
                });
            }
            TuneEvent::Iteration { state, .. } => self.progress.update(|bar| {
                bar.set_message(theta_line(state));
                bar.set_position(state.done);
            }),
            TuneEvent::Values(state) => self.progress.above_bar(|| print!("{}", values_block(state))),
            TuneEvent::GamesOver => self.progress.finish(),
            TuneEvent::PageWritten(path) => self.progress.above_bar(|| println!("Report page in {}", path.display())),
            TuneEvent::Interrupted { again: false } => self.progress.above_bar(|| {
                eprintln!("\nhisha tune: finishing the running game pairs (Ctrl-C again to stop at once)")
            }),
            TuneEvent::Interrupted { again: true } => self.progress.above_bar(|| {
                eprintln!("\nhisha tune: stopped; every finished iteration is in the state file (--resume continues)")
            }),
        }
    }
}
