//! The results of a tournament as they come in: the crosstable of every pairing, the rating list
//! fitted to all the games (`stats::ratings`), and, as a match's results block has them, the
//! games by colour, each engine's faults, the end reasons, the largest overruns and the engines
//! dropped for crashing.

use super::report::{colour_index, ending};
use super::state::GameLine;
use super::stats::{Anchor, Crosstable, RatingList};
use super::tournament::Tournament;
use crate::client::tc::TimeControl;
use crate::position::Winner;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A tournament's results so far.
#[derive(Clone, Debug)]
pub(crate) struct Standings {
    /// Round-robin or gauntlet.
    kind: Tournament,
    /// Every pairing's results.
    table: Crosstable,
    /// The engine fixed in the rating list (`None`: the first, at 0).
    anchor: Option<Anchor>,
    /// Each engine's time control, in the engines' order (empty where unknown).
    time_controls: Vec<TimeControl>,
    /// End reasons (faults naming the engine that lost) and how many games ended so.
    reasons: BTreeMap<String, u64>,
    /// Per engine: losses on time, by illegal moves, by crashes or stalls.
    faults: Vec<[u64; 3]>,
    /// Largest time overrun seen per engine, ms.
    max_overrun: BTreeMap<String, u64>,
    /// Games won by Black, won by White, drawn.
    by_colour: [u64; 3],
    /// Games between engines that are not in the tournament (a state file edited by hand).
    strangers: u64,
    /// Engines dropped from the schedule, in the order they were dropped.
    dropped: Vec<String>,
}

impl Standings {
    /// The empty standings of a `kind` tournament of `names` (distinct, as the schedule makes
    /// them), each playing at `time_controls` (in order; empty where unknown).
    pub(crate) fn new(
        kind: Tournament,
        names: &[String],
        time_controls: Vec<TimeControl>,
        anchor: Option<Anchor>,
    ) -> Standings {
        // Names come distinct from the schedule and from state files written by it; should two be
        // equal, the second's games are counted as strangers' rather than failing the tournament.
        let mut distinct: Vec<String> = Vec::new();
        for n in names {
            let mut name = n.clone();
            while distinct.contains(&name) {
                name.push_str(" (again)");
            }
            distinct.push(name);
        }
        let table = Crosstable::new(&distinct).unwrap_or_default();
        Standings {
            kind,
            faults: vec![[0; 3]; names.len()],
            table,
            anchor,
            time_controls,
            reasons: BTreeMap::new(),
            max_overrun: BTreeMap::new(),
            by_colour: [0; 3],
            strangers: 0,
            dropped: Vec::new(),
        }
    }

    /// Counts a finished game.
    pub(crate) fn add(&mut self, g: &GameLine) {
        if self.table.add(g).is_err() {
            self.strangers += 1;
            return;
        }
        if g.result.winner == Winner::Unfinished {
            return;
        }
        self.by_colour[colour_index(g.result.winner)] += 1;
        let (key, fault) = ending(g);
        if let Some((loser, kind)) = fault {
            if let Some(i) = self.table.index_of(loser) {
                self.faults[i][kind] += 1;
            }
        }
        *self.reasons.entry(key).or_default() += 1;
    }

    /// Notes an engine's largest time overrun.
    pub(crate) fn overrun(&mut self, engine: &str, ms: u64) {
        let e = self.max_overrun.entry(engine.to_string()).or_default();
        *e = (*e).max(ms);
    }

    /// Notes that `engine` was dropped from the rest of the schedule.
    pub(crate) fn dropped(&mut self, engine: &str) {
        self.dropped.push(engine.to_string());
    }

    /// The end reasons and how many games ended so.
    pub(crate) fn reasons(&self) -> &BTreeMap<String, u64> {
        &self.reasons
    }

    /// The crosstable.
    pub(crate) fn table(&self) -> &Crosstable {
        &self.table
    }

    /// The rating list of the games so far (an anchor that names no engine was refused before the
    /// tournament started; here it falls back to the first engine).
    pub(crate) fn ratings(&self) -> Option<RatingList> {
        RatingList::fit(&self.table, self.anchor.as_ref()).or_else(|_| RatingList::fit(&self.table, None)).ok()
    }

    /// The heading's description: `round-robin tournament of a, b, c`.
    pub(crate) fn title(&self) -> String {
        format!("{} tournament of {}", self.kind, self.table.names().join(", "))
    }

    /// The time controls: `nodes=1000 each` or `a nodes=1000, b byoyomi=100, …` (empty where unknown).
    pub(crate) fn time_control_text(&self) -> String {
        match self.time_controls.first() {
            None => String::new(),
            Some(first) if self.time_controls.iter().all(|t| t == first) => format!("{first} each"),
            Some(_) => {
                let names = self.table.names();
                let each: Vec<String> =
                    names.iter().zip(&self.time_controls).map(|(n, t)| format!("{n} {t}")).collect();
                each.join(", ")
            }
        }
    }

    /// The progress bar's message: each engine's points and games, the best score first
    /// (`a 5/6  c 3.5/6  b 0.5/6`), at most four.
    pub(crate) fn progress(&self) -> String {
        let n = self.table.names().len();
        let mut rows: Vec<(usize, f64, u64)> = (0..n)
            .map(|i| {
                let w = self.table.total(i);
                (i, w.wins as f64 + 0.5 * w.draws as f64, w.games())
            })
            .collect();
        rows.sort_by(|a, b| (b.1 / b.2.max(1) as f64).total_cmp(&(a.1 / a.2.max(1) as f64)));
        let shown: Vec<String> = rows
            .iter()
            .take(4)
            .map(|&(i, points, games)| format!("{} {points}/{games}", self.table.names()[i]))
            .collect();
        let more = if n > 4 { format!("  (+{} more)", n - 4) } else { String::new() };
        format!("{}{more}", shown.join("  "))
    }

    /// Per engine, the faults as a text: `a 0/0/1, b 1/0/0` (time / illegal / crashes).
    pub(crate) fn faults_text(&self) -> String {
        let names = self.table.names();
        let each: Vec<String> =
            names.iter().zip(&self.faults).map(|(n, [t, i, c])| format!("{n} {t}/{i}/{c}")).collect();
        each.join(", ")
    }

    /// The lines after the rating list and crosstable: by colour, faults, end reasons, overruns,
    /// unfinished and strangers' games, dropped engines.
    fn details(&self) -> Vec<(String, String)> {
        let [bw, ww, d] = self.by_colour;
        let reasons: Vec<String> = self.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let mut lines = vec![
            ("By colour".to_string(), format!("Black won {bw}, White won {ww}, draws {d}")),
            ("Losses on time / illegal moves / crashes or stalls".into(), self.faults_text()),
            ("End reasons".into(), if reasons.is_empty() { "none".into() } else { reasons.join(", ") }),
        ];
        let overruns: Vec<String> =
            self.max_overrun.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v} ms")).collect();
        if !overruns.is_empty() {
            lines.push(("Largest overrun of the time allowance".into(), overruns.join(", ")));
        }
        if self.table.unfinished() > 0 {
            lines.push(("Unfinished".into(), self.table.unfinished().to_string()));
        }
        if self.strangers > 0 {
            lines.push(("Left out".into(), format!("{} games of engines not in the tournament", self.strangers)));
        }
        if !self.dropped.is_empty() {
            lines.push(("Dropped for crashing".into(), self.dropped.join(", ")));
        }
        lines
    }

    /// The lines of the details, as `(label, value)`, for the report page.
    pub(crate) fn detail_rows(&self) -> Vec<(String, String)> {
        self.details()
    }

    /// The results block: heading, rating list, crosstable with each pairing's W-L-D and pairs,
    /// then the details.
    pub fn block(&self) -> String {
        let games = self.table.games();
        let tc = self.time_control_text();
        let tc = if tc.is_empty() { tc } else { format!("; {tc}") };
        let plural = if games == 1 { "game" } else { "games" };
        let mut s = format!("Results of the {} ({games} {plural}{tc}):\n", self.title());
        match self.ratings() {
            Some(list) => s.push_str(&list.text(&self.table)),
            None => s.push_str(&self.table.grid_text(&(0..self.table.names().len()).collect::<Vec<_>>())),
        }
        for (label, value) in self.details() {
            let _ = writeln!(s, "  {label}: {value}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{GameResult, ResultReason};

    fn game(number: usize, black: &str, white: &str, winner: Winner, reason: ResultReason) -> GameLine {
        GameLine { number, black: black.into(), white: white.into(), result: GameResult { winner, reason } }
    }

    #[test]
    fn standings_count_every_pairing_and_rate_the_engines() {
        let names = ["a".to_string(), "b".into(), "c".into()];
        let tc: TimeControl = "nodes=1000".parse().expect("tc");
        let mut s = Standings::new(Tournament::RoundRobin, &names, vec![tc; 3], None);
        // Round-robin order (schedule.rs): pair 0 a-b, pair 1 a-c, pair 2 b-c, the first Black in
        // the odd game. a wins everything but a draw with c; b beats c once, c wins on b's crash.
        for g in [
            game(1, "a", "b", Winner::Black, ResultReason::Checkmate),
            game(2, "b", "a", Winner::White, ResultReason::Resign),
            game(3, "a", "c", Winner::Draw, ResultReason::Repetition),
            game(4, "c", "a", Winner::White, ResultReason::Checkmate),
            game(5, "b", "c", Winner::Black, ResultReason::Checkmate),
            game(6, "c", "b", Winner::Black, ResultReason::Disconnect),
            game(7, "a", "b", Winner::Unfinished, ResultReason::Interrupt),
            game(8, "x", "a", Winner::Black, ResultReason::Checkmate),
        ] {
            s.add(&g);
        }
        s.overrun("b", 12);
        s.dropped("b");
        let t = s.table();
        assert_eq!((t.games(), t.unfinished()), (6, 1));
        assert_eq!((t.total(0).wins, t.total(0).draws, t.total(0).losses), (3, 1, 0));
        assert_eq!(s.faults, [[0, 0, 0], [0, 0, 1], [0, 0, 0]]);
        assert_eq!(s.progress(), "a 3.5/4  c 1.5/4  b 1/4", "the best score first");
        let block = s.block();
        assert!(block.starts_with("Results of the round-robin tournament of a, b, c (6 games; nodes=1000 each):\n"));
        assert!(block.contains("Ratings (maximum likelihood, 95 % intervals; a anchored at +0.0):"), "{block}");
        assert!(block.contains("Crosstable (points of the row's engine"), "{block}");
        assert!(block.contains("  By colour: Black won 3, White won 2, draws 1\n"), "{block}");
        assert!(block.contains("  Losses on time / illegal moves / crashes or stalls: a 0/0/0, b 0/0/1, c 0/0/0\n"));
        assert!(block.contains("engine crash or disconnect (b): 1"), "{block}");
        assert!(block.contains("  Largest overrun of the time allowance: b 12 ms\n"), "{block}");
        assert!(block.contains("  Unfinished: 1\n  Left out: 1 games of engines not in the tournament\n"), "{block}");
        assert!(block.ends_with("  Dropped for crashing: b\n"), "{block}");
        // The list is RatingList's on the same crosstable (its figures are tested in stats::ratings).
        let list = RatingList::fit(t, None).expect("rated");
        assert!(block.contains(&list.text(t)), "{block}");
        let anchored = Standings::new(Tournament::Gauntlet, &names, Vec::new(), "c=1500".parse().ok());
        assert_eq!(anchored.ratings().map(|l| l.anchor.name), Some("c".to_string()));
        assert_eq!(anchored.time_control_text(), "");
        let mixed =
            Standings::new(Tournament::Gauntlet, &names[..2], vec![tc, "byoyomi=100".parse().expect("tc")], None);
        assert_eq!(mixed.time_control_text(), "a nodes=1000, b byoyomi=100");
        assert!(mixed.block().starts_with("Results of the gauntlet tournament of a, b (0 games; a nodes=1000"));
    }
}
