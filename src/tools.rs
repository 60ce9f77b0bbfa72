//! The small command-line tools: `hisha perft` and `hisha handicaps`.

use crate::cli::PerftArgs;
use crate::perft;
use crate::position::{Handicap, Position};
use std::io::Write;
use std::time::Instant;

/// Runs `hisha perft`, printing to stdout. Errors are messages for the user.
pub fn perft_command(args: &PerftArgs) -> Result<(), String> {
    let mut pos = match (&args.sfen, &args.handicap) {
        (Some(s), _) => Position::from_sfen(s).map_err(|e| e.to_string())?,
        (None, Some(h)) => Position::handicap(h.parse::<Handicap>().map_err(|e| e.to_string())?),
        (None, None) => Position::startpos(),
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    let io = |e: std::io::Error| e.to_string();
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, args.depth.max(1)) {
            writeln!(out, "{m}: {n}").map_err(io)?;
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, args.depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Nodes searched: {nodes}").map_err(io)?;
    writeln!(out, "Time (ms): {ms}").map_err(io)?;
    writeln!(out, "Nodes/second: {nps}").map_err(io)?;
    Ok(())
}

/// Runs `hisha handicaps`: one tab-separated line per start position.
pub fn handicaps_command() -> Result<(), String> {
    let out = std::io::stdout();
    let mut out = out.lock();
    for h in Handicap::ALL {
        writeln!(out, "{}\t{}\t{}\t{}", h.id(), h.english(), h.kif_name(), h.sfen()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs `hisha bench`: prints total nodes, time and nodes/second, then `Bench: <nodes>`.
pub fn bench_command(depth: u32) -> Result<(), String> {
    let r = crate::bench::run(depth);
    let nps = r.nodes * 1000 / r.time_ms.max(1);
    let out = std::io::stdout();
    let mut out = out.lock();
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "Nodes searched: {}", r.nodes).map_err(io)?;
    writeln!(out, "Time (ms): {}", r.time_ms).map_err(io)?;
    writeln!(out, "Nodes/second: {nps}").map_err(io)?;
    writeln!(out, "Bench: {}", r.nodes).map_err(io)?;
    Ok(())
}

/// Runs `hisha mate SFEN`: prints `mate <plies>: <moves>`, `nomate` or `unknown`, then the nodes
/// and time.
pub fn mate_command(sfen: &str, time_ms: Option<u64>, nodes: Option<u64>, hash_mb: usize) -> Result<(), String> {
    use crate::mate::{MateLimits, MateResult, MateSolver};
    let pos = Position::from_sfen(sfen).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let limits =
        MateLimits { nodes, deadline: time_ms.map(|t| start + std::time::Duration::from_millis(t)), max_ply: None };
    let mut solver = MateSolver::new(hash_mb);
    let result = solver.solve(&pos, &limits, &std::sync::atomic::AtomicBool::new(false));
    let ms = start.elapsed().as_millis();
    let line = match &result {
        MateResult::Mate(l) => {
            format!("mate {}: {}", l.len(), l.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "))
        }
        MateResult::NoMate => "nomate".to_string(),
        MateResult::Unknown => "unknown".to_string(),
    };
    println!("{line}");
    println!("Nodes searched: {}", solver.nodes());
    println!("Time (ms): {ms}");
    Ok(())
}

/// Runs `hisha mate --bench FILE`: solves every `sfen [expected-plies|nomate]` line, prints each
/// result and the totals.
pub fn mate_bench_command(path: &str, time_ms: Option<u64>, hash_mb: usize) -> Result<(), String> {
    use crate::mate::{MateLimits, MateResult, MateSolver};
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut solver = MateSolver::new(hash_mb);
    let (mut solved, mut total, mut nodes) = (0, 0, 0u64);
    let start = Instant::now();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (sfen, expected) = match fields.len() {
            5.. => (fields[..4].join(" "), fields.get(4).copied()),
            _ => (fields.join(" "), None),
        };
        let Ok(pos) = Position::from_sfen(&sfen) else {
            println!("{sfen}: bad position");
            continue;
        };
        total += 1;
        solver.clear();
        let t = Instant::now();
        let limits = MateLimits {
            deadline: time_ms.map(|ms| t + std::time::Duration::from_millis(ms)),
            ..MateLimits::default()
        };
        let r = solver.solve(&pos, &limits, &std::sync::atomic::AtomicBool::new(false));
        nodes += solver.nodes();
        let got = match &r {
            MateResult::Mate(l) => l.len().to_string(),
            MateResult::NoMate => "nomate".to_string(),
            MateResult::Unknown => "unknown".to_string(),
        };
        let ok = expected.is_none_or(|e| e == got);
        if ok && got != "unknown" {
            solved += 1;
        }
        println!(
            "{} {got} (expected {}) {} nodes {} ms",
            if ok { "ok  " } else { "FAIL" },
            expected.unwrap_or("-"),
            solver.nodes(),
            t.elapsed().as_millis()
        );
    }
    println!("Solved: {solved}/{total}");
    println!("Nodes searched: {nodes}");
    println!("Time (ms): {}", start.elapsed().as_millis());
    Ok(())
}
