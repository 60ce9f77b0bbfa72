//! Record analysis (`hisha analyze`): every position of a game searched by a USI engine (hisha
//! itself by default, any engine `hisha match` accepts), and every played move judged against the
//! engine's best move.
//!
//! - `search` searches one position with the match runner's engine client; `pool` shares the
//!   positions of all games among `--concurrency` engine processes.
//! - `judge` turns scores into values, a move's `loss` and its `mark` (the thresholds and the
//!   handling of mates are documented there).
//! - [`PositionReport`] is one analysed position as `--json` writes it; [`analyse_games`] makes
//!   them; `annotate` puts the analysis into a record (engine comments and a comment per move),
//!   `summary` writes the per-side summary and `svg` the evaluation graph.

mod annotate;
mod games;
mod judge;
mod pool;
mod search;
mod summary;
mod svg;

pub use annotate::{annotate, move_text};
pub use games::{analyse_games, jobs_of, positions_to_analyse};
pub use judge::{Mark, NotJudged, THRESHOLDS};
pub use pool::{EngineSetup, Outcome};
pub use search::Job;
pub use summary::summary;
pub use svg::svg;

use crate::position::Position;
use crate::record::{GameRecord, Score};
use crate::types::{Color, Move};
use serde::Serialize;

/// One line an engine reported for a position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its score (`None`: the engine gave none).
    pub score: Option<Score>,
    /// Its depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The principal variation, from the position.
    pub pv: Vec<Move>,
}

/// One analysed position, as `--json` writes it (one object per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionReport {
    /// The game, 1-based, counted over all inputs.
    pub game: usize,
    /// The 1-based ply of the move played from this position.
    pub ply: usize,
    /// The position.
    pub sfen: String,
    /// The move played from it (USI); absent after the last move.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// The engine's best move (USI; `None`: no legal move, or the engine gave none).
    pub best: Option<String>,
    /// The engine's principal variation (USI).
    pub pv: Vec<String>,
    /// Centipawns from Black's point of view (absent when the score is a mate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Mate in this many plies, positive when Black mates (absent unless a mate was found; 0 is
    /// the side to move being mated: no legal move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// Centipawns the played move gave up against `best`, from the mover's point of view (null
    /// when unknown: no move, or a position around it not analysed).
    pub loss: Option<i32>,
    /// The mark the loss earns, by [`THRESHOLDS`].
    pub mark: Option<Mark>,
    /// Why the move played has no loss, when it is within the analysed plies (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_judged: Option<NotJudged>,
    /// The further lines with `--multipv K`, K > 1: best move, score (Black's view), mate, PV.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
}

/// A further MultiPV line of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Alternative {
    /// Its first move (USI).
    pub best: String,
    /// Centipawns from Black's point of view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Mate in plies, positive when Black mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The line (USI).
    pub pv: Vec<String>,
}

/// One game's analysis.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// The positions analysed, in order, with the lines found (empty: the side to move had no
    /// legal move); `Err` where the engine failed.
    pub positions: Vec<(usize, Result<Vec<Line>, String>)>,
    /// The reports, one per analysed position (the failed ones left out).
    pub reports: Vec<PositionReport>,
}

/// Black's view of a score given from `side`'s.
fn for_black(score: Score, side: Color) -> Score {
    if side == Color::Black { score } else { -score }
}

fn split(score: Option<Score>) -> (Option<i32>, Option<i32>) {
    match score {
        Some(Score::Cp(v)) => (Some(v), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    }
}

/// Builds the reports of game `game` (1-based) from the outcomes of its analysed positions
/// (`positions`: index, lines or the engine's failure).
pub(crate) fn analyse_game(game: usize, rec: &GameRecord, positions: Vec<(usize, Outcome)>) -> GameAnalysis {
    let outcome_at = |i: usize| positions.iter().find(|(j, _)| *j == i).map(|(_, r)| r.as_ref());
    let mut reports = Vec::new();
    let Ok(mut pos) = rec.start.position() else { return GameAnalysis { positions, reports } };
    for i in 0..=rec.moves.len() {
        if let Some(Ok(lines)) = outcome_at(i) {
            reports.push(report(game, i, &pos, rec.moves.get(i).map(|m| m.mv), lines, outcome_at(i + 1)));
        }
        if let Some(m) = rec.moves.get(i) {
            pos.do_move(m.mv);
        }
    }
    GameAnalysis { positions, reports }
}

/// The loss of a move played from a position whose first line is `first`, with `next` the lines
/// of the position after it, or why there is none.
fn judge_move(first: Option<&Line>, next: &[Line], played_best: bool) -> Result<i32, NotJudged> {
    let best = first.and_then(|l| l.score).ok_or(NotJudged::NoScore)?;
    // A next position with no lines has no legal move: the opponent is mated.
    let after = match next.first() {
        None => judge::value(None),
        Some(l) => judge::value(Some(l.score.ok_or(NotJudged::NoScoreAfter)?)),
    };
    Ok(judge::loss(judge::value(Some(best)), after, played_best))
}

/// The report of position `i` (`pos`), where `played` was played; `next` is the analysis of the
/// position after it (`None`: not analysed, outside the plies asked for; `Err`: the engine
/// failed on it).
fn report(
    game: usize,
    i: usize,
    pos: &Position,
    played: Option<Move>,
    lines: &[Line],
    next: Option<Result<&Vec<Line>, &String>>,
) -> PositionReport {
    let side = pos.side_to_move();
    let usi = |pv: &[Move]| pv.iter().map(Move::to_string).collect::<Vec<_>>();
    let first = lines.first();
    let best = first.and_then(|l| l.pv.first().copied()).filter(|&m| pos.is_legal(m));
    let (score, mate) = match first {
        None => (None, Some(0)), // no legal move: mated
        Some(l) => split(l.score.map(|s| for_black(s, side))),
    };
    let judged = match (played, next) {
        (Some(m), Some(Ok(next))) => Some(judge_move(first, next, Some(m) == best)),
        (Some(_), Some(Err(_))) => Some(Err(NotJudged::EngineFailedAfter)),
        (None, _) | (_, None) => None, // no move played, or the next position is outside the plies
    };
    let (loss, not_judged) = match judged {
        Some(Ok(loss)) => (Some(loss), None),
        Some(Err(why)) => (None, Some(why)),
        None => (None, None),
    };
    // A search stopped inside an iteration reports its new first line alone, so an older line 2
    // or 3 can start with the same move; each move is listed once, at its first (best) line.
    let mut listed: Vec<Move> = best.into_iter().collect();
    let alternatives = lines
        .iter()
        .skip(1)
        .filter_map(|l| {
            let first = l.pv.first()?;
            if listed.contains(first) {
                return None;
            }
            listed.push(*first);
            let (score, mate) = split(l.score.map(|s| for_black(s, side)));
            Some(Alternative { best: first.to_string(), score, mate, pv: usi(&l.pv) })
        })
        .collect();
    PositionReport {
        game,
        ply: i + 1,
        sfen: pos.to_sfen(),
        played: played.map(|m| m.to_string()),
        best: best.map(|m| m.to_string()),
        pv: first.map_or(Vec::new(), |l| usi(&l.pv)),
        score,
        mate,
        loss,
        mark: loss.and_then(judge::mark),
        not_judged,
        alternatives,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_already_listed_is_not_listed_again_as_an_alternative() {
        // A search stopped inside its last iteration: line 1 is that iteration's new best move,
        // lines 2 and 3 are the previous iteration's, whose line 2 is the same move.
        let pos = Position::startpos();
        let line = |moves: &[&str]| Line {
            score: None,
            depth: Some(6),
            nodes: None,
            pv: moves.iter().map(|m| pos.parse_usi_move(m).expect("legal")).collect(),
        };
        let lines = [line(&["2g2f"]), line(&["2g2f"]), line(&["7g7f"]), line(&["7g7f"])];
        let r = report(0, 0, &pos, None, &lines, None);
        assert_eq!(r.best.as_deref(), Some("2g2f"));
        let alternatives: Vec<&str> = r.alternatives.iter().map(|a| a.best.as_str()).collect();
        assert_eq!(alternatives, ["7g7f"]);
    }
}
