//! `hisha mate`: solve one tsume problem, or a file of them (`--bench`), with the df-pn solver.

use super::CliError;
use hisha::mate::{MateLimits, MateResult, MateSolver};
use hisha::position::Position;
use hisha::usi::position_spec;
use std::io::Write;
use std::time::Instant;

/// Arguments of `hisha mate`.
#[derive(Debug, clap::Args)]
pub struct MateArgs {
    /// The position: an SFEN, `startpos moves …`, `sfen … moves …` or a handicap name; omit
    /// with --bench.
    #[arg(required_unless_present = "bench")]
    pub sfen: Vec<String>,
    /// Solve every line of FILE (`SFEN plies|nomate [slow] [# source]`) and print totals; exit
    /// status 1 if any problem is not solved (a wrong answer, or unknown within the limits).
    #[arg(long)]
    pub bench: Option<String>,
    /// Time limit per problem in ms.
    #[arg(long)]
    pub time: Option<u64>,
    /// Node limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Longest mate searched, in plies ("nomate" then means none within this many plies).
    #[arg(long)]
    pub max_ply: Option<u32>,
    /// Table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
}

impl MateArgs {
    fn limits(&self, start: Instant) -> MateLimits {
        MateLimits {
            nodes: self.nodes,
            deadline: self.time.map(|t| start + std::time::Duration::from_millis(t)),
            max_ply: self.max_ply,
        }
    }
}

/// Runs `hisha mate`: the suite of `--bench`, or the one position.
pub fn run(args: &MateArgs) -> Result<(), CliError> {
    match &args.bench {
        Some(file) => bench(file, args),
        None => solve(&args.sfen, args),
    }
}

/// Runs `hisha mate POSITION` (any [`position_spec`] form): prints `mate <plies>: <moves>` (with
/// whether it is proven the shortest), `nomate` or `unknown`, then the nodes, time and speed (the
/// table is allocated before the clock starts). Why the solve ended, and what it used, goes to
/// stderr (`mate: …`).
fn solve(position: &[String], args: &MateArgs) -> Result<(), CliError> {
    let pos = position_spec::parse_words(position)?;
    let mut solver = MateSolver::new(args.hash);
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
/// source]`, see [`hisha::mate::suite`]; a file without one is an error) with a fresh table,
/// prints one line per problem and the totals: solved count (the right answer: a verified mate of
/// the expected length, or no mate), nodes, time (table clearing excluded) and the longest mate
/// solved.
///
/// Every problem not solved is a failure, and the error lists them (line, expected, got): a wrong
/// answer, and also `unknown` (a `--time`/`--nodes` limit stopped the solver first), since every
/// problem of a suite has a known answer and a bench that runs out of time has not shown it.
fn bench(path: &str, args: &MateArgs) -> Result<(), CliError> {
    use hisha::mate::suite::{Answer, parse};
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.into(), source })?;
    let problems = parse(&text).map_err(|error| CliError::Suite { path: path.into(), error })?;
    if problems.is_empty() {
        // `Solved: 0/0` would read as a pass.
        return Err(CliError::EmptySuite(path.into()));
    }
    let mut solver = MateSolver::new(args.hash);
    let (mut solved, mut nodes, mut longest) = (0, 0u64, 0);
    let mut failed = Vec::new();
    let mut total_time = std::time::Duration::ZERO;
    let out = std::io::stdout();
    let mut out = out.lock();
    for p in &problems {
        let pos = Position::from_sfen(&p.sfen).map_err(|error| CliError::SuiteSfen {
            path: path.into(),
            line: p.line,
            error,
        })?;
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
        )?;
    }
    writeln!(out, "Solved: {solved}/{}", problems.len())?;
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(out, "Time (ms): {}", total_time.as_millis())?;
    writeln!(out, "Nodes/second: {}", (nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64)?;
    writeln!(out, "Longest solved: {}", super::inputs::counted(longest as usize, "ply", "plies"))?;
    if failed.is_empty() {
        return Ok(());
    }
    Err(CliError::Unsolved { path: path.into(), total: problems.len(), failed })
}
