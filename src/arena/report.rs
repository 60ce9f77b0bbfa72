//! The match tally and the results block: each engine's time control, W/D/L overall and per
//! colour, Elo with its 95 % interval (per game and per pair), normalised Elo, LOS, draw ratio,
//! pentanomial counts, end reasons, SPRT.

use super::state::GameLine;
use super::stats::{EloEstimate, Pentanomial, Sprt, Wdl, signed};
use crate::client::tc::TimeControl;
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
    /// Largest time overrun seen per engine (including moves lost on time), ms.
    pub max_overrun: BTreeMap<String, u64>,
    /// Games won by Black, won by White, drawn.
    pub by_colour: [u64; 3],
    /// Per engine (first, second): losses on time, by illegal moves, by crashes or stalls.
    pub faults: [[u64; 3]; 2],
    /// Each engine's time control (first, second), where known.
    pub time_controls: Option<[TimeControl; 2]>,
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
        self.by_colour[colour_index(g.result.winner)] += 1;
        let (key, fault) = ending(g);
        if let Some((loser, kind)) = fault {
            self.faults[usize::from(loser != self.a)][kind] += 1;
        }
        *self.reasons.entry(key).or_default() += 1;
        let pair = (g.number - 1) / 2;
        match self.open_pairs.remove(&pair) {
            Some(first) => self.penta.add_pair(first, score),
            None => {
                self.open_pairs.insert(pair, score);
            }
        }
    }

    /// Notes an engine's largest time overrun.
    pub fn overrun(&mut self, engine: &str, ms: u64) {
        let e = self.max_overrun.entry(engine.to_string()).or_default();
        *e = (*e).max(ms);
    }

    /// The progress bar's message: `hisha 12-5-3  Elo +125 [+48, +212]`.
    pub fn progress(&self) -> String {
        let w = &self.total;
        format!("{} {}-{}-{}  Elo {}", self.a, w.wins, w.losses, w.draws, elo_text(w.elo(), 0))
    }

    /// The time controls, for headings: `byoyomi=100 each` or `A byoyomi=100, B byoyomi=1000`
    /// (empty where unknown).
    pub fn time_control_text(&self) -> String {
        match self.time_controls {
            Some([a, b]) if a == b => format!("{a} each"),
            Some([a, b]) => format!("{} {a}, {} {b}", self.a, self.b),
            None => String::new(),
        }
    }

    /// Each engine's name with its results overall, as Black and as White (from its own side).
    pub(super) fn per_engine(&self) -> [(&str, Wdl, Wdl, Wdl); 2] {
        let mirror = |w: &Wdl| Wdl { wins: w.losses, draws: w.draws, losses: w.wins };
        [
            (self.a.as_str(), self.total, self.as_black, self.as_white),
            (self.b.as_str(), mirror(&self.total), mirror(&self.as_white), mirror(&self.as_black)),
        ]
    }

    /// The first engine's Elo from the games: `+12.3 [-20.1, +45.6]` (see [`elo_text`]).
    pub(super) fn elo_per_game(&self) -> String {
        elo_text(self.total.elo(), 1)
    }

    /// The first engine's Elo from the pentanomial counts of the pairs.
    pub(super) fn elo_per_pair(&self) -> String {
        elo_text(self.penta.elo(), 1)
    }

    /// The pentanomial counts: `[0, 1, 2, 1, 1] (5 pairs)`.
    pub(super) fn pentanomial_text(&self) -> String {
        let n = self.penta.pairs();
        format!("{:?} ({n} {})", self.penta.0, if n == 1 { "pair" } else { "pairs" })
    }

    /// The first engine's normalised Elo from the pairs: `+12.3`, or `n/a`.
    pub(super) fn normalized_elo(&self) -> String {
        self.penta.normalized_elo().map_or("n/a".into(), |e| signed(e, 1))
    }

    /// The SPRT's state: `LLR -1.23 in [-2.94, +2.94]: undecided`.
    pub(super) fn sprt_state(&self, t: &Sprt) -> String {
        let (llr, d) = t.decide(&self.penta);
        let (lo, hi) = t.bounds();
        format!("LLR {} in [{}, {}]: {d}", signed(llr, 2), signed(lo, 2), signed(hi, 2))
    }

    /// The results block.
    pub fn block(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let w = &self.total;
        let tc = self.time_control_text();
        let tc = if tc.is_empty() { tc } else { format!("; {tc}") };
        let games = if w.games() == 1 { "1 game".to_string() } else { format!("{} games", w.games()) };
        let _ = writeln!(s, "Results of {} vs {} ({games}{tc}):", self.a, self.b);
        let width = self.a.chars().count().max(self.b.chars().count());
        for (name, total, black, white) in self.per_engine() {
            let _ = writeln!(
                s,
                "  {name:<width$}  {} W {} L {} D  score {:.3}  as Black {}-{}-{}, as White {}-{}-{}",
                total.wins,
                total.losses,
                total.draws,
                total.score(),
                black.wins,
                black.losses,
                black.draws,
                white.wins,
                white.losses,
                white.draws
            );
        }
        let [bw, ww, d] = self.by_colour;
        let _ = writeln!(s, "  By colour: Black won {bw}, White won {ww}, draws {d}");
        let _ = writeln!(
            s,
            "  Elo of {} (95 %): {} (pentanomial {}), nElo: {}, LOS: {:.1} %, draw ratio: {:.1} %",
            self.a,
            self.elo_per_game(),
            self.elo_per_pair(),
            self.normalized_elo(),
            100.0 * w.los(),
            100.0 * w.draw_ratio()
        );
        let _ = writeln!(s, "  Pentanomial [0, 1/2, 1, 3/2, 2]: {}", self.pentanomial_text());
        let [fa, fb] = self.faults;
        let _ = writeln!(
            s,
            "  Losses on time: {} {}, {} {}; illegal moves: {} {}, {} {}; crashes/stalls: {} {}, {} {}",
            self.a, fa[0], self.b, fb[0], self.a, fa[1], self.b, fb[1], self.a, fa[2], self.b, fb[2]
        );
        let reasons: Vec<String> = self.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let _ =
            writeln!(s, "  End reasons: {}", if reasons.is_empty() { "none".to_string() } else { reasons.join(", ") });
        let overruns: Vec<String> =
            self.max_overrun.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v} ms")).collect();
        if !overruns.is_empty() {
            let _ = writeln!(s, "  Largest overrun of the time allowance: {}", overruns.join(", "));
        }
        if self.unfinished > 0 {
            let _ = writeln!(s, "  Unfinished: {}", self.unfinished);
        }
        if let Some(t) = sprt {
            let _ = writeln!(s, "  SPRT ({t}): {}", self.sprt_state(t));
        }
        s
    }
}

/// Where a finished game counts in the results' "By colour" line: 0 Black won, 1 White won, 2 drawn.
pub(super) fn colour_index(winner: Winner) -> usize {
    match winner {
        Winner::Black => 0,
        Winner::White => 1,
        _ => 2,
    }
}

/// How a finished game ended, as the results count it: the end reason's key (a loss on time, by an
/// illegal move or by a crash names the engine that lost: `time forfeit (A)`), and that engine
/// with the kind of fault (0: time, 1: illegal move, 2: crash or stall).
pub(super) fn ending(g: &GameLine) -> (String, Option<(&str, usize)>) {
    let loser = match g.result.winner {
        Winner::Black => Some(g.white.as_str()),
        Winner::White => Some(g.black.as_str()),
        _ => None,
    };
    let kind = match g.result.reason {
        ResultReason::Time => Some(0),
        ResultReason::IllegalMove => Some(1),
        ResultReason::Disconnect => Some(2),
        _ => None,
    };
    match loser.zip(kind) {
        Some((loser, kind)) => (format!("{} ({loser})", g.result.reason), Some((loser, kind))),
        None => (g.result.reason.to_string(), None),
    }
}

/// `+12.3 [-20.1, +45.6]`: the Elo and the ends of its 95 % interval (`+inf` for a sweep, and
/// for an end the results cannot bound); `n/a` without results.
fn elo_text(e: Option<EloEstimate>, decimals: usize) -> String {
    match e {
        None => "n/a".to_string(),
        Some(e) => {
            format!("{} [{}, {}]", signed(e.elo, decimals), signed(e.lower, decimals), signed(e.upper, decimals))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::GameResult;

    fn game(number: usize, black: &str, white: &str, winner: Winner, reason: ResultReason) -> GameLine {
        GameLine { number, black: black.into(), white: white.into(), result: GameResult { winner, reason } }
    }

    #[test]
    fn tally_counts_by_engine_colour_pair_and_reason() {
        let mut t = Tally::new("new", "old");
        for g in [
            game(1, "new", "old", Winner::Black, ResultReason::Resign), // new wins as Black
            game(2, "old", "new", Winner::Draw, ResultReason::Repetition), // pair 1: 1 + ½ = 1½
            game(3, "new", "old", Winner::White, ResultReason::Time),   // new loses on time as Black
            game(4, "old", "new", Winner::White, ResultReason::Checkmate), // pair 2: 0 + 1 = 1
            game(5, "new", "old", Winner::Black, ResultReason::IllegalMove), // old's illegal move
            game(6, "old", "new", Winner::Black, ResultReason::Disconnect), // new crashes; pair 3: 1 + 0 = 1
            game(7, "new", "old", Winner::Unfinished, ResultReason::Interrupt),
        ] {
            t.add(&g);
        }
        // new: wins 1, 4, 5; draw 2; losses 3, 6. As Black (1, 3, 5) 2-1-0, as White (2, 4, 6) 1-1-1.
        assert_eq!(t.total, Wdl { wins: 3, draws: 1, losses: 2 });
        assert_eq!(t.as_black, Wdl { wins: 2, draws: 0, losses: 1 });
        assert_eq!(t.as_white, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(t.by_colour, [3, 2, 1], "Black won 1, 5, 6; White won 3, 4; game 2 drawn");
        assert_eq!(t.penta.0, [0, 0, 2, 1, 0]);
        assert_eq!(t.unfinished, 1);
        assert_eq!(t.faults, [[1, 0, 1], [0, 1, 0]], "new: a time loss and a crash; old: an illegal move");
        assert_eq!(t.reasons.get("time forfeit (new)"), Some(&1));
        assert_eq!(t.reasons.get("illegal move (old)"), Some(&1));
        assert_eq!(t.reasons.get("engine crash or disconnect (new)"), Some(&1));
        t.time_controls = Some(["byoyomi=100".parse().expect("tc"), "byoyomi=1000".parse().expect("tc")]);
        let block = t.block(None);
        assert!(block.starts_with("Results of new vs old (6 games; new byoyomi=100, old byoyomi=1000):"), "{block}");
        // Score 3.5/6 = 0.5833: Elo = -400·log10(1/0.5833 - 1) = -400·log10(0.7143) = +58.45; the
        // interval's ends are those of stats::EloEstimate (tested there on reference figures).
        let e = t.total.elo().expect("games");
        let elo = format!("Elo of new (95 %): +58.5 [{:+.1}, {:+.1}]", e.lower, e.upper);
        assert!(block.contains(&elo) && e.lower < -100.0 && e.upper > 200.0, "{block}");
        assert!(block.contains("  new  3 W 2 L 1 D  score 0.583  as Black 2-1-0, as White 1-1-1"), "{block}");
        assert!(block.contains("  old  2 W 3 L 1 D  score 0.417  as Black 1-1-1, as White 1-2-0"), "{block}");
        assert!(block.contains("By colour: Black won 3, White won 2, draws 1"), "{block}");
        assert!(
            block.contains("Losses on time: new 1, old 0; illegal moves: new 0, old 1; crashes/stalls: new 1, old 0")
        );
        assert!(block.contains("draw ratio: 16.7 %"), "1 draw in 6 games: {block}");
        assert!(block.contains("Unfinished: 1"));
        // The SPRT line names its model, bounds and state (pairs [0, 0, 2, 1, 0]).
        let sprt: Sprt = "elo0=0 elo1=5".parse().expect("valid");
        let (llr, _) = sprt.decide(&t.penta);
        let line = format!(
            "  SPRT (normalized Elo [0, 5], alpha 0.05, beta 0.05): LLR {llr:+.2} in [-2.94, +2.94]: undecided"
        );
        assert!(t.block(Some(&sprt)).contains(&line), "{}", t.block(Some(&sprt)));
        t.time_controls = Some(["nodes=1000".parse().expect("tc"); 2]);
        assert!(t.block(None).starts_with("Results of new vs old (6 games; nodes=1000 each):"));
    }

    #[test]
    fn a_clean_sweep_has_infinite_elo_and_a_finite_lower_end() {
        let mut t = Tally::new("a", "b");
        t.add(&game(1, "a", "b", Winner::Black, ResultReason::Checkmate));
        t.add(&game(2, "b", "a", Winner::White, ResultReason::Resign));
        let block = t.block(None);
        assert!(block.contains("Results of a vs b (2 games):"), "{block}");
        // 2-0 per game: +inf in [-84.1, +inf]; one pair (2 points): +inf in [-307.0, +inf]
        // (tests/scripts/elo_reference.py: -84.119 and -307.030).
        assert!(
            block.contains("Elo of a (95 %): +inf [-84.1, +inf] (pentanomial +inf [-307.0, +inf]), nElo: n/a"),
            "{block}"
        );
        assert_eq!(t.progress(), "a 2-0-0  Elo +inf [-84, +inf]");
        t.add(&game(3, "a", "b", Winner::White, ResultReason::Checkmate));
        t.add(&game(4, "b", "a", Winner::Black, ResultReason::Checkmate));
        assert!(t.progress().starts_with("a 2-2-0  Elo +0 [-"), "{}", t.progress());
    }

    #[test]
    fn one_game_has_an_interval_and_no_pairs_say_n_a() {
        let mut t = Tally::new("a", "b");
        assert!(t.block(None).contains("Elo of a (95 %): n/a (pentanomial n/a)"), "{}", t.block(None));
        t.add(&game(1, "a", "b", Winner::Draw, ResultReason::Repetition));
        let block = t.block(None);
        assert!(block.starts_with("Results of a vs b (1 game):"), "{block}");
        // One draw: 0 in [-441.8, +441.8] (reference figure in stats::tests).
        assert!(block.contains("Elo of a (95 %): +0.0 [-441.8, +441.8] (pentanomial n/a)"), "{block}");
        assert_eq!(t.progress(), "a 0-0-1  Elo +0 [-442, +442]");
    }
}
