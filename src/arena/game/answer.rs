//! Asking the engine to move: `position` and `go`, then its `info` lines and `bestmove`, read until
//! a deadline (with a last chance to answer `stop`).

use crate::client::process::{EngineError, EngineProcess};
use crate::client::score_of;
use crate::record::EngineInfo;
use crate::types::UsiMove;
use crate::usi::command::{GoParams, StartPosition, UsiCommand};
use crate::usi::response::UsiResponse;
use std::time::{Duration, Instant};

/// What an engine answered to `go`.
pub(super) struct Answer {
    /// The move as written (`7g7f`, `resign`, `win`, or anything else the engine sent).
    pub text: String,
    /// What it said about the move (score, depth, nodes, principal variation).
    pub info: EngineInfo,
    /// When the `bestmove` line was read.
    pub at: Instant,
}

/// Notes what an `info` line of the main line says.
fn note(info: &mut EngineInfo, line: crate::usi::response::Info) {
    if line.multipv.unwrap_or(1) != 1 || line.string.is_some() {
        return;
    }
    if let Some(s) = line.score {
        info.score = Some(score_of(s));
    }
    info.depth = line.depth.or(info.depth);
    info.nodes = line.nodes.or(info.nodes);
    if !line.pv.is_empty() {
        info.pv = line.pv.iter().filter_map(|m| m.parse::<UsiMove>().ok().map(UsiMove::to_move)).collect();
    }
}

/// Sends the position (`start` and `moves`) and `go`, and reads the answer until `deadline`; then
/// sends `stop` and waits half a second more.
pub(super) fn think(
    engine: &mut EngineProcess,
    start: &StartPosition,
    moves: &[String],
    go: &GoParams,
    deadline: Instant,
) -> Result<Answer, EngineError> {
    engine.drain();
    engine.send(&UsiCommand::Position { start: start.clone(), moves: moves.to_vec() })?;
    engine.send(&UsiCommand::Go(go.clone()))?;
    let mut info = EngineInfo::default();
    loop {
        match engine.recv(deadline) {
            Ok(UsiResponse::BestMove { mv, .. }) => return Ok(Answer { text: mv, info, at: engine.last_read() }),
            Ok(UsiResponse::Info(line)) => note(&mut info, line),
            Ok(_) => {}
            Err(EngineError::Timeout(..)) => return last_chance(engine, info),
            Err(e) => return Err(e),
        }
    }
}

/// After the deadline: `stop`, and a `bestmove` within half a second.
fn last_chance(engine: &mut EngineProcess, info: EngineInfo) -> Result<Answer, EngineError> {
    let _ = engine.send(&UsiCommand::Stop);
    let grace = Instant::now() + Duration::from_millis(500);
    loop {
        match engine.recv(grace) {
            Ok(UsiResponse::BestMove { mv, .. }) => return Ok(Answer { text: mv, info, at: engine.last_read() }),
            Ok(_) => {}
            Err(_) => return Err(EngineError::Timeout("bestmove", 0)),
        }
    }
}
