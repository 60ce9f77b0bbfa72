//! The summary `hisha analyze` prints per game and side: the moves judged, their average loss,
//! the count of each mark, and the three largest losses (the swings) with their ply and move in the
//! record's notation.

use super::{GameAnalysis, Mark, PositionReport, move_text};
use crate::record::{Format, GameRecord};
use crate::types::Color;
use std::fmt::Write as _;

/// A player's name from the record's tags, or `?`.
fn player(rec: &GameRecord, side: Color) -> String {
    let tag = if side == Color::Black { "Black" } else { "White" };
    rec.tag(tag).filter(|n| !n.trim().is_empty()).unwrap_or("?").to_string()
}

/// The title of game `game`: `game 3: NAME (Black) vs NAME (White), RESULT`.
pub fn title(game: usize, rec: &GameRecord) -> String {
    let result = rec.result.map_or("no result".to_string(), |r| r.to_string());
    format!("game {game}: {} (Black) vs {} (White), {result}", player(rec, Color::Black), player(rec, Color::White))
}

/// The summary of one analysed game, in `format`'s move notation: a title line, then one line
/// per side (`  Black (NAME): 12 moves, average loss 35, 1 inaccuracy, 0 mistakes, 1 blunder;
/// largest: ply 3 ▲７八銀 (1520), …`).
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
            "  {side:?} ({}): {}, average loss {average}, {}, {}, {}",
            player(rec, side),
            plural(judged.len(), "move"),
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
