//! How `hisha tune` shows a run on the terminal: its events ([`TuneEvent`]) printed as lines
//! (stdout: the heading and the parameters' values; stderr: notices, prefixed `hisha tune: `),
//! with a progress bar on stderr unless `--quiet` that shows θ after each iteration.

use hisha::tune::state::TuneState;
use hisha::tune::{TuneEvent, TuneObserver};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::sync::{Mutex, PoisonError};

/// The terminal as a [`TuneObserver`].
pub struct Terminal {
    /// Whether to draw a progress bar (not with `--quiet`).
    bar_wanted: bool,
    /// The progress bar while games are played.
    bar: Mutex<Option<ProgressBar>>,
}

impl Terminal {
    /// A terminal with a progress bar, unless `quiet`.
    pub fn new(quiet: bool) -> Terminal {
        Terminal { bar_wanted: !quiet, bar: Mutex::new(None) }
    }

    /// Runs `print` with the progress bar, if any, out of the way.
    fn above_bar(&self, print: impl FnOnce()) {
        match &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
        let _ = std::io::stdout().flush();
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
            TuneEvent::Notice(text) => self.above_bar(|| eprintln!("hisha tune: {text}")),
            TuneEvent::Started { heading, state } => {
                println!("{heading}");
                let _ = std::io::stdout().flush();
                if self.bar_wanted {
                    let bar = ProgressBar::new(state.identity.gains.iterations);
                    bar.set_style(
                        ProgressStyle::with_template("{bar:30} {pos}/{len} iterations  {msg}  {elapsed} ETA {eta}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    bar.set_position(state.done);
                    bar.reset_eta();
                    bar.set_message(theta_line(state));
                    *self.bar.lock().unwrap_or_else(PoisonError::into_inner) = Some(bar);
                }
            }
            TuneEvent::Iteration { state, .. } => {
                if let Some(bar) = &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
                    bar.set_message(theta_line(state));
                    bar.set_position(state.done);
                }
            }
            TuneEvent::Values(state) => self.above_bar(|| print!("{}", values_block(state))),
            TuneEvent::GamesOver => {
                if let Some(bar) = self.bar.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    bar.finish_and_clear();
                }
            }
            TuneEvent::PageWritten(path) => self.above_bar(|| println!("Report page in {}", path.display())),
            TuneEvent::Interrupted { again: false } => self.above_bar(|| {
                eprintln!("\nhisha tune: finishing the running game pairs (Ctrl-C again to stop at once)")
            }),
            TuneEvent::Interrupted { again: true } => self.above_bar(|| {
                eprintln!("\nhisha tune: stopped; every finished iteration is in the state file (--resume continues)")
            }),
        }
    }
}
