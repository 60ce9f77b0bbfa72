//! The progress bar that `hisha match` and `hisha tune` draw on stderr (unless `--quiet`) while
//! games are played, and the lines they print above it, stdout flushed after each so that a pipe
//! sees every line as it comes. What is printed is each command's terminal's.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::sync::{Mutex, PoisonError};

/// Lines printed above an optional progress bar, shared by the threads that report events.
pub struct ProgressLines {
    /// Whether to draw a progress bar (not with `--quiet`).
    bar_wanted: bool,
    /// The progress bar while games are played.
    bar: Mutex<Option<ProgressBar>>,
}

impl ProgressLines {
    /// Lines with a progress bar once started, unless `quiet`.
    pub fn new(quiet: bool) -> ProgressLines {
        ProgressLines { bar_wanted: !quiet, bar: Mutex::new(None) }
    }

    /// Runs `print` with the progress bar, if any, out of the way, then flushes stdout.
    pub fn above_bar(&self, print: impl FnOnce()) {
        match &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
        let _ = std::io::stdout().flush();
    }

    /// Starts the bar of `len` steps counted in `unit` (`games`, `iterations`), set up by
    /// `prepare` before it is shown; nothing with `--quiet`.
    pub fn start(&self, len: u64, unit: &str, prepare: impl FnOnce(&ProgressBar)) {
        if self.bar_wanted {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(&template(unit)).unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            prepare(&bar);
            *self.bar.lock().unwrap_or_else(PoisonError::into_inner) = Some(bar);
        }
    }

    /// Runs `update` on the bar, if it is shown.
    pub fn update(&self, update: impl FnOnce(&ProgressBar)) {
        if let Some(bar) = &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
            update(bar);
        }
    }

    /// Clears the bar away: the games are over.
    pub fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(PoisonError::into_inner).take() {
            bar.finish_and_clear();
        }
    }
}

/// The bar's template: its steps counted in `unit`, the message, the time taken and to go.
fn template(unit: &str) -> String {
    format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  {{elapsed}} ETA {{eta}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_s_template_is_the_one_it_had_and_is_valid() {
        // The literal templates of match_terminal.rs and tune_terminal.rs before they shared this.
        let had = [
            ("games", "{bar:30} {pos}/{len} games  {msg}  {elapsed} ETA {eta}"),
            ("iterations", "{bar:30} {pos}/{len} iterations  {msg}  {elapsed} ETA {eta}"),
        ];
        for (unit, literal) in had {
            assert_eq!(template(unit), literal);
            assert!(ProgressStyle::with_template(&template(unit)).is_ok(), "{unit}: not the default bar");
        }
    }

    #[test]
    fn a_quiet_terminal_starts_no_bar_but_prints() {
        let lines = ProgressLines::new(true);
        let mut prepared = false;
        lines.start(4, "games", |_| prepared = true);
        assert!(!prepared, "no bar is set up with --quiet");
        let mut updated = false;
        lines.update(|_| updated = true);
        assert!(!updated);
        let mut printed = false;
        lines.above_bar(|| printed = true);
        assert!(printed);
        lines.finish();
    }

    #[test]
    fn a_started_bar_is_updated_and_finished() {
        let lines = ProgressLines::new(false);
        lines.start(4, "games", |bar| bar.set_position(1));
        let mut at = None;
        lines.update(|bar| {
            bar.inc(1);
            at = Some((bar.position(), bar.length()));
        });
        assert_eq!(at, Some((2, Some(4))));
        let mut printed = false;
        lines.above_bar(|| printed = true);
        assert!(printed, "printed with the bar out of the way");
        lines.finish();
        let mut updated = false;
        lines.update(|_| updated = true);
        assert!(!updated, "no bar after finish");
    }
}
