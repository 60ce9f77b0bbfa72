//! `hisha bench`: the fixed search benchmark ([`hisha::bench`]).

use super::CliError;
use std::io::Write;
use std::path::Path;

/// Prints total nodes, time and nodes/second, then with one thread `Bench: <nodes>` (the search's
/// signature; with more threads the count varies between runs). With `evalfile` the search
/// evaluates with that net, or with the linear evaluation for `linear` (named on a first
/// `Evaluation:` line), instead of the built-in net.
pub fn run(depth: u32, threads: usize, evalfile: Option<&Path>) -> Result<(), CliError> {
    let net = match evalfile {
        Some(path) if path == Path::new("linear") => None,
        Some(path) => Some(super::nnue::load(path)?),
        None => hisha::eval::nnue::builtin(),
    };
    let r = hisha::bench::run(depth, threads, net.as_ref());
    let nps = r.nodes * 1000 / r.time_ms.max(1);
    let out = std::io::stdout();
    let mut out = out.lock();
    match (evalfile, &net) {
        (Some(path), Some(net)) => writeln!(out, "Evaluation: {} ({})", path.display(), super::nnue::shape(net))?,
        (Some(_), None) => writeln!(out, "Evaluation: linear")?,
        (None, _) => {}
    }
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
