//! One game of a match: clocks kept by the runner, every engine move checked legal, and every
//! way a game ends adjudicated (rules.md §4–§8): checkmate (no legal move), resignation,
//! repetition and perpetual check, declarations judged by the chosen rule (a false claim loses),
//! the move limit (after ply N the side to move loses if it has no legal move, otherwise draw),
//! loss on time beyond the margin, illegal or unparsable moves, crashes and stalls, and optional
//! resign/draw adjudication by score.

use super::process::{EngineError, EngineProcess};
use super::tc::{Clocks, TimeControl};
use crate::position::{DeclarationOutcome, EnteringKingRule, GameResult, Position, Repetition, ResultReason, Winner};
use crate::record::{EngineInfo, GameRecord, MoveRecord, Score, Start};
use crate::types::{Color, Move, UsiMove};
use crate::usi::command::{GameOverResult, StartPosition, UsiCommand};
use crate::usi::response::{InfoScore, UsiResponse};
use std::time::{Duration, Instant};

/// Adjudication settings.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Draw after this many plies (counted from the start position, opening included).
    pub max_plies: u32,
    /// Resign adjudication: (centipawns, plies) — both engines agree for that many plies each.
    pub resign: Option<(i32, u32)>,
    /// Draw adjudication: (centipawns, plies) — both scores within ±cp for that many plies.
    pub draw: Option<(i32, u32)>,
    /// Entering-king rule for `bestmove win`.
    pub entering_king: EnteringKingRule,
    /// How long an untimed (nodes/depth) move may take before the engine is deemed stalled.
    pub stall: Duration,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct GameSpec {
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
pub struct GameOutcome {
    /// The record (result, moves, times, engine data).
    pub record: GameRecord,
    /// Engines to restart before their next game (crashed or stalled), by color.
    pub faulty: [bool; 2],
    /// Largest time overrun of each side within the margin, ms.
    pub overrun_ms: [u64; 2],
}

fn score_of(s: InfoScore) -> Score {
    match s {
        InfoScore::Cp(v) => Score::Cp(v),
        InfoScore::Mate(n) => Score::Mate(n),
        InfoScore::MatePlus => Score::Mate(1),
        InfoScore::MateMinus => Score::Mate(-1),
    }
}

fn cp_of(s: Option<Score>) -> Option<i32> {
    match s? {
        Score::Cp(v) => Some(v),
        Score::Mate(n) if n > 0 => Some(30_000),
        Score::Mate(_) => Some(-30_000),
    }
}

/// What an engine answered to `go`: the move, what it said about it, and when it was read.
enum Answer {
    Move(String, EngineInfo, Instant),
    Failed(EngineError),
}

fn think(
    engine: &mut EngineProcess,
    start: &StartPosition,
    moves: &[String],
    go: &crate::usi::command::GoParams,
    deadline: Instant,
) -> Answer {
    engine.drain();
    let cmds = [UsiCommand::Position { start: start.clone(), moves: moves.to_vec() }, UsiCommand::Go(go.clone())];
    for c in &cmds {
        if let Err(e) = engine.send(c) {
            return Answer::Failed(e);
        }
    }
    let mut info = EngineInfo::default();
    loop {
        match engine.recv(deadline) {
            Ok(UsiResponse::BestMove { mv, .. }) => return Answer::Move(mv, info, engine.last_read()),
            Ok(UsiResponse::Info(i)) if i.multipv.unwrap_or(1) == 1 && i.string.is_none() => {
                if let Some(s) = i.score {
                    info.score = Some(score_of(s));
                }
                info.depth = i.depth.or(info.depth);
                info.nodes = i.nodes.or(info.nodes);
                if !i.pv.is_empty() {
                    info.pv = i.pv.iter().filter_map(|m| m.parse::<UsiMove>().ok().map(UsiMove::to_move)).collect();
                }
            }
            Ok(_) => {}
            Err(EngineError::Timeout(..)) => {
                // Give it a last chance to answer a `stop`.
                let _ = engine.send(&UsiCommand::Stop);
                let grace = Instant::now() + Duration::from_millis(500);
                loop {
                    match engine.recv(grace) {
                        Ok(UsiResponse::BestMove { mv, .. }) => return Answer::Move(mv, info, engine.last_read()),
                        Ok(_) => {}
                        Err(_) => return Answer::Failed(EngineError::Timeout("bestmove", 0)),
                    }
                }
            }
            Err(e) => return Answer::Failed(e),
        }
    }
}

/// The prefix of a game's transcript lines in the log: `game 12 black fairy-stockfish`.
pub fn transcript_name(number: usize, c: Color, engine: &str) -> String {
    let side = if c == Color::Black { "black" } else { "white" };
    format!("game {number} {side} {engine}")
}

/// Plays one game between `engines[0]` (Black) and `engines[1]` (White).
pub fn play(spec: &GameSpec, engines: [&mut EngineProcess; 2], rules: &Rules) -> GameOutcome {
    let [black, white] = engines;
    let engines = [black, white];
    let mut pos = spec.start.position().unwrap_or_else(|_| Position::startpos());
    let mut record = GameRecord::new(spec.start.clone(), []);
    let mut faulty = [false; 2];
    let mut overrun_ms = [0u64; 2];
    let mut clocks = Clocks::new(spec.tc[0], spec.tc[1]);
    let mut totals = [0u64; 2];
    let start_cmd = match &spec.start {
        Start::Handicap(crate::Handicap::Even) => StartPosition::Startpos,
        s => StartPosition::Sfen(s.sfen()),
    };
    let mut usi_moves: Vec<String> = Vec::new();
    for &m in &spec.opening {
        if !pos.is_legal(m) {
            break;
        }
        pos.do_move(m);
        usi_moves.push(m.to_string());
        let mut r = MoveRecord::new(m);
        r.comments.push("opening".into());
        record.moves.push(r);
    }
    let mut result = None;
    for (c, e) in Color::ALL.into_iter().zip(engines.iter()) {
        e.set_context(transcript_name(spec.number, c, &e.config.name));
    }
    for c in Color::ALL {
        if let Err(e) = engines[c.index()].new_game() {
            record.summary.push(format!("{c} engine failed to start the game: {e}"));
            faulty[c.index()] = true;
            result = Some(GameResult::loss(c, ResultReason::Disconnect));
            break;
        }
    }
    let mut low_streak = [0u32; 2];
    let mut high_streak = [0u32; 2];
    let mut draw_streak = 0u32;
    while result.is_none() {
        let us = pos.side_to_move();
        let ply = record.moves.len() as u32;
        // Game-rule endings of the position on the board.
        if !pos.has_legal_move() {
            result = Some(GameResult::loss(us, ResultReason::Checkmate));
            break;
        }
        match pos.repetition(4) {
            Repetition::Draw => {
                result = Some(GameResult::draw(ResultReason::Repetition));
                break;
            }
            Repetition::PerpetualCheckBy(c) => {
                result = Some(GameResult::loss(c, ResultReason::PerpetualCheck));
                break;
            }
            Repetition::None => {}
        }
        if ply >= rules.max_plies {
            result = Some(GameResult::draw(ResultReason::MaxMoves));
            break;
        }
        let go = clocks.go(us);
        let wait = match clocks.allowance(us) {
            Some(a) => Duration::from_millis(a + spec.margin[us.index()]) + Duration::from_millis(1000),
            None => rules.stall,
        };
        let t0 = Instant::now();
        let answer = think(engines[us.index()], &start_cmd, &usi_moves, &go, t0 + wait);
        let (text, info, elapsed) = match answer {
            Answer::Move(t, i, at) => (t, i, at.saturating_duration_since(t0).as_millis() as u64),
            Answer::Failed(e) => {
                faulty[us.index()] = true;
                let timed = clocks.allowance(us).is_some();
                let reason = match e {
                    EngineError::Timeout(..) if timed => ResultReason::Time,
                    _ => ResultReason::Disconnect,
                };
                record.summary.push(format!("{us} ({}) {e}", engines[us.index()].config.name));
                result = Some(GameResult::loss(us, reason));
                break;
            }
        };
        let verdict = clocks.charge(us, elapsed, spec.margin[us.index()]);
        overrun_ms[us.index()] = overrun_ms[us.index()].max(verdict.overrun_ms);
        if verdict.lost_on_time {
            record.summary.push(format!("{us} overran its allowance by {} ms with {text}", verdict.overrun_ms));
            result = Some(GameResult::loss(us, ResultReason::Time));
            break;
        }
        match text.as_str() {
            "resign" => {
                result = Some(GameResult::loss(us, ResultReason::Resign));
                break;
            }
            "win" => {
                result = Some(match pos.declaration(rules.entering_king) {
                    DeclarationOutcome::Win => GameResult::win(us, ResultReason::Declaration),
                    DeclarationOutcome::Draw => GameResult::draw(ResultReason::Declaration),
                    DeclarationOutcome::Invalid(why) => {
                        record.summary.push(format!("{us} declared a win, but {why}"));
                        GameResult::loss(us, ResultReason::IllegalMove)
                    }
                });
                break;
            }
            _ => {}
        }
        let m = match pos.parse_usi_move(&text) {
            Ok(m) => m,
            Err(e) => {
                record.summary.push(format!("{us} ({}) played {text:?}: {e}", engines[us.index()].config.name));
                result = Some(GameResult::loss(us, ResultReason::IllegalMove));
                break;
            }
        };
        totals[us.index()] += elapsed;
        let mut r = MoveRecord::new(m);
        r.time_ms = Some(elapsed);
        r.total_ms = Some(totals[us.index()]);
        if verdict.overrun_ms > 0 {
            r.comments.push(format!("overran the allowance by {} ms (within the margin)", verdict.overrun_ms));
        }
        let score = cp_of(info.score);
        r.engine = info;
        record.moves.push(r);
        pos.do_move(m);
        usi_moves.push(m.to_string());
        // Score adjudication.
        if let Some(s) = score {
            let i = us.index();
            low_streak[i] = if rules.resign.is_some_and(|(cp, _)| s <= -cp) { low_streak[i] + 1 } else { 0 };
            high_streak[i] = if rules.resign.is_some_and(|(cp, _)| s >= cp) { high_streak[i] + 1 } else { 0 };
            draw_streak = if rules.draw.is_some_and(|(cp, _)| s.abs() <= cp) { draw_streak + 1 } else { 0 };
            if let Some((_, n)) = rules.resign {
                if low_streak[i] >= n && high_streak[1 - i] >= n {
                    result = Some(GameResult::loss(us, ResultReason::Adjudication));
                }
                if high_streak[i] >= n && low_streak[1 - i] >= n {
                    result = Some(GameResult::win(us, ResultReason::Adjudication));
                }
            }
            if let Some((_, n)) = rules.draw {
                if draw_streak >= 2 * n {
                    result = Some(GameResult::draw(ResultReason::Adjudication));
                }
            }
        }
    }
    let result = result.unwrap_or(GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt });
    for c in Color::ALL {
        if !faulty[c.index()] {
            let word = match result.winner {
                Winner::Draw | Winner::Unfinished => GameOverResult::Draw,
                w if w == Winner::color(c) => GameOverResult::Win,
                _ => GameOverResult::Lose,
            };
            let _ = engines[c.index()].send(&UsiCommand::GameOver(Some(word)));
        }
    }
    record.result = Some(result);
    GameOutcome { record, faulty, overrun_ms }
}
