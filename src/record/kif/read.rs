//! KIF (Kakinoki) records (kif-csa.md §1): headers with `：`, `手合割` or a board diagram, move lines
//! with `(m:ss/hh:mm:ss)` times, `*` comments (ShogiGUI-style `**対局` lines carry engine data),
//! terminal words and the `まで…` line (cshogi reads the winner only from it), `変化：N手`
//! variations. `.kif` is Shift_JIS, `.kifu` UTF-8; the encoding is chosen by the caller
//! ([`crate::record::Format`]). Moves are numbered from the start position's move number (Kifu for
//! Windows continues the `手数＝N` of a diagram), and so are variations.

use super::{board as kif_board, engine as kif_engine, moves as kif_move, result_line as kif_result};
use crate::position::{GameResult, Handicap, Position, Repetition, ResultReason, Setup, Winner};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::{Format, GameRecord, MoveRecord, Start, result_words, stream, text};
use crate::types::Color;
use std::fmt::Write as _;

/// Header keys and the tags they map to.
const TAGS: [(&str, &str); 7] = [
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
fn terminal(word: &str, pos: &Position) -> Option<GameResult> {
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

/// Reads every game of KIF text (a new header block after moves starts a new game).
pub fn read(text: &str) -> impl Iterator<Item = Result<GameRecord, RecordError>> + '_ {
    stream::split(text, Format::Kif).map(|(first, game)| parse(game, first))
}

/// True for a move line: a number, blanks, then the move.
pub(crate) fn is_move_line(l: &str) -> bool {
    let t = l.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    digits > 0 && rest.starts_with(char::is_whitespace) && !rest.trim_start().is_empty()
}

/// True for a bookmark line `&name`. A line that starts with a numeric character reference
/// (`&#65533;`) is not one: it is how the Shift_JIS writer writes a tag whose name starts with a
/// character Shift_JIS lacks.
fn is_bookmark(l: &str) -> bool {
    l.starts_with('&') && !l.starts_with("&#")
}

/// True for a header line `key：value` (or `key:value`).
pub(crate) fn is_header(l: &str) -> bool {
    !l.starts_with(['*', '#'])
        && !is_bookmark(l)
        && (l.contains('：') || l.contains(':'))
        && !is_move_line(l)
        && !l.starts_with("変化")
}

/// True if a header key, written back as `key：value`, reads back as that tag: not a comment,
/// note, bookmark, move, variation, board or hand line, nor one of the lines the reader skips.
fn is_tag_key(key: &str) -> bool {
    const SPECIAL: [&str; 7] = ["手数", "まで", "変化", "先手の持駒", "後手の持駒", "上手の持駒", "下手の持駒"];
    !key.starts_with(['*', '#', '+', '|', '９'])
        && !is_bookmark(key)
        && !SPECIAL.iter().any(|p| key.starts_with(p))
        && !is_move_line(&format!("{key}："))
}

/// Parses `( 0:03/00:00:03)` into (move ms, total ms).
fn parse_times(s: &str) -> Option<(u64, u64)> {
    let inner = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (a, b) = inner.split_once('/')?;
    // `m:ss` or `h:mm:ss`, with blanks allowed around the numbers.
    let ms = |t: &str| -> Option<u64> {
        let mut secs = 0u64;
        let mut part: Option<u64> = None;
        for c in t.bytes() {
            match c {
                b'0'..=b'9' => part = Some(part.unwrap_or(0).checked_mul(10)?.checked_add((c - b'0') as u64)?),
                b':' => secs = secs.checked_mul(60)?.checked_add(part.take()?)?,
                b' ' => {}
                _ => return None,
            }
        }
        secs.checked_mul(60)?.checked_add(part?)?.checked_mul(1000)
    };
    Some((ms(a)?, ms(b)?))
}

/// Reads one game; `first_line` is the number of its first line in the file.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<GameRecord, RecordError> {
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first_line, 1, e))?;
    let mut setup: Option<Setup> = None;
    let mut moves_started = false;
    let mut ended = false;
    let mut note = None;
    let mut summary_line = None;
    let mut last_line = first_line;
    for (i, raw) in text::lines(text).enumerate() {
        let n = first_line + i;
        last_line = n;
        let line = raw.trim_end();
        if let Some(n_moves) = line.strip_prefix("手数＝").or_else(|| line.strip_prefix("手数=")) {
            let digits: String = n_moves.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(k) = digits.parse::<u32>() {
                setup.get_or_insert_with(Setup::default).move_number = k.saturating_add(1);
            }
            continue;
        }
        if line.starts_with("まで") {
            if b.on_main_line() {
                summary_line = kif_result::read(line);
            }
            continue;
        }
        if line.is_empty() || is_bookmark(line) || line.starts_with("手数") {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            if let Some(r) = result_words::parse_note(rest) {
                note = Some(r);
            }
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            if let Some(engine) = c.strip_prefix('*') {
                let read = match b.last_move_with_previous_to() {
                    (prev_to, Some(m)) if m.engine.is_empty() => match kif_engine::parse(engine, prev_to) {
                        Some(info) => {
                            m.engine = info;
                            true
                        }
                        None => false,
                    },
                    _ => false,
                };
                if !read && (!ended || !b.on_main_line()) {
                    b.comment_line(c);
                }
            } else if !ended || !b.on_main_line() {
                b.comment_line(c);
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("変化：").or_else(|| line.strip_prefix("変化:")) {
            let number: usize = rest
                .trim_end_matches('手')
                .trim()
                .parse()
                .map_err(|_| RecordError::syntax(n, 1, format!("bad variation line {line:?}")))?;
            if !moves_started {
                moves_started = true;
                apply_setup(&mut b, setup.take(), n)?;
            }
            b.start_variation(number).map_err(|e| RecordError::syntax(n, 1, e))?;
            ended = false;
            continue;
        }
        // Board diagram parts.
        if !moves_started {
            if let Some(v) = line.strip_prefix("後手の持駒：").or_else(|| line.strip_prefix("上手の持駒："))
            {
                setup.get_or_insert_with(Setup::default).hands[1] =
                    kif_board::read_hand(v).ok_or_else(|| RecordError::syntax(n, 7, "bad hand"))?;
                continue;
            }
            if let Some(v) = line.strip_prefix("先手の持駒：").or_else(|| line.strip_prefix("下手の持駒："))
            {
                setup.get_or_insert_with(Setup::default).hands[0] =
                    kif_board::read_hand(v).ok_or_else(|| RecordError::syntax(n, 7, "bad hand"))?;
                continue;
            }
            if line.starts_with('|') {
                if !kif_board::read_row(line, setup.get_or_insert_with(Setup::default)) {
                    return Err(RecordError::syntax(n, 1, "bad board row"));
                }
                continue;
            }
            if line.starts_with('+') || line.trim_start().starts_with('９') {
                continue;
            }
            if line == "後手番" || line == "上手番" {
                setup.get_or_insert_with(Setup::default).side_to_move = Color::White;
                continue;
            }
            if line == "先手番" || line == "下手番" {
                continue;
            }
        }
        if is_move_line(line) {
            if !moves_started {
                moves_started = true;
                apply_setup(&mut b, setup.take(), n)?;
            }
            let t = line.trim_start();
            let col = line.len() - t.len() + 1;
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            let number: Option<usize> = t[..digits].parse().ok();
            // Kifu for Windows ends the line of a move that has variations with `+`.
            let rest = t[digits..].trim_start().trim_end_matches('+').trim_end();
            let (text, times) = match rest.rfind('(') {
                Some(i) if rest[i..].contains('/') => (rest[..i].trim_end(), Some(&rest[i..])),
                _ => (rest.trim_end(), None),
            };
            let text = text.trim_end_matches('+').trim_end();
            if let Some(r) = terminal(text, b.position()) {
                b.set_result(r, times.and_then(parse_times).map(|(t, _)| t));
                ended = true;
                continue;
            }
            let col = col + text::column(t, t.len() - rest.len()) - 1;
            if ended && b.on_main_line() {
                return Err(RecordError::syntax(n, col, format!("move {text:?} after the end of the game")));
            }
            let ply = b.ply() + 1;
            let m = kif_move::read(b.position(), text)
                .ok_or_else(|| RecordError::syntax(n, col, format!("not a KIF move: {text:?}")))?;
            b.position().check_move(m).map_err(|rule| {
                RecordError::new(n, col, RecordErrorKind::IllegalMove { ply, text: text.to_string(), rule: Some(rule) })
            })?;
            if let Some(number) = number {
                b.move_number(number);
            }
            b.push(m);
            if let (Some((t, total)), Some(last)) = (times.and_then(parse_times), b.last_move_mut()) {
                last.time_ms = Some(t);
                last.total_ms = Some(total);
            }
            continue;
        }
        // Header line.
        if let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) {
            let value = value.trim();
            match key.trim() {
                "手合割" => {
                    if value != "その他" {
                        let h: Handicap = value.parse().map_err(|e: crate::position::ParseHandicapError| {
                            RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string()))
                        })?;
                        b.set_start(Start::Handicap(h)).map_err(|e| RecordError::syntax(n, 1, e))?;
                    }
                }
                "先手" | "下手" => b.tag("Black", value),
                "後手" | "上手" => b.tag("White", value),
                // An indented `  #…：…` would be written back as a note, and so on.
                k if !is_tag_key(k) => return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}"))),
                k => match TAGS.iter().find(|(j, _)| *j == k) {
                    Some((_, tag)) => b.tag(tag, value),
                    None => b.tag(k, value),
                },
            }
            continue;
        }
        return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}")));
    }
    if !moves_started {
        apply_setup(&mut b, setup.take(), last_line)?;
    }
    let mut rec = b.finish();
    if note.is_some() {
        rec.result = note;
    }
    if rec.result.is_none() {
        // No terminal move line: the `まで…` line, if any, says how the game ended.
        rec.result = summary_line;
    }
    Ok(rec)
}

/// Makes a board diagram read so far the start position.
fn apply_setup(b: &mut Builder, setup: Option<Setup>, n: usize) -> Result<(), RecordError> {
    let Some(s) = setup else { return Ok(()) };
    let bad = |e: String| RecordError::new(n, 1, RecordErrorKind::BadPosition(e));
    let pos = Position::from_setup(&s).map_err(|e| bad(e.to_string()))?;
    b.set_start(Start::from_sfen(&pos.to_sfen()).map_err(|e| bad(e.to_string()))?).map_err(bad)
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
pub fn to_text(rec: &GameRecord, version_line: bool) -> Result<String, String> {
    let mut s = String::with_capacity(200 * (rec.moves.len() + 12));
    if version_line {
        s.push_str("#KIF version=2.0 encoding=UTF-8\n");
    }
    write_header(&mut s, rec)?;
    let start = rec.start.position().map_err(|e| e.to_string())?;
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
pub(crate) fn write_header(s: &mut String, rec: &GameRecord) -> Result<(), String> {
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
            let start = rec.start.position().map_err(|e| e.to_string())?;
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
