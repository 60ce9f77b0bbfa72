//! The worker threads of a tuning run: each owns a process of the tuned engine for the θ + c·flip
//! side and one for the θ − c·flip side, and one of the fixed opponent if there is one (each
//! started when first needed, restarted after a crash or stall), gives the tuned ones their values
//! by `setoption` before every game, and plays the games the main thread hands it with the match
//! runner's game ([`game::play`]). In self-play an iteration is a pair, the θ + c·flip side Black in
//! the first game and White in the second; against an opponent, the θ + c·flip side plays such a
//! pair against it, then the θ − c·flip side.

use super::spsa::Trial;
use crate::arena::GameSettings;
use crate::arena::game::{self, GameOutcome, GameSpec, Rules};
use crate::arena::openings::Opening;
use crate::client::config::EngineConfig;
use crate::client::process::{EngineError, EngineProcess, EngineRegistry, LogSink, Timeouts};
use crate::client::tc::TimeControl;
use crate::position::{GameResult, ResultReason, Winner};
use crate::record::GameRecord;
use crate::types::Color;
use crate::usi::command::UsiCommand;
use crossbeam_channel::{Receiver, Sender};
use std::time::Duration;

/// The θ + c·flip side (index 0), the θ − c·flip side (index 1) and the fixed opponent (index 2).
pub(super) const SIDES: usize = 3;

/// The side of the fixed opponent.
pub(super) const OPPONENT: usize = 2;

/// A pair to play.
pub(super) struct PairJob {
    /// The iteration's values.
    pub trial: Trial,
    /// Its opening.
    pub opening: Opening,
}

/// One game of an iteration: who played it and how it went.
pub(super) struct Played {
    /// The sides (indices into [`SIDES`]) of Black and White.
    pub seats: [usize; 2],
    /// The game.
    pub outcome: GameOutcome,
}

impl Played {
    /// Wins minus losses of `side` in this game (0 if it did not play).
    fn score(&self, side: usize) -> i32 {
        let Some(c) = Color::ALL.into_iter().find(|c| self.seats[c.index()] == side) else { return 0 };
        match self.outcome.record.result.map(|r| r.winner) {
            Some(w) if w == Winner::color(c) => 1,
            Some(Winner::Black | Winner::White) => -1,
            _ => 0,
        }
    }
}

/// The games of an iteration played.
pub(super) struct PairDone {
    /// What was played.
    pub job: PairJob,
    /// The games, in the order played.
    pub games: Vec<Played>,
}

impl PairDone {
    /// Each game's engines, in the order the games were played: the tuned engine (0, either
    /// side) or the opponent (1), and whether it crashed, stalled or failed to start in it.
    pub(super) fn faults(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.games
            .iter()
            .flat_map(|g| Color::ALL.map(|c| ((g.seats[c.index()] == OPPONENT) as usize, g.outcome.faulty[c.index()])))
    }

    /// The iteration's result: wins minus losses of the θ + c·flip side; against an opponent,
    /// less the wins minus losses of the θ − c·flip side, which then plays games of its own.
    pub(super) fn result(&self) -> i32 {
        self.games.iter().map(|g| if g.seats.contains(&0) { g.score(0) } else { -g.score(1) }).sum()
    }
}

/// What the workers share.
#[derive(Clone)]
pub(super) struct Shared {
    /// The tuned engine, named for each of its two sides, then the opponent if there is one.
    pub confs: Vec<EngineConfig>,
    /// The names of the tuned options, in the order of the trial's values.
    pub names: Vec<String>,
    /// Adjudication.
    pub rules: Rules,
    /// The run's time control (an engine's own `tc=` overrides it).
    pub tc: TimeControl,
    /// The run's margin and handshake timeout (an engine's own override them).
    pub game: GameSettings,
    /// Every engine process started (killed on a second Ctrl-C).
    pub registry: EngineRegistry,
    /// Where the transcripts go (`--log`).
    pub log: LogSink,
}

impl Shared {
    /// The values of `side` in `trial` (none for the opponent).
    fn values<'a>(&self, trial: &'a Trial, side: usize) -> &'a [i64] {
        match side {
            0 => &trial.plus,
            1 => &trial.minus,
            _ => &[],
        }
    }

    /// The time control of `side`: its own `tc=`, else the run's.
    fn tc_of(&self, side: usize) -> TimeControl {
        self.confs[side].tc.unwrap_or(self.tc)
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
            None => {
                let conf = &self.confs[side];
                let t = self.game.usi_timeout_of(conf);
                let timeouts = Timeouts { usiok: t, readyok: t };
                slot.insert(EngineProcess::start(conf, timeouts, self.log.clone(), &self.registry)?)
            }
        };
        for (name, value) in self.names.iter().zip(self.values(trial, side)) {
            p.send(&UsiCommand::SetOption { name: name.clone(), value: Some(value.to_string()) })?;
        }
        Ok(p)
    }

    /// Plays game `number` of `job` between the sides `seats` (Black's, White's).
    fn play(
        &self,
        job: &PairJob,
        number: usize,
        seats: [usize; 2],
        procs: &mut [Option<EngineProcess>; SIDES],
    ) -> Played {
        let spec = GameSpec {
            number,
            start: job.opening.start.clone(),
            opening: job.opening.moves.clone(),
            opening_name: job.opening.name.clone(),
            tc: seats.map(|s| self.tc_of(s)),
            margin: seats.map(|s| self.game.time_margin_of(&self.confs[s])),
        };
        for (c, side) in Color::ALL.into_iter().zip(seats) {
            if let Err(why) = self.ready(procs, side, &job.trial) {
                procs[side] = None;
                let outcome = forfeit(&spec, c, format!("{c} ({}) failed to start: {why}", self.confs[side].name));
                return Played { seats, outcome };
            }
        }
        // Two distinct slots of `procs` at once (`get_disjoint_mut` is newer than the MSRV).
        let [black, white] = seats;
        let (low, high) = procs.split_at_mut(black.max(white));
        let (b, w) = if black < white {
            (low[black].as_mut(), high[0].as_mut())
        } else {
            (high[0].as_mut(), low[white].as_mut())
        };
        let outcome = match (b, w) {
            (Some(b), Some(w)) => game::play(&spec, [b, w], &self.rules),
            _ => forfeit(&spec, Color::Black, "engine missing".into()),
        };
        for (c, side) in Color::ALL.into_iter().zip(seats) {
            if outcome.faulty[c.index()] {
                if let Some(p) = procs[side].take() {
                    p.quit(Duration::from_millis(300));
                }
            }
        }
        Played { seats, outcome }
    }

    /// The seats of an iteration's games, in order: the θ + c·flip side Black then White against
    /// the θ − c·flip side, or against the opponent, then the θ − c·flip side likewise.
    fn schedule(&self) -> Vec<[usize; 2]> {
        if self.confs.len() > OPPONENT {
            vec![[0, OPPONENT], [OPPONENT, 0], [1, OPPONENT], [OPPONENT, 1]]
        } else {
            vec![[0, 1], [1, 0]]
        }
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

/// Plays the iterations of `jobs` until the channel closes, sending each to `done`.
pub(super) fn worker(jobs: Receiver<PairJob>, done: Sender<PairDone>, sh: Shared) {
    let mut procs: [Option<EngineProcess>; SIDES] = [None, None, None];
    let schedule = sh.schedule();
    for job in jobs.iter() {
        let first = schedule.len() * job.trial.k as usize + 1;
        let games =
            schedule.iter().enumerate().map(|(i, &seats)| sh.play(&job, first + i, seats, &mut procs)).collect();
        if done.send(PairDone { job, games }).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit(Duration::from_millis(500));
    }
}
