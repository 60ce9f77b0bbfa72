//! The results of a run as the runner, `--merge` and the report page keep them: a two-engine
//! match's [`Tally`] (Elo, pentanomial, SPRT) or a tournament's [`Standings`] (crosstable and
//! rating list), with how often each opening was played.

use super::opening_use::{OpeningCounts, OpeningUse};
use super::report::Tally;
use super::standings::Standings;
use super::state::GameLine;
use super::stats::{Anchor, Sprt, SprtDecision};
use super::tournament::Tournament;
use crate::client::tc::TimeControl;
use crate::position::Winner;
use std::collections::BTreeMap;

/// A match's or a tournament's results so far, and how often each opening was played.
#[derive(Clone, Debug)]
pub(crate) struct Scoreboard {
    /// The results.
    pub(crate) results: Results,
    /// Games per opening, where the openings are known (a state file of an older hisha does not
    /// say how many there were).
    openings: Option<OpeningCounts>,
}

/// The results of a match or of a tournament.
#[derive(Clone, Debug)]
pub(crate) enum Results {
    /// Two engines, from the first one's side.
    Match(Tally),
    /// A tournament.
    Tournament(Standings),
}

impl Scoreboard {
    /// The empty results of `names` (a match of the first two without `tournament`), each playing
    /// at `time_controls` (in order; empty where unknown), over `openings` where known.
    pub(crate) fn new(
        names: &[String],
        time_controls: Vec<TimeControl>,
        (tournament, anchor): (Option<Tournament>, Option<Anchor>),
        openings: Option<OpeningUse>,
    ) -> Scoreboard {
        let results = match tournament {
            Some(kind) => Results::Tournament(Standings::new(kind, names, time_controls, anchor)),
            None => {
                let name = |i: usize| names.get(i).map_or("", String::as_str);
                let mut tally = Tally::new(name(0), name(1));
                tally.time_controls = match time_controls[..] {
                    [a, b] => Some([a, b]),
                    _ => None,
                };
                Results::Match(tally)
            }
        };
        Scoreboard { results, openings: openings.map(OpeningCounts::new) }
    }

    /// Counts a finished game.
    pub(crate) fn add(&mut self, g: &GameLine) {
        match &mut self.results {
            Results::Match(t) => t.add(g),
            Results::Tournament(s) => s.add(g),
        }
        if let Some(o) = self.openings.as_mut().filter(|_| g.result.winner != Winner::Unfinished) {
            o.add(g.number);
        }
    }

    /// Notes an engine's largest time overrun.
    pub(crate) fn overrun(&mut self, engine: &str, ms: u64) {
        match &mut self.results {
            Results::Match(t) => t.overrun(engine, ms),
            Results::Tournament(s) => s.overrun(engine, ms),
        }
    }

    /// The progress bar's message.
    pub(crate) fn progress(&self) -> String {
        match &self.results {
            Results::Match(t) => t.progress(),
            Results::Tournament(s) => s.progress(),
        }
    }

    /// The results block (the SPRT's line in a match that runs one), with the openings' line.
    pub(crate) fn block(&self, sprt: Option<&Sprt>) -> String {
        let mut block = match &self.results {
            Results::Match(t) => t.block(sprt),
            Results::Tournament(s) => s.block(),
        };
        if let Some(line) = self.openings_line() {
            block.push_str(&format!("  {line}\n"));
        }
        block
    }

    /// `Openings: 100 (each played 2 times)`, where the openings are known.
    pub(crate) fn openings_line(&self) -> Option<String> {
        self.openings.as_ref().map(OpeningCounts::line)
    }

    /// The SPRT's LLR and decision on a match's pairs (a tournament runs none).
    pub(crate) fn sprt(&self, test: &Sprt) -> Option<(f64, SprtDecision)> {
        match &self.results {
            Results::Match(t) => Some(test.decide(&t.penta)),
            Results::Tournament(_) => None,
        }
    }

    /// `SPRT stopped undecided: …` when `test` is undecided and every game that differs has been
    /// played at a fixed budget: more games would replay them.
    pub(crate) fn sprt_stopped(&self, test: &Sprt) -> Option<String> {
        let openings = self.openings.as_ref().filter(|o| o.all_distinct_played())?;
        let (_, decision) = self.sprt(test)?;
        (decision == SprtDecision::Continue).then(|| openings.usage.sprt_stop())
    }

    /// The end reasons and how many games ended so.
    pub(crate) fn reasons(&self) -> &BTreeMap<String, u64> {
        match &self.results {
            Results::Match(t) => &t.reasons,
            Results::Tournament(s) => s.reasons(),
        }
    }
}
