//! The worker threads of a tuning run: each owns two processes of the tuned engine, one for the
//! θ + c·flip side and one for the θ − c·flip side (started when first needed, restarted after a
//! crash or stall), gives each its values by `setoption` before every game, and plays the game
//! pairs the main thread hands it with the match runner's game ([`game::play`]): the θ + c·flip
//! side is Black in the first game of the pair and White in the second.

use super::spsa::Trial;
use crate::arena::game::{self, GameOutcome, GameSpec, Rules};
use crate::arena::openings::Opening;
use crate::client::config::EngineConfig;
use crate::client::process::{EngineError, EngineProcess, EngineRegistry, Timeouts};
use crate::client::tc::TimeControl;
use crate::position::{GameResult, ResultReason, Winner};
use crate::record::GameRecord;
use crate::types::Color;
use crate::usi::command::UsiCommand;
use crossbeam_channel::{Receiver, Sender};
use std::time::Duration;

/// The θ + c·flip side (index 0) and the θ − c·flip side (index 1).
pub(super) const SIDES: usize = 2;

/// A pair to play.
pub(super) struct PairJob {
    /// The iteration's values.
    pub trial: Trial,
    /// Its opening.
    pub opening: Opening,
}

/// A pair played.
pub(super) struct PairDone {
    /// What was played.
    pub job: PairJob,
    /// The games: the θ + c·flip side Black in the first, White in the second.
    pub games: [GameOutcome; 2],
}

impl PairDone {
    /// Wins minus losses of the θ + c·flip side.
    pub(super) fn result(&self) -> i32 {
        let plus_colour = [Color::Black, Color::White];
        self.games
            .iter()
            .zip(plus_colour)
            .map(|(g, c)| match g.record.result.map(|r| r.winner) {
                Some(w) if w == Winner::color(c) => 1,
                Some(Winner::Black | Winner::White) => -1,
                _ => 0,
            })
            .sum()
    }
}

/// What the workers share.
#[derive(Clone)]
pub(super) struct Shared {
    /// The tuned engine, named for each side.
    pub confs: [EngineConfig; SIDES],
    /// The names of the tuned options, in the order of the trial's values.
    pub names: Vec<String>,
    /// Adjudication.
    pub rules: Rules,
    /// The time control and the margin.
    pub tc: TimeControl,
    /// Milliseconds beyond the allowance before a move loses on time.
    pub margin: u64,
    /// Handshake timeouts.
    pub timeouts: Timeouts,
    /// Every engine process started (killed on a second Ctrl-C).
    pub registry: EngineRegistry,
}

impl Shared {
    /// The values of `side` in `trial`.
    fn values<'a>(&self, trial: &'a Trial, side: usize) -> &'a [i64] {
        if side == 0 { &trial.plus } else { &trial.minus }
    }

    /// The engine of `side`, running (started if needed) with its values of `trial` set.
    fn ready<'p>(
        &self,
        procs: &'p mut [Option<EngineProcess>; SIDES],
        side: usize,
        trial: &Trial,
    ) -> Result<&'p mut EngineProcess, EngineError> {
        let slot = &mut procs[side];
        let p = match slot {
            Some(p) => p,
            None => slot.insert(EngineProcess::start(&self.confs[side], self.timeouts, None, &self.registry)?),
        };
        for (name, value) in self.names.iter().zip(self.values(trial, side)) {
            p.send(&UsiCommand::SetOption { name: name.clone(), value: Some(value.to_string()) })?;
        }
        Ok(p)
    }

    /// Plays game `number` of `job` with `black` (a side) as Black.
    fn play(
        &self,
        job: &PairJob,
        number: usize,
        black: usize,
        procs: &mut [Option<EngineProcess>; SIDES],
    ) -> GameOutcome {
        let spec = GameSpec {
            number,
            start: job.opening.start.clone(),
            opening: job.opening.moves.clone(),
            opening_name: job.opening.name.clone(),
            tc: [self.tc; 2],
            margin: [self.margin; 2],
        };
        let by_colour = [black, 1 - black];
        for (c, side) in Color::ALL.into_iter().zip(by_colour) {
            if let Err(why) = self.ready(procs, side, &job.trial) {
                procs[side] = None;
                return forfeit(&spec, c, format!("{c} ({}) failed to start: {why}", self.confs[side].name));
            }
        }
        let [a, b] = procs;
        let outcome = match (a.as_mut(), b.as_mut()) {
            (Some(plus), Some(minus)) => {
                let engines = if black == 0 { [plus, minus] } else { [minus, plus] };
                game::play(&spec, engines, &self.rules)
            }
            _ => forfeit(&spec, Color::Black, "engine missing".into()),
        };
        for (c, side) in Color::ALL.into_iter().zip(by_colour) {
            if outcome.faulty[c.index()] {
                if let Some(p) = procs[side].take() {
                    p.quit(Duration::from_millis(300));
                }
            }
        }
        outcome
    }
}

/// A game lost before it began because an engine would not start.
fn forfeit(spec: &GameSpec, loser: Color, why: String) -> GameOutcome {
    let mut record = GameRecord::new(spec.start.clone(), []);
    record.summary.push(why);
    record.result = Some(GameResult::loss(loser, ResultReason::Disconnect));
    let mut faulty = [false; 2];
    faulty[loser.index()] = true;
    GameOutcome { record, faulty, overrun_ms: [0; 2] }
}

/// Plays the pairs of `jobs` until the channel closes, sending each to `done`.
pub(super) fn worker(jobs: Receiver<PairJob>, done: Sender<PairDone>, sh: Shared) {
    let mut procs: [Option<EngineProcess>; SIDES] = [None, None];
    for job in jobs.iter() {
        let first = 2 * job.trial.k as usize + 1;
        let games = [sh.play(&job, first, 0, &mut procs), sh.play(&job, first + 1, 1, &mut procs)];
        if done.send(PairDone { job, games }).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit(Duration::from_millis(500));
    }
}
