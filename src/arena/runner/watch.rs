//! The main thread's side of a running match: each finished game written at once (records, then
//! the state file) and told (`Finished game …`, the results every N games), the `--report` page
//! rewritten with the results, the stops for `--max-crashes` (in a tournament, the engine dropped)
//! and the SPRT, and the closing lines.

use super::interrupt::Interrupt;
use super::workers::Done;
use crate::arena::events::{MatchEvent, MatchObserver};
use crate::arena::file_error::FileError;
use crate::arena::output::{Outputs, finished_line};
use crate::arena::report_html::{GameDetails, MatchPage};
use crate::arena::scoreboard::{Results, Scoreboard};
use crate::arena::settings::MatchSettings;
use crate::arena::stats::SprtDecision;
use crate::arena::streak::{CrashLimit, CrashStreaks};
use crate::client::config::EngineConfig;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What the main thread keeps while the games are played.
pub(super) struct Watch<'a> {
    settings: &'a MatchSettings,
    confs: &'a [EngineConfig],
    outputs: Outputs,
    board: Scoreboard,
    /// The `--report` page, if one was asked for.
    page: Option<MatchPage>,
    /// Games scheduled in this run.
    total: usize,
    interrupt: &'a Interrupt,
    events: &'a dyn MatchObserver,
    started: Instant,
    /// Games finished in this run.
    finished: usize,
    streaks: CrashStreaks,
    /// The engine that reached `--max-crashes` and stopped the match, if one did.
    crashed: Option<CrashLimit>,
    /// The engines a tournament dropped at `--max-crashes`.
    dropped: Vec<CrashLimit>,
}

/// How a run of games ended, as the watch saw it.
pub(super) struct Ending {
    /// Games finished in this run.
    pub finished: usize,
    /// The engine that stopped the match at `--max-crashes`.
    pub crashed: Option<CrashLimit>,
    /// The engines a tournament dropped at `--max-crashes`.
    pub dropped: Vec<CrashLimit>,
    /// The error writing the `--report` page, if any.
    pub page_error: Option<FileError>,
}

/// `N games in 12 min 5 s: 3.1 games/min at concurrency 2`.
fn pace(games: usize, elapsed: Duration, concurrency: usize) -> String {
    let secs = elapsed.as_secs_f64();
    let per_min = if secs > 0.0 { games as f64 * 60.0 / secs } else { 0.0 };
    let (m, s) = (elapsed.as_secs() / 60, elapsed.as_secs() % 60);
    format!("  This run: {games} games in {m} min {s} s: {per_min:.1} games/min at concurrency {concurrency}\n")
}

impl<'a> Watch<'a> {
    /// Watches a match of `total` games with the results (and the `--report` page) of the games
    /// finished before.
    pub(super) fn new(
        settings: &'a MatchSettings,
        confs: &'a [EngineConfig],
        outputs: Outputs,
        (board, page): (Scoreboard, Option<MatchPage>),
        total: usize,
        (interrupt, events): (&'a Interrupt, &'a dyn MatchObserver),
    ) -> Watch<'a> {
        Watch {
            settings,
            confs,
            outputs,
            board,
            page,
            total,
            interrupt,
            events,
            started: Instant::now(),
            finished: 0,
            streaks: CrashStreaks::new(settings.max_crashes, confs.len()),
            crashed: None,
            dropped: Vec::new(),
        }
    }

    /// Writes, counts and tells of a finished game; stops the match when an engine reaches
    /// `--max-crashes` or the SPRT decides. The engines a tournament drops now (their games not
    /// yet handed out are not to be played).
    pub(super) fn finished(&mut self, d: Done) -> Vec<usize> {
        let (black, white) = d.job.sides(self.confs);
        let details =
            self.page.as_ref().map(|_| GameDetails::of(&d.outcome.record, Some(&d.job.spec.opening_name), true));
        // The record, the results a second Ctrl-C tells and the `Finished game` line, all or none.
        let interrupt = self.interrupt;
        let block = interrupt.while_writing(|| {
            let line = self.outputs.write(&d.job, (&black.name, &white.name), d.outcome.record, self.events);
            self.board.add(&line);
            if let Some(p) = &mut self.page {
                p.add(&line, details, &self.board);
            }
            self.board.overrun(&black.name, d.outcome.overrun_ms[0]);
            self.board.overrun(&white.name, d.outcome.overrun_ms[1]);
            let block = self.board.block(self.settings.sprt.as_ref());
            interrupt.keep_results(&block);
            self.finished += 1;
            let score = self.board.progress();
            self.events.event(MatchEvent::GameFinished { line: &finished_line(&line), score: &score });
            block
        });
        let every = self.settings.report_every;
        if every > 0 && self.finished % every == 0 && self.finished < self.total {
            self.events.event(MatchEvent::Results(&block));
            let status =
                format!("match in progress: {} of the {} games of this run finished", self.finished, self.total);
            if let Err(e) = self.write_page(&status, true) {
                // The match goes on; the end of the match tries again (and fails the match if it fails).
                self.events.event(MatchEvent::Notice(&format!("--report: {e}")));
            }
        }
        let dropped = d
            .job
            .engines_by_colour()
            .into_iter()
            .enumerate()
            .filter(|&(c, e)| self.count_fault(e, d.outcome.faulty[c]))
            .map(|(_, e)| e)
            .collect();
        self.check_sprt();
        dropped
    }

    /// Counts a game of engine `e` (its index); at `--max-crashes` stops the match, or drops the
    /// engine from a tournament (then true).
    fn count_fault(&mut self, e: usize, faulty: bool) -> bool {
        let Some(limit) = self.streaks.record(e, &self.confs[e].name, faulty) else { return false };
        if let Results::Tournament(standings) = &mut self.board.results {
            self.events.event(MatchEvent::Said(&format!(
                "Dropping {} from the tournament: {limit}; its finished games stay, the others play on\n",
                limit.engine
            )));
            standings.dropped(&limit.engine);
            self.dropped.push(limit);
            return true;
        }
        if self.crashed.is_none() {
            self.interrupt.stop.store(true, Ordering::SeqCst);
            self.events.event(MatchEvent::Said(&format!("Stopping the match: {limit}; finishing the running games\n")));
            self.crashed = Some(limit);
        }
        false
    }

    /// Stops the match when the SPRT has decided.
    fn check_sprt(&self) {
        let Some((llr, decision)) = self.settings.sprt.as_ref().and_then(|t| self.board.sprt(t)) else { return };
        if decision != SprtDecision::Continue && !self.interrupt.stop.swap(true, Ordering::SeqCst) {
            self.events
                .event(MatchEvent::Said(&format!("SPRT: {decision} (LLR {llr:.2}); finishing the running games\n")));
        }
    }

    /// Writes the `--report` page, if one was asked for, saying `status` on it (`live`: the match
    /// goes on, and the page reloads itself).
    fn write_page(&self, status: &str, live: bool) -> Result<(), FileError> {
        match &self.page {
            Some(p) => p.write(&self.board, self.settings.sprt.as_ref(), status, live),
            None => Ok(()),
        }
    }

    /// Tells the results (first, where the SPRT stopped undecided because every game that
    /// differs was played, so), the pace of this run at `concurrency` and `last_line`, and writes the
    /// `--report` page; how the run ended.
    pub(super) fn end(self, concurrency: usize, last_line: &str) -> Ending {
        if let Some(stopped) = self.settings.sprt.as_ref().and_then(|t| self.board.sprt_stopped(t)) {
            self.events.event(MatchEvent::Said(&stopped));
        }
        self.events.event(MatchEvent::Results(&self.board.block(self.settings.sprt.as_ref())));
        let status = match (self.finished, self.total) {
            (f, t) if f < t => format!("match stopped after {f} of the {t} games of this run"),
            (f, _) => format!("match finished: {f} games in this run"),
        };
        let page_error = self.write_page(&status, false).err();
        if let Some(p) = self.page.as_ref().filter(|_| page_error.is_none()) {
            self.events.event(MatchEvent::PageWritten(p.path()));
        }
        let pace = pace(self.finished, self.started.elapsed(), concurrency);
        self.events.event(MatchEvent::Closing(&format!("{pace}{last_line}\n")));
        Ending { finished: self.finished, crashed: self.crashed, dropped: self.dropped, page_error }
    }
}
