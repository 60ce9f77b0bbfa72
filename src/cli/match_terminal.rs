//! How `hisha match` shows a match on the terminal: the match's events ([`MatchEvent`]) printed
//! as lines (stdout: the course of the match and its results; stderr: notices, prefixed
//! `hisha match: `), with a progress bar on stderr unless `--quiet`. Lines are written above the
//! bar and stdout is flushed after each event, so that a pipe sees every line as it comes.

use hisha::arena::{MatchEvent, MatchObserver};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::sync::{Mutex, PoisonError};

/// The terminal as a [`MatchObserver`].
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

/// The bar for `games` games.
fn progress_bar(games: usize) -> ProgressBar {
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  {elapsed} ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

impl MatchObserver for Terminal {
    fn event(&self, event: MatchEvent<'_>) {
        match event {
            MatchEvent::Notice(text) => self.above_bar(|| eprintln!("hisha match: {text}")),
            MatchEvent::Started { heading, games } => {
                println!("{heading}");
                let _ = std::io::stdout().flush();
                if self.bar_wanted {
                    *self.bar.lock().unwrap_or_else(PoisonError::into_inner) = Some(progress_bar(games));
                }
            }
            MatchEvent::GameFinished { line, score } => {
                self.above_bar(|| println!("{line}"));
                if let Some(bar) = &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
                    bar.set_message(score.to_string());
                    bar.inc(1);
                }
            }
            MatchEvent::Said(text) | MatchEvent::Results(text) | MatchEvent::Closing(text) => {
                self.above_bar(|| print!("{text}"))
            }
            MatchEvent::GamesOver => {
                if let Some(bar) = self.bar.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    bar.finish_and_clear();
                }
            }
            MatchEvent::PageWritten(path) => self.above_bar(|| println!("Report page in {}", path.display())),
            MatchEvent::Interrupted { again: false } => self
                .above_bar(|| eprintln!("\nhisha match: finishing the running games (Ctrl-C again to stop at once)")),
            MatchEvent::Interrupted { again: true } => self.above_bar(|| {
                eprintln!("\nhisha match: stopped; every finished game is in the record files (--resume continues)")
            }),
        }
    }
}
