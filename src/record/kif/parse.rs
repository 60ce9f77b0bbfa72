//! Reading one KIF game, line by line: each kind of line (move number setting, `まで…`, `#` note,
//! `*` comment or engine data, `変化：`, board diagram part, move, header) has its own step.

use super::read::{TAGS, terminal};
use super::{board as kif_board, engine as kif_engine, kanji, moves as kif_move, result_line as kif_result};
use crate::position::{GameResult, Handicap, Position, Setup};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::{GameRecord, Start, result_words, text};
use crate::types::Color;

/// True for a move line: a number, blanks, then the move.
pub(super) fn is_move_line(l: &str) -> bool {
    let t = l.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    digits > 0 && rest.starts_with(char::is_whitespace) && !rest.trim_start().is_empty()
}

/// True for a bookmark line `&name`. A line that starts with a numeric character reference
/// (`&#65533;`) is not one: it is how the Shift_JIS writer writes a tag whose name starts with a
/// character Shift_JIS lacks.
pub(super) fn is_bookmark(l: &str) -> bool {
    l.starts_with('&') && !l.starts_with("&#")
}

/// True for a header line `key：value` (or `key:value`).
pub(super) fn is_header(l: &str) -> bool {
    !l.starts_with(['*', '#'])
        && !is_bookmark(l)
        && (l.contains('：') || l.contains(':'))
        && !is_move_line(l)
        && !l.starts_with("変化")
}

/// True if a header key, written back as `key：value`, reads back as that tag: not a comment,
/// note, bookmark, move, variation, board or hand line, nor one of the lines the reader skips.
pub(super) fn is_tag_key(key: &str) -> bool {
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
    let mut game = GameParser {
        b: Builder::new(Start::default()).map_err(|e| RecordError::syntax(first_line, 1, e))?,
        setup: None,
        rows: 0,
        moves_started: false,
        ended: false,
        note: None,
        summary_line: None,
    };
    let mut last_line = first_line;
    for (i, raw) in text::lines(text).enumerate() {
        last_line = first_line + i;
        game.line(raw.trim_end(), last_line)?;
    }
    game.finish(last_line)
}

/// What reading a game has gathered so far.
struct GameParser {
    b: Builder,
    /// The board diagram read so far, if any, until the first move makes it the start.
    setup: Option<Setup>,
    /// The diagram's rows read (bit `r` for rank `r`).
    rows: u16,
    moves_started: bool,
    /// A terminal word ended the line being read.
    ended: bool,
    /// The result of a `#hisha-result` note, which wins over the others.
    note: Option<GameResult>,
    /// The result of the main line's `まで…` line.
    summary_line: Option<GameResult>,
}

impl GameParser {
    /// Reads line `line` (number `n`), its end trimmed.
    fn line(&mut self, line: &str, n: usize) -> Result<(), RecordError> {
        if let Some(n_moves) = line.strip_prefix("手数＝").or_else(|| line.strip_prefix("手数=")) {
            self.start_number(n_moves);
        } else if line.starts_with("まで") {
            if self.b.on_main_line() {
                self.summary_line = kif_result::read(line);
            }
        } else if line.is_empty() || is_bookmark(line) || line.starts_with("手数") {
        } else if let Some(rest) = line.strip_prefix('#') {
            if let Some(r) = result_words::parse_note(rest) {
                self.note = Some(r);
            }
        } else if let Some(c) = line.strip_prefix('*') {
            self.comment(c);
        } else if let Some(rest) = line.strip_prefix("変化：").or_else(|| line.strip_prefix("変化:")) {
            self.variation(line, rest, n)?;
        } else if !self.moves_started && self.diagram_line(line, n)? {
        } else if is_move_line(line) {
            self.move_line(line, n)?;
        } else if let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) {
            self.header(line, key.trim(), value.trim(), n)?;
        } else {
            return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}")));
        }
        Ok(())
    }

    /// `手数＝N`: the diagram's position comes after N moves, so the first move is numbered N+1.
    fn start_number(&mut self, n_moves: &str) {
        let digits: String = n_moves.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(k) = digits.parse::<u32>() {
            self.setup.get_or_insert_with(Setup::default).move_number = k.saturating_add(1);
        }
    }

    /// A `*` comment line (`c` without the `*`); `**` lines may carry engine data for the last move.
    fn comment(&mut self, c: &str) {
        let read_engine = kif_engine::read_into(&mut self.b, c);
        if !read_engine && (!self.ended || !self.b.on_main_line()) {
            self.b.comment_line(c);
        }
    }

    /// Makes the board diagram read so far the start, once, before the first move or variation.
    fn start_moves(&mut self, n: usize) -> Result<(), RecordError> {
        if !self.moves_started {
            self.moves_started = true;
            self.apply_setup(n)?;
        }
        Ok(())
    }

    /// Makes the board diagram read the start position. A diagram with some of its nine rows
    /// missing (a file cut inside it) is an error: the missing rows would read as empty.
    fn apply_setup(&mut self, n: usize) -> Result<(), RecordError> {
        const ALL_ROWS: u16 = 0b11_1111_1110;
        if self.rows != 0 && self.rows != ALL_ROWS {
            let missing: Vec<String> =
                (1..=9).filter(|r| self.rows & (1 << r) == 0).map(|r| kanji::RANKS[r - 1].to_string()).collect();
            let what = format!("the board diagram lacks its rows {} (was the file cut?)", missing.join(", "));
            return Err(RecordError::new(n, 1, RecordErrorKind::BadPosition(what)));
        }
        apply_setup(&mut self.b, self.setup.take(), n)
    }

    /// `変化：N手` (`rest` is what follows `変化：`): an alternative to the move numbered N.
    fn variation(&mut self, line: &str, rest: &str, n: usize) -> Result<(), RecordError> {
        let number: usize = rest
            .trim_end_matches('手')
            .trim()
            .parse()
            .map_err(|_| RecordError::syntax(n, 1, format!("bad variation line {line:?}")))?;
        self.start_moves(n)?;
        self.b.start_variation(number).map_err(|e| RecordError::syntax(n, 1, e))?;
        self.ended = false;
        Ok(())
    }

    /// A part of a board diagram (hands, rows, frame, side to move); false for any other line.
    fn diagram_line(&mut self, line: &str, n: usize) -> Result<bool, RecordError> {
        let hand = |v: &str| kif_board::read_hand(v).ok_or_else(|| RecordError::syntax(n, 7, "bad hand"));
        if let Some(v) = line.strip_prefix("後手の持駒：").or_else(|| line.strip_prefix("上手の持駒：")) {
            self.setup.get_or_insert_with(Setup::default).hands[1] = hand(v)?;
        } else if let Some(v) = line.strip_prefix("先手の持駒：").or_else(|| line.strip_prefix("下手の持駒："))
        {
            self.setup.get_or_insert_with(Setup::default).hands[0] = hand(v)?;
        } else if line.starts_with('|') {
            let rank = kif_board::read_row(line, self.setup.get_or_insert_with(Setup::default))
                .ok_or_else(|| RecordError::syntax(n, 1, "bad board row"))?;
            self.rows |= 1 << rank;
        } else if line == "後手番" || line == "上手番" {
            self.setup.get_or_insert_with(Setup::default).side_to_move = Color::White;
        } else {
            let skipped = line.starts_with('+') || line.trim_start().starts_with('９');
            return Ok(skipped || line == "先手番" || line == "下手番");
        }
        Ok(true)
    }

    /// A move line: number, move text or terminal word, optional times.
    fn move_line(&mut self, line: &str, n: usize) -> Result<(), RecordError> {
        self.start_moves(n)?;
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
        let b = &mut self.b;
        if let Some(r) = terminal(text, b.position()) {
            b.set_result(r, times.and_then(parse_times).map(|(t, _)| t));
            self.ended = true;
            return Ok(());
        }
        let col = col + text::column(t, t.len() - rest.len()) - 1;
        if self.ended && b.on_main_line() {
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
        Ok(())
    }

    /// A header line `key：value`.
    fn header(&mut self, line: &str, key: &str, value: &str, n: usize) -> Result<(), RecordError> {
        match key {
            "手合割" if value != "その他" => {
                let h: Handicap = value.parse().map_err(|e: crate::position::ParseHandicapError| {
                    RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string()))
                })?;
                self.b.set_start(Start::Handicap(h)).map_err(|e| RecordError::syntax(n, 1, e))?;
            }
            "手合割" => {}
            "先手" | "下手" => self.b.tag("Black", value),
            "後手" | "上手" => self.b.tag("White", value),
            // An indented `  #…：…` would be written back as a note, and so on.
            k if !is_tag_key(k) => return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}"))),
            k => match TAGS.iter().find(|(j, _)| *j == k) {
                Some((_, tag)) => self.b.tag(tag, value),
                None => self.b.tag(k, value),
            },
        }
        Ok(())
    }

    /// The record, once every line is read (`last_line` is the game's last line).
    fn finish(mut self, last_line: usize) -> Result<GameRecord, RecordError> {
        if !self.moves_started {
            self.apply_setup(last_line)?;
        }
        let mut rec = self.b.finish();
        if self.note.is_some() {
            rec.result = self.note;
        }
        if rec.result.is_none() {
            // No terminal move line: the `まで…` line, if any, says how the game ended.
            rec.result = self.summary_line;
        }
        Ok(rec)
    }
}

/// Makes a board diagram read so far the start position.
fn apply_setup(b: &mut Builder, setup: Option<Setup>, n: usize) -> Result<(), RecordError> {
    let Some(s) = setup else { return Ok(()) };
    let bad = |e: String| RecordError::new(n, 1, RecordErrorKind::BadPosition(e));
    let pos = Position::from_setup(&s).map_err(|e| bad(e.to_string()))?;
    b.set_start(Start::from_sfen(&pos.to_sfen()).map_err(|e| bad(e.to_string()))?).map_err(|e| bad(e.to_string()))
}
