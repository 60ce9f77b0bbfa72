//! The worker threads of a match: each owns its engine processes (started when first needed,
//! restarted after a crash or stall, or before every game with `--restart`), plays the games the
//! queue hands it and sends each finished game back to the main thread.

use crate::arena::game::{self, GameOutcome, Rules};
use crate::arena::schedule::Job;
use crate::client::config::EngineConfig;
use crate::client::process::{EngineError, EngineProcess, EngineRegistry, LogSink, Timeouts};
use crate::position::{GameResult, ResultReason};
use crate::record::GameRecord;
use crate::types::Color;
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A finished game, sent from a worker to the main thread.
pub(super) struct Done {
    /// The game as scheduled.
    pub job: Job,
    /// How it went.
    pub outcome: GameOutcome,
}

/// What the workers share, including the list of engine processes (killed on a second Ctrl-C).
#[derive(Clone)]
pub(super) struct Shared {
    /// The engines.
    pub confs: Vec<EngineConfig>,
    /// Adjudication.
    pub rules: Rules,
    /// `--usi-timeout` of engines without their own, in seconds.
    pub usi_timeout: u64,
    /// `--restart`.
    pub restart: bool,
    /// Where the transcripts go.
    pub log: LogSink,
    /// Every engine process started.
    pub registry: EngineRegistry,
}

impl Shared {
    /// Starts engine `e` (its index in `confs`) and completes its handshake.
    fn start_engine(&self, e: usize) -> Result<EngineProcess, EngineError> {
        let conf = &self.confs[e];
        let t = Duration::from_secs(conf.usi_timeout.unwrap_or(self.usi_timeout));
        EngineProcess::start(conf, Timeouts { usiok: t, readyok: t }, self.log.clone(), &self.registry)
    }
}

/// A game lost before it began because an engine would not start.
fn forfeit(job: &Job, loser: Color, why: String) -> GameOutcome {
    let mut record = GameRecord::new(job.spec.start.clone(), []);
    record.summary.push(why);
    record.result = Some(GameResult::loss(loser, ResultReason::Disconnect));
    let mut faulty = [false; 2];
    faulty[loser.index()] = true;
    GameOutcome { record, faulty, overrun_ms: [0; 2] }
}

/// Plays the games of `jobs` until the queue closes, sending each to `done`. The worker keeps a
/// process of each engine it has played with (in a tournament, of each engine).
pub(super) fn worker(jobs: Receiver<Job>, done: Sender<Done>, sh: Shared) {
    let mut procs: Vec<Option<EngineProcess>> = sh.confs.iter().map(|_| None).collect();
    for job in jobs.iter() {
        let by_colour = job.engines_by_colour();
        let outcome = play_one(&job, by_colour, &mut procs, &sh);
        for c in Color::ALL {
            let e = by_colour[c.index()];
            if outcome.faulty[c.index()] || sh.restart {
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

/// Starts the engines of `job` that are not running (`by_colour`: the engine of each colour) and
/// plays it; a game forfeited by an engine that does not start.
fn play_one(job: &Job, by_colour: [usize; 2], procs: &mut [Option<EngineProcess>], sh: &Shared) -> GameOutcome {
    let mut failure = None;
    for c in Color::ALL {
        let e = by_colour[c.index()];
        if procs[e].is_none() {
            match sh.start_engine(e) {
                Ok(p) => procs[e] = Some(p),
                Err(why) => failure = Some((c, format!("{c} ({}) failed to start: {why}", sh.confs[e].name))),
            }
        }
    }
    if let Some((c, why)) = failure {
        return forfeit(job, c, why);
    }
    let [black, white] = by_colour;
    match (procs[black].take(), procs[white].take()) {
        (Some(mut b), Some(mut w)) => {
            let outcome = game::play(&job.spec, [&mut b, &mut w], &sh.rules);
            (procs[black], procs[white]) = (Some(b), Some(w));
            outcome
        }
        (b, w) => {
            (procs[black], procs[white]) = (b, w);
            forfeit(job, Color::Black, "engine missing".into())
        }
    }
}

/// The games not yet handed to a worker. A game is handed over only when a worker is free, so
/// that a stop (Ctrl-C, SPRT, crashes) leaves no game half-started and at most `concurrency`
/// games run at any time; an engine dropped from a tournament loses its games not handed over.
pub(super) struct Queue {
    pending: VecDeque<Job>,
    tx: Option<Sender<Job>>,
}

impl Queue {
    /// A queue of `jobs` feeding the workers that read from the receiver of `tx`.
    pub(super) fn new(jobs: Vec<Job>, tx: Sender<Job>) -> Queue {
        Queue { pending: jobs.into(), tx: Some(tx) }
    }

    /// Takes the games of engine `e` out of the queue; how many there were.
    pub(super) fn drop_engine(&mut self, e: usize) -> usize {
        let before = self.pending.len();
        self.pending.retain(|job| !job.engines.contains(&e));
        before - self.pending.len()
    }

    /// Hands the next game to the workers, or, when there is none or the match stops, closes the
    /// queue so that each worker ends after its current game.
    pub(super) fn feed(&mut self, stop: &AtomicBool) {
        let next = if stop.load(Ordering::SeqCst) { None } else { self.pending.pop_front() };
        match (next, self.tx.as_ref()) {
            (Some(job), Some(t)) => {
                let _ = t.send(job);
            }
            _ => self.tx = None,
        }
    }
}
