//! Record reading and writing speed, the acceptance figure of the records issue: 10,000 games of
//! 150 plies each, written and read back in every format. Ignored (it takes about a minute); run
//! with
//!
//! ```text
//! cargo test --release --test records_bench -- --ignored --nocapture
//! ```
//!
//! `HISHA_BENCH_GAMES` changes the number of games, `HISHA_BENCH_FORMAT` limits it to one format. Every move carries its time and engine data
//! (score, depth, nodes, a four-move PV), as `hisha match` records do. The formats are measured in
//! turn within each of three rounds and the median round is printed (the machine is shared, so
//! only figures from one run are comparable).

use hisha::Position;
use hisha::position::{GameResult, ResultReason};
use hisha::record::{EngineInfo, Format, GameReader, GameRecord, RecordWriter, Score, Start, read_games};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::{Duration, Instant};

const PLIES: usize = 150;

/// A random legal game of exactly `PLIES` plies (retried until no side is mated early).
fn game(rng: &mut StdRng, i: usize) -> GameRecord {
    loop {
        let mut pos = Position::startpos();
        let mut rec = GameRecord::new(Start::default(), []);
        let mut totals = [0u64; 2];
        while rec.moves.len() < PLIES {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            let mut pv = vec![m];
            let mut p = pos.clone();
            p.do_move(m);
            while pv.len() < 4 {
                let l = p.legal_moves();
                if l.is_empty() {
                    break;
                }
                let r = l[rng.random_range(0..l.len())];
                p.do_move(r);
                pv.push(r);
            }
            let t = rng.random_range(0..30) * 1000;
            let side = pos.side_to_move().index();
            totals[side] += t;
            pos.do_move(m);
            let mut mr = hisha::record::MoveRecord::new(m);
            mr.time_ms = Some(t);
            mr.total_ms = Some(totals[side]);
            mr.engine = EngineInfo {
                score: Some(Score::Cp(rng.random_range(-900..900))),
                depth: Some(rng.random_range(8..20)),
                nodes: Some(rng.random_range(10_000..5_000_000)),
                pv,
                ..EngineInfo::default()
            };
            rec.moves.push(mr);
        }
        if rec.moves.len() == PLIES {
            rec.set_tag("Black", format!("engine-a-{i}"));
            rec.set_tag("White", "engine-b");
            rec.set_tag("Event", "records benchmark");
            rec.result = Some(GameResult::loss(pos.side_to_move(), ResultReason::Resign));
            return rec;
        }
    }
}

/// CPU time of this thread (ns, from /proc/thread-self/schedstat; 0 where there is none). The
/// machine is shared, so CPU time is the steadier figure; wall time is printed beside it.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Wall and CPU time of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, [Duration; 2]) {
    let (t, c) = (Instant::now(), cpu_ns());
    let out = f();
    (out, [t.elapsed(), Duration::from_nanos(cpu_ns().saturating_sub(c))])
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[test]
#[ignore = "generates and converts 10,000 games; about a minute in release mode"]
fn read_and_write_10000_games_of_150_plies() {
    let n: usize = std::env::var("HISHA_BENCH_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut rng = StdRng::seed_from_u64(150);
    let t = Instant::now();
    let games: Vec<GameRecord> = (0..n).map(|i| game(&mut rng, i)).collect();
    println!("generated {n} games of {PLIES} plies in {:.1} s", t.elapsed().as_secs_f64());
    // [format][write, read, streamed read][wall, cpu] -> one duration per round
    let mut times = vec![[[(); 2].map(|_| Vec::new()), [(); 2].map(|_| Vec::new()), [(); 2].map(|_| Vec::new())]; 7];
    let mut sizes = vec![0usize; Format::ALL.len()];
    // `HISHA_BENCH_FORMAT=kif` measures one format (for profiling).
    let only: Option<Format> = std::env::var("HISHA_BENCH_FORMAT").ok().and_then(|s| s.parse().ok());
    for _round in 0..3 {
        for (k, f) in Format::ALL.into_iter().enumerate() {
            if only.is_some_and(|o| o != f) {
                continue;
            }
            let (bytes, t) = timed(|| {
                let mut w = RecordWriter::new(Vec::with_capacity(64 << 20), f, true);
                for g in &games {
                    w.write(g).expect("writes");
                }
                w.into_inner()
            });
            sizes[k] = bytes.len();
            let (back, r) = timed(|| read_games(&bytes, f));
            assert_eq!(back.len(), n, "{f}");
            assert!(back.iter().all(Result::is_ok), "{f}: {:?}", back.iter().find(|r| r.is_err()));
            assert_eq!(back[n - 1].as_ref().map(|r| r.moves.len()).ok(), Some(PLIES), "{f}");
            drop(back);
            let (count, s) = timed(|| GameReader::new(std::io::Cursor::new(&bytes), f).filter(Result::is_ok).count());
            assert_eq!(count, n, "{f}: streamed");
            for (slot, d) in times[k].iter_mut().zip([t, r, s]) {
                slot[0].push(d[0]);
                slot[1].push(d[1]);
            }
        }
    }
    let per_k = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
    println!("ms per 1000 games (median of 3 rounds), CPU time and wall time; games/s from CPU time");
    println!("format  size MB | write cpu  wall  games/s | read cpu  wall  games/s | streamed read cpu  wall");
    for (k, f) in Format::ALL.into_iter().enumerate() {
        if times[k][0][0].is_empty() {
            continue;
        }
        let m = |i: usize, j: usize| median(times[k][i][j].clone());
        println!(
            "{:<6} {:>8.1} | {:>9.1} {:>5.0} {:>8.0} | {:>8.1} {:>5.0} {:>8.0} | {:>17.1} {:>5.0}",
            f.to_string(),
            sizes[k] as f64 / 1e6,
            per_k(m(0, 1)),
            per_k(m(0, 0)),
            n as f64 / m(0, 1).as_secs_f64(),
            per_k(m(1, 1)),
            per_k(m(1, 0)),
            n as f64 / m(1, 1).as_secs_f64(),
            per_k(m(2, 1)),
            per_k(m(2, 0)),
        );
    }
}
