//! The summary `hisha analyze` prints per game and side: the moves judged, their average loss,
//! the count of each mark, and the three largest losses (the swings) with their ply and move in the
//! record's notation.

use super::{GameAnalysis, Mark, NotJudged, PositionReport, move_text};
use crate::Position;
use crate::record::{Format, GameRecord};
use crate::types::Color;
use std::fmt::Write as _;

/// A player's name from the record's tags, or `?`.
fn player(rec: &GameRecord, side: Color) -> String {
    let tag = if side == Color::Black { "Black" } else { "White" };
    rec.tag(tag).filter(|n| !n.trim().is_empty()).unwrap_or("?").to_string()
}

/// Why each move of `side` within the analysed plies has no loss: the report's reason, or the
/// engine's failure on the position it was played from (which has no report).
fn not_judged(analysis: &GameAnalysis, positions: &[Position], side: Color) -> Vec<NotJudged> {
    let planned = |i: usize| analysis.positions.iter().find(|(j, _)| *j == i).map(|(_, r)| r);
    analysis
        .positions
        .iter()
        .filter(|(i, _)| planned(i + 1).is_some())
        .filter(|(i, _)| positions.get(*i).is_some_and(|p| p.side_to_move() == side))
        .filter_map(|(i, outcome)| match outcome {
            Err(_) => Some(NotJudged::EngineFailed),
            Ok(_) => analysis.reports.iter().find(|r| r.ply == i + 1).and_then(|r| r.not_judged),
        })
        .collect()
}

/// ` (3 not judged: 2 no score, 1 engine failure)`, or nothing when every move was judged.
fn not_judged_text(reasons: &[NotJudged]) -> String {
    if reasons.is_empty() {
        return String::new();
    }
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for reason in reasons.iter().map(|r| r.reason()) {
        match counts.iter_mut().find(|(name, _)| *name == reason) {
            Some((_, n)) => *n += 1,
            None => counts.push((reason, 1)),
        }
    }
    let parts: Vec<String> = match &counts[..] {
        [(reason, _)] => vec![reason.to_string()],
        _ => counts.iter().map(|(reason, n)| format!("{n} {reason}")).collect(),
    };
    format!(" ({} not judged: {})", reasons.len(), parts.join(", "))
}

/// The title of game `game`: `game 3: NAME (Black) vs NAME (White), RESULT`.
pub fn title(game: usize, rec: &GameRecord) -> String {
    let result = rec.result.map_or("no result".to_string(), |r| r.to_string());
    format!("game {game}: {} (Black) vs {} (White), {result}", player(rec, Color::Black), player(rec, Color::White))
}

/// The summary of one analysed game, in `format`'s move notation: a title line, then one line
/// per side (`  Black (NAME): 12 moves, average loss 35, 1 inaccuracy, 0 mistakes, 1 blunder;
/// largest: ply 3 ▲７八銀 (1520), …`); the moves within the analysed plies that have no loss are
/// counted after the moves judged, with why (`12 moves (2 not judged: no score), …`).
pub fn summary(game: usize, rec: &GameRecord, analysis: &GameAnalysis, format: Format) -> String {
    let mut out = title(game, rec);
    let failed = analysis.positions.iter().filter(|(_, r)| r.is_err()).count();
    if failed > 0 {
        let _ = write!(out, " ({failed} positions not analysed: engine failure)");
    }
    out.push('\n');
    // Positions in game order, to write the moves in notation.
    let mut positions = Vec::with_capacity(rec.moves.len());
    if let Ok(mut pos) = rec.start.position() {
        for m in &rec.moves {
            positions.push(pos.clone());
            pos.do_move(m.mv);
        }
    }
    for side in [Color::Black, Color::White] {
        let judged: Vec<&PositionReport> = analysis
            .reports
            .iter()
            .filter(|r| r.loss.is_some())
            .filter(|r| positions.get(r.ply - 1).is_some_and(|p| p.side_to_move() == side))
            .collect();
        let total: i64 = judged.iter().filter_map(|r| r.loss).map(i64::from).sum();
        let average = if judged.is_empty() { 0 } else { total / judged.len() as i64 };
        let count = |m: Mark| judged.iter().filter(|r| r.mark == Some(m)).count();
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let _ = write!(
            out,
            "  {side:?} ({}): {}{}, average loss {average}, {}, {}, {}",
            player(rec, side),
            plural(judged.len(), "move"),
            not_judged_text(&not_judged(analysis, &positions, side)),
            plural(count(Mark::Inaccuracy), "inaccuracy").replace("inaccuracys", "inaccuracies"),
            plural(count(Mark::Mistake), "mistake"),
            plural(count(Mark::Blunder), "blunder"),
        );
        let mut largest = judged.clone();
        largest.sort_by_key(|r| (std::cmp::Reverse(r.loss), r.ply));
        let swings: Vec<String> = largest
            .iter()
            .take(3)
            .filter(|r| r.loss.is_some_and(|l| l > 0))
            .filter_map(|r| {
                let pos = positions.get(r.ply - 1)?;
                let m = rec.moves.get(r.ply - 1)?.mv;
                Some(format!("ply {} {} ({})", r.ply, move_text(format, pos, m), r.loss.unwrap_or(0)))
            })
            .collect();
        if !swings.is_empty() {
            let _ = write!(out, "; largest: {}", swings.join(", "));
        }
        out.push('\n');
    }
    out
}
