//! Engine data in KIF comments, as ShogiGUI writes it after each engine move:
//! `**対局 時間 00:01.5 深さ 12/18 ノード数 123456 評価値 85 読み筋 ▲７六歩(77) △３四歩(33)`.
//! The score is Black's (先手's) point of view; a mate score is `+詰 7` (Black mates) or `-詰 4`.
//! The PV starts with the move played and writes `同　` as KIF moves do.
//!
//! Whose view `評価値` is: Black's. A ShogiGUI game record of one engine against itself
//! (muzudho/kif-parser, `20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kifu`)
//! has the engine's own `+1000001` after Black's moves and `-1000001` after White's, move after
//! move; ShogiHome reads the `*対局 … 評価値` line into the score it keeps from Black's view
//! (sunfish-shogi/shogihome src/common/record/comment.ts and types.ts, "先手から見た評価値") and
//! writes it so; cshogi's KIF exporter negates White's scores (cshogi/KIF.py, `Exporter.info`).
//! Kifu for Windows writes no such line.
//!
//! After an analysis ShogiGUI writes `**解析 0 候補1 時間 … 深さ … 評価値 … 読み筋 …` instead
//! (engine 0, first candidate), also from Black's view, and the kifu viewers that draw a graph
//! from KIF (kifPlayer, KifuViewer) take `評価値` from the lines starting `**解析 0 ` and plot it
//! unchanged; a `↑`/`↓` bound mark is skipped.

use super::moves;
use crate::position::Position;
use crate::record::builder::Builder;
use crate::record::{EngineInfo, Score};
use crate::types::{Color, Square};
use std::fmt::Write as _;

/// Parses a score: `85`, `-120`, `+詰 7`, `-詰 4`, `詰5` (the number may be the next word), with
/// an optional bound mark (`85↑`).
fn score<'a>(first: &'a str, next: &mut impl Iterator<Item = &'a str>) -> Option<Score> {
    let first = first.trim_end_matches(['↑', '↓']);
    let (sign, rest) = match first.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, first.strip_prefix('+').unwrap_or(first)),
    };
    match rest.strip_prefix('詰') {
        Some("") => Some(Score::Mate(sign * next.next()?.parse::<i32>().ok()?)),
        Some(n) => Some(Score::Mate(sign * n.parse::<i32>().ok()?)),
        None => first.parse().ok().map(Score::Cp),
    }
}

/// Parses `mm:ss.s`, `h:mm:ss.s` or seconds into milliseconds.
fn duration(text: &str) -> Option<u64> {
    let mut ms = 0.0f64;
    for part in text.split(':') {
        ms = ms * 60.0 + part.parse::<f64>().ok()?;
    }
    (ms.is_finite() && ms >= 0.0).then(|| (ms * 1000.0).round() as u64)
}

/// Strips a leading ▲△☗☖ mark.
fn unmarked(t: &str) -> &str {
    let mut it = t.chars();
    match it.next() {
        Some('▲' | '△' | '☗' | '☖') => it.as_str(),
        _ => t,
    }
}

/// Parses the text after `**` if it is an engine comment (a game line `対局 …` or an analysis
/// line `解析 …`) on a move by `mover`; `prev_to` is where the move before the one commented went
/// (what a leading `同` in the PV refers to).
pub(crate) fn parse(text: &str, mover: Color, prev_to: Option<Square>) -> Option<EngineInfo> {
    let (rest, analysis) = match text.strip_prefix("対局") {
        Some(rest) => (rest, false),
        None => (text.strip_prefix("解析")?, true),
    };
    let mut w = rest.split_whitespace();
    let mut info = EngineInfo { analysis, ..EngineInfo::default() };
    while let Some(key) = w.next() {
        match key {
            "評価値" => {
                let s = score(w.next()?, &mut w)?;
                info.score = Some(if mover == Color::White { -s } else { s });
            }
            "深さ" => info.depth = Some(w.next()?.split('/').next()?.parse().ok()?),
            "ノード数" => info.nodes = Some(w.next()?.parse().ok()?),
            "時間" => info.time_ms = Some(duration(w.next()?)?),
            "読み筋" => {
                // Read as written, without playing it (writers check a PV before writing it).
                let mut prev_to = prev_to;
                let mut same = false;
                let mut buf = String::new();
                for t in w.by_ref() {
                    let t = unmarked(t);
                    // `同　銀` is split at its full-width space: join it back.
                    if t == "同" {
                        same = true;
                        continue;
                    }
                    let text = if std::mem::take(&mut same) {
                        buf.clear();
                        buf.push('同');
                        buf.push_str(t);
                        buf.as_str()
                    } else {
                        t
                    };
                    let (m, _) = moves::parse(text, prev_to)?;
                    prev_to = Some(m.to());
                    info.pv.push(m);
                }
            }
            _ => {}
        }
    }
    Some(info)
}

/// Reads a `*` comment line's text `c` (without the `*`) as engine data for the last move read,
/// if it is an engine comment (`**…`) and that move has none yet; false if it is a comment.
pub(crate) fn read_into(b: &mut Builder, c: &str) -> bool {
    let Some(engine) = c.strip_prefix('*') else { return false };
    let mover = b.position_and_last_move().0.side_to_move().flip();
    match b.last_move_with_previous_to() {
        (prev_to, Some(m)) if m.engine.is_empty() => match parse(engine, mover, prev_to) {
            Some(info) => {
                m.engine = info;
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// Writes the engine comment (without the leading `**`) of a move played in `pos`, which is put
/// back as it was.
pub(crate) fn write(s: &mut String, e: &EngineInfo, pos: &mut Position) {
    s.push_str(if e.analysis { "解析 0 候補1" } else { "対局" });
    if let Some(t) = e.time_ms {
        // Tenths of a second, rounded.
        let tenths = (t + 50) / 100;
        let _ = write!(s, " 時間 {:02}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10);
    }
    if let Some(d) = e.depth {
        let _ = write!(s, " 深さ {d}");
    }
    if let Some(n) = e.nodes {
        let _ = write!(s, " ノード数 {n}");
    }
    let white_moved = pos.side_to_move() == Color::White;
    match e.score.map(|v| if white_moved { -v } else { v }) {
        Some(Score::Cp(v)) => {
            let _ = write!(s, " 評価値 {v}");
        }
        Some(Score::Mate(v)) => {
            let _ = write!(s, " 評価値 {}詰 {}", if v < 0 { '-' } else { '+' }, v.unsigned_abs());
        }
        None => {}
    }
    if !e.pv.is_empty() {
        s.push_str(" 読み筋");
        let mut played = 0;
        for &m in &e.pv {
            if !pos.is_legal(m) {
                break;
            }
            s.push(' ');
            s.push(if pos.side_to_move() == Color::Black { '▲' } else { '△' });
            moves::write_to(s, pos, m, pos.last_move().map(|l| l.to()));
            pos.do_move(m);
            played += 1;
        }
        for _ in 0..played {
            pos.undo_move();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{after, play};

    #[test]
    fn reads_shogigui_comments() {
        let to = after(&["7g7f", "3c3d", "8h2b+"]).last_move().map(|m| m.to());
        // The layout ShogiGUI writes (muzudho/kif-parser keeps a ShogiGUI .kifu): depth, nodes,
        // score, PV with `同　` and a trailing blank. Its White move 6 scores -1000001 in Black's
        // view, the +1000001 its engine gave after each of its own moves.
        let info = parse("対局 深さ 2 ノード数 365 評価値 -1000001 読み筋 △同　銀(31) ", Color::White, to)
            .expect("engine data");
        assert_eq!(info.depth, Some(2));
        assert_eq!(info.nodes, Some(365));
        assert_eq!(info.score, Some(Score::Cp(1_000_001)), "the mover's view");
        assert_eq!(info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["3a2b"]);
        let mate = parse("対局 時間 00:01.5 深さ 9/19 評価値 +詰 13 読み筋 △同　銀(31) ▲４五角打", Color::White, to);
        let mate = mate.expect("engine data");
        assert_eq!((mate.score, mate.time_ms, mate.pv.len()), (Some(Score::Mate(-13)), Some(1500), 2));
        assert_eq!(parse("対局 評価値 -詰 5", Color::White, to).and_then(|i| i.score), Some(Score::Mate(5)));
        assert_eq!(parse("対局 評価値 -詰5", Color::White, to).and_then(|i| i.score), Some(Score::Mate(5)));
        assert_eq!(parse("対局 評価値 +85", Color::Black, to).and_then(|i| i.score), Some(Score::Cp(85)));
        assert!(parse("対局 評価値 85 読み筋 ▲７六歩", Color::White, to).is_none(), "not a move");
        assert!(parse("感想 評価値 85", Color::White, to).is_none(), "other comments are comments");
    }

    #[test]
    fn writes_what_it_reads() {
        let mut p = Position::startpos();
        let pv = play(&mut p.clone(), &["7g7f", "3c3d", "8h2b+", "3a2b"]);
        let e = EngineInfo {
            score: Some(Score::Mate(-3)),
            depth: Some(12),
            nodes: Some(4567),
            time_ms: Some(61_500),
            pv: pv.clone(),
            analysis: false,
        };
        let mut s = String::new();
        write(&mut s, &e, &mut p);
        assert_eq!(
            s,
            "対局 時間 01:01.5 深さ 12 ノード数 4567 評価値 -詰 3 読み筋 ▲７六歩(77) △３四歩(33) ▲２二角成(88) △同　銀(31)"
        );
        assert_eq!(p, Position::startpos(), "put back");
        assert_eq!(parse(&s, Color::Black, None), Some(e));
    }

    #[test]
    fn game_lines_carry_blacks_score_as_shogigui_writes_them() {
        // White's 3c3d, which its engine judged +120 for White: ShogiGUI writes -120 (Black's view).
        let mut p = after(&["7g7f"]);
        let pv = play(&mut p.clone(), &["3c3d"]);
        let e = EngineInfo { score: Some(Score::Cp(120)), pv, ..EngineInfo::default() };
        let mut s = String::new();
        write(&mut s, &e, &mut p);
        assert_eq!(s, "対局 評価値 -120 読み筋 △３四歩(33)");
        assert_eq!(parse(&s, Color::White, p.last_move().map(|m| m.to())), Some(e));
    }

    #[test]
    fn analysis_lines_are_shogiguis_with_blacks_score_and_read_back_as_the_movers() {
        // White's 3c3d after 7g7f, judged 120 for White: Black's view is -120.
        let mut p = after(&["7g7f"]);
        let pv = play(&mut p.clone(), &["3c3d", "8h2b+"]);
        let e = EngineInfo { score: Some(Score::Cp(120)), depth: Some(9), pv, analysis: true, ..EngineInfo::default() };
        let mut s = String::new();
        write(&mut s, &e, &mut p);
        assert_eq!(s, "解析 0 候補1 深さ 9 評価値 -120 読み筋 △３四歩(33) ▲２二角成(88)");
        let to = p.last_move().map(|m| m.to());
        assert_eq!(parse(&s, Color::White, to), Some(e.clone()));
        // A mate for White is a mate against Black in Black's view; a bound mark is skipped.
        let mate = parse("解析 0 ○候補1 評価値 -詰 5 読み筋 △３四歩(33)", Color::White, to).expect("analysis line");
        assert_eq!(mate.score, Some(Score::Mate(5)));
        let bound = parse("解析 0 候補1 評価値 85↑", Color::Black, to).expect("analysis line");
        assert_eq!((bound.score, bound.analysis), (Some(Score::Cp(85)), true));
    }
}
