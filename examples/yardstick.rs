//! hisha's search side by side with the yardstick of issue 27: YaneuraOu built for hisha's net
//! shape and given hisha's own net, so that the two differ only in their search. For each position
//! (`hisha::bench::POSITIONS` by default) it runs hisha, then the yardstick, one thread and the same
//! hash each, and prints what each reached: the depth of its last scored `info`, its nodes, the
//! wall time from `go` to `bestmove`, the share of that time the engine's process had a CPU, and
//! its nodes per second (wall clock); then the medians and the yardstick/hisha nps ratios, by wall
//! clock and by the engines' CPU time (`/proc/PID/stat`, Linux), the figure to quote on a shared
//! machine. `--movetime MS` (default 4000) compares what each reaches in the same time, `--depth D`
//! the time each takes to reach depth D; both flags run both.
//!
//! Both engines run as USI child processes, driven alike by the match runner's engine client: the
//! same protocol, the same `go`, the same clock, the engines as users run them. Before each search
//! both get `usinewgame` and `isready` (hisha empties its tables on the first, YaneuraOu on the
//! second). hisha plays without its book and with `NetworkDelay 0` (it takes that delay off a
//! `movetime`, YaneuraOu does not); the yardstick with `BookFile no_book` and, unless `--evaldir`
//! names another, hisha's built-in net written to a temporary folder.
//!
//! Build the yardstick (GPL-3: never copy any of it into this repository) in `source/` of a
//! snapshot of github.com/yaneurao/YaneuraOu:
//!
//! ```sh
//! make normal YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE_HALFKP_64X2_16_16 TARGET_CPU=AVX2 COMPILER=g++ PYTHON=python3
//! ```
//!
//! and check that it evaluates as hisha (`HISHA_YANEURAOU_64=PATH cargo test --release --test
//! nnue_yaneuraou`). Then build hisha and this tool together (so that the hisha measured is the
//! current one) and run:
//!
//! ```sh
//! cargo build --release --bin hisha --example yardstick
//! target/release/examples/yardstick --yaneuraou PATH/YaneuraOu-by-gcc [--movetime MS] [--depth D] \
//!     [--positions bench|FILE] [--hash MIB] [--hisha PATH] [--evaldir DIR]
//! ```
//!
//! Without `--yaneuraou` it says that it needs the yardstick and exits 0.

use clap::Parser;
use hisha::client::config::EngineConfig;
use hisha::client::process::{EngineError, EngineProcess, EngineRegistry, Timeouts};
use hisha::usi::command::{GoParams, StartPosition, UsiCommand};
use hisha::usi::response::UsiResponse;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// hisha against the yardstick (YaneuraOu with hisha's net) on the same positions, interleaved.
#[derive(Parser)]
struct Args {
    /// The yardstick: a YaneuraOu YANEURAOU_ENGINE_NNUE_HALFKP_64X2_16_16 build.
    #[arg(long)]
    yaneuraou: Option<PathBuf>,
    /// The yardstick's EvalDir (a folder holding nn.bin) [default: hisha's built-in net].
    #[arg(long)]
    evaldir: Option<PathBuf>,
    /// The hisha binary [default: the `hisha` built beside this tool].
    #[arg(long)]
    hisha: Option<PathBuf>,
    /// Milliseconds per search (`go movetime`) [default: 4000 unless --depth is given].
    #[arg(long)]
    movetime: Option<u64>,
    /// Time each engine to this depth (`go depth`).
    #[arg(long)]
    depth: Option<u32>,
    /// `bench` (hisha's bench positions) or a file of SFEN lines.
    #[arg(long, default_value = "bench")]
    positions: String,
    /// USI_Hash of each engine, MiB.
    #[arg(long, default_value_t = 64)]
    hash: u64,
}

/// What bounds one search.
#[derive(Clone, Copy, Debug)]
enum Limit {
    MoveTime(u64),
    Depth(u32),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Limit::MoveTime(ms) => write!(f, "go movetime {ms}"),
            Limit::Depth(d) => write!(f, "go depth {d}"),
        }
    }
}

/// How long a `go depth` may take before the engine is deemed stalled.
const DEPTH_ALLOWANCE: Duration = Duration::from_secs(600);

impl Limit {
    fn go(self) -> GoParams {
        match self {
            Limit::MoveTime(ms) => GoParams { movetime: Some(ms), ..GoParams::default() },
            Limit::Depth(d) => GoParams { depth: Some(d), ..GoParams::default() },
        }
    }

    fn allowance(self) -> Duration {
        match self {
            Limit::MoveTime(ms) => Duration::from_millis(ms) + Duration::from_secs(30),
            Limit::Depth(_) => DEPTH_ALLOWANCE,
        }
    }
}

/// What one search reached.
#[derive(Clone, Copy, Debug)]
struct Search {
    /// The depth of the last `info` with a score.
    depth: Option<u32>,
    /// The last reported node count.
    nodes: u64,
    /// From sending `go` to reading `bestmove`.
    wall: Duration,
    /// The CPU time the engine's process used meanwhile (`None` without `/proc`).
    cpu: Option<Duration>,
}

impl Search {
    fn nps(&self) -> f64 {
        self.nodes as f64 / self.wall.as_secs_f64().max(1e-3)
    }

    fn cpu_nps(&self) -> Option<f64> {
        self.cpu.filter(|c| !c.is_zero()).map(|c| self.nodes as f64 / c.as_secs_f64())
    }
}

/// Clock ticks per second of `/proc/PID/stat` (USER_HZ, 100 on Linux whatever the kernel's HZ).
const USER_HZ: u64 = 100;

/// User plus system clock ticks in the text of `/proc/PID/stat` (fields 14 and 15; the command
/// name before them, in parentheses, may hold blanks and parentheses).
fn cpu_ticks(stat: &str) -> Option<u64> {
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// The CPU time process `pid` has used, its ended threads included.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(Duration::from_millis(cpu_ticks(&stat)? * 1000 / USER_HZ))
}

/// Searches `sfen` within `limit` from empty tables.
fn search(engine: &mut EngineProcess, sfen: &str, limit: Limit) -> Result<Search, EngineError> {
    engine.drain();
    engine.send(&UsiCommand::UsiNewGame)?;
    engine.ready(Duration::from_secs(60))?;
    engine.send(&UsiCommand::Position { start: StartPosition::Sfen(sfen.to_string()), moves: Vec::new() })?;
    let cpu_before = cpu_time(engine.id());
    let start = Instant::now();
    engine.send(&UsiCommand::Go(limit.go()))?;
    let deadline = start + limit.allowance();
    let (mut depth, mut nodes) = (None, 0);
    loop {
        match engine.recv(deadline)? {
            UsiResponse::Info(info) if info.string.is_none() => {
                if info.score.is_some() {
                    depth = info.depth.or(depth);
                }
                nodes = info.nodes.unwrap_or(nodes);
            }
            UsiResponse::BestMove { .. } => break,
            _ => {}
        }
    }
    let wall = engine.last_read().saturating_duration_since(start);
    let cpu = cpu_before.zip(cpu_time(engine.id())).map(|(before, after)| after.saturating_sub(before));
    Ok(Search { depth, nodes, wall, cpu })
}

/// The median (the mean of the middle two of an even count); `None` for no values.
fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

fn show(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".to_string(), |x| format!("{x:.decimals$}"))
}

/// The columns of one engine's search.
fn columns(s: &Search) -> String {
    let cpu = s.cpu.map(|c| 100.0 * c.as_secs_f64() / s.wall.as_secs_f64().max(1e-3));
    let depth = s.depth.map(f64::from);
    format!(
        "{:>5} {:>11} {:>7} {:>4} {:>7.0}",
        show(depth, 0),
        s.nodes,
        s.wall.as_millis(),
        show(cpu, 0),
        s.nps() / 1e3
    )
}

/// A median, and the range, of the ratios `f(yardstick) / f(hisha)` over the positions.
fn ratios(pairs: &[(Search, Search)], f: impl Fn(&Search) -> Option<f64>) -> String {
    let r: Vec<f64> = pairs.iter().filter_map(|(h, y)| Some(f(y)? / f(h)?)).filter(|r| r.is_finite()).collect();
    let (lo, hi) = (r.iter().copied().reduce(f64::min), r.iter().copied().reduce(f64::max));
    format!("{} (range {}–{})", show(median(r), 2), show(lo, 2), show(hi, 2))
}

/// Runs both engines on every position in turn under `limit` and prints the table.
fn compare(engines: &mut [EngineProcess; 2], positions: &[String], limit: Limit) -> Result<(), String> {
    let names = format!("{:>5} {:>11} {:>7} {:>4} {:>7}", "depth", "nodes", "ms", "cpu%", "knps");
    println!("\n{limit} (ms: from go to bestmove; cpu%: of that time; knps: by wall clock)");
    println!("{:>3} {:<37} | {:<37} | yardstick/hisha", "", "hisha", "yardstick");
    println!("{:>3} {names} | {names} | nps", "#");
    let mut pairs = Vec::new();
    for (i, sfen) in positions.iter().enumerate() {
        let [hisha, yardstick] = &mut *engines;
        let h = search(hisha, sfen, limit).map_err(|e| format!("hisha, position {}: {e}", i + 1))?;
        let y = search(yardstick, sfen, limit).map_err(|e| format!("yardstick, position {}: {e}", i + 1))?;
        println!("{:>3} {} | {} | {:.2}", i + 1, columns(&h), columns(&y), y.nps() / h.nps().max(1.0));
        pairs.push((h, y));
    }
    let hisha: Vec<Search> = pairs.iter().map(|p| p.0).collect();
    let yardstick: Vec<Search> = pairs.iter().map(|p| p.1).collect();
    for (name, searches) in [("hisha", hisha), ("yardstick", yardstick)] {
        let of = |f: fn(&Search) -> Option<f64>| median(searches.iter().filter_map(f).collect());
        println!(
            "median {name:>9}: depth {}, nodes {}, {} ms, {} knps by wall clock, {} knps by CPU time",
            show(of(|s| s.depth.map(f64::from)), 1),
            show(of(|s| Some(s.nodes as f64)), 0),
            show(of(|s| Some(s.wall.as_secs_f64() * 1e3)), 0),
            show(of(|s| Some(s.nps() / 1e3)), 0),
            show(of(|s| s.cpu_nps().map(|n| n / 1e3)), 0),
        );
    }
    println!("yardstick/hisha nps by wall clock: {}", ratios(&pairs, |s| Some(s.nps())));
    println!("yardstick/hisha nps by CPU time:   {}", ratios(&pairs, Search::cpu_nps));
    if let Limit::Depth(d) = limit {
        println!(
            "hisha/yardstick time to depth {d}: {}",
            ratios(&pairs, |s| Some(1.0 / s.wall.as_secs_f64().max(1e-3)))
        );
    }
    Ok(())
}

/// A folder holding hisha's built-in net as `nn.bin`, removed when dropped.
struct BuiltinNetDir(PathBuf);

impl BuiltinNetDir {
    fn write() -> Result<BuiltinNetDir, String> {
        let net = hisha::eval::nnue::builtin().ok_or("hisha's built-in net cannot be read")?;
        let dir = std::env::temp_dir().join(format!("hisha-yardstick-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let made = BuiltinNetDir(dir);
        let file = made.0.join("nn.bin");
        std::fs::write(&file, net.to_bytes()).map_err(|e| format!("{}: {e}", file.display()))?;
        Ok(made)
    }
}

impl Drop for BuiltinNetDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The positions `--positions` names.
fn positions(spec: &str) -> Result<Vec<String>, String> {
    if spec == "bench" {
        return Ok(hisha::bench::POSITIONS.iter().map(|s| s.to_string()).collect());
    }
    let text = std::fs::read_to_string(spec).map_err(|e| format!("{spec}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let sfen = line.trim().trim_start_matches("sfen ");
        hisha::Position::from_sfen(sfen).map_err(|e| format!("{spec}, line {}: {e}", n + 1))?;
        out.push(sfen.to_string());
    }
    if out.is_empty() { Err(format!("{spec}: no positions")) } else { Ok(out) }
}

/// The `hisha` binary beside this tool's folder (`target/release/examples/..`).
fn hisha_beside_this_tool() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("where is this tool? {e}"))?;
    let path = exe.parent().and_then(Path::parent).map(|d| d.join("hisha")).ok_or("give --hisha PATH")?;
    if !path.is_file() {
        return Err(format!(
            "no hisha at {}: build it (cargo build --release --bin hisha) or give --hisha",
            path.display()
        ));
    }
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if modified(&path) < modified(&exe) {
        eprintln!("warning: {} is older than this tool; rebuild it if the engine changed", path.display());
    }
    Ok(path)
}

fn start(
    name: &str,
    command: PathBuf,
    options: Vec<(&str, String)>,
    registry: &EngineRegistry,
) -> Result<EngineProcess, String> {
    let config = EngineConfig {
        name: name.to_string(),
        command,
        args: Vec::new(),
        dir: None,
        options: options.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        tc: None,
        usi_timeout: None,
        time_margin: None,
    };
    let timeouts = Timeouts { usiok: Duration::from_secs(30), readyok: Duration::from_secs(60) };
    let engine = EngineProcess::start(&config, timeouts, None, registry)
        .map_err(|e| format!("{name} ({}) does not start: {e}", config.command.display()))?;
    match config.options.iter().find(|(k, _)| !engine.listed_options.contains(k)) {
        Some((k, _)) => Err(format!("{name} has no option {k}")),
        None => Ok(engine),
    }
}

fn run(args: Args, yaneuraou: PathBuf) -> Result<(), String> {
    let positions = positions(&args.positions)?;
    let hisha = match args.hisha {
        Some(p) => p,
        None => hisha_beside_this_tool()?,
    };
    let builtin_dir = if args.evaldir.is_none() { Some(BuiltinNetDir::write()?) } else { None };
    let evaldir = args.evaldir.or_else(|| builtin_dir.as_ref().map(|d| d.0.clone())).ok_or("no EvalDir")?;
    let hash = args.hash.to_string();
    let hisha_options = vec![
        ("USI_Hash", hash.clone()),
        ("Threads", "1".into()),
        ("UseBook", "false".into()),
        ("NetworkDelay", "0".into()),
    ];
    let yardstick_options = vec![
        ("USI_Hash", hash),
        ("Threads", "1".into()),
        ("BookFile", "no_book".into()),
        ("EvalDir", evaldir.display().to_string()),
    ];
    println!(
        "hisha: {}\nyardstick: {} (EvalDir {})\n{} positions ({}), 1 thread and USI_Hash {} MiB each, interleaved",
        hisha.display(),
        yaneuraou.display(),
        evaldir.display(),
        positions.len(),
        args.positions,
        args.hash,
    );
    // The engines run in their own process group, out of Ctrl-C's reach, and hisha finishes a
    // bounded search when its input ends: Ctrl-C kills them.
    let registry = EngineRegistry::default();
    let on_interrupt = registry.clone();
    if let Err(e) = ctrlc::set_handler(move || {
        on_interrupt.kill_all();
        std::process::exit(130);
    }) {
        eprintln!("warning: no Ctrl-C handler ({e}): kill the engines yourself if you interrupt");
    }
    let mut engines = [
        start("hisha", hisha, hisha_options, &registry)?,
        start("yardstick", yaneuraou, yardstick_options, &registry)?,
    ];
    let mut limits: Vec<Limit> = args.movetime.map(Limit::MoveTime).into_iter().collect();
    limits.extend(args.depth.map(Limit::Depth));
    if limits.is_empty() {
        limits.push(Limit::MoveTime(4000));
    }
    for limit in limits {
        compare(&mut engines, &positions, limit)?;
    }
    for engine in engines {
        engine.quit(Duration::from_secs(2));
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args = Args::parse();
    let Some(yaneuraou) = args.yaneuraou.take() else {
        println!(
            "yardstick: needs the yardstick, a YaneuraOu HalfKP 64x2-16-16 build: --yaneuraou PATH (see examples/yardstick.rs)"
        );
        return ExitCode::SUCCESS;
    };
    match run(args, yaneuraou) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("yardstick: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_ticks_are_user_plus_system_after_a_command_name_with_blanks_and_parentheses() {
        // The layout of proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt
        // cminflt majflt cmajflt utime stime …
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 17 0 0 20 0 2 0";
        assert_eq!(cpu_ticks(stat), Some(267));
        assert_eq!(cpu_ticks("4242 (x) S 1"), None);
    }

    #[test]
    fn medians_of_odd_even_and_empty_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(Vec::new()), None);
    }
}
