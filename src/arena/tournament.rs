//! `--tournament round-robin|gauntlet`: which engines meet. A round-robin pairs every engine with
//! every other; a gauntlet pairs the first engine with each of the others. Each pairing plays
//! colour-swapped game pairs, as a two-engine match does; the schedule (`schedule.rs`) deals the
//! pairs out over the pairings.

use std::fmt;
use std::str::FromStr;

/// The kind of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    /// The pairings of `engines` engines, in schedule order: `(first, second)` by the engines'
    /// order on the command line, the first playing Black in the first game of each pair.
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            Tournament::RoundRobin => (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect(),
            Tournament::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
        }
    }
}

impl fmt::Display for Tournament {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        })
    }
}

/// A text that names no kind of tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wants round-robin or gauntlet, got {0:?}")]
pub struct ParseTournamentError(String);

impl FromStr for Tournament {
    type Err = ParseTournamentError;

    /// Reads `round-robin` (or `roundrobin`, `rr`) or `gauntlet`, in any case.
    fn from_str(text: &str) -> Result<Tournament, ParseTournamentError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "round-robin" | "roundrobin" | "rr" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(ParseTournamentError(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_robin_pairs_everyone_once_and_a_gauntlet_the_first_with_the_rest() {
        assert_eq!(Tournament::RoundRobin.pairings(4), [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(Tournament::RoundRobin.pairings(2), [(0, 1)]);
        assert_eq!(Tournament::Gauntlet.pairings(4), [(0, 1), (0, 2), (0, 3)]);
        // n(n-1)/2 pairings for n engines.
        assert!((2..9).all(|n| Tournament::RoundRobin.pairings(n).len() == n * (n - 1) / 2));
        for (text, kind) in [("round-robin", Tournament::RoundRobin), (" Gauntlet", Tournament::Gauntlet)] {
            assert_eq!(text.parse(), Ok(kind));
            assert_eq!(kind.to_string().parse(), Ok(kind), "Display reads back");
        }
        assert_eq!(
            "swiss".parse::<Tournament>().map_err(|e| e.to_string()),
            Err("wants round-robin or gauntlet, got \"swiss\"".into())
        );
    }
}
