//! `hisha book openings`: balanced start positions for matches. From each seed line (a named
//! opening, or the start position) hisha extends the game to a ply count by short MultiPV
//! searches, choosing at random among moves within a margin of the best, then keeps the
//! position only if a fixed-depth search scores it within `balance` centipawns. Duplicates are
//! dropped. Deterministic for a seed.

use crate::position::Position;
use crate::record::{GameRecord, Start};
use crate::search::{Limits, SearchControl, SearchOptions, Searcher};
use crate::types::Move;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::collections::HashSet;

/// Options of the generation.
#[derive(Clone, Copy, Debug)]
pub struct OpeningOptions {
    /// Plies of each opening (seed moves included).
    pub plies: usize,
    /// How many openings to produce.
    pub count: usize,
    /// Keep only positions scored within ±balance centipawns.
    pub balance: i32,
    /// Depth of the move-choosing searches.
    pub choose_depth: u32,
    /// Depth of the final balance check.
    pub check_depth: u32,
    /// Moves within this many centipawns of the best may be chosen.
    pub margin: i32,
    /// Random seed.
    pub seed: u64,
}

/// A searcher run to `depth` with `multipv` lines: the root moves with their scores, best first.
fn scored_moves(searcher: &mut Searcher, pos: &Position, depth: u32, multipv: usize) -> Vec<(Move, i32)> {
    let control = SearchControl::default();
    let opts = SearchOptions { multipv, ..SearchOptions::default() };
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut lines: Vec<(u32, usize, Move, i32)> = Vec::new();
    let mut p = pos.clone();
    searcher.search(&mut p, &limits, &opts, &control, &mut |it| {
        if let Some(&m) = it.pv.first() {
            lines.push((it.depth, it.multipv, m, it.score));
        }
    });
    let deepest = lines.iter().map(|l| l.0).max().unwrap_or(0);
    let mut out: Vec<(Move, i32)> = lines.iter().filter(|l| l.0 == deepest).map(|l| (l.2, l.3)).collect();
    out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    out.dedup_by_key(|(m, _)| *m);
    out
}

/// Generates balanced openings from `seeds` (each a named line; an empty list means the start
/// position), calling `progress` after each kept opening.
pub fn generate(seeds: &[GameRecord], opts: &OpeningOptions, progress: &mut dyn FnMut(usize)) -> Vec<GameRecord> {
    let default_seed = [GameRecord::new(Start::default(), [])];
    let seeds = if seeds.is_empty() { &default_seed[..] } else { seeds };
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut searcher = Searcher::new(16);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let attempts = opts.count * 8 + 16;
    for attempt in 0..attempts {
        if out.len() >= opts.count {
            break;
        }
        let seed = &seeds[attempt % seeds.len()];
        let Ok(mut pos) = seed.start.position() else { continue };
        let mut moves: Vec<Move> = Vec::new();
        for m in seed.moves.iter().take(opts.plies) {
            if !pos.is_legal(m.mv) {
                break;
            }
            pos.do_move(m.mv);
            moves.push(m.mv);
        }
        while moves.len() < opts.plies {
            let choices = scored_moves(&mut searcher, &pos, opts.choose_depth, 4);
            let Some(&(_, best)) = choices.first() else { break };
            let ok: Vec<Move> = choices.iter().filter(|(_, s)| *s >= best - opts.margin).map(|(m, _)| *m).collect();
            let m = ok[rng.random_range(0..ok.len())];
            pos.do_move(m);
            moves.push(m);
        }
        if moves.len() < opts.plies || !seen.insert(pos.key()) || !pos.has_legal_move() {
            continue;
        }
        let score = scored_moves(&mut searcher, &pos, opts.check_depth, 1).first().map_or(i32::MAX, |&(_, s)| s);
        if score.abs() > opts.balance {
            continue;
        }
        let mut rec = GameRecord::new(seed.start.clone(), moves);
        if let Some(name) = seed.tag("Opening") {
            rec.set_tag("Opening", name);
        }
        rec.summary.push(format!("balance check: {score} cp at depth {}", opts.check_depth));
        out.push(rec);
        progress(out.len());
    }
    out
}
