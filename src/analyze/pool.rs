//! `--concurrency N` engine processes sharing the positions: each worker thread starts its engine
//! and takes the next position from a shared queue until none is left. An engine that fails
//! (exits, stalls) fails the position it had; the worker then starts a fresh engine for the next
//! one, and gives up when that start fails (the other workers take the rest; when none is left,
//! the positions not searched are reported failed).

use super::Line;
use super::search::{Job, search};
use crate::client::config::{ConfigError, EngineConfig};
use crate::client::process::{EngineProcess, EngineRegistry, Timeouts};
use crate::client::tc::TimeControl;
use crossbeam_channel::unbounded;
use std::path::Path;
use std::time::Duration;

/// How the engines run.
#[derive(Clone, Debug)]
pub struct EngineSetup {
    /// The engine (its options include `MultiPV` when more than one line is asked for).
    pub engine: EngineConfig,
    /// The time control of every search.
    pub tc: TimeControl,
    /// Engine processes at once.
    pub concurrency: usize,
    /// How long `usiok` and `readyok` may take.
    pub handshake: Duration,
    /// How long an untimed search (`nodes`, `depth`) may take before the engine is deemed stalled.
    pub stall: Duration,
}

impl EngineSetup {
    /// The setup for the words of `--engine` (none: hisha itself, with its book off so that every
    /// position is searched; a definition name in
    /// `engines_dir` or built in, a `.toml` file, or `key=value` words, as `hisha match` takes
    /// them). The engine's own `tc` and `usi_timeout` override `tc` and `handshake`; `multipv` > 1
    /// sets its `MultiPV` option.
    pub fn new(
        spec: &[String],
        engines_dir: &Path,
        tc: TimeControl,
        multipv: u32,
        concurrency: usize,
        handshake: Duration,
        stall: Duration,
    ) -> Result<EngineSetup, ConfigError> {
        let mut engine = if spec.is_empty() {
            let mut hisha = EngineConfig::hisha();
            hisha.options.push(("UseBook".to_string(), "false".to_string()));
            hisha
        } else {
            EngineConfig::from_spec(spec, engines_dir)?
        };
        if multipv > 1 {
            engine.options.retain(|(k, _)| !k.eq_ignore_ascii_case("MultiPV"));
            engine.options.push(("MultiPV".to_string(), multipv.to_string()));
        }
        let tc = engine.tc.unwrap_or(tc);
        let handshake = engine.usi_timeout.map_or(handshake, Duration::from_secs);
        Ok(EngineSetup { engine, tc, concurrency, handshake, stall })
    }
}

/// The result of one position: its lines, or why there are none.
pub type Outcome = Result<Vec<Line>, String>;

/// Searches every job; `progress` is called on this thread after each one (its index and
/// outcome, in the order they finish). The outcomes, in job order.
pub fn run_all(setup: &EngineSetup, jobs: &[Job], mut progress: impl FnMut(usize, &Outcome)) -> Vec<Outcome> {
    let (job_tx, job_rx) = unbounded::<usize>();
    for i in 0..jobs.len() {
        let _ = job_tx.send(i);
    }
    drop(job_tx);
    let (done_tx, done_rx) = unbounded::<(usize, Outcome)>();
    let registry = EngineRegistry::default();
    let mut outcomes: Vec<Option<Outcome>> = (0..jobs.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..setup.concurrency.clamp(1, jobs.len().max(1)) {
            let (job_rx, done_tx, registry) = (job_rx.clone(), done_tx.clone(), registry.clone());
            scope.spawn(move || worker(setup, jobs, &job_rx, &done_tx, &registry));
        }
        drop(done_tx);
        for (i, outcome) in done_rx.iter() {
            progress(i, &outcome);
            outcomes[i] = Some(outcome);
        }
    });
    let not_searched = || Err(format!("not searched: no {} process left", setup.engine.name));
    outcomes.into_iter().map(|o| o.unwrap_or_else(not_searched)).collect()
}

/// One worker: an engine, restarted after a failure, searching jobs until the queue is empty.
fn worker(
    setup: &EngineSetup,
    jobs: &[Job],
    queue: &crossbeam_channel::Receiver<usize>,
    done: &crossbeam_channel::Sender<(usize, Outcome)>,
    registry: &EngineRegistry,
) {
    let timeouts = Timeouts { usiok: setup.handshake, readyok: setup.handshake };
    let mut engine: Option<EngineProcess> = None;
    for i in queue.iter() {
        if engine.is_none() {
            match EngineProcess::start(&setup.engine, timeouts, None, registry) {
                Ok(e) => engine = Some(e),
                Err(e) => {
                    let _ = done.send((i, Err(e.to_string())));
                    return;
                }
            }
        }
        let Some(e) = engine.as_mut() else { return };
        let outcome = search(e, &jobs[i], setup.tc, setup.stall, setup.handshake).map_err(|e| e.to_string());
        if outcome.is_err() {
            engine = None; // dropped: killed; the next job gets a fresh one
        }
        if done.send((i, outcome)).is_err() {
            return;
        }
    }
    if let Some(e) = engine {
        e.quit(Duration::from_millis(500));
    }
}
