//! The analysis written into a record, for the record writers' engine comments (KIF/KI2: the
//! `**解析 0 候補1 … 評価値 … 読み筋 …` lines ShogiGUI writes after an analysis; CSA:
//! floodgate's `'**`; PSN/PSN2: `{score … pv …}`): each analysed move gets the engine's view of
//! the move played — the score after it from the mover's point of view (the next position's score,
//! negated), that search's depth and nodes, and as PV the move followed by the next position's PV —
//! and a comment with the loss, the mark and the engine's best move and line in the record's own
//! notation (`analyze: blunder, loss 1520; best ▲７七角成 △同　銀 …, 35`).

use super::{GameAnalysis, Line, judge};
use crate::position::Position;
use crate::record::{self, EngineInfo, Format, GameRecord, Score, ki2, notation};
use crate::types::Move;

/// A move in `format`'s notation (KIF, KIFU and KI2: the Japanese KI2 form; CSA: `+7776FU`; PSN,
/// PSN2: the western form; USI lines: USI).
pub fn move_text(format: Format, pos: &Position, m: Move) -> String {
    match format {
        Format::Psn | Format::Psn2 => notation::write(pos, m),
        Format::Usi => m.to_string(),
        Format::Csa => record::csa_move_text(pos, m),
        _ => ki2::write_move(pos, m),
    }
}

/// The moves of `pv` from `pos` in `format`'s notation, as far as they are legal.
fn line_text(format: Format, pos: &Position, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        words.push(move_text(format, &pos, m));
        pos.do_move(m);
    }
    words.join(" ")
}

/// A score as a comment writes it, from the mover's point of view.
fn score_text(s: Option<Score>) -> String {
    match s {
        Some(Score::Cp(v)) => format!("{v:+}"),
        Some(Score::Mate(n)) if n >= 0 => format!("mate in {n}"),
        Some(Score::Mate(n)) => format!("mated in {}", -n),
        None => "no score".to_string(),
    }
}

/// `rec` with the analysis written into it for `format` (see the module documentation); moves
/// not analysed keep what they had.
pub fn annotate(rec: &GameRecord, analysis: &GameAnalysis, format: Format) -> GameRecord {
    let mut out = rec.clone();
    let lines_at = |i: usize| analysis.positions.iter().find(|(j, _)| *j == i).and_then(|(_, r)| r.as_ref().ok());
    let Ok(mut pos) = rec.start.position() else { return out };
    for (i, m) in out.moves.iter_mut().enumerate() {
        let next: Option<&Vec<Line>> = lines_at(i + 1);
        if let Some(next) = next {
            let after = next.first();
            m.engine = EngineInfo {
                score: after.and_then(|l| l.score).map(|s| -s),
                depth: after.and_then(|l| l.depth),
                nodes: after.and_then(|l| l.nodes),
                time_ms: None,
                pv: std::iter::once(m.mv).chain(after.map_or(Vec::new(), |l| l.pv.clone())).collect(),
                analysis: true,
            };
        }
        if let Some(report) = analysis.reports.iter().find(|r| r.ply == i + 1) {
            let here = lines_at(i).and_then(|l| l.first());
            let mut comment = String::from("analyze:");
            if let Some(loss) = report.loss {
                let mark = judge::mark(loss).map_or(String::new(), |k| format!(" {},", k.name()));
                comment.push_str(&format!("{mark} loss {loss};"));
            }
            if let Some(l) = here.filter(|l| !l.pv.is_empty()) {
                comment.push_str(&format!(" best {} ({})", line_text(format, &pos, &l.pv), score_text(l.score)));
            }
            m.comments.push(comment);
        }
        pos.do_move(m.mv);
    }
    out
}
