//! Self-play training data for the evaluation tuner (`examples/tune_eval.rs`).
//!
//! Plays hisha against itself in-process at a fixed node budget from varied openings (the first
//! plies are chosen at random among the moves a shallow MultiPV search scores within a margin of
//! the best) and writes one line per quiet position: `SFEN<TAB>search score<TAB>result`, the
//! score and the result (1 win, 0 draw, -1 loss) from the side to move's point of view. A position
//! is kept only when its side is not in check and the search's move is neither a capture nor a
//! promotion, so that the static evaluation can be compared with the outcome without a pending
//! exchange. Each game is appended and flushed as a whole.
//!
//! ```sh
//! cargo run --release --example gen_training_data -- OUT.tsv GAMES [NODES] [SEED] [THREADS]
//! ```

use hisha::eval::Value;
use hisha::position::{DeclarationOutcome, EnteringKingRule, Repetition};
use hisha::search::{BestMove, Iteration, Limits, SearchControl, SearchOptions, Searcher};
use hisha::{Move, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Games longer than this are draws.
const MAX_PLIES: usize = 320;
/// A score this large for the side to move ends the game in its favour.
const DECISIVE: Value = 3_000;

struct Settings {
    nodes: u64,
    games: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: gen_training_data OUT.tsv GAMES [NODES=4000] [SEED=1] [THREADS=1]";
    let (Some(out), Some(games)) = (args.first(), args.get(1).and_then(|g| g.parse().ok())) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let settings = Settings { nodes: number(2, 4000), games };
    let seed = number(3, 1);
    let threads = number(4, 1).max(1);
    let file = match std::fs::OpenOptions::new().create(true).append(true).open(out) {
        Ok(f) => Mutex::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let next_game = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let (file, next_game, positions, settings) = (&file, &next_game, &positions, &settings);
            s.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= settings.games {
                        break;
                    }
                    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(g));
                    let lines = play_game(&mut searcher, &mut rng, settings);
                    positions.fetch_add(lines.len() as u64, Ordering::Relaxed);
                    if let Ok(mut f) = file.lock() {
                        if let Err(e) = f.write_all(lines.concat().as_bytes()).and_then(|_| f.flush()) {
                            eprintln!("write: {e}");
                            std::process::exit(1);
                        }
                    }
                    if g % 100 == 99 {
                        eprintln!(
                            "thread {t}: {} games, {} positions, {:.0} s",
                            g + 1,
                            positions.load(Ordering::Relaxed),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    eprintln!("{} positions in {:.0} s", positions.load(Ordering::Relaxed), start.elapsed().as_secs_f64());
}

/// A move chosen at random among those a shallow MultiPV search scores within 80 cp of the best.
fn random_opening_move(searcher: &mut Searcher, pos: &mut Position, rng: &mut StdRng) -> Option<Move> {
    let opts = SearchOptions { multipv: 8, ..SearchOptions::default() };
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let control = SearchControl::default();
    let mut lines: Vec<Iteration> = Vec::new();
    searcher.search(pos, &limits, &opts, &control, &mut |it| {
        if it.multipv == 1 {
            lines.clear();
        }
        lines.push(it.clone());
    });
    let best = lines.first()?.score;
    let near: Vec<Move> = lines.iter().filter(|l| l.score >= best - 80).filter_map(|l| l.pv.first().copied()).collect();
    near.get(rng.random_range(0..near.len().max(1))).copied()
}

/// Plays one game and returns its training lines.
fn play_game(searcher: &mut Searcher, rng: &mut StdRng, settings: &Settings) -> Vec<String> {
    searcher.clear();
    let mut pos = Position::startpos();
    let random_plies = rng.random_range(6..=20);
    let control = SearchControl::default();
    let opts = SearchOptions::default();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let mut kept: Vec<(String, Value, hisha::Color)> = Vec::new();
    // Result from Black's point of view: 1, 0 or -1.
    let black_result: i32 = loop {
        let us = pos.side_to_move();
        let sign = if us == hisha::Color::Black { 1 } else { -1 };
        if pos.game_ply() >= MAX_PLIES {
            break 0;
        }
        match pos.repetition(4) {
            Repetition::None => {}
            Repetition::Draw => break 0,
            Repetition::PerpetualCheckBy(c) => break if c == hisha::Color::Black { -1 } else { 1 },
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
        let out = searcher.search(&mut pos, &limits, &opts, &control, &mut |_| {});
        let m = match out.best {
            BestMove::Move { best, .. } => best,
            BestMove::Resign => break -sign,
            BestMove::Win => break sign,
        };
        if out.score >= DECISIVE {
            break sign;
        }
        if out.score <= -DECISIVE {
            break -sign;
        }
        let quiet = pos.piece_on(m.to()).is_none();
        if !pos.in_check() && quiet && !m.is_promotion() {
            kept.push((pos.to_sfen(), out.score, us));
        }
        pos.do_move(m);
    };
    kept.into_iter()
        .map(|(sfen, score, c)| {
            let r = if c == hisha::Color::Black { black_result } else { -black_result };
            format!("{sfen}\t{score}\t{r}\n")
        })
        .collect()
}
