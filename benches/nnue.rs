//! Speed of NNUE inference against the current evaluation: nanoseconds per call of
//! `eval::evaluate`, and per network shape and kernel, of a full accumulator refresh (both
//! halves), the forward pass, an incremental update plus forward pass (moves from random
//! playouts, king moves included as they come), and the same for non-king moves only. Random
//! nets (weights do not change the work done). Medians of five rounds. The latest figures are
//! in the docs of `hisha::eval::nnue`.
//!
//! Time is the thread's time on a CPU (`/proc/thread-self/schedstat`) where Linux gives it, so
//! that other jobs on a shared machine inflate the figures less (caches are still shared); wall
//! time elsewhere.
//!
//! Run: `cargo bench --bench nnue`

use hisha::eval::nnue::{Accumulator, Architecture, DirtyPieces, FeatureSet, Kernel, Network, Spread};
use hisha::{Move, PieceKind, Position};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::hint::black_box;
use std::time::Instant;

/// A position, a move from it, and the position after the move.
struct Step {
    before: Position,
    after: Position,
    dirty: DirtyPieces,
    king_move: bool,
}

fn steps() -> Vec<Step> {
    let mut rng = StdRng::seed_from_u64(8);
    let mut out = Vec::new();
    for sfen in hisha::bench::POSITIONS {
        let Ok(mut pos) = Position::from_sfen(sfen) else { continue };
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m: Move = moves[rng.random_range(0..moves.len())];
            let king_move = m.from().and_then(|f| pos.piece_on(f)).is_some_and(|p| p.kind() == PieceKind::King);
            let dirty = DirtyPieces::of_move(&pos, m);
            let before = pos.clone();
            pos.do_move(m);
            out.push(Step { before, after: pos.clone(), dirty, king_move });
        }
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Nanoseconds this thread has run on a CPU, if Linux tells.
fn cpu_time() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Median over five rounds (each about 0.3 s, well above the scheduler's accounting tick) of
/// the nanoseconds per item of `f` over `n` items.
fn measure(n: usize, mut f: impl FnMut(usize)) -> f64 {
    let calibration = Instant::now();
    for i in 0..n {
        f(i);
    }
    let pass = calibration.elapsed().as_secs_f64().max(1e-6);
    let passes = ((0.3 / pass) as usize).clamp(1, 100_000);
    let rounds = (0..5)
        .map(|_| {
            let (start, cpu_start) = (Instant::now(), cpu_time());
            for _ in 0..passes {
                for i in 0..n {
                    f(i);
                }
            }
            let ns = match (cpu_start, cpu_time()) {
                (Some(a), Some(b)) => (b - a) as f64,
                _ => start.elapsed().as_nanos() as f64,
            };
            ns / (passes * n) as f64
        })
        .collect();
    median(rounds)
}

fn bench_network(arch: Architecture, steps: &[Step]) {
    let mut net = Network::random(arch, 1, Spread::Typical);
    let befores: Vec<Accumulator> = steps
        .iter()
        .map(|s| {
            let mut a = Accumulator::default();
            net.refresh(&s.before, &mut a);
            a
        })
        .collect();
    let quiet: Vec<usize> = (0..steps.len()).filter(|&i| !steps[i].king_move).collect();
    let name = format!("{:?} {}x2-{}-{}", arch.features, arch.l1, arch.l2, arch.l3);
    for kernel in [Some(Kernel::Scalar), Kernel::avx2()].into_iter().flatten() {
        net.set_kernel(kernel);
        let mut acc = Accumulator::default();
        let refresh = measure(steps.len(), |i| net.refresh(black_box(&steps[i].after), &mut acc));
        let forward = measure(steps.len(), |i| {
            black_box(net.propagate(&befores[i], steps[i].before.side_to_move()));
        });
        let update = measure(steps.len(), |i| {
            let s = &steps[i];
            net.update(&befores[i], &s.dirty, &s.after, &mut acc);
            black_box(net.evaluate(&acc, s.after.side_to_move()));
        });
        let quiet_update = measure(quiet.len(), |j| {
            let (s, before) = (&steps[quiet[j]], &befores[quiet[j]]);
            net.update(before, &s.dirty, &s.after, &mut acc);
            black_box(net.evaluate(&acc, s.after.side_to_move()));
        });
        println!(
            "{name:<22} {:<6} refresh {refresh:>7.0} ns  forward {forward:>6.0} ns  \
             update+forward {update:>6.0} ns (non-king {quiet_update:>6.0} ns)",
            kernel.name()
        );
    }
}

fn main() {
    let steps = steps();
    let kings = steps.iter().filter(|s| s.king_move).count();
    println!("{} moves from random playouts ({kings} king moves)", steps.len());
    let classic = measure(steps.len(), |i| {
        black_box(hisha::eval::evaluate(black_box(&steps[i].after)));
    });
    println!("eval::evaluate (current evaluation): {classic:.0} ns/call");
    let kp = |l1| Architecture { features: FeatureSet::KP, l1, l2: 32, l3: 32 };
    let halfkp = |l1| Architecture { l1, ..Architecture::HALFKP_256X2_32_32 };
    for arch in [halfkp(256), halfkp(128), kp(256), kp(128)] {
        bench_network(arch, &steps);
    }
}
