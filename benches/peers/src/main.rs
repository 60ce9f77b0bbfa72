//! Bulk-counting perft of hisha next to shunsai, haitaka, rsshogi and rshogi-core, interleaved
//! (every round runs every generator on every position in turn), reporting median nodes/second
//! and each peer's speed relative to hisha. Arguments: `[rounds] [max-nodes]` (defaults 3 and
//! no limit; positions whose count exceeds `max-nodes` are skipped).
//!
//! Speeds are measured twice: by wall-clock time and by the CPU time of the benchmark thread (Linux
//! `/proc/thread-self/schedstat`). On a machine shared with other jobs the wall clock also counts
//! the time the thread waited for a core; the CPU-time figures do not, and their ratios are the
//! ones to quote there.

use std::time::Instant;

const POSITIONS: [(&str, &str, u32, u64); 3] = [
    ("startpos d6", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 6, 547_581_517),
    ("matsuri d4", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 4, 516_925_165),
    ("593-move d4", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 4, 9_342_410_965),
];

type Perft = fn(&str, u32) -> u64;

fn hisha_perft(sfen: &str, depth: u32) -> u64 {
    let mut pos = hisha::Position::from_sfen(sfen).expect("valid sfen");
    hisha::perft::perft(&mut pos, depth)
}

fn rsshogi_perft(sfen: &str, depth: u32) -> u64 {
    let pos = rsshogi::board::position_from_sfen(sfen).expect("valid sfen");
    rsshogi::board::perft::perft(&pos, depth as u8).expect("perft").nodes
}

fn rshogi_core_perft(sfen: &str, depth: u32) -> u64 {
    use rshogi_core::movegen::{MoveList, generate_legal_all};
    use rshogi_core::position::Position;
    fn go(pos: &mut Position, depth: u32) -> u64 {
        let mut list = MoveList::new();
        generate_legal_all(pos, &mut list);
        if depth <= 1 {
            return list.len() as u64;
        }
        let mut nodes = 0;
        for &mv in list.iter() {
            let gives_check = pos.gives_check(mv);
            pos.do_move(mv, gives_check);
            nodes += go(pos, depth - 1);
            pos.undo_move(mv);
        }
        nodes
    }
    let mut pos = Position::new();
    pos.set_sfen(sfen).expect("valid sfen");
    go(&mut pos, depth)
}

fn shunsai_perft(sfen: &str, depth: u32) -> u64 {
    use shogi_usi_parser::FromUsi;
    use std::ops::ControlFlow;
    fn go(pos: &mut shunsai::Position, depth: u32) -> u64 {
        let mut nodes = 0u64;
        if depth <= 1 {
            let _ = pos.generate_moves(|set| {
                nodes += set.len() as u64;
                ControlFlow::Continue(())
            });
            return nodes;
        }
        let mut moves = Vec::with_capacity(600);
        let _ = pos.generate_moves(|set| {
            set.write_into(&mut moves);
            ControlFlow::Continue(())
        });
        for mv in moves {
            let undo = pos.do_move(mv);
            nodes += go(pos, depth - 1);
            pos.undo_move(mv, undo);
        }
        nodes
    }
    let partial = shunsai::shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).expect("valid sfen");
    let mut pos = shunsai::Position::new(partial);
    go(&mut pos, depth)
}

fn haitaka_perft(sfen: &str, depth: u32) -> u64 {
    use haitaka::Board;
    fn go(board: &Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth <= 1 {
            board.generate_board_moves(|m| {
                nodes += m.into_iter().len() as u64;
                false
            });
            board.generate_drops(|m| {
                nodes += m.into_iter().len() as u64;
                false
            });
            return nodes;
        }
        let mut visit = |mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += go(&child, depth - 1);
        };
        board.generate_board_moves(|m| {
            m.into_iter().for_each(&mut visit);
            false
        });
        board.generate_drops(|m| {
            m.into_iter().for_each(&mut visit);
            false
        });
        nodes
    }
    let board: Board = Board::from_sfen(sfen).expect("valid sfen");
    go(&board, depth)
}

const ENGINES: [(&str, Perft); 5] = [
    ("hisha", hisha_perft),
    ("shunsai", shunsai_perft),
    ("haitaka", haitaka_perft),
    ("rsshogi", rsshogi_perft),
    ("rshogi-core", rshogi_core_perft),
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Nanoseconds this thread has run on a CPU, if the OS tells (Linux).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Nodes/second of every run, per position and engine (in round order), by wall-clock and by CPU
/// time.
struct Speeds {
    wall: Vec<Vec<Vec<f64>>>,
    cpu: Vec<Vec<Vec<f64>>>,
}

/// Prints the median speed of every engine and the median over rounds of its speed relative to
/// hisha in the same round (the interleaved ratio), then hisha against the fastest peer.
fn report(title: &str, samples: &[Vec<Vec<f64>>], rounds: usize) {
    println!("{title}: medians over {rounds} interleaved rounds (ratio = engine / hisha, same round)");
    for (p, &(name, ..)) in POSITIONS.iter().enumerate() {
        let ours = &samples[p][0];
        if ours.is_empty() {
            continue;
        }
        let mut best = (1, 0.0);
        for (e, &(engine, _)) in ENGINES.iter().enumerate() {
            let speed = median(&mut samples[p][e].clone());
            let mut ratios: Vec<f64> = samples[p][e].iter().zip(ours).map(|(x, h)| x / h).collect();
            let ratio = median(&mut ratios);
            println!("{name:12} {engine:12} {:>9.1} M/s  {ratio:>5.2}x", speed / 1e6);
            if e > 0 && ratio > best.1 {
                best = (e, ratio);
            }
        }
        println!("{name:12} hisha / fastest peer ({}): {:.2}x", ENGINES[best.0].0, 1.0 / best.1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let max_nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(u64::MAX);
    let empty = vec![vec![Vec::new(); ENGINES.len()]; POSITIONS.len()];
    let mut speeds = Speeds { wall: empty.clone(), cpu: empty };
    for round in 0..rounds {
        for (p, &(name, sfen, depth, expected)) in POSITIONS.iter().enumerate() {
            if expected > max_nodes {
                continue;
            }
            for (e, &(engine, perft)) in ENGINES.iter().enumerate() {
                let cpu_start = thread_cpu_ns();
                let start = Instant::now();
                let nodes = perft(sfen, depth);
                let secs = start.elapsed().as_secs_f64();
                let cpu_secs = match (cpu_start, thread_cpu_ns()) {
                    (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
                    _ => secs,
                };
                let mark = if nodes == expected { "" } else { "  WRONG COUNT" };
                let (wall, cpu) = (nodes as f64 / secs, nodes as f64 / cpu_secs);
                eprintln!(
                    "round {round} {name:12} {engine:12} {nodes:>12} {:>8.1} M/s wall {:>8.1} M/s cpu{mark}",
                    wall / 1e6,
                    cpu / 1e6
                );
                speeds.wall[p][e].push(wall);
                speeds.cpu[p][e].push(cpu);
            }
        }
    }
    report("CPU time", &speeds.cpu, rounds);
    report("wall clock", &speeds.wall, rounds);
}
