//! The results of a run as the runner, `--merge` and the report page keep them: a two-engine
//! match's [`Tally`] (Elo, pentanomial, SPRT) or a tournament's [`Standings`] (crosstable and
//! rating list).

use super::report::Tally;
use super::standings::Standings;
use super::state::GameLine;
use super::stats::{Anchor, Sprt, SprtDecision};
use super::tournament::Tournament;
use crate::client::tc::TimeControl;
use std::collections::BTreeMap;

/// A match's or a tournament's results so far.
#[derive(Clone, Debug)]
pub(crate) enum Scoreboard {
    /// Two engines, from the first one's side.
    Match(Tally),
    /// A tournament.
    Tournament(Standings),
}

impl Scoreboard {
    /// The empty results of `names` (a match of the first two without `tournament`), each playing
    /// at `time_controls` (in order; empty where unknown).
    pub(crate) fn new(
        names: &[String],
        time_controls: Vec<TimeControl>,
        tournament: Option<Tournament>,
        anchor: Option<Anchor>,
    ) -> Scoreboard {
        match tournament {
            Some(kind) => Scoreboard::Tournament(Standings::new(kind, names, time_controls, anchor)),
            None => {
                let name = |i: usize| names.get(i).map_or("", String::as_str);
                let mut tally = Tally::new(name(0), name(1));
                tally.time_controls = match time_controls[..] {
                    [a, b] => Some([a, b]),
                    _ => None,
                };
                Scoreboard::Match(tally)
            }
        }
    }

    /// Counts a finished game.
    pub(crate) fn add(&mut self, g: &GameLine) {
        match self {
            Scoreboard::Match(t) => t.add(g),
            Scoreboard::Tournament(s) => s.add(g),
        }
    }

    /// Notes an engine's largest time overrun.
    pub(crate) fn overrun(&mut self, engine: &str, ms: u64) {
        match self {
            Scoreboard::Match(t) => t.overrun(engine, ms),
            Scoreboard::Tournament(s) => s.overrun(engine, ms),
        }
    }

    /// The progress bar's message.
    pub(crate) fn progress(&self) -> String {
        match self {
            Scoreboard::Match(t) => t.progress(),
            Scoreboard::Tournament(s) => s.progress(),
        }
    }

    /// The results block (the SPRT's line in a match that runs one).
    pub(crate) fn block(&self, sprt: Option<&Sprt>) -> String {
        match self {
            Scoreboard::Match(t) => t.block(sprt),
            Scoreboard::Tournament(s) => s.block(),
        }
    }

    /// The SPRT's LLR and decision on a match's pairs (a tournament runs none).
    pub(crate) fn sprt(&self, test: &Sprt) -> Option<(f64, SprtDecision)> {
        match self {
            Scoreboard::Match(t) => Some(test.decide(&t.penta)),
            Scoreboard::Tournament(_) => None,
        }
    }

    /// The end reasons and how many games ended so.
    pub(crate) fn reasons(&self) -> &BTreeMap<String, u64> {
        match self {
            Scoreboard::Match(t) => &t.reasons,
            Scoreboard::Tournament(s) => s.reasons(),
        }
    }
}
