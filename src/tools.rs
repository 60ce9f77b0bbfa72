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
        writeln!(
            out,
            "{}\t{}\t{}\t{}",
            h.id(),
            h.english(),
            h.kif_name(),
            h.sfen()
        )
        .map_err(|e| e.to_string())?;
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
