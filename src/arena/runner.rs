//! Running a match: worker threads that own their engine processes and play the scheduled games,
//! and the main thread that writes every finished game at once (records, then the state file),
//! prints `Finished game …` lines, the progress bar and the results, stops for the SPRT and for
//! `--max-crashes`, and handles Ctrl-C (once: finish the running games; twice: kill the engines
//! and stop at once). Before the first game the engines pass their check ([`super::preflight`]);
//! the first and last lines printed name the record file.

use super::MatchArgs;
use super::config::EngineConfig;
use super::earlier;
use super::exit::MatchError;
use super::game::{self, Rules};
use super::merge;
use super::output::{Outputs, finished_line, now_text, spawn_logger};
use super::preflight;
use super::process::{EngineProcess, EngineRegistry, LogSink, Timeouts};
use super::report::Tally;
use super::schedule::{self, Job};
use super::state::{self, State};
use super::stats::SprtDecision;
use super::streak::CrashStreaks;
use crate::position::{EnteringKingRule, GameResult, ResultReason};
use crate::record::GameRecord;
use crate::types::Color;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

struct Done {
    job: Job,
    outcome: game::GameOutcome,
}

/// What the workers share, including the list of engine processes (killed on a second Ctrl-C).
#[derive(Clone)]
struct Shared {
    args: Arc<MatchArgs>,
    confs: [EngineConfig; 2],
    rules: Rules,
    log: LogSink,
    registry: EngineRegistry,
}

fn parse_score_rule(s: &Option<String>, what: &str) -> Result<Option<(i32, u32)>, String> {
    let Some(s) = s else { return Ok(None) };
    let (a, b) = s.split_once(':').ok_or_else(|| format!("--{what} wants CP:PLIES, got {s:?}"))?;
    Ok(Some((
        a.trim().parse().map_err(|_| format!("--{what}: bad CP {a:?}"))?,
        b.trim().parse().map_err(|_| format!("--{what}: bad PLIES {b:?}"))?,
    )))
}

fn rules(args: &MatchArgs) -> Result<Rules, String> {
    Ok(Rules {
        max_plies: args.max_plies,
        resign: parse_score_rule(&args.resign, "resign")?,
        draw: parse_score_rule(&args.draw, "draw")?,
        entering_king: match args.entering_king_rule.to_ascii_lowercase().as_str() {
            "noenteringking" | "none" => EnteringKingRule::None,
            "csarule24" | "24" => EnteringKingRule::Point24,
            "csarule27" | "27" => EnteringKingRule::Point27,
            other => return Err(format!("--entering-king-rule: unknown rule {other:?}")),
        },
        stall: Duration::from_secs(args.stall_timeout),
    })
}

/// Fails early when an engine's executable does not exist (a typo should not become a match of
/// forfeits); engines that start but misbehave are adjudicated game by game instead.
fn check_command(c: &EngineConfig) -> Result<(), String> {
    let cmd = &c.command;
    let found = if cmd.components().count() > 1 || cmd.is_absolute() {
        cmd.is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
    };
    if found { Ok(()) } else { Err(format!("engine {}: cannot find the command {}", c.name, cmd.display())) }
}

/// Threads one engine uses (its `Threads` or `Thread` option, else 1).
fn threads(c: &EngineConfig) -> usize {
    let is_threads = |k: &str| k.eq_ignore_ascii_case("Threads") || k.eq_ignore_ascii_case("Thread");
    c.options.iter().find(|(k, _)| is_threads(k)).and_then(|(_, v)| v.trim().parse().ok()).unwrap_or(1).max(1)
}

fn start_engine(conf: &EngineConfig, sh: &Shared) -> Result<EngineProcess, String> {
    let t = Duration::from_secs(conf.usi_timeout.unwrap_or(sh.args.usi_timeout));
    EngineProcess::start(conf, Timeouts { usiok: t, readyok: t }, sh.log.clone(), &sh.registry)
        .map_err(|e| e.to_string())
}

/// A game lost before it began because an engine would not start.
fn forfeit(job: &Job, loser: Color, why: String) -> game::GameOutcome {
    let result = GameResult::loss(loser, ResultReason::Disconnect);
    let mut record = GameRecord::new(job.spec.start.clone(), []);
    record.summary.push(why);
    record.result = Some(result);
    let mut faulty = [false; 2];
    faulty[loser.index()] = true;
    game::GameOutcome { record, faulty, overrun_ms: [0; 2] }
}

fn worker(jobs: Receiver<Job>, done: Sender<Done>, sh: Shared) {
    let mut procs: [Option<EngineProcess>; 2] = [None, None];
    for job in jobs.iter() {
        // Engine index by colour.
        let idx = if job.first_is_black { [0, 1] } else { [1, 0] };
        let mut failure = None;
        for c in Color::ALL {
            let e = idx[c.index()];
            if procs[e].is_none() {
                match start_engine(&sh.confs[e], &sh) {
                    Ok(p) => procs[e] = Some(p),
                    Err(why) => failure = Some((c, format!("{c} ({}) failed to start: {why}", sh.confs[e].name))),
                }
            }
        }
        let outcome = match (failure, &mut procs) {
            (Some((c, why)), _) => forfeit(&job, c, why),
            (None, [Some(a), Some(b)]) => {
                let pair = if job.first_is_black { [a, b] } else { [b, a] };
                game::play(&job.spec, pair, &sh.rules)
            }
            (None, _) => forfeit(&job, Color::Black, "engine missing".into()),
        };
        for c in Color::ALL {
            let e = idx[c.index()];
            if outcome.faulty[c.index()] || sh.args.restart {
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

/// Hands the next game to the workers, or, when there is none or the match stops, closes the
/// queue so that each worker ends after its current game.
fn feed(tx: &mut Option<Sender<Job>>, pending: &mut VecDeque<Job>, stop: &AtomicBool) {
    let next = if stop.load(Ordering::SeqCst) { None } else { pending.pop_front() };
    match (next, tx.as_ref()) {
        (Some(job), Some(t)) => {
            let _ = t.send(job);
        }
        _ => *tx = None,
    }
}

/// Installs the Ctrl-C handler: the first press stops new games, the second kills the engines and
/// exits at once (after the record being written, if any, is complete).
fn on_ctrl_c(
    stop: &Arc<AtomicBool>,
    interrupted: &Arc<AtomicBool>,
    registry: &EngineRegistry,
    writing: &Arc<Mutex<()>>,
) {
    let presses = AtomicUsize::new(0);
    let (stop, interrupted, registry, writing) =
        (Arc::clone(stop), Arc::clone(interrupted), registry.clone(), Arc::clone(writing));
    let installed = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            interrupted.store(true, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
            eprintln!("\nhisha match: finishing the running games (Ctrl-C again to stop at once)");
            return;
        }
        let _lock = writing.lock().unwrap_or_else(PoisonError::into_inner);
        registry.kill_all();
        eprintln!("\nhisha match: stopped; every finished game is in the record files (--resume continues)");
        std::process::exit(130);
    });
    if let Err(e) = installed {
        log::warn!("cannot handle Ctrl-C: {e}");
    }
}

fn progress_bar(total: usize, quiet: bool) -> Option<indicatif::ProgressBar> {
    (!quiet).then(|| {
        let pb = indicatif::ProgressBar::new(total as u64);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  {elapsed} ETA {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        pb
    })
}

/// Prints above the progress bar, if any.
fn say(progress: &Option<indicatif::ProgressBar>, text: &str) {
    match progress {
        Some(pb) => pb.suspend(|| print!("{text}")),
        None => print!("{text}"),
    }
    let _ = std::io::stdout().flush();
}

/// `N games in 12 min 5 s: 3.1 games/min at concurrency 2`.
fn pace(games: usize, elapsed: Duration, concurrency: usize) -> String {
    let secs = elapsed.as_secs_f64();
    let per_min = if secs > 0.0 { games as f64 * 60.0 / secs } else { 0.0 };
    let (m, s) = (elapsed.as_secs() / 60, elapsed.as_secs() % 60);
    format!("  This run: {games} games in {m} min {s} s: {per_min:.1} games/min at concurrency {concurrency}\n")
}

/// What a match is about to play, checked and ready: everything [`run`] needs after the checks.
struct Plan {
    confs: [EngineConfig; 2],
    rules: Rules,
    state_path: PathBuf,
    previous: State,
    jobs: Vec<Job>,
}

/// Reads the arguments and the earlier state; errors here are usage errors and nothing is
/// written.
fn plan(args: &MatchArgs) -> Result<Plan, MatchError> {
    let confs = schedule::engines(args).map_err(MatchError::usage)?;
    confs.iter().try_for_each(check_command).map_err(MatchError::usage)?;
    let rules = rules(args).map_err(MatchError::usage)?;
    let state_path = state::path_for(&args.out[0]);
    let previous = earlier::previous_state(args.resume, &state_path, &confs)?;
    let done: Vec<usize> = previous.games.iter().map(|g| g.number).collect();
    let jobs = schedule::schedule(args, &confs, &done).map_err(MatchError::usage)?;
    Ok(Plan { confs, rules, state_path, previous, jobs })
}

/// Runs `hisha match`.
pub fn run(mut args: MatchArgs) -> Result<(), MatchError> {
    if !args.merge.is_empty() {
        return merge::merge(&args).map_err(MatchError::failed);
    }
    if args.out.is_empty() {
        args.out.push(PathBuf::from("games.psn"));
    }
    let Plan { confs, rules, state_path, previous, jobs } = plan(&args)?;
    let timeout = |c: &EngineConfig| Duration::from_secs(c.usi_timeout.unwrap_or(args.usi_timeout));
    let checked = preflight::check(&confs, [timeout(&confs[0]), timeout(&confs[1])])?;
    let names = [confs[0].name.as_str(), confs[1].name.as_str()];
    let other_note = if args.resume {
        String::new()
    } else {
        earlier::keep_earlier_state(&state_path)?;
        earlier::warn_of_other_games(&args.out, args.format, names)
    };
    let heading = format!(
        "=== hisha match {} vs {}, {}, records in {}{other_note}{}",
        confs[0].name,
        confs[1].name,
        now_text(),
        args.out[0].display(),
        if args.resume { " (resumed)" } else { "" }
    );
    println!("{heading}");
    let (log, logger) = spawn_logger(&args.log, heading).map_err(MatchError::failed)?;
    if let Some(l) = &log {
        for line in checked {
            let _ = l.send(line);
        }
    }
    let mut outputs =
        Outputs::open(&args.out, args.format, &state_path, names, args.log.clone()).map_err(MatchError::failed)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = args.concurrency.unwrap_or(cores / confs.iter().map(threads).max().unwrap_or(1)).max(1);
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    let registry = EngineRegistry::default();
    let writing = Arc::new(Mutex::new(()));
    on_ctrl_c(&stop, &interrupted, &registry, &writing);
    let mut tally = Tally::new(&confs[0].name, &confs[1].name);
    for g in &previous.games {
        tally.add(g);
    }
    // A game is handed to a worker only when one is free, so that a stop (Ctrl-C, SPRT, crashes)
    // leaves no game half-started and at most `concurrency` games run at any time.
    let total = jobs.len();
    let mut pending: VecDeque<Job> = jobs.into();
    let (job_tx, job_rx) = unbounded::<Job>();
    let mut job_tx = Some(job_tx);
    for _ in 0..concurrency {
        feed(&mut job_tx, &mut pending, &stop);
    }
    let (done_tx, done_rx) = unbounded::<Done>();
    let args = Arc::new(args);
    let shared = Shared { args: Arc::clone(&args), confs: confs.clone(), rules, log, registry };
    let mut handles = Vec::new();
    for i in 0..concurrency.min(total) {
        let (rx, tx, sh) = (job_rx.clone(), done_tx.clone(), shared.clone());
        let h = std::thread::Builder::new()
            .name(format!("match-{i}"))
            .spawn(move || worker(rx, tx, sh))
            .map_err(|e| MatchError::failed(e.to_string()))?;
        handles.push(h);
    }
    drop((done_tx, shared));
    let progress = progress_bar(total, args.quiet);
    let started = Instant::now();
    let mut finished = 0usize;
    let mut streaks = CrashStreaks::new(args.max_crashes);
    let mut crashed = None;
    for d in done_rx.iter() {
        let (black, white) = d.job.sides(&confs);
        let line = {
            let _lock = writing.lock().unwrap_or_else(PoisonError::into_inner);
            outputs.write(&d.job, (&black.name, &white.name), d.outcome.record)
        };
        tally.add(&line);
        tally.overrun(&black.name, d.outcome.overrun_ms[0]);
        tally.overrun(&white.name, d.outcome.overrun_ms[1]);
        finished += 1;
        say(&progress, &format!("{}\n", finished_line(&line)));
        if let Some(pb) = &progress {
            pb.set_message(tally.progress());
            pb.inc(1);
        }
        if args.report_every > 0 && finished % args.report_every == 0 && finished < total {
            say(&progress, &tally.block(args.sprt.as_ref()));
        }
        // Engine index (0 = first) by colour.
        let engine_of = if d.job.first_is_black { [0, 1] } else { [1, 0] };
        for (c, e) in engine_of.into_iter().enumerate() {
            if streaks.record(e, d.outcome.faulty[c]) && crashed.is_none() {
                let why = format!(
                    "{} crashed, stalled or failed to start in {} games in a row (--max-crashes {})",
                    confs[e].name, args.max_crashes, args.max_crashes
                );
                stop.store(true, Ordering::SeqCst);
                say(&progress, &format!("Stopping the match: {why}; finishing the running games\n"));
                crashed = Some(why);
            }
        }
        if let Some(t) = &args.sprt {
            let (llr, decision) = t.decide(&tally.penta);
            if decision != SprtDecision::Continue && !stop.swap(true, Ordering::SeqCst) {
                let text = format!("SPRT: {decision:?} accepted (LLR {llr:.2}); finishing the running games\n");
                say(&progress, &text);
            }
        }
        feed(&mut job_tx, &mut pending, &stop);
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    for h in handles {
        let _ = h.join();
    }
    logger.finish();
    print!("{}", tally.block(args.sprt.as_ref()));
    print!("{}", pace(finished, started.elapsed(), concurrency));
    let outs: Vec<String> = args.out.iter().map(|p| p.display().to_string()).collect();
    println!("Records in {}{other_note}", outs.join(", "));
    let _ = std::io::stdout().flush();
    let unplayed = total.saturating_sub(finished);
    let resume = format!("{finished} games finished, {unplayed} not played; --resume continues the match");
    match crashed {
        Some(why) => Err(MatchError::failed(format!("stopped: {why}; {resume}"))),
        None if interrupted.load(Ordering::SeqCst) => Err(MatchError::Interrupted(format!("interrupted: {resume}"))),
        None => Ok(()),
    }
}
