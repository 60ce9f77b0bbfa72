//! The KIF writer (kif-csa.md §1): the header (`super::header`), move lines with
//! `( m:ss/hh:mm:ss)` times rounded to the second, ShogiGUI's `**対局` engine lines, `*` comments,
//! the terminal word and the `まで…` line, and `変化：N手` variations. `.kif` is Shift_JIS, `.kifu`
//! UTF-8; the encoding is chosen by the caller ([`crate::record::Format`]). Moves are numbered from
//! the start position's move number (Kifu for Windows continues the `手数＝N` of a diagram), and so
//! are variations.

use super::read::terminal;
use super::result_line::Summary;
use super::{engine as kif_engine, header, moves as kif_move};
use crate::position::sfen::SfenError;
use crate::position::{Handicap, Position, ResultReason};
use crate::record::ending::Ending;
use crate::record::{GameRecord, MoveRecord, Start, result_words};
use std::fmt::Write as _;

/// The terminal word for an ending: what the side to move did or got. tsshogi and python-shogi
/// take the winner from it with the side to move (cshogi from the `まで…` line), so a win of the
/// side to move that is no declaration, perpetual check or forfeit is written `反則勝ち`, the only
/// other word for it; the exact reason goes in hisha's note.
fn terminal_word(ending: Ending) -> &'static str {
    match ending {
        e if e.is_foul() => {
            if matches!(e, Ending::MoverLost(_)) {
                "反則負け"
            } else {
                "反則勝ち"
            }
        }
        Ending::MoverLost(ResultReason::Checkmate) => "詰み",
        Ending::MoverLost(ResultReason::Time) => "切れ負け",
        Ending::MoverLost(ResultReason::Disconnect) => "不戦敗",
        Ending::MoverLost(_) => "投了",
        Ending::MoverWon(ResultReason::Declaration) => "入玉勝ち",
        Ending::MoverWon(ResultReason::Disconnect) => "不戦勝",
        Ending::MoverWon(_) => "反則勝ち",
        Ending::Draw(ResultReason::Repetition) => "千日手",
        Ending::Draw(_) => "持将棋",
        Ending::Unfinished => "中断",
    }
}

/// Whole seconds, rounded (KIF's times have no fractions).
fn seconds(ms: u64) -> u64 {
    ms.saturating_add(500) / 1000
}

/// Appends `( m:ss/hh:mm:ss)`.
fn write_times(s: &mut String, used_ms: u64, total_ms: u64) {
    let (t, total) = (seconds(used_ms), seconds(total_ms));
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
    header::write(&mut s, rec)?;
    let start = rec.start.position()?;
    s.push_str("手数----指手---------消費時間--\n");
    let base = rec.first_move_number();
    let end = write_moves(&mut s, start.clone(), base, &rec.moves);
    if let Some(r) = rec.result {
        let to_move = end.side_to_move();
        let ending = Ending::new(&r, to_move);
        let word = terminal_word(ending);
        let (used, total) = rec.end_times();
        write_move_line(&mut s, base + rec.moves.len(), word, used, total);
        let handicap = matches!(rec.start, Start::Handicap(h) if h != Handicap::Even);
        let _ = writeln!(s, "{}", Summary::kif(ending, to_move).line(rec.moves.len(), handicap));
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
