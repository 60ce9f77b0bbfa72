//! Running a match: the schedule (pairs of games with colours swapped, shards, resume), worker
//! threads that own their engine processes, and the main thread that writes every finished game
//! at once (records, then the state file), prints `Finished game …` lines, the progress bar and
//! the results, and handles Ctrl-C (once: finish the running games; twice: stop at once).

use super::MatchArgs;
use super::config::EngineConfig;
use super::game::{self, GameSpec, Rules};
use super::openings::{self, Opening};
use super::process::{EngineProcess, LogSink, Timeouts};
use super::report::Tally;
use super::state::{self, GameLine, StateWriter};
use super::stats::SprtDecision;
use crate::position::{EnteringKingRule, GameResult, ResultReason, Winner};
use crate::record::{Format, GameRecord, RecordWriter, Start};
use crate::types::Color;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A scheduled game: its spec and which engine (0 = first, 1 = second) plays Black.
struct Job {
    spec: GameSpec,
    first_is_black: bool,
}

struct Done {
    job: Job,
    outcome: game::GameOutcome,
}

fn parse_score_rule(s: &Option<String>, what: &str) -> Result<Option<(i32, u32)>, String> {
    let Some(s) = s else { return Ok(None) };
    let (a, b) = s.split_once(':').ok_or_else(|| format!("--{what} wants CP:PLIES, got {s:?}"))?;
    Ok(Some((
        a.parse().map_err(|_| format!("--{what}: bad CP {a:?}"))?,
        b.parse().map_err(|_| format!("--{what}: bad PLIES {b:?}"))?,
    )))
}

fn parse_shard(s: &Option<String>) -> Result<Option<(usize, usize)>, String> {
    let Some(s) = s else { return Ok(None) };
    let bad = || format!("--shard wants K/N with 1 <= K <= N, got {s:?}");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok(Some((k, n)))
}

fn engines(args: &MatchArgs) -> Result<[EngineConfig; 2], String> {
    let load = |w: &Vec<String>| EngineConfig::from_spec(w, &args.engines_dir).map_err(|e| e.to_string());
    let mut list: Vec<EngineConfig> = args.engines.iter().map(load).collect::<Result<_, _>>()?;
    match list.len() {
        0 => {
            let mut a = EngineConfig::hisha();
            let mut b = EngineConfig::hisha();
            a.name = "hisha-1".into();
            b.name = "hisha-2".into();
            Ok([a, b])
        }
        1 => {
            let mut h = EngineConfig::hisha();
            if list[0].name == h.name {
                h.name = "hisha-2".into();
            }
            Ok([list.remove(0), h])
        }
        2 => {
            if list[0].name == list[1].name {
                list[1].name.push_str("-2");
            }
            let b = list.remove(1);
            Ok([list.remove(0), b])
        }
        n => Err(format!("give at most two engines (got {n})")),
    }
}

/// Today's date as `YYYY/MM/DD` (UTC), for record headers.
fn today() -> String {
    let days =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}/{m:02}/{d:02}")
}

fn schedule(args: &MatchArgs, confs: &[EngineConfig; 2], done: &[usize]) -> Result<Vec<Job>, String> {
    let mut openings: Vec<Opening> = match (&args.handicap, &args.openings) {
        (Some(h), _) => vec![Opening { start: Start::Handicap(*h), moves: Vec::new(), name: h.english().to_string() }],
        (None, Some(path)) => openings::load(path, args.opening_plies)?,
        (None, None) => {
            let default = Path::new("book/openings.psn");
            if default.exists() {
                openings::load(default, args.opening_plies)?
            } else {
                vec![Opening { start: Start::default(), moves: Vec::new(), name: "startpos".into() }]
            }
        }
    };
    if let Some(seed) = args.seed {
        openings::shuffle(&mut openings, seed);
    }
    let shard = parse_shard(&args.shard)?;
    let pairs = args.games.div_ceil(2).max(1);
    let tc = |c: &EngineConfig| c.tc.unwrap_or(args.tc);
    let mut jobs = Vec::new();
    for number in 1..=pairs * 2 {
        let pair = (number - 1) / 2;
        if shard.is_some_and(|(k, n)| pair % n != k - 1) || done.contains(&number) {
            continue;
        }
        let o = &openings[pair % openings.len()];
        let first_is_black = number % 2 == 1;
        let (black, white) = if first_is_black { (&confs[0], &confs[1]) } else { (&confs[1], &confs[0]) };
        jobs.push(Job {
            spec: GameSpec {
                number,
                start: o.start.clone(),
                opening: o.moves.clone(),
                opening_name: o.name.clone(),
                tc: [tc(black), tc(white)],
            },
            first_is_black,
        });
    }
    Ok(jobs)
}

fn start_engine(conf: &EngineConfig, args: &MatchArgs, log: &LogSink) -> Result<EngineProcess, String> {
    let t = Duration::from_secs(args.usi_timeout);
    EngineProcess::start(conf, Timeouts { usiok: t, readyok: t }, log.clone()).map_err(|e| e.to_string())
}

/// A game lost before it began because an engine would not start.
fn forfeit(job: &Job, loser: Color, why: String) -> game::GameOutcome {
    let result = GameResult::loss(loser, ResultReason::Disconnect);
    let mut record = GameRecord::new(job.spec.start.clone(), []);
    record.summary.push(why);
    record.result = Some(result);
    let mut faulty = [false; 2];
    faulty[loser.index()] = true;
    game::GameOutcome { record, result, faulty, overrun_ms: [0; 2] }
}

fn worker(
    jobs: Receiver<Job>,
    done: Sender<Done>,
    confs: [EngineConfig; 2],
    args: Arc<MatchArgs>,
    rules: Rules,
    log: LogSink,
    stop: Arc<AtomicUsize>,
) {
    let mut procs: [Option<EngineProcess>; 2] = [None, None];
    for job in jobs.iter() {
        if stop.load(Ordering::SeqCst) > 0 {
            break;
        }
        // Engine index by colour.
        let idx = if job.first_is_black { [0, 1] } else { [1, 0] };
        let mut failure = None;
        for c in Color::ALL {
            let e = idx[c.index()];
            if procs[e].is_none() {
                match start_engine(&confs[e], &args, &log) {
                    Ok(p) => procs[e] = Some(p),
                    Err(why) => failure = Some((c, format!("{c} ({}) failed to start: {why}", confs[e].name))),
                }
            }
        }
        let outcome = match (failure, &mut procs) {
            (Some((c, why)), _) => forfeit(&job, c, why),
            (None, [Some(a), Some(b)]) => {
                let pair = if job.first_is_black { [a, b] } else { [b, a] };
                game::play(&job.spec, pair, &rules)
            }
            (None, _) => forfeit(&job, Color::Black, "engine missing".into()),
        };
        for c in Color::ALL {
            let e = idx[c.index()];
            if outcome.faulty[c.index()] || args.restart {
                if let Some(p) = procs[e].take() {
                    p.quit(Duration::from_millis(300));
                }
            }
        }
        if done.send(Done { job, outcome }).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit(Duration::from_millis(500));
    }
}

fn spawn_logger(path: &Option<PathBuf>) -> Result<LogSink, String> {
    let Some(path) = path else { return Ok(None) };
    let mut file = std::io::BufWriter::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?,
    );
    let (tx, rx) = unbounded::<String>();
    std::thread::spawn(move || {
        let start = Instant::now();
        for line in rx.iter() {
            let _ = writeln!(file, "{:>10.3} {line}", start.elapsed().as_secs_f64());
            if rx.is_empty() {
                let _ = file.flush();
            }
        }
    });
    Ok(Some(tx))
}

fn outputs(args: &MatchArgs) -> Result<Vec<(PathBuf, RecordWriter<std::fs::File>)>, String> {
    args.out
        .iter()
        .map(|p| {
            let format = args.format.or_else(|| p.to_str().and_then(Format::from_path)).unwrap_or(Format::Psn);
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
            Ok((p.clone(), RecordWriter::new(file, format, empty)))
        })
        .collect()
}

fn merge(args: &MatchArgs) -> Result<(), String> {
    let mut lines = Vec::new();
    for p in &args.merge {
        lines.extend(state::load(p)?.games);
    }
    let Some(first) = lines.first() else {
        return Err("no games in the state files".into());
    };
    let a = first.black.clone();
    let b = if first.white == a { first.black.clone() } else { first.white.clone() };
    let mut tally = Tally::new(&a, &b);
    lines.sort_by_key(|g| g.number);
    for g in &lines {
        tally.add(g);
    }
    print!("{}", tally.block(args.sprt.as_ref()));
    Ok(())
}

/// Runs `hisha match`.
pub fn run(args: MatchArgs) -> Result<(), String> {
    if !args.merge.is_empty() {
        return merge(&args);
    }
    let confs = engines(&args)?;
    let rules = Rules {
        max_plies: args.max_plies,
        resign: parse_score_rule(&args.resign, "resign")?,
        draw: parse_score_rule(&args.draw, "draw")?,
        entering_king: match args.entering_king_rule.to_ascii_lowercase().as_str() {
            "noenteringking" | "none" => EnteringKingRule::None,
            "csarule24" | "24" => EnteringKingRule::Point24,
            _ => EnteringKingRule::Point27,
        },
        time_margin: args.time_margin,
        stall: Duration::from_secs(args.stall_timeout),
        ready_timeout: Duration::from_secs(args.usi_timeout),
    };
    let first_out = args.out.first().cloned().unwrap_or_else(|| PathBuf::from("games.psn"));
    let state_path = state::path_for(&first_out);
    let previous = if args.resume { state::load(&state_path)? } else { state::State::default() };
    if !args.resume && state_path.exists() {
        // A new match: keep the earlier match's state beside it (records are appended, never lost).
        let kept = (1..)
            .map(|i| PathBuf::from(format!("{}.{i}", state_path.display())))
            .find(|p| !p.exists())
            .unwrap_or_default();
        std::fs::rename(&state_path, &kept).map_err(|e| format!("{}: {e}", state_path.display()))?;
        eprintln!("hisha match: a new match; the earlier state is kept as {} (--resume continues one)", kept.display());
    }
    let done_numbers: Vec<usize> = previous.games.iter().map(|g| g.number).collect();
    let jobs = schedule(&args, &confs, &done_numbers)?;
    let mut writers = outputs(&args)?;
    let first_format = writers.first().map(|(_, w)| w.format()).unwrap_or(Format::Psn);
    let mut state_file = StateWriter::open(&state_path, &first_out, first_format)?;
    let log = spawn_logger(&args.log)?;
    let threads_per_engine = confs
        .iter()
        .map(|c| {
            c.options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("Threads"))
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(1)
        })
        .max()
        .unwrap_or(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = args.concurrency.unwrap_or((cores / threads_per_engine).max(1)).max(1);
    let stop = Arc::new(AtomicUsize::new(0));
    let s = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || {
        if s.fetch_add(1, Ordering::SeqCst) >= 1 {
            eprintln!("\nhisha match: stopped; finished games are in the record files");
            std::process::exit(130);
        }
        eprintln!("\nhisha match: finishing the running games (Ctrl-C again to stop at once)");
    });
    let mut tally = Tally::new(&confs[0].name, &confs[1].name);
    for g in &previous.games {
        tally.add(g);
    }
    let total_jobs = jobs.len();
    let (job_tx, job_rx) = unbounded::<Job>();
    for j in jobs {
        let _ = job_tx.send(j);
    }
    drop(job_tx);
    let (done_tx, done_rx) = unbounded::<Done>();
    let args = Arc::new(args);
    let mut handles = Vec::new();
    for i in 0..concurrency.min(total_jobs.max(1)) {
        let (rx, tx, c, a, l, st) =
            (job_rx.clone(), done_tx.clone(), confs.clone(), Arc::clone(&args), log.clone(), Arc::clone(&stop));
        let h = std::thread::Builder::new()
            .name(format!("match-{i}"))
            .spawn(move || worker(rx, tx, c, a, rules, l, st))
            .map_err(|e| e.to_string())?;
        handles.push(h);
    }
    drop(done_tx);
    let progress = (!args.quiet).then(|| {
        let pb = indicatif::ProgressBar::new(total_jobs as u64);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  ETA {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    });
    let date = today();
    let mut finished = 0usize;
    for d in done_rx.iter() {
        let (black, white) = if d.job.first_is_black { (&confs[0], &confs[1]) } else { (&confs[1], &confs[0]) };
        let mut rec = d.outcome.record;
        let mut tags = vec![
            ("Event".to_string(), "hisha match".to_string()),
            ("Date".to_string(), date.clone()),
            ("Round".to_string(), d.job.spec.number.to_string()),
            ("Black".to_string(), black.name.clone()),
            ("White".to_string(), white.name.clone()),
            ("Opening".to_string(), d.job.spec.opening_name.clone()),
        ];
        let [tb, tw] = d.job.spec.tc;
        if tb == tw {
            tags.push(("TimeControl".into(), tb.to_string()));
        } else {
            tags.push(("BlackTimeControl".into(), tb.to_string()));
            tags.push(("WhiteTimeControl".into(), tw.to_string()));
        }
        tags.append(&mut rec.tags);
        rec.tags = tags;
        for (path, w) in writers.iter_mut() {
            if let Err(e) = w.write(&rec) {
                eprintln!("hisha match: {}: {e}", path.display());
            }
        }
        let line = GameLine {
            number: d.job.spec.number,
            black: black.name.clone(),
            white: white.name.clone(),
            result: d.outcome.result,
        };
        if let Err(e) = state_file.add(&line) {
            eprintln!("hisha match: {}: {e}", state_path.display());
        }
        tally.add(&line);
        tally.overrun(&black.name, d.outcome.overrun_ms[0]);
        tally.overrun(&white.name, d.outcome.overrun_ms[1]);
        finished += 1;
        let text = finished_line(&line);
        match &progress {
            Some(pb) => {
                pb.suspend(|| println!("{text}"));
                let e = tally.total.elo();
                pb.set_message(format!(
                    "{} {}-{}-{}  Elo {:+.0} +/- {:.0}",
                    tally.a, tally.total.wins, tally.total.losses, tally.total.draws, e.elo, e.error
                ));
                pb.inc(1);
            }
            None => println!("{text}"),
        }
        if args.report_every > 0 && finished % args.report_every == 0 && finished < total_jobs {
            let block = tally.block(args.sprt.as_ref());
            match &progress {
                Some(pb) => pb.suspend(|| print!("{block}")),
                None => print!("{block}"),
            }
        }
        if let Some(t) = &args.sprt {
            if t.decide(&tally.penta).1 != SprtDecision::Continue {
                stop.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    for h in handles {
        let _ = h.join();
    }
    print!("{}", tally.block(args.sprt.as_ref()));
    let _ = std::io::stdout().flush();
    Ok(())
}

/// `Finished game N (A vs B): 1-0 {Black wins by resignation}` — A plays Black.
fn finished_line(g: &GameLine) -> String {
    let score = match g.result.winner {
        Winner::Black => "1-0",
        Winner::White => "0-1",
        Winner::Draw => "1/2-1/2",
        Winner::Unfinished => "*",
    };
    format!("Finished game {} ({} vs {}): {score} {{{}}}", g.number, g.black, g.white, g.result)
}
