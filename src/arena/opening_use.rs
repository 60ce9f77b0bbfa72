//! How a match uses its openings, and when its games replay: at a fixed node or depth budget (no
//! clock) a deterministic engine plays the same game from the same opening with the same colours,
//! so once a pairing has played every opening with both colours its further games replay earlier
//! ones and add no information. Hence the notice at the start of such a match, the SPRT's stop
//! (it counts no replay), and the results' `Openings:` line.

use crate::client::tc::TimeControl;
use std::fmt;

/// The fixed budget every engine of a match plays at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Budget {
    /// Every engine at a node count.
    Nodes,
    /// Every engine at a depth.
    Depth,
    /// Some at a node count, the others at a depth.
    NodesOrDepth,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Nodes => "node",
            Budget::Depth => "depth",
            Budget::NodesOrDepth => "node or depth",
        })
    }
}

/// The openings of a match or tournament, the pairings that play them in turn and whether the
/// games replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpeningUse {
    /// Number of openings.
    openings: usize,
    /// Pairings that play them in turn (1 in a match).
    pairings: usize,
    /// The budget every engine plays at; `None` where one plays at a clock: its games differ.
    budget: Option<Budget>,
    /// The SPRT runs: replays are neither played nor counted.
    sprt: bool,
}

impl OpeningUse {
    /// `openings` played in turn by `pairings`, whose engines play at `time_controls`; `sprt`:
    /// the match runs an SPRT.
    pub(crate) fn new(openings: usize, pairings: usize, time_controls: &[TimeControl], sprt: bool) -> OpeningUse {
        let nodes = time_controls.iter().all(|tc| matches!(tc, TimeControl::Nodes(_)));
        let depth = time_controls.iter().all(|tc| matches!(tc, TimeControl::Depth(_)));
        let budget = match (nodes, depth) {
            _ if time_controls.is_empty() || !time_controls.iter().all(|tc| tc.is_fixed_budget()) => None,
            (true, _) => Some(Budget::Nodes),
            (_, true) => Some(Budget::Depth),
            _ => Some(Budget::NodesOrDepth),
        };
        OpeningUse { openings: openings.max(1), pairings: pairings.max(1), budget, sprt }
    }

    /// The opening (index) of game `number` (from 1): pair `q = (number - 1) div 2` plays opening
    /// `(q div pairings) mod openings` (as `schedule` deals them).
    pub(crate) fn opening_of(&self, number: usize) -> usize {
        (number.saturating_sub(1) / 2 / self.pairings) % self.openings
    }

    /// The games of the whole match that differ: every pairing's every opening with both colours
    /// (`None`: games at a clock all differ).
    pub(crate) fn distinct_games(&self) -> Option<usize> {
        self.budget.map(|_| 2 * self.openings * self.pairings)
    }

    /// Whether game `number` is played and counted: not where it replays an earlier game and the
    /// SPRT runs.
    pub(crate) fn counts(&self, number: usize) -> bool {
        !self.sprt || self.distinct_games().is_none_or(|last| number <= last)
    }

    /// The notice for a match whose pairings each play `games`, where they replay games:
    /// `6000 games over 100 openings: …`.
    pub(crate) fn notice(&self, games: usize) -> Option<String> {
        let budget = self.budget?;
        let distinct = 2 * self.openings;
        if games <= distinct {
            return None;
        }
        let per_pairing = if self.pairings > 1 { " per pairing" } else { "" };
        let times = games.div_ceil(distinct);
        let each = if games % distinct == 0 {
            format!("every opening is played {times} times with each colour")
        } else {
            format!("openings are played up to {times} times with each colour")
        };
        let sprt = if self.sprt {
            format!("; the SPRT stops, undecided, after the {distinct} games that differ")
        } else {
            String::new()
        };
        Some(format!(
            "{games} games{per_pairing} over {} openings: {each}, and at a fixed {budget} budget the engines \
             replay the same games, which adds no information{sprt}; give more openings (hisha book openings \
             --count {} -o openings.usi, then --openings openings.usi)",
            self.openings,
            games.div_ceil(2)
        ))
    }

    /// What the SPRT says when it stops undecided, every distinct game played.
    pub(crate) fn sprt_stop(&self) -> String {
        format!(
            "SPRT stopped undecided: all {} openings played with both colours; more games at a fixed {} budget \
             would replay them\n",
            self.openings,
            self.budget.unwrap_or(Budget::Nodes)
        )
    }
}

/// How often each opening has been played: the results' `Openings:` line, and whether every game
/// that differs has been played.
#[derive(Clone, Debug)]
pub(crate) struct OpeningCounts {
    /// The openings and how they are dealt.
    pub(crate) usage: OpeningUse,
    /// Finished games per opening.
    played: Vec<u32>,
    /// Finished games that are no replay.
    distinct: usize,
}

impl OpeningCounts {
    /// No game played yet.
    pub(crate) fn new(usage: OpeningUse) -> OpeningCounts {
        OpeningCounts { usage, played: vec![0; usage.openings], distinct: 0 }
    }

    /// Counts finished game `number`.
    pub(crate) fn add(&mut self, number: usize) {
        self.played[self.usage.opening_of(number)] += 1;
        if self.usage.distinct_games().is_some_and(|last| number <= last) {
            self.distinct += 1;
        }
    }

    /// Whether every game that differs has been played (`false` at a clock: games never replay).
    pub(crate) fn all_distinct_played(&self) -> bool {
        self.usage.distinct_games() == Some(self.distinct)
    }

    /// `Openings: 100 (each played 2 times)`, or `(played 1 to 2 times each)`.
    pub(crate) fn line(&self) -> String {
        let times = |n: u32| if n == 1 { "once".to_string() } else { format!("{n} times") };
        let (min, max) = (self.played.iter().min(), self.played.iter().max());
        let (min, max) = (min.copied().unwrap_or(0), max.copied().unwrap_or(0));
        let how = if min == max {
            format!("each played {}", times(min))
        } else {
            format!("played {min} to {max} times each")
        };
        format!("Openings: {} ({how})", self.usage.openings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcs(list: &[&str]) -> Vec<TimeControl> {
        list.iter().map(|t| t.parse().expect("tc")).collect()
    }

    #[test]
    fn a_node_budget_match_over_too_few_openings_is_told_that_it_replays() {
        let nodes = OpeningUse::new(100, 1, &tcs(&["nodes=1000", "nodes=2000"]), false);
        // 6000 games over 100 openings: 6000 / 200 = 30 games of each opening with each colour.
        let notice = nodes.notice(6000).expect("replays");
        assert_eq!(
            notice,
            "6000 games over 100 openings: every opening is played 30 times with each colour, and at a fixed \
             node budget the engines replay the same games, which adds no information; give more openings \
             (hisha book openings --count 3000 -o openings.usi, then --openings openings.usi)"
        );
        assert_eq!(nodes.notice(200), None, "each opening once with each colour");
        assert!(nodes.notice(250).expect("replays").contains("openings are played up to 2 times with each colour"));
        // A clock anywhere: games differ.
        assert_eq!(OpeningUse::new(100, 1, &tcs(&["nodes=1000", "byoyomi=100"]), false).notice(6000), None);
        assert_eq!(OpeningUse::new(100, 1, &tcs(&["st=100"; 2]), true).distinct_games(), None);
        let depth = OpeningUse::new(3, 3, &tcs(&["depth=3", "depth=4", "nodes=10"]), true);
        let notice = depth.notice(8).expect("8 games of each pairing over 3 openings");
        assert!(notice.starts_with("8 games per pairing over 3 openings: "), "{notice}");
        assert!(notice.contains("at a fixed node or depth budget"), "{notice}");
        assert!(notice.contains("the SPRT stops, undecided, after the 6 games that differ"), "{notice}");
    }

    #[test]
    fn with_the_sprt_replays_are_not_counted_and_the_line_says_how_often_each_opening_was_played() {
        let usage = OpeningUse::new(3, 1, &tcs(&["nodes=10"; 2]), true);
        assert!(usage.counts(6) && !usage.counts(7), "3 openings, 2 colours");
        assert!(OpeningUse::new(3, 1, &tcs(&["nodes=10"; 2]), false).counts(7), "counted without an SPRT");
        assert!(OpeningUse::new(3, 1, &tcs(&["byoyomi=10"; 2]), true).counts(7), "counted at a clock");
        let mut counts = OpeningCounts::new(usage);
        for n in 1..=5 {
            counts.add(n);
        }
        // Games 1-2 opening 0, 3-4 opening 1, 5 opening 2.
        assert_eq!(counts.line(), "Openings: 3 (played 1 to 2 times each)");
        assert!(!counts.all_distinct_played());
        counts.add(6);
        assert_eq!(counts.line(), "Openings: 3 (each played 2 times)");
        assert!(counts.all_distinct_played());
        // A tournament of three pairings: pairs 0, 1, 2 play opening 0, pairs 3, 4, 5 opening 1.
        let three = OpeningUse::new(2, 3, &tcs(&["nodes=10"; 3]), false);
        assert_eq!([1, 6, 7, 12, 13].map(|n| three.opening_of(n)), [0, 0, 1, 1, 0]);
    }
}
