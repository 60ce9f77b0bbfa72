//! Micro-benchmark of the mate probes meant for the main search: nanoseconds per call of
//! `mate_in_one` (from bitboards), of `mate_in_one_by_playing` (its reference) and of `MateProbe::probe` at several node budgets, on positions around the
//! `hisha bench` set (each bench position and the positions after 1..=24 seeded random moves
//! from it: openings, middlegames, endgames, drop-rich positions). Medians of five rounds.
//!
//! Run: `cargo bench --bench mate_probe`

use hisha::Position;
use hisha::mate::{MateProbe, mate_in_one, mate_in_one_by_playing};
use rand::{SeedableRng, rngs::StdRng};
use std::time::Instant;

fn positions() -> Vec<Position> {
    let starts = hisha::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok());
    hisha::bench::random_walks(starts, 25, &mut StdRng::seed_from_u64(6))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median over five rounds of the time per call of `f` over `positions`, and the hits.
fn measure(positions: &mut [Position], mut f: impl FnMut(&mut Position) -> bool) -> (f64, usize) {
    let mut rounds = Vec::new();
    let mut hits = 0;
    for _ in 0..5 {
        hits = 0;
        let start = Instant::now();
        for p in positions.iter_mut() {
            hits += usize::from(f(p));
        }
        rounds.push(start.elapsed().as_nanos() as f64 / positions.len() as f64);
    }
    (median(rounds), hits)
}

fn main() {
    let mut positions = positions();
    println!("{} positions", positions.len());
    let (ns, hits) = measure(&mut positions, |p| mate_in_one(p).is_some());
    println!("mate_in_one:                      {ns:>10.0} ns/call  ({hits} mates)");
    let (ns, hits) = measure(&mut positions, |p| mate_in_one_by_playing(p).is_some());
    println!("mate_in_one_by_playing:           {ns:>10.0} ns/call  ({hits} mates)");
    for (max_ply, nodes) in [(7, 16), (7, 64), (9, 256), (15, 1024)] {
        // A fresh probe per round and position set, as a search would keep one per thread.
        let mut probe = MateProbe::new(16);
        let (ns, hits) = measure(&mut positions, |p| probe.probe(p, max_ply, nodes).is_some());
        println!("probe(max_ply {max_ply:>2}, nodes {nodes:>4}):    {ns:>10.0} ns/call  ({hits} mates)");
    }
}
