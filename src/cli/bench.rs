//! `hisha bench`: the fixed search benchmark ([`hisha::bench`]).

use super::CliError;
use std::io::Write;

/// Prints total nodes, time and nodes/second, then with one thread `Bench: <nodes>` (the search's
/// signature; with more threads the count varies between runs).
pub fn run(depth: u32, threads: usize) -> Result<(), CliError> {
    let r = hisha::bench::run(depth, threads);
    let nps = r.nodes * 1000 / r.time_ms.max(1);
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(out, "Nodes searched: {}", r.nodes)?;
    writeln!(out, "Time (ms): {}", r.time_ms)?;
    writeln!(out, "Nodes/second: {nps}")?;
    if threads == 1 {
        writeln!(out, "Bench: {}", r.nodes)?;
    } else {
        writeln!(out, "Threads: {threads}")?;
    }
    Ok(())
}
