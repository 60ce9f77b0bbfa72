//! The crosstable of a tournament: for every ordered pair of engines, the first one's wins, draws
//! and losses against the second ([`Wdl`]) and its colour-swapped pairs ([`Pentanomial`]), built
//! from the finished games of a state file (`GameLine`s, through [`PlayedGame`]), one game at a
//! time and in any order: the crosstable of merged shards is the crosstable of one run.
//!
//! Games `2k - 1` and `2k` are a colour-swapped pair when they are between the same two engines
//! with the colours swapped (the schedule's numbering, as in a two-engine match).

use super::{Pentanomial, Wdl};
use crate::position::Winner;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A finished game as the crosstable counts it (a state file's `GameLine` converts into one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame<'a> {
    /// Game number in the schedule (1-based): games `2k - 1` and `2k` may form a pair.
    pub number: usize,
    /// The engine that played Black.
    pub black: &'a str,
    /// The engine that played White.
    pub white: &'a str,
    /// Who won (unfinished games are counted apart).
    pub winner: Winner,
}

/// Games that do not fit the crosstable's engines.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CrosstableError {
    /// Two engines of the tournament have the same name.
    #[error("two engines are named {0:?}")]
    DuplicateName(String),
    /// A game names an engine that is not in the tournament.
    #[error("game {number}: {name:?} is not an engine of the tournament")]
    UnknownEngine {
        /// The game's number.
        number: usize,
        /// The name it gives.
        name: String,
    },
    /// A game of an engine against itself.
    #[error("game {number}: {name:?} plays both sides")]
    SelfPlay {
        /// The game's number.
        number: usize,
        /// The engine.
        name: String,
    },
}

/// The first game of a pair, waiting for its colour-swapped twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenPair {
    /// Black's and White's engine indices.
    black: usize,
    white: usize,
    /// Black's score (0, ½ or 1).
    black_score: Half,
}

/// A game score in half points (0, 1 or 2), so that the crosstable stays `Eq`.
type Half = u8;

/// Per pair of engines: W-D-L and pentanomial counts; plus the unfinished games (the default: no
/// engines).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crosstable {
    /// The engines, in the tournament's order.
    names: Vec<String>,
    /// `results[i * n + j]`: engine `i`'s results against engine `j`.
    results: Vec<Wdl>,
    /// `pairs[i * n + j]`: engine `i`'s colour-swapped pairs against engine `j`.
    pairs: Vec<Pentanomial>,
    /// Games that did not finish.
    unfinished: u64,
    /// Pair number (`(game - 1) / 2`) → its first finished game.
    open_pairs: BTreeMap<usize, OpenPair>,
}

impl Crosstable {
    /// An empty crosstable of the engines `names` (distinct).
    pub fn new<S: AsRef<str>>(names: &[S]) -> Result<Crosstable, CrosstableError> {
        let names: Vec<String> = names.iter().map(|s| s.as_ref().to_string()).collect();
        if let Some(twice) = names.iter().enumerate().find_map(|(i, name)| names[..i].contains(name).then_some(name)) {
            return Err(CrosstableError::DuplicateName(twice.clone()));
        }
        let n = names.len();
        let (results, pairs) = (vec![Wdl::default(); n * n], vec![Pentanomial::default(); n * n]);
        Ok(Crosstable { names, results, pairs, unfinished: 0, open_pairs: BTreeMap::new() })
    }

    /// The crosstable of the engines `names` after `games` (e.g. a state file's `GameLine`s).
    pub fn from_games<'a, S: AsRef<str>, G: Into<PlayedGame<'a>>>(
        names: &[S],
        games: impl IntoIterator<Item = G>,
    ) -> Result<Crosstable, CrosstableError> {
        let mut table = Crosstable::new(names)?;
        games.into_iter().try_for_each(|g| table.add(g))?;
        Ok(table)
    }

    /// Counts a game (an unfinished one only as unfinished).
    pub fn add<'a>(&mut self, game: impl Into<PlayedGame<'a>>) -> Result<(), CrosstableError> {
        let g = game.into();
        let index = |name: &str| {
            self.index_of(name).ok_or_else(|| CrosstableError::UnknownEngine { number: g.number, name: name.into() })
        };
        let (black, white) = (index(g.black)?, index(g.white)?);
        if black == white {
            return Err(CrosstableError::SelfPlay { number: g.number, name: g.black.into() });
        }
        let black_score: Half = match g.winner {
            Winner::Unfinished => {
                self.unfinished += 1;
                return Ok(());
            }
            Winner::Black => 2,
            Winner::Draw => 1,
            Winner::White => 0,
        };
        self.count_game(black, white, black_score);
        let pair = g.number.saturating_sub(1) / 2;
        match self.open_pairs.remove(&pair) {
            None => {
                self.open_pairs.insert(pair, OpenPair { black, white, black_score });
            }
            Some(first) if first.black == white && first.white == black => {
                // `first.black` played White in this game: its pair score is both of its games.
                let this = 2 - black_score;
                self.count_pair(first.black, first.white, [first.black_score, this]);
            }
            // Not a colour-swapped twin: neither game is counted as a pair.
            Some(_) => {}
        }
        Ok(())
    }

    /// Adds a game to both engines' W-D-L.
    fn count_game(&mut self, black: usize, white: usize, black_score: Half) {
        let n = self.names.len();
        for (me, you, score) in [(black, white, black_score), (white, black, 2 - black_score)] {
            let w = &mut self.results[me * n + you];
            match score {
                2 => w.wins += 1,
                1 => w.draws += 1,
                _ => w.losses += 1,
            }
        }
    }

    /// Adds a pair in which engine `a` scored `scores` (half points) against engine `b`.
    fn count_pair(&mut self, a: usize, b: usize, scores: [Half; 2]) {
        let n = self.names.len();
        let game = |h: Half| f64::from(h) / 2.0;
        self.pairs[a * n + b].add_pair(game(scores[0]), game(scores[1]));
        self.pairs[b * n + a].add_pair(game(2 - scores[0]), game(2 - scores[1]));
    }

    /// The engines, in the tournament's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the engine `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Engine `i`'s results against engine `j` (none for an index out of range).
    pub fn wdl(&self, i: usize, j: usize) -> Wdl {
        self.cell(&self.results, i, j)
    }

    /// Engine `i`'s colour-swapped pairs against engine `j` (none for an index out of range).
    pub fn pentanomial(&self, i: usize, j: usize) -> Pentanomial {
        self.cell(&self.pairs, i, j)
    }

    fn cell<T: Copy + Default>(&self, table: &[T], i: usize, j: usize) -> T {
        let n = self.names.len();
        if i < n && j < n { table[i * n + j] } else { T::default() }
    }

    /// Engine `i`'s results against all the others.
    pub fn total(&self, i: usize) -> Wdl {
        (0..self.names.len()).map(|j| self.wdl(i, j)).fold(Wdl::default(), |a, b| Wdl {
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
        })
    }

    /// Finished games.
    pub fn games(&self) -> u64 {
        (0..self.names.len()).map(|i| (i + 1..self.names.len()).map(|j| self.wdl(i, j).games()).sum::<u64>()).sum()
    }

    /// Unfinished games.
    pub fn unfinished(&self) -> u64 {
        self.unfinished
    }

    /// The grid with rows and columns in `order` (engine indices): each cell the row engine's
    /// points and games against the column engine (`12.5/20`), then each pairing's W-D-L and
    /// pentanomial counts.
    pub fn grid_text(&self, order: &[usize]) -> String {
        let name = |i: usize| self.names.get(i).map_or("?", String::as_str);
        let cell = |i: usize, j: usize| {
            let w = self.wdl(i, j);
            match (i == j, w.games()) {
                (true, _) => "-".to_string(),
                (false, 0) => ".".to_string(),
                (false, n) => format!("{}/{n}", w.wins as f64 + 0.5 * w.draws as f64),
            }
        };
        let rows: Vec<Vec<String>> = order.iter().map(|&i| order.iter().map(|&j| cell(i, j)).collect()).collect();
        let label = order.iter().map(|&i| name(i).chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = order
            .iter()
            .enumerate()
            .map(|(c, &j)| {
                rows.iter().map(|r| r[c].chars().count()).chain([name(j).chars().count()]).max().unwrap_or(0)
            })
            .collect();
        let mut s = String::from("Crosstable (points of the row's engine against the column's / games):\n");
        let _ = write!(s, "  {:label$}", "");
        for (&j, w) in order.iter().zip(&widths) {
            let _ = write!(s, "  {:>w$}", name(j));
        }
        s.push('\n');
        for (&i, row) in order.iter().zip(&rows) {
            let _ = write!(s, "  {:label$}", name(i));
            for (c, w) in row.iter().zip(&widths) {
                let _ = write!(s, "  {c:>w$}");
            }
            s.push('\n');
        }
        s.push_str("Pairings (W L D of the first engine; pairs by score 0, 1/2, 1, 3/2, 2):\n");
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                let w = self.wdl(i, j);
                if w.games() > 0 {
                    let pairs = self.pentanomial(i, j);
                    let _ = writeln!(
                        s,
                        "  {} vs {}: {} W {} L {} D, pairs {:?}",
                        name(i),
                        name(j),
                        w.wins,
                        w.losses,
                        w.draws,
                        pairs.0
                    );
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, black: &'static str, white: &'static str, winner: Winner) -> PlayedGame<'static> {
        PlayedGame { number, black, white, winner }
    }

    #[test]
    fn games_count_for_both_engines_and_twins_make_pairs() {
        let games = [
            game(1, "a", "b", Winner::Black), // a wins
            game(2, "b", "a", Winner::Draw),  // pair 1: a 1 + ½ = 1½
            game(3, "c", "a", Winner::White), // a wins as White
            game(4, "a", "c", Winner::White), // pair 2: a 1 + 0 = 1
            game(5, "b", "c", Winner::Unfinished),
            game(6, "c", "b", Winner::Black), // its twin did not finish: no pair
            game(7, "a", "b", Winner::Black),
            game(8, "a", "c", Winner::Black), // not game 7's twin: no pair
        ];
        let t = Crosstable::from_games(&["a", "b", "c"], games).expect("known engines");
        assert_eq!(t.wdl(0, 1), Wdl { wins: 2, draws: 1, losses: 0 });
        assert_eq!(t.wdl(1, 0), Wdl { wins: 0, draws: 1, losses: 2 });
        assert_eq!(t.wdl(0, 2), Wdl { wins: 2, draws: 0, losses: 1 });
        assert_eq!(t.wdl(2, 1), Wdl { wins: 1, draws: 0, losses: 0 });
        assert_eq!(t.pentanomial(0, 1), Pentanomial([0, 0, 0, 1, 0]));
        assert_eq!(t.pentanomial(1, 0), Pentanomial([0, 1, 0, 0, 0]));
        assert_eq!(t.pentanomial(0, 2), Pentanomial([0, 0, 1, 0, 0]));
        assert_eq!(t.pentanomial(1, 2), Pentanomial::default());
        assert_eq!((t.games(), t.unfinished()), (7, 1));
        assert_eq!(t.total(0), Wdl { wins: 4, draws: 1, losses: 1 });
        assert_eq!(t.wdl(0, 9), Wdl::default(), "out of range");
    }

    #[test]
    fn games_of_strangers_or_of_one_engine_are_refused() {
        let e = Crosstable::from_games(&["a", "b"], [game(3, "a", "x", Winner::Draw)]).expect_err("x");
        assert_eq!(e.to_string(), "game 3: \"x\" is not an engine of the tournament");
        let e = Crosstable::from_games(&["a", "b"], [game(4, "b", "b", Winner::Draw)]).expect_err("b-b");
        assert_eq!(e.to_string(), "game 4: \"b\" plays both sides");
        assert_eq!(Crosstable::new(&["a", "b", "a"]), Err(CrosstableError::DuplicateName("a".into())));
    }

    #[test]
    fn grid_shows_points_per_pair_in_the_given_order() {
        let games = [game(1, "a", "bb", Winner::Black), game(2, "bb", "a", Winner::Draw)];
        let t = Crosstable::from_games(&["a", "bb", "c"], games).expect("known engines");
        let expected = "\
Crosstable (points of the row's engine against the column's / games):
         bb      a  c
  bb      -  0.5/2  .
  a   1.5/2      -  .
  c       .      .  -
Pairings (W L D of the first engine; pairs by score 0, 1/2, 1, 3/2, 2):
  bb vs a: 0 W 1 L 1 D, pairs [0, 1, 0, 0, 0]
";
        assert_eq!(t.grid_text(&[1, 0, 2]), expected);
    }
}
