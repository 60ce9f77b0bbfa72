//! The match tally and the results block: W/D/L overall and per colour, Elo with 95 % error bars
//! (per game and per pair), LOS, draw ratio, pentanomial counts, end reasons, SPRT.

use super::state::GameLine;
use super::stats::{Pentanomial, Sprt, Wdl};
use crate::position::{ResultReason, Winner};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Everything counted so far, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// First engine's name.
    pub a: String,
    /// Second engine's name.
    pub b: String,
    /// All games.
    pub total: Wdl,
    /// Games with the first engine as Black.
    pub as_black: Wdl,
    /// Games with the first engine as White.
    pub as_white: Wdl,
    /// Colour-swapped pairs.
    pub penta: Pentanomial,
    /// End reasons, with the engine that lost (if any).
    pub reasons: BTreeMap<String, u64>,
    /// Unfinished (interrupted) games.
    pub unfinished: u64,
    /// Largest time overrun (within the margin) seen per engine, ms.
    pub max_overrun: BTreeMap<String, u64>,
    /// Pair number → first game's score for the first engine.
    open_pairs: BTreeMap<usize, f64>,
}

impl Tally {
    /// A tally of `a` against `b`.
    pub fn new(a: &str, b: &str) -> Tally {
        Tally { a: a.to_string(), b: b.to_string(), ..Tally::default() }
    }

    /// Counts a finished game.
    pub fn add(&mut self, g: &GameLine) {
        let a_is_black = g.black == self.a;
        let score = match g.result.winner {
            Winner::Unfinished => {
                self.unfinished += 1;
                return;
            }
            Winner::Draw => 0.5,
            Winner::Black if a_is_black => 1.0,
            Winner::White if !a_is_black => 1.0,
            _ => 0.0,
        };
        for w in [&mut self.total, if a_is_black { &mut self.as_black } else { &mut self.as_white }] {
            match score {
                1.0 => w.wins += 1,
                0.0 => w.losses += 1,
                _ => w.draws += 1,
            }
        }
        let loser = match g.result.winner {
            Winner::Black => format!(" ({})", g.white),
            Winner::White => format!(" ({})", g.black),
            _ => String::new(),
        };
        let key = match g.result.reason {
            ResultReason::Time | ResultReason::IllegalMove | ResultReason::Disconnect => {
                format!("{}{loser}", g.result.reason)
            }
            r => r.to_string(),
        };
        *self.reasons.entry(key).or_default() += 1;
        let pair = (g.number - 1) / 2;
        match self.open_pairs.remove(&pair) {
            Some(first) => self.penta.add_pair(first, score),
            None => {
                self.open_pairs.insert(pair, score);
            }
        }
    }

    /// Notes an engine's time overrun within the margin.
    pub fn overrun(&mut self, engine: &str, ms: u64) {
        let e = self.max_overrun.entry(engine.to_string()).or_default();
        *e = (*e).max(ms);
    }

    /// The results block.
    pub fn block(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let w = &self.total;
        let _ = writeln!(s, "Results of {} vs {} ({} games):", self.a, self.b, w.games());
        let _ = writeln!(
            s,
            "  {}: {} - {} - {} [{:.3}]  as Black {}-{}-{}, as White {}-{}-{}",
            self.a,
            w.wins,
            w.losses,
            w.draws,
            w.score(),
            self.as_black.wins,
            self.as_black.losses,
            self.as_black.draws,
            self.as_white.wins,
            self.as_white.losses,
            self.as_white.draws
        );
        let e = w.elo();
        let p = self.penta.elo();
        let _ = writeln!(
            s,
            "  Elo: {:+.1} +/- {:.1} (pairs: {:+.1} +/- {:.1}), LOS: {:.1} %, draw ratio: {:.1} %",
            e.elo,
            e.error,
            p.elo,
            p.error,
            100.0 * w.los(),
            100.0 * w.draw_ratio()
        );
        let _ = writeln!(s, "  Pentanomial [0, 1/2, 1, 3/2, 2]: {:?} ({} pairs)", self.penta.0, self.penta.pairs());
        let reasons: Vec<String> = self.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let _ =
            writeln!(s, "  End reasons: {}", if reasons.is_empty() { "none".to_string() } else { reasons.join(", ") });
        let overruns: Vec<String> =
            self.max_overrun.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v} ms")).collect();
        if !overruns.is_empty() {
            let _ = writeln!(s, "  Largest overrun within the time margin: {}", overruns.join(", "));
        }
        if self.unfinished > 0 {
            let _ = writeln!(s, "  Unfinished: {}", self.unfinished);
        }
        if let Some(t) = sprt {
            let (llr, d) = t.decide(&self.penta);
            let (lo, hi) = t.bounds();
            let _ = writeln!(s, "  SPRT [{}, {}]: LLR {llr:.2} ({lo:.2}, {hi:.2}) {d:?}", t.elo0, t.elo1);
        }
        s
    }
}
