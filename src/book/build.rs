//! `hisha book build`: a book from game records. Every position of every main line up to a ply
//! limit gets the moves played there with how often, and a value from the mover's results with
//! them (the win rate as a logistic centipawn figure, Laplace-smoothed). The ponder move is the
//! reply played most often.

use super::{Book, BookMove};
use crate::position::{Position, Winner};
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

#[derive(Default)]
struct Tally {
    count: u64,
    points: f64,
}

/// The value of a move scored `points` over `count` games (mover's view), in centipawns.
fn value(points: f64, count: u64) -> i32 {
    let p = (points + 0.5) / (count as f64 + 1.0);
    (400.0 * (p / (1.0 - p)).log10()).round().clamp(-1000.0, 1000.0) as i32
}

/// Builds a book from `records` (unreadable starts are skipped).
pub fn from_records(records: &[GameRecord], opts: BuildOptions) -> Book {
    // key -> (position, move -> tally)
    let mut stats: HashMap<u64, (Position, HashMap<u16, Tally>)> = HashMap::new();
    for rec in records {
        let Ok(mut pos) = rec.start.position() else { continue };
        for m in rec.moves.iter().take(opts.max_ply) {
            if !pos.is_legal(m.mv) {
                break;
            }
            let mover = pos.side_to_move();
            let points = match rec.result.map(|r| r.winner) {
                Some(Winner::Draw) => 0.5,
                Some(w) if w == Winner::color(mover) => 1.0,
                Some(Winner::Black | Winner::White) => 0.0,
                _ => 0.5,
            };
            let mut snapshot = pos.clone();
            snapshot.clear_history();
            let entry = stats.entry(pos.key()).or_insert_with(|| (snapshot, HashMap::new()));
            let t = entry.1.entry(m.mv.bits()).or_default();
            t.count += 1;
            t.points += points;
            pos.do_move(m.mv);
        }
    }
    let mut book = Book::default();
    let mut keys: Vec<&u64> = stats.keys().collect();
    keys.sort();
    for key in keys {
        let (pos, moves) = &stats[key];
        let mut list: Vec<BookMove> = moves
            .iter()
            .filter(|(_, t)| t.count >= opts.min_count)
            .filter_map(|(&bits, t)| {
                let mv = Move::from_bits(bits)?;
                Some(BookMove { mv, ponder: None, value: value(t.points, t.count), depth: 0, count: t.count })
            })
            .collect();
        if list.is_empty() {
            continue;
        }
        for bm in &mut list {
            let mut child = pos.clone();
            child.do_move(bm.mv);
            bm.ponder = stats.get(&child.key()).and_then(|(_, replies)| {
                replies.iter().max_by_key(|(b, t)| (t.count, u16::MAX - **b)).and_then(|(&b, _)| Move::from_bits(b))
            });
        }
        book.insert(pos, list);
    }
    book
}
