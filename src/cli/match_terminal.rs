//! How `hisha match` shows a match on the terminal: the match's events ([`MatchEvent`]) printed
//! as lines (stdout: the course of the match and its results; stderr: notices, prefixed
//! `hisha match: `), with a progress bar on stderr unless `--quiet`. Lines are written above the
//! bar and stdout is flushed after each event, so that a pipe sees every line as it comes.

use super::progress::ProgressLines;
use hisha::arena::{MatchEvent, MatchObserver};

/// The terminal as a [`MatchObserver`].
pub struct Terminal {
    /// The lines, above the progress bar of the games.
    progress: ProgressLines,
}

impl Terminal {
    /// A terminal with a progress bar, unless `quiet`.
    pub fn new(quiet: bool) -> Terminal {
        Terminal { progress: ProgressLines::new(quiet) }
    }
}

impl MatchObserver for Terminal {
    fn event(&self, event: MatchEvent<'_>) {
        match event {
            MatchEvent::Notice(text) => self.progress.above_bar(|| eprintln!("hisha match: {text}")),
            MatchEvent::Started { heading, games } => {
                self.progress.above_bar(|| println!("{heading}"));
                self.progress.start(games as u64, "games", |_| ());
            }
            MatchEvent::GameFinished { line, score } => {
                self.progress.above_bar(|| println!("{line}"));
                self.progress.update(|bar| {
                    bar.set_message(score.to_string());
                    bar.inc(1);
                });
            }
            MatchEvent::Said(text) | MatchEvent::Results(text) | MatchEvent::Closing(text) => {
                self.progress.above_bar(|| print!("{text}"))
            }
            MatchEvent::GamesOver => self.progress.finish(),
            MatchEvent::PageWritten(path) => self.progress.above_bar(|| println!("Report page in {}", path.display())),
            MatchEvent::Interrupted { again: false } => self
                .progress
                .above_bar(|| eprintln!("\nhisha match: finishing the running games (Ctrl-C again to stop at once)")),
            MatchEvent::Interrupted { again: true } => self.progress.above_bar(|| {
                eprintln!("\nhisha match: stopped; every finished game is in the record files (--resume continues)")
            }),
        }
    }
}
