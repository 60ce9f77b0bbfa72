//! Self-play training data: hisha plays itself at a fixed node (and optional depth) budget from
//! random openings, evaluating with a net (by default the built-in one) or the linear
//! evaluation, and every position it searches is written as a `PackedSfenValue` record with the
//! search's score and move and, once the game is over, the game's result — YaneuraOu's
//! `gensfen` bootstrap.
//!
//! A game: the first `random_plies` plies (drawn per game from a range) are chosen at random among
//! the moves a depth-3 MultiPV search scores within 80 of the best (no records); then each side
//! plays the move of its search. A position is recorded unless its side is in check (and, with
//! `skip_tactical`, unless the move is a capture or a promotion). The game ends when a search
//! scores at least `eval_limit` for either side (adjudicated as a win for that side, so no mate
//! score or near-mate score is ever recorded), by mate, declaration, four-fold repetition
//! (perpetual check loses), or as a draw after `max_plies`.
//!
//! Shards: game `i` of shard `K/N` has id `K + N * i`, and its random choices come from
//! `(seed, id)` only, so shards never repeat each other's games and a game is the same whatever
//! the thread count. Resuming skips the ids already in the file.

use crate::store::GameWriter;
use hisha::array_task::ArrayTask;
use hisha::eval::Value;
use hisha::eval::nnue::Network;
use hisha::position::{DeclarationOutcome, EnteringKingRule, Repetition};
use hisha::search::{BestMove, Iteration, Limits, SearchControl, SearchOptions, Searcher};
use hisha::{Color, Move, Position};
use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue, move_to_yaneuraou};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Shard `k` of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..n`.
    pub k: u64,
    /// How many shards.
    pub n: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?}: expected K/N with 0 <= K < N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if k < n { Ok(Shard { k, n }) } else { Err(bad()) }
    }
}

impl From<ArrayTask> for Shard {
    /// The shard of an array job's task: task `i` of `n` is shard `i/n`.
    fn from(task: ArrayTask) -> Shard {
        Shard { k: task.index() as u64, n: task.count() as u64 }
    }
}

/// How to play and what to write.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// The output file (appended to; its index beside it).
    pub out: PathBuf,
    /// Stop when the file holds this many games of this shard.
    pub games: Option<u64>,
    /// Stop when the file holds this many records.
    pub positions: Option<u64>,
    /// Nodes per search.
    pub nodes: u64,
    /// Depth limit per search, if any.
    pub depth: Option<u32>,
    /// Worker threads.
    pub threads: usize,
    /// This run's shard.
    pub shard: Shard,
    /// Seed of every game's random choices (with the game id).
    pub seed: u64,
    /// Random opening plies, drawn per game from this range (inclusive).
    pub random_plies: (usize, usize),
    /// Adjudication threshold.
    pub eval_limit: Value,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Leave out positions whose move is a capture or a promotion.
    pub skip_tactical: bool,
    /// Transposition table per thread, MiB.
    pub hash_mib: usize,
    /// The net the searches evaluate with (`None`: the linear evaluation).
    pub net: Option<Arc<Network>>,
    /// Seconds between progress lines.
    pub report_secs: u64,
}

/// The random generator of game `id`.
fn game_rng(seed: u64, id: u64) -> StdRng {
    StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ id.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Runs the generator until its limits; returns the records written by this run.
pub fn run(opts: &GenOptions) -> Result<u64, String> {
    if opts.games.is_none() && opts.positions.is_none() {
        return Err("give --games or --positions (or both)".into());
    }
    let writer = GameWriter::open(&opts.out)?;
    let done_here = writer.done().iter().filter(|&&id| id % opts.shard.n == opts.shard.k).count() as u64;
    let (start_records, done) = (writer.records() as u64, writer.done().clone());
    eprintln!(
        "{}: {} records, {done_here} games of shard {}/{} already; playing at {} nodes{}",
        opts.out.display(),
        start_records,
        opts.shard.k,
        opts.shard.n,
        opts.nodes,
        opts.depth.map(|d| format!(", depth {d}")).unwrap_or_default()
    );
    let writer = Mutex::new(writer);
    let claimed = AtomicU64::new(done_here);
    let next_index = AtomicU64::new(0);
    let (games_new, records_new) = (AtomicU64::new(0), AtomicU64::new(0));
    let failed = AtomicBool::new(false);
    let start = Instant::now();
    let error = Mutex::new(None);
    let finished = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..opts.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(opts.hash_mib);
                searcher.set_network(opts.net.clone());
                loop {
                    let records_now = start_records + records_new.load(Ordering::Relaxed);
                    let enough_records = opts.positions.is_some_and(|p| records_now >= p);
                    let enough_games = opts.games.is_some_and(|g| claimed.fetch_add(1, Ordering::Relaxed) >= g);
                    if enough_records || enough_games || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let id = loop {
                        let id = opts.shard.k + opts.shard.n * next_index.fetch_add(1, Ordering::Relaxed);
                        if !done.contains(&id) {
                            break id;
                        }
                    };
                    let records = play_game(&mut searcher, &mut game_rng(opts.seed, id), opts);
                    let written = writer
                        .lock()
                        .map_err(|_| "a writer thread panicked".to_string())
                        .and_then(|mut w| w.append(id, &records).map_err(|e| format!("{}: {e}", opts.out.display())));
                    if let Err(e) = written {
                        failed.store(true, Ordering::Relaxed);
                        *error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        break;
                    }
                    games_new.fetch_add(1, Ordering::Relaxed);
                    records_new.fetch_add(records.len() as u64, Ordering::Relaxed);
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
        }
        let mut last = (Instant::now(), 0, 0);
        while finished.load(Ordering::Relaxed) < opts.threads.max(1) as u64 {
            std::thread::sleep(Duration::from_millis(200));
            if last.0.elapsed() >= Duration::from_secs(opts.report_secs.max(1)) {
                let (g, r) = (games_new.load(Ordering::Relaxed), records_new.load(Ordering::Relaxed));
                let secs = last.0.elapsed().as_secs_f64();
                eprintln!(
                    "{:.0} s: {g} games, {r} positions this run ({:.2} games/s, {:.1} positions/s over the last {secs:.0} s); file {} records",
                    start.elapsed().as_secs_f64(),
                    (g - last.1) as f64 / secs,
                    (r - last.2) as f64 / secs,
                    start_records + r
                );
                last = (Instant::now(), g, r);
            }
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let (g, r) = (games_new.load(Ordering::Relaxed), records_new.load(Ordering::Relaxed));
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "done: {g} games, {r} positions in {secs:.0} s ({:.2} games/s, {:.1} positions/s); file {} records",
        g as f64 / secs,
        r as f64 / secs,
        start_records + r
    );
    Ok(r)
}

/// A move chosen at random among those a depth-3 MultiPV search scores within 80 of the best.
fn random_opening_move(searcher: &mut Searcher, pos: &mut Position, rng: &mut StdRng) -> Option<Move> {
    let opts = SearchOptions { multipv: 8, ..SearchOptions::default() };
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let mut lines: Vec<Iteration> = Vec::new();
    searcher.search(pos, &limits, &opts, &SearchControl::default(), &mut |it| {
        if it.multipv == 1 {
            lines.clear();
        }
        lines.push(it.clone());
    });
    let best = lines.first()?.score;
    let near: Vec<Move> = lines.iter().filter(|l| l.score >= best - 80).filter_map(|l| l.pv.first().copied()).collect();
    near.get(rng.random_range(0..near.len().max(1))).copied()
}

/// Plays one game; returns its records with their results filled in.
pub fn play_game(searcher: &mut Searcher, rng: &mut StdRng, opts: &GenOptions) -> Vec<PackedSfenValue> {
    searcher.clear();
    let mut pos = Position::startpos();
    let random_plies = rng.random_range(opts.random_plies.0..=opts.random_plies.1.max(opts.random_plies.0));
    let control = SearchControl::default();
    let search_opts = SearchOptions::default();
    let limits = Limits { nodes: Some(opts.nodes), depth: opts.depth, ..Limits::default() };
    let mut records: Vec<(PackedSfenValue, Color)> = Vec::new();
    // The result from Black's point of view: 1, 0 or -1.
    let black_result: i8 = loop {
        let us = pos.side_to_move();
        let sign = if us == Color::Black { 1 } else { -1 };
        if pos.game_ply() >= opts.max_plies {
            break 0;
        }
        match pos.repetition(4) {
            Repetition::None => {}
            Repetition::Draw => break 0,
            Repetition::PerpetualCheckBy(c) => break if c == Color::Black { -1 } else { 1 },
        }
        if pos.declaration(EnteringKingRule::Point27) == DeclarationOutcome::Win {
            break sign;
        }
        if pos.game_ply() < random_plies {
            match random_opening_move(searcher, &mut pos, rng) {
                Some(m) => {
                    pos.do_move(m);
                    continue;
                }
                None => break -sign,
            }
        }
        control.reset(false);
        let out = searcher.search(&mut pos, &limits, &search_opts, &control, &mut |_| {});
        let m = match out.best {
            BestMove::Move { best, .. } => best,
            BestMove::Resign => break -sign,
            BestMove::Win => break sign,
        };
        if out.score.abs() >= opts.eval_limit {
            break if out.score > 0 { sign } else { -sign };
        }
        let tactical = pos.piece_on(m.to()).is_some() || m.is_promotion();
        if !(pos.in_check() || opts.skip_tactical && tactical) {
            if let Ok(sfen) = PackedSfen::pack(&pos) {
                let score = out.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                let mv = move_to_yaneuraou(m);
                let game_ply = pos.game_ply().min(u16::MAX.into()) as u16;
                records.push((PackedSfenValue { sfen, score, mv, game_ply, game_result: 0, padding: 0 }, us));
            }
        }
        pos.do_move(m);
    };
    records
        .into_iter()
        .map(|(r, c)| PackedSfenValue {
            game_result: if c == Color::Black { black_result } else { -black_result },
            ..r
        })
        .collect()
}

#[cfg(test)]
#[path = "selfplay_tests.rs"]
mod tests;
