//! `hisha book build`: a book from game records. Every position of every main line up to a ply
//! limit gets the moves played there with how often, and a value from the mover's results with
//! them (the win rate as a logistic centipawn figure, Laplace-smoothed). The ponder move is the
//! reply played most often. Games are added one at a time, so any number of records streams
//! through; the tallies keep an SFEN and a few counters per position.

use crate::book::{Book, BookMove};
use crate::position::Winner;
use crate::record::GameRecord;
use crate::types::Move;
use std::collections::HashMap;

/// Options of a build.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Only positions before this ply (counted from each game's start).
    pub max_ply: usize,
    /// Only moves played at least this often.
    pub min_count: u64,
}

/// How one move did in one position.
#[derive(Clone, Copy, Debug)]
struct Tally {
    mv: Move,
    count: u64,
    points: f64,
    /// The key of the position after the move (where its ponder move is looked up).
    child: u64,
}

/// The value of a move scored `points` over `count` games (mover's view), in centipawns.
fn value(points: f64, count: u64) -> i32 {
    let p = (points + 0.5) / (count as f64 + 1.0);
    (400.0 * (p / (1.0 - p)).log10()).round().clamp(-1000.0, 1000.0) as i32
}

/// A book being built from games.
#[derive(Debug)]
pub struct BookBuilder {
    opts: BuildOptions,
    /// Position key -> (its SFEN, the moves played there).
    stats: HashMap<u64, (String, Vec<Tally>)>,
    games: usize,
}

impl BookBuilder {
    /// An empty build.
    pub fn new(opts: BuildOptions) -> BookBuilder {
        BookBuilder { opts, stats: HashMap::new(), games: 0 }
    }

    /// Games added so far (those whose start could be set up).
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds the main line of a game (up to the ply limit, or its first illegal move).
    pub fn add(&mut self, rec: &GameRecord) {
        let Ok(mut pos) = rec.start.position() else { return };
        self.games += 1;
        for m in rec.moves.iter().take(self.opts.max_ply) {
            if !pos.is_legal(m.mv) {
                break;
            }
            let mover = pos.side_to_move();
            let points = match rec.result.map(|r| r.winner) {
                Some(w @ (Winner::Black | Winner::White)) if w == Winner::color(mover) => 1.0,
                Some(Winner::Black | Winner::White) => 0.0,
                _ => 0.5,
            };
            let key = pos.key();
            let (_, moves) = self.stats.entry(key).or_insert_with(|| (pos.to_sfen(), Vec::new()));
            match moves.iter_mut().find(|t| t.mv == m.mv) {
                Some(t) => {
                    t.count += 1;
                    t.points += points;
                    pos.do_move(m.mv);
                }
                None => {
                    pos.do_move(m.mv);
                    moves.push(Tally { mv: m.mv, count: 1, points, child: pos.key() });
                }
            }
        }
    }

    /// The book: every position with a move played at least `min_count` times.
    pub fn finish(self) -> Book {
        let mut book = Book::default();
        let mut keys: Vec<&u64> = self.stats.keys().collect();
        keys.sort();
        for key in keys {
            let (sfen, moves) = &self.stats[key];
            let mut list: Vec<BookMove> = moves
                .iter()
                .filter(|t| t.count >= self.opts.min_count)
                .map(|t| {
                    let ponder = self.stats.get(&t.child).and_then(|(_, replies)| {
                        replies.iter().max_by_key(|r| (r.count, u16::MAX - r.mv.bits())).map(|r| r.mv)
                    });
                    BookMove { mv: t.mv, ponder, value: value(t.points, t.count), depth: 0, count: t.count }
                })
                .collect();
            if list.is_empty() {
                continue;
            }
            // Best value first, then the most played, then by move: the same file every run (the
            // tallies live in a hash map, whose order changes from run to run).
            list.sort_by(|a, b| b.value.cmp(&a.value).then(b.count.cmp(&a.count)).then(a.mv.bits().cmp(&b.mv.bits())));
            book.insert_sfen(sfen, list);
        }
        book
    }
}
