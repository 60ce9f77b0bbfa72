//! KIF (Kakinoki) records (kif-csa.md §1): headers with `：`, `手合割` or a board diagram, move lines
//! with `(m:ss/hh:mm:ss)` times, `*` comments (ShogiGUI-style `**対局` lines carry engine data),
//! terminal words and the `まで…` line (cshogi reads the winner only from it), `変化：N手`
//! variations. `.kif` is Shift_JIS, `.kifu` UTF-8; the encoding is chosen by the caller
//! ([`crate::record::Format`]). Moves are numbered from the start position's move number (Kifu for
//! Windows continues the `手数＝N` of a diagram), and so are variations.

use super::{board as kif_board, engine as kif_engine, moves as kif_move, result_line as kif_result};
use crate::position::sfen::SfenError;
use crate::position::{GameResult, Handicap, Position, Repetition, ResultReason, Winner};
use crate::record::{GameRecord, MoveRecord, Start, result_words};
use crate::types::Color;
use std::fmt::Write as _;

/// Header keys and the tags they map to.
pub(super) const TAGS: [(&str, &str); 7] = [
    ("開始日時", "Date"),
    ("棋戦", "Event"),
    ("場所", "Site"),
    ("戦型", "Opening"),
    ("持ち時間", "TimeControl"),
    ("表題", "Round"),
    ("対局日", "Date"),
];

/// The result a terminal word gives at the final position. `反則勝ち` (the side to move wins by the
/// opponent's foul) is read as perpetual check when the position shows the opponent checking
/// perpetually, else as an illegal move.
pub(super) fn terminal(word: &str, pos: &Position) -> Option<GameResult> {
    let stm = pos.side_to_move();
    Some(match word {
        "投了" => GameResult::loss(stm, ResultReason::Resign),
        "詰み" | "詰" => GameResult::loss(stm, ResultReason::Checkmate),
        "切れ負け" | "時間切れ" => GameResult::loss(stm, ResultReason::Time),
        "千日手" => GameResult::draw(ResultReason::Repetition),
        "持将棋" | "最大手数超過" => GameResult::draw(ResultReason::MaxMoves),
        "入玉勝ち" | "勝ち宣言" => GameResult::win(stm, ResultReason::Declaration),
        "王手連続千日手" => GameResult::win(stm, ResultReason::PerpetualCheck),
        "反則勝ち" if pos.repetition(4) == Repetition::PerpetualCheckBy(!stm) => {
            GameResult::win(stm, ResultReason::PerpetualCheck)
        }
        "反則勝ち" => GameResult::win(stm, ResultReason::IllegalMove),
        "反則負け" => GameResult::loss(stm, ResultReason::IllegalMove),
        "中断" | "不詰" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "不戦勝" => GameResult::win(stm, ResultReason::Disconnect),
        "不戦敗" => GameResult::loss(stm, ResultReason::Disconnect),
        _ => return None,
    })
}

fn terminal_word(r: &GameResult, stm: Color) -> Option<&'static str> {
    let stm_lost = r.winner == Winner::color(!stm);
    let stm_won = r.winner == Winner::color(stm);
    Some(match r.reason {
        ResultReason::Resign | ResultReason::Adjudication if stm_lost => "投了",
        ResultReason::Checkmate if stm_lost => "詰み",
        ResultReason::Time if stm_lost => "切れ負け",
        ResultReason::Repetition => "千日手",
        ResultReason::MaxMoves => "持将棋",
        ResultReason::Declaration if stm_won => "入玉勝ち",
        ResultReason::Declaration => "持将棋",
        ResultReason::PerpetualCheck | ResultReason::IllegalMove if stm_won => "反則勝ち",
        ResultReason::IllegalMove if stm_lost => "反則負け",
        ResultReason::Disconnect if stm_won => "不戦勝",
        ResultReason::Disconnect if stm_lost => "不戦敗",
        _ => "中断",
    })
}

/// Appends `( m:ss/hh:mm:ss)`.
fn write_times(s: &mut String, used_ms: u64, total_ms: u64) {
    let (t, total) = (used_ms / 1000, total_ms / 1000);
    let _ = write!(s, "({:>2}:{:02}/{:02}:{:02}:{:02})", t / 60, t % 60, total / 3600, total / 60 % 60, total % 60);
}

/// Appends a move line as tsshogi lays it out: number, the move text padded to a display width
/// of 12 (full-width characters count two columns), a space, times.
fn write_move_line(s: &mut String, number: usize, text: &str, used_ms: u64, total_ms: u64) {
    let _ = write!(s, "{number:>4} {text}");
    let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    for _ in width.min(12)..13 {
        s.push(' ');
    }
    write_times(s, used_ms, total_ms);
    s.push('\n');
}

fn write_moves(s: &mut String, mut pos: Position, first: usize, moves: &[MoveRecord]) -> Position {
    let mut text = String::with_capacity(32);
    for (i, m) in moves.iter().enumerate() {
        text.clear();
        kif_move::write_to(&mut text, &pos, m.mv, pos.last_move().map(|l| l.to()));
        write_move_line(s, first + i, &text, m.time_ms.unwrap_or(0), m.total_ms.unwrap_or(0));
        if !m.engine.is_empty() {
            s.push_str("**");
            kif_engine::write(s, &m.engine, &mut pos);
            s.push('\n');
        }
        for c in &m.comments {
            for l in c.split('\n') {
                let _ = writeln!(s, "*{l}");
            }
        }
        pos.do_move(m.mv);
    }
    pos
}

/// The KIF text of one game (UTF-8; `version_line` adds `#KIF version=2.0 encoding=UTF-8`).
pub(crate) fn to_text(rec: &GameRecord, version_line: bool) -> Result<String, SfenError> {
    let mut s = String::with_capacity(200 * (rec.moves.len() + 12));
    if version_line {
        s.push_str("#KIF version=2.0 encoding=UTF-8\n");
    }
    write_header(&mut s, rec)?;
    let start = rec.start.position()?;
    s.push_str("手数----指手---------消費時間--\n");
    let base = rec.first_move_number();
    let end = write_moves(&mut s, start.clone(), base, &rec.moves);
    if let Some(r) = rec.result {
        let stm = end.side_to_move();
        let word = terminal_word(&r, stm).unwrap_or("中断");
        let (used, total) = rec.end_times();
        write_move_line(&mut s, base + rec.moves.len(), word, used, total);
        let handicap = matches!(rec.start, Start::Handicap(h) if h != Handicap::Even);
        let _ = writeln!(s, "{}", kif_result::line(&r, rec.moves.len(), handicap, word == "反則負け"));
        if terminal(word, &end) != Some(r) {
            let _ = writeln!(s, "#{}", result_words::note(&r));
        }
    }
    for i in rec.variation_order() {
        let v = &rec.variations[i];
        let mut pos = start.clone();
        for m in rec.variation_line(i).iter().take(v.ply.saturating_sub(1)) {
            pos.do_move(*m);
        }
        let _ = write!(s, "\n変化：{}手\n", v.ply + base - 1);
        write_moves(&mut s, pos, v.ply + base - 1, &v.moves);
    }
    s.push('\n');
    Ok(s)
}

/// Appends the header lines: tags, `手合割` or a board diagram, and the summary comments.
pub(crate) fn write_header(s: &mut String, rec: &GameRecord) -> Result<(), SfenError> {
    let handicap = match rec.start {
        Start::Handicap(h) => Some(h),
        Start::Sfen(_) => None,
    };
    let (black_key, white_key) = match handicap {
        Some(Handicap::Even) | None => ("先手", "後手"),
        Some(_) => ("下手", "上手"),
    };
    for (k, v) in &rec.tags {
        let key = match k.as_str() {
            "Black" => black_key,
            "White" => white_key,
            other => TAGS.iter().find(|(_, t)| *t == other).map_or(other, |(j, _)| j),
        };
        let _ = writeln!(s, "{key}：{v}");
    }
    match handicap {
        Some(h) => {
            let _ = writeln!(s, "手合割：{}", h.kif_name());
        }
        None => {
            let start = rec.start.position()?;
            s.push_str(&kif_board::write(&start.to_setup()));
        }
    }
    for c in &rec.summary {
        for l in c.split('\n') {
            let _ = writeln!(s, "*{l}");
        }
    }
    Ok(())
}
