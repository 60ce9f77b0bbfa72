//! `hisha bench`: the fixed search benchmark ([`hisha::bench`]).

use super::CliError;
use hisha::EvalSource;
use std::io::Write;

/// Prints total nodes, time and nodes/second, then with one thread `Bench: <nodes>` (the search's
/// signature; with more threads the count varies between runs). `evalfile` is read as the USI
/// option `EvalFile` reads its value ([`EvalSource::named`]): a net file, a folder holding
/// `nn.bin`, `linear` or `builtin`; the search then evaluates with it (named on a first
/// `Evaluation:` line) instead of the built-in net.
pub fn run(depth: u32, threads: usize, evalfile: Option<&str>) -> Result<(), CliError> {
    let source = evalfile.map(EvalSource::named);
    let net = match &source {
        Some(s) => s.load()?,
        None => hisha::eval::nnue::builtin(),
    };
    let r = hisha::bench::run(depth, threads, net.as_ref());
    let nps = r.nodes * 1000 / r.time_ms.max(1);
    let out = std::io::stdout();
    let mut out = out.lock();
    match (&source, &net) {
        (Some(EvalSource::File(path)), Some(net)) => {
            writeln!(out, "Evaluation: {} ({})", path.display(), super::nnue::shape(net))?
        }
        (Some(EvalSource::Linear), _) => writeln!(out, "Evaluation: linear")?,
        (Some(s), _) => writeln!(out, "Evaluation: {}", s.describe())?,
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
