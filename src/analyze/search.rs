//! Searching one position with an engine process of the match runner: `isready`, `usinewgame`
//! (so that every position is searched from a fresh hash, and results do not depend on which
//! process got which position, or in what order), `position`, `go` under the time control, then
//! the `info` lines (one per MultiPV line, the last of each kept) until `bestmove`.

use super::Line;
use crate::client::process::{EngineError, EngineProcess};
use crate::client::score_of;
use crate::client::tc::{Clocks, TimeControl};
use crate::types::{Move, UsiMove};
use crate::usi::command::{StartPosition, UsiCommand};
use crate::usi::response::{Info, UsiResponse};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A position to search: where the game started and the moves played since, in USI.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game's start.
    pub start: StartPosition,
    /// The moves played from it.
    pub moves: Vec<String>,
    /// The side to move is Black.
    pub black_to_move: bool,
}

/// The line an `info` line reports, if it reports one (a score, or a PV).
fn line_of(info: &Info) -> Option<Line> {
    if info.string.is_some() || (info.score.is_none() && info.pv.is_empty()) {
        return None;
    }
    let pv: Vec<Move> = info.pv.iter().map_while(|m| m.parse::<UsiMove>().ok().map(UsiMove::to_move)).collect();
    Some(Line { score: info.score.map(score_of), depth: info.depth, nodes: info.nodes, pv })
}

/// How long a search may take before the engine is deemed stalled.
fn allowance(tc: TimeControl, black_to_move: bool, stall: Duration) -> Duration {
    let clocks = Clocks::new(tc, tc);
    let side = if black_to_move { crate::Color::Black } else { crate::Color::White };
    match clocks.allowance(side) {
        Some(ms) => Duration::from_millis(ms) + Duration::from_secs(5),
        None => stall,
    }
}

/// Searches `job` under `tc`; its lines, best first (at least one: without score or PV when the
/// engine gave none, as when it answers `bestmove resign` at once).
pub fn search(
    engine: &mut EngineProcess,
    job: &Job,
    tc: TimeControl,
    stall: Duration,
    ready: Duration,
) -> Result<Vec<Line>, EngineError> {
    engine.drain();
    engine.ready(ready)?;
    engine.send(&UsiCommand::UsiNewGame)?;
    engine.send(&UsiCommand::Position { start: job.start.clone(), moves: job.moves.clone() })?;
    let side = if job.black_to_move { crate::Color::Black } else { crate::Color::White };
    engine.send(&UsiCommand::Go(Clocks::new(tc, tc).go(side)))?;
    let deadline = Instant::now() + allowance(tc, job.black_to_move, stall);
    let mut lines: BTreeMap<u32, Line> = BTreeMap::new();
    let best_text;
    loop {
        match engine.recv(deadline)? {
            UsiResponse::Info(info) => {
                if let Some(line) = line_of(&info) {
                    let k = info.multipv.unwrap_or(1).max(1);
                    // A line without a PV (a bound, say) keeps the PV of its last full report.
                    let pv = if line.pv.is_empty() { lines.remove(&k).map(|l| l.pv) } else { None };
                    lines.insert(k, Line { pv: pv.unwrap_or(line.pv), ..line });
                }
            }
            UsiResponse::BestMove { mv, .. } => {
                best_text = Some(mv);
                break;
            }
            _ => {}
        }
    }
    let mut lines: Vec<Line> = lines.into_values().collect();
    // The best move is the one the engine played, whatever its last info said.
    let best = best_text.and_then(|t| t.parse::<UsiMove>().ok()).map(UsiMove::to_move);
    match (lines.first_mut(), best) {
        (Some(first), Some(b)) if first.pv.first() != Some(&b) => first.pv = vec![b],
        // No line at all (`bestmove resign` with no info): one without score or move, which
        // tells it from a position with no legal move (not searched, no lines).
        (None, b) => lines.push(Line { score: None, depth: None, nodes: None, pv: b.into_iter().collect() }),
        _ => {}
    }
    Ok(lines)
}
