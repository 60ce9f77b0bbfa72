//! The small command-line tools: `hisha perft`, `hisha handicaps`, `hisha bench` and `hisha mate`.

use crate::cli::PerftArgs;
use crate::perft;
use crate::position::{Handicap, Position};
use crate::usi::position_spec;
use std::io::Write;
use std::time::Instant;

/// Runs `hisha perft`, printing to stdout. Errors are messages for the user.
pub fn perft_command(args: &PerftArgs) -> Result<(), String> {
    let spec = match (&args.sfen, &args.handicap) {
        (Some(s), _) | (None, Some(s)) => s.clone(),
        (None, None) if args.position.is_empty() => "startpos".to_string(),
        (None, None) => args.position.join(" "),
    };
    let mut pos = position_spec::parse(&spec).map_err(|e| e.to_string())?;
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

/// Options of `hisha mate`.
#[derive(Clone, Copy, Debug)]
pub struct MateArgs {
    /// Time limit per problem in ms.
    pub time_ms: Option<u64>,
    /// Node limit per problem.
    pub nodes: Option<u64>,
    /// Longest mate searched, in plies.
    pub max_ply: Option<u32>,
    /// Table size in MiB.
    pub hash_mib: usize,
}

impl MateArgs {
    fn limits(&self, start: Instant) -> crate::mate::MateLimits {
        crate::mate::MateLimits {
            nodes: self.nodes,
            deadline: self.time_ms.map(|t| start + std::time::Duration::from_millis(t)),
            max_ply: self.max_ply,
        }
    }
}

/// Runs `hisha mate POSITION` (any [`position_spec`] form): prints `mate <plies>: <moves>` (with
/// whether it is proven the shortest), `nomate` or `unknown`, then the nodes, time and speed (the
/// table is allocated before the clock starts). Why the solve ended, and what it used, goes to
/// stderr (`mate: …`).
pub fn mate_command(position: &[String], args: &MateArgs) -> Result<(), String> {
    use crate::mate::{MateResult, MateSolver};
    let pos = position_spec::parse_words(position).map_err(|e| e.to_string())?;
    let mut solver = MateSolver::new(args.hash_mib);
    let start = Instant::now();
    let result = solver.solve(&pos, &args.limits(start), &std::sync::atomic::AtomicBool::new(false));
    let elapsed = start.elapsed();
    eprintln!("{}", solver.report());
    match &result {
        MateResult::Mate(l) => {
            let moves: Vec<String> = l.iter().map(|m| m.to_string()).collect();
            let note = if solver.shortest() { "" } else { " (not proven shortest: a limit stopped the search)" };
            println!("mate {}: {}{note}", l.len(), moves.join(" "));
        }
        MateResult::NoMate => println!("nomate"),
        MateResult::Unknown => println!("unknown"),
    }
    println!("Nodes searched: {}", solver.nodes());
    println!("Time (ms): {}", elapsed.as_millis());
    println!("Nodes/second: {}", (solver.nodes() as f64 / elapsed.as_secs_f64().max(1e-9)) as u64);
    Ok(())
}

/// Runs `hisha mate --bench FILE`: solves every problem of a suite (`SFEN answer [slow] [#
/// source]`, see [`crate::mate::suite`]) with a fresh table, prints one line per problem and the
/// totals: solved count (the right answer: a verified mate of the expected length, or no mate),
/// nodes, time (table clearing excluded) and the longest mate solved.
///
/// Every problem not solved is a failure, and the error lists them (line, expected, got): a wrong
/// answer, and also `unknown` (a `--time`/`--nodes` limit stopped the solver first), since every
/// problem of a suite has a known answer and a bench that runs out of time has not shown it.
pub fn mate_bench_command(path: &str, args: &MateArgs) -> Result<(), String> {
    use crate::mate::suite::{Answer, parse};
    use crate::mate::{MateResult, MateSolver};
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let problems = parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut solver = MateSolver::new(args.hash_mib);
    let (mut solved, mut nodes, mut longest) = (0, 0u64, 0);
    let mut failed = Vec::new();
    let mut total_time = std::time::Duration::ZERO;
    let out = std::io::stdout();
    let mut out = out.lock();
    let io = |e: std::io::Error| e.to_string();
    for p in &problems {
        let pos = Position::from_sfen(&p.sfen).map_err(|e| format!("{path}: line {}: {e}", p.line))?;
        solver.clear();
        let start = Instant::now();
        let r = solver.solve(&pos, &args.limits(start), &std::sync::atomic::AtomicBool::new(false));
        let elapsed = start.elapsed();
        total_time += elapsed;
        nodes += solver.nodes();
        let got = match &r {
            MateResult::Mate(l) => Some(Answer::Mate(l.len() as u32)),
            MateResult::NoMate => Some(Answer::NoMate),
            MateResult::Unknown => None,
        };
        let verdict = match got {
            Some(a) if a == p.answer => {
                solved += 1;
                if let Answer::Mate(n) = a {
                    longest = longest.max(n);
                }
                "ok     "
            }
            Some(a) => {
                failed.push(format!("line {} (expected {}, got {a})", p.line, p.answer));
                "WRONG  "
            }
            None => {
                failed.push(format!("line {} (expected {}, got unknown)", p.line, p.answer));
                "unknown"
            }
        };
        let got = got.map_or("-".to_string(), |a| a.to_string());
        writeln!(
            out,
            "{verdict} line {:>3}: {got:>6} (expected {:>6}) {:>10} nodes {:>7} ms  # {}",
            p.line,
            p.answer.to_string(),
            solver.nodes(),
            elapsed.as_millis(),
            p.source
        )
        .map_err(io)?;
    }
    writeln!(out, "Solved: {solved}/{}", problems.len()).map_err(io)?;
    writeln!(out, "Nodes searched: {nodes}").map_err(io)?;
    writeln!(out, "Time (ms): {}", total_time.as_millis()).map_err(io)?;
    writeln!(out, "Nodes/second: {}", (nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64).map_err(io)?;
    writeln!(out, "Longest solved: {longest} plies").map_err(io)?;
    if failed.is_empty() {
        return Ok(());
    }
    Err(format!("{path}: {} of {} problems not solved: {}", failed.len(), problems.len(), failed.join(", ")))
}
