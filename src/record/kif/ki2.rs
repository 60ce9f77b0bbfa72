//! KI2 records (kif-csa.md §1): KIF headers, moves written as `▲７六歩` / `△同　銀` with the
//! relative words that tell pieces apart — 上 (moves forward), 引 (backward), 寄 (sideways),
//! 直 (straight forward), 右/左 (the rightmost/leftmost candidate from the mover's seat), 打
//! (a drop where a board piece could also go) — and a `まで…` line with the result.
//!
//! The writer picks the first descriptor that names the move uniquely, in the conventional order
//! (none, 直, 上/引/寄, 右/左, both); the reader applies the same meaning, so what hisha writes it
//! reads back exactly.

use super::result_line::{self, Summary};
use super::{engine, kanji, moves};
use crate::position::sfen::SfenError;
use crate::position::{Handicap, Position};
use crate::record::builder::Builder;
use crate::record::ending::Ending;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::promotion::could_promote;
use crate::record::{GameRecord, Start, result_words, text};
use crate::types::{Color, Move, PieceKind, Square};

/// Forward distance of a move for its mover (positive = toward the enemy).
fn forward(c: Color, from: Square, to: Square) -> i32 {
    let d = from.rank().index() as i32 - to.rank().index() as i32;
    if c == Color::Black { d } else { -d }
}

fn keep(pos: &Position, moves: Vec<Move>, word: char) -> Vec<Move> {
    let c = pos.side_to_move();
    let from_of = |m: &Move| m.from().unwrap_or(m.to());
    match word {
        '上' | '行' => moves.into_iter().filter(|m| forward(c, from_of(m), m.to()) > 0).collect(),
        '引' => moves.into_iter().filter(|m| forward(c, from_of(m), m.to()) < 0).collect(),
        '寄' => moves.into_iter().filter(|m| forward(c, from_of(m), m.to()) == 0).collect(),
        '直' => moves
            .into_iter()
            .filter(|m| from_of(m).file() == m.to().file() && forward(c, from_of(m), m.to()) == 1)
            .collect(),
        '右' | '左' => {
            // Right from Black's seat is the low file numbers; from White's, the high ones.
            let key = |m: &Move| {
                let f = from_of(m).file().index() as i32;
                if (word == '右') == (c == Color::Black) { f } else { -f }
            };
            match moves.iter().map(key).min() {
                Some(best) => moves.into_iter().filter(|m| key(m) == best).collect(),
                None => moves,
            }
        }
        _ => moves,
    }
}

/// The KI2 text of a legal move (with its ▲/△ mark).
pub fn write_move(pos: &Position, m: Move) -> String {
    let mark = if pos.side_to_move() == Color::Black { '▲' } else { '△' };
    let prev_to = pos.last_move().map(|l| l.to());
    let mut dest = String::new();
    moves::write_destination(&mut dest, m.to(), prev_to);
    let kind = pos.moved_piece(m).map_or(PieceKind::Pawn, |p| p.kind());
    let legal = pos.legal_moves();
    let same: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|x| {
            x.to() == m.to()
                && !x.is_drop()
                && x.is_promotion() == m.is_promotion()
                && pos.moved_piece(*x).map(|p| p.kind()) == Some(kind)
        })
        .collect();
    let words = if m.is_drop() {
        if same.is_empty() { String::new() } else { "打".to_string() }
    } else {
        // The JSA order: the motion (上/引/寄) first, then the place (直/右/左), then both.
        let descriptors = ["", "上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄"];
        let big = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
        descriptors
            .iter()
            .filter(|d| !(big && d.contains('直')))
            .find(|d| {
                let mut c = same.clone();
                for w in d.chars().rev() {
                    c = keep(pos, c, w);
                }
                c == [m]
            })
            .map_or(String::new(), |d| d.to_string())
    };
    let suffix = if m.is_promotion() {
        "成"
    } else if could_promote(pos, m) {
        "不成"
    } else {
        ""
    };
    format!("{mark}{dest}{}{words}{suffix}", kanji::piece_name(kind))
}

/// Resolves KI2 move text (with or without its mark) in `pos`.
pub fn read_move(pos: &Position, text: &str, ply: usize) -> Result<Move, RecordErrorKind> {
    let illegal = || RecordErrorKind::IllegalMove { ply, text: text.to_string(), rule: None };
    let body = text.trim_start_matches(['▲', '△', '☗', '☖']);
    let prev_to = pos.last_move().map(|l| l.to());
    let (to, rest) = moves::read_destination(body, prev_to).ok_or_else(illegal)?;
    let (kind, n) = kanji::read_piece(rest).ok_or_else(illegal)?;
    let mut words: String = rest.chars().skip(n).collect();
    let promote = if let Some(w) = words.strip_suffix("不成").or_else(|| words.strip_suffix('生')) {
        words = w.to_string();
        Some(false)
    } else if let Some(w) = words.strip_suffix('成') {
        words = w.to_string();
        Some(true)
    } else {
        None
    };
    let drop_word = words.contains('打');
    let legal = pos.legal_moves();
    let of_kind = |m: &Move| pos.moved_piece(*m).map(|p| p.kind()) == Some(kind) && m.to() == to;
    let mut board: Vec<Move> = legal.iter().copied().filter(|m| of_kind(m) && !m.is_drop()).collect();
    let drops: Vec<Move> = legal.iter().copied().filter(|m| of_kind(m) && m.is_drop()).collect();
    let wants_promotion = promote == Some(true);
    let with_flag: Vec<Move> = board.iter().copied().filter(|m| m.is_promotion() == wants_promotion).collect();
    board = if with_flag.is_empty() && promote.is_none() {
        board.into_iter().filter(|m| m.is_promotion()).collect()
    } else {
        with_flag
    };
    let mut found = if drop_word || (board.is_empty() && promote.is_none()) { drops } else { board };
    if !drop_word {
        for w in words.chars().rev() {
            found = keep(pos, found, w);
        }
    }
    RecordErrorKind::one_move(&found, ply, text, illegal)
}

/// True for a line of moves (`▲７六歩　△３四歩 …`).
pub(super) fn is_move_line(l: &str) -> bool {
    l.trim_start().starts_with(['▲', '△', '☗', '☖'])
}

/// Reads one game; `first_line` is the number of its first line in the file.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<GameRecord, RecordError> {
    let first = first_line;
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first, 1, e))?;
    let mut note = None;
    let mut result = None;
    let mut header_lines = Vec::new();
    for (i, raw) in text::lines(text).enumerate() {
        let n = first_line + i;
        let line = raw.trim_end();
        if line.is_empty() || super::parse::is_bookmark(line) {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            note = result_words::parse_note(rest).or(note);
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            if !engine::read_into(&mut b, c) {
                b.comment_line(c);
            }
            continue;
        }
        if line.starts_with("まで") {
            result = result_line::read(line);
            continue;
        }
        if line.trim_start().starts_with(['▲', '△', '☗', '☖']) {
            if !header_lines.is_empty() {
                apply_headers(&mut b, &std::mem::take(&mut header_lines))?;
            }
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if !matches!(chars[i], '▲' | '△' | '☗' | '☖') {
                    i += 1;
                    continue;
                }
                let start = i;
                i += 1;
                while i < chars.len()
                    && !matches!(chars[i], '▲' | '△' | '☗' | '☖' | ' ' | '\t')
                    && !(chars[i] == '　' && i > start + 1 && chars[i - 1] != '同')
                {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                let ply = b.ply() + 1;
                let m = read_move(b.position(), token.trim_end_matches('　'), ply)
                    .map_err(|k| RecordError::new(n, start + 1, k))?;
                b.push(m);
            }
            continue;
        }
        header_lines.push((n, line.to_string()));
    }
    if !header_lines.is_empty() {
        apply_headers(&mut b, &header_lines)?;
    }
    let mut rec = b.finish();
    rec.result = note.or(result);
    Ok(rec)
}

fn apply_headers(b: &mut Builder, lines: &[(usize, String)]) -> Result<(), RecordError> {
    // Reuse the KIF header reader: a KI2 header block is a KIF header block.
    // Blank lines stand for the lines in between, so errors name the right line.
    let first = lines.first().map_or(1, |l| l.0);
    let mut text = String::new();
    let mut at = first;
    for (n, l) in lines {
        while at < *n {
            text.push('\n');
            at += 1;
        }
        text.push_str(l);
        text.push('\n');
        at += 1;
    }
    let rec = super::parse::parse(&text, first)?;
    b.set_start(rec.start).map_err(|e| RecordError::syntax(first, 1, e))?;
    for (k, v) in rec.tags {
        b.tag(&k, &v);
    }
    for c in rec.summary {
        b.comment(c);
    }
    Ok(())
}

/// The KI2 text of one game: two moves a line (a line ends early at a move with comments or
/// engine data), the first padded to six full-width columns. Not more: cshogi's KI2 reader
/// (1.1.0, KI2.py `parse_move_str`) keeps the offset of a line's second move within the rest of
/// the line, and reads a third move from the wrong place (its exporter writes one move a line).
/// For the same reason a second move as wide as the first with its padding gets one more column
/// of padding: cshogi would read it twice.
pub(crate) fn to_text(rec: &GameRecord) -> Result<String, SfenError> {
    let mut s = String::with_capacity(16 * (rec.moves.len() + 16));
    super::header::write(&mut s, rec)?;
    let mut pos = rec.start.position()?;
    let mut line = String::new();
    for (i, m) in rec.moves.iter().enumerate() {
        let t = write_move(&pos, m.mv);
        let second = !line.is_empty();
        if second && t.chars().count() == line.chars().count() {
            line.push('　');
        }
        line.push_str(&t);
        let mut engine_line = String::new();
        if !m.engine.is_empty() {
            engine::write(&mut engine_line, &m.engine, &mut pos);
        }
        pos.do_move(m.mv);
        let flush = second || !m.comments.is_empty() || !engine_line.is_empty() || i + 1 == rec.moves.len();
        if !flush {
            line.push_str(&"　".repeat(6usize.saturating_sub(t.chars().count()).max(1)));
            continue;
        }
        s.push_str(&line);
        s.push('\n');
        line.clear();
        if !engine_line.is_empty() {
            s.push_str(&format!("**{engine_line}\n"));
        }
        for c in &m.comments {
            for l in c.split('\n') {
                s.push_str(&format!("*{l}\n"));
            }
        }
    }
    if let Some(r) = rec.result {
        let handicap = matches!(rec.start, Start::Handicap(h) if h != Handicap::Even);
        let summary =
            Summary::ki2(Ending::new(&r, pos.side_to_move()), pos.side_to_move()).line(rec.moves.len(), handicap);
        if result_line::read(&summary) != Some(r) {
            s.push_str(&format!("#{}\n", result_words::note(&r)));
        }
        s.push_str(&summary);
        s.push('\n');
    }
    s.push('\n');
    Ok(s)
}
