//! One game of a match: clocks kept by the runner, every engine move checked legal, and every
//! way a game ends adjudicated (rules.md §4–§8): checkmate (no legal move), resignation,
//! repetition and perpetual check, declarations judged by the chosen rule (a false claim loses),
//! the move limit (after ply N the side to move loses if it has no legal move, otherwise draw),
//! loss on time beyond the margin, illegal or unparsable moves, crashes and stalls, and optional
//! resign/draw adjudication by score.

mod answer;
mod rules;

pub(crate) use rules::Rules;

use super::timestamp::now_text;
use crate::client::process::{EngineError, EngineProcess};
use crate::client::tc::{Clocks, TimeControl, Verdict};
use crate::position::{DeclarationOutcome, GameResult, Position, Repetition, ResultReason, Winner};
use crate::record::{EngineInfo, GameRecord, MoveRecord, Score, Start};
use crate::types::{Color, Move};
use crate::usi::command::{GameOverResult, StartPosition, UsiCommand};
use answer::Answer;
use rules::ScoreStreaks;
use std::time::{Duration, Instant};

/// What to play.
#[derive(Clone, Debug)]
pub(crate) struct GameSpec {
    /// Game number (1-based, as in the schedule).
    pub number: usize,
    /// Start position.
    pub start: Start,
    /// Opening moves played before the engines take over.
    pub opening: Vec<Move>,
    /// Opening name or index (for the record).
    pub opening_name: String,
    /// Time controls of Black and White.
    pub tc: [TimeControl; 2],
    /// Tolerance beyond the time allowance of Black and White, in ms.
    pub margin: [u64; 2],
}

/// A finished game.
#[derive(Debug)]
pub(crate) struct GameOutcome {
    /// The record (result, moves, times, engine data).
    pub record: GameRecord,
    /// Engines to restart before their next game (crashed or stalled), by color.
    pub faulty: [bool; 2],
    /// Largest time overrun of each side within the margin, ms.
    pub overrun_ms: [u64; 2],
}

/// The prefix of a game's transcript lines in the log: `game 12 black fairy-stockfish`.
fn transcript_name(number: usize, c: Color, engine: &str) -> String {
    let side = if c == Color::Black { "black" } else { "white" };
    format!("game {number} {side} {engine}")
}

/// A score as centipawns for adjudication (a mate as ±30000).
fn cp_of(s: Option<Score>) -> Option<i32> {
    match s? {
        Score::Cp(v) => Some(v),
        Score::Mate(n) if n > 0 => Some(30_000),
        Score::Mate(_) => Some(-30_000),
    }
}

/// Plays one game between `engines[0]` (Black) and `engines[1]` (White).
pub(crate) fn play(spec: &GameSpec, engines: [&mut EngineProcess; 2], rules: &Rules) -> GameOutcome {
    let mut game = Game::new(spec, engines, rules);
    let result = game.start().unwrap_or_else(|| game.play_out());
    game.finish(result)
}

/// A game in progress.
struct Game<'a> {
    spec: &'a GameSpec,
    rules: &'a Rules,
    engines: [&'a mut EngineProcess; 2],
    pos: Position,
    /// The start as `position` sends it, and the moves played since.
    start: StartPosition,
    usi_moves: Vec<String>,
    record: GameRecord,
    clocks: Clocks,
    /// Time each side has used, ms.
    totals: [u64; 2],
    faulty: [bool; 2],
    overrun_ms: [u64; 2],
    scores: ScoreStreaks,
}

impl<'a> Game<'a> {
    /// The start position with the opening played (up to its first illegal move, if any).
    fn new(spec: &'a GameSpec, engines: [&'a mut EngineProcess; 2], rules: &'a Rules) -> Game<'a> {
        let start = match &spec.start {
            Start::Handicap(crate::Handicap::Even) => StartPosition::Startpos,
            s => StartPosition::Sfen(s.sfen()),
        };
        let mut game = Game {
            spec,
            rules,
            engines,
            pos: spec.start.position().unwrap_or_else(|_| Position::startpos()),
            start,
            usi_moves: Vec::new(),
            record: GameRecord::new(spec.start.clone(), []),
            clocks: Clocks::new(spec.tc[0], spec.tc[1]),
            totals: [0; 2],
            faulty: [false; 2],
            overrun_ms: [0; 2],
            scores: ScoreStreaks::default(),
        };
        // When the game starts and ends, to the second, as cutechess and fastchess write them; KIF
        // and CSA write them as `開始日時`/`終了日時` and `$START_TIME`/`$END_TIME`.
        game.record.set_tag("GameStartTime", now_text());
        for &m in &spec.opening {
            if !game.pos.is_legal(m) {
                break;
            }
            let mut r = MoveRecord::new(m);
            r.comments.push("opening".into());
            game.push(r);
        }
        game
    }

    /// Plays the move of `r` and records it.
    fn push(&mut self, r: MoveRecord) {
        self.pos.do_move(r.mv);
        self.usi_moves.push(r.mv.to_string());
        self.record.moves.push(r);
    }

    /// Names the engines' log lines after the game and prepares them for it (`isready`,
    /// `usinewgame`); the result if one fails.
    fn start(&mut self) -> Option<GameResult> {
        for (c, e) in Color::ALL.into_iter().zip(self.engines.iter()) {
            e.set_context(transcript_name(self.spec.number, c, &e.config.name));
        }
        for c in Color::ALL {
            if let Err(e) = self.engines[c.index()].new_game() {
                self.record.summary.push(format!("{c} engine failed to start the game: {e}"));
                self.faulty[c.index()] = true;
                return Some(GameResult::loss(c, ResultReason::Disconnect));
            }
        }
        None
    }

    /// Plays moves until the game ends.
    fn play_out(&mut self) -> GameResult {
        loop {
            if let Some(result) = self.ending_on_the_board() {
                return result;
            }
            let us = self.pos.side_to_move();
            let (answer, elapsed) = match self.ask(us) {
                Ok(a) => a,
                Err(e) => return self.engine_failed(us, e),
            };
            let verdict = self.clocks.charge(us, elapsed, self.spec.margin[us.index()]);
            self.overrun_ms[us.index()] = self.overrun_ms[us.index()].max(verdict.overrun_ms);
            let m = match self.judge(us, &answer.text, verdict) {
                Ok(m) => m,
                Err(result) => return result,
            };
            let score = cp_of(answer.info.score);
            self.record_move(us, m, answer.info, elapsed, verdict);
            if let Some(result) = score.and_then(|cp| self.scores.count(us, cp, self.rules)) {
                self.record.summary.push(ScoreStreaks::note(&result, self.rules));
                return result;
            }
        }
    }

    /// How the game ends by its rules in the position on the board, if it does: checkmate,
    /// repetition, perpetual check, the move limit.
    fn ending_on_the_board(&self) -> Option<GameResult> {
        if !self.pos.has_legal_move() {
            return Some(GameResult::loss(self.pos.side_to_move(), ResultReason::Checkmate));
        }
        match self.pos.repetition(4) {
            Repetition::Draw => return Some(GameResult::draw(ResultReason::Repetition)),
            Repetition::PerpetualCheckBy(c) => return Some(GameResult::loss(c, ResultReason::PerpetualCheck)),
            Repetition::None => {}
        }
        (self.record.moves.len() as u32 >= self.rules.max_plies).then(|| GameResult::draw(ResultReason::MaxMoves))
    }

    /// Sends the position and `go` to the side to move, and reads its answer with the clock's
    /// allowance (plus the margin and a second) or, untimed, until the engine is deemed stalled;
    /// the answer and the milliseconds it took.
    fn ask(&mut self, us: Color) -> Result<(Answer, u64), EngineError> {
        let go = self.clocks.go(us);
        let wait = match self.clocks.allowance(us) {
            Some(a) => Duration::from_millis(a + self.spec.margin[us.index()]) + Duration::from_millis(1000),
            None => self.rules.stall,
        };
        let asked = Instant::now();
        let engine = &mut *self.engines[us.index()];
        let answer = answer::think(engine, &self.start, &self.usi_moves, &go, asked + wait)?;
        let elapsed = answer.at.saturating_duration_since(asked).as_millis() as u64;
        Ok((answer, elapsed))
    }

    /// The engine of `us` crashed or did not answer: it loses (on time if its clock ran out).
    fn engine_failed(&mut self, us: Color, e: EngineError) -> GameResult {
        self.faulty[us.index()] = true;
        let reason = match e {
            EngineError::Timeout(..) if self.clocks.allowance(us).is_some() => ResultReason::Time,
            _ => ResultReason::Disconnect,
        };
        self.record.summary.push(format!("{us} ({}) {e}", self.engines[us.index()].config.name));
        GameResult::loss(us, reason)
    }

    /// Judges the answer `text` of `us`: the move to play, or the result when the answer ends the
    /// game (too late, a resignation, a declaration, an illegal or unreadable move).
    fn judge(&mut self, us: Color, text: &str, verdict: Verdict) -> Result<Move, GameResult> {
        if verdict.lost_on_time {
            self.record.summary.push(format!("{us} overran its allowance by {} ms with {text}", verdict.overrun_ms));
            return Err(GameResult::loss(us, ResultReason::Time));
        }
        match text {
            "resign" => return Err(GameResult::loss(us, ResultReason::Resign)),
            "win" => return Err(self.declaration(us)),
            _ => {}
        }
        self.pos.parse_usi_move(text).map_err(|e| {
            self.record.summary.push(format!("{us} ({}) played {text:?}: {e}", self.engines[us.index()].config.name));
            GameResult::loss(us, ResultReason::IllegalMove)
        })
    }

    /// The result of `us` declaring a win (a false declaration loses).
    fn declaration(&mut self, us: Color) -> GameResult {
        match self.pos.declaration(self.rules.entering_king) {
            DeclarationOutcome::Win => GameResult::win(us, ResultReason::Declaration),
            DeclarationOutcome::Draw => GameResult::draw(ResultReason::Declaration),
            DeclarationOutcome::Invalid(why) => {
                self.record.summary.push(format!("{us} declared a win, but {why}"));
                GameResult::loss(us, ResultReason::IllegalMove)
            }
        }
    }

    /// Plays and records the move `m` of `us` with its time and what the engine said about it.
    fn record_move(&mut self, us: Color, m: Move, info: EngineInfo, elapsed: u64, verdict: Verdict) {
        self.totals[us.index()] += elapsed;
        let mut r = MoveRecord::new(m);
        r.time_ms = Some(elapsed);
        r.total_ms = Some(self.totals[us.index()]);
        if verdict.overrun_ms > 0 {
            r.comments.push(format!("overran the allowance by {} ms (within the margin)", verdict.overrun_ms));
        }
        r.engine = info;
        self.push(r);
    }

    /// Tells the engines that did not fail how the game ended (`gameover`); the outcome.
    fn finish(self, result: GameResult) -> GameOutcome {
        for c in Color::ALL {
            if self.faulty[c.index()] {
                continue;
            }
            let word = match result.winner {
                Winner::Draw | Winner::Unfinished => GameOverResult::Draw,
                w if w == Winner::color(c) => GameOverResult::Win,
                _ => GameOverResult::Lose,
            };
            let _ = self.engines[c.index()].send(&UsiCommand::GameOver(Some(word)));
        }
        let mut record = self.record;
        record.set_tag("GameEndTime", now_text());
        record.result = Some(result);
        GameOutcome { record, faulty: self.faulty, overrun_ms: self.overrun_ms }
    }
}
