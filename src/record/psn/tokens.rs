//! What PSN and PSN2 share (psn.md §1–§6): header lines, a tokenizer for the game text (comments,
//! times, `Variation:N`, words) that borrows from the input and remembers where each token is,
//! the `{ply}.{move}  (time / total)` line layout, engine-data comments and variations.

use crate::position::Position;
use crate::record::builder::Builder;
use crate::record::error::RecordError;
use crate::record::{EngineInfo, GameRecord, MoveRecord, Score, text};
use crate::types::{Move, UsiMove};
use std::borrow::Cow;
use std::fmt::Write;

/// A header line `[Key "Value"]`.
pub(crate) struct Header<'a> {
    pub key: &'a str,
    pub value: &'a str,
    pub line: usize,
}

/// One game's text: its headers and the body lines with their numbers.
pub(crate) struct GameText<'a> {
    pub headers: Vec<Header<'a>>,
    pub body: Vec<(usize, &'a str)>,
}

/// Parses `[Key "Value"]` (straight or curly quotes, as Draft 1's web copies show them).
fn header(line: &str) -> Option<(&str, &str)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let end = inner.find(|c: char| c.is_whitespace() || matches!(c, '"' | '“' | '”'))?;
    let (key, rest) = inner.split_at(end);
    let rest = rest.trim();
    let rest = rest.strip_prefix(['"', '“', '”']).unwrap_or(rest);
    let value = rest.strip_suffix(['"', '”', '“']).unwrap_or(rest);
    (!key.is_empty()).then_some((key, value))
}

/// Splits one game's text (first line numbered `first_line`) into headers and body: headers are
/// the `[…]` lines before the first other non-blank line.
pub(crate) fn game_text(text: &str, first_line: usize) -> GameText<'_> {
    let mut g = GameText { headers: Vec::new(), body: Vec::new() };
    let mut in_headers = true;
    for (i, line) in text::lines(text).enumerate() {
        let n = first_line + i;
        if in_headers {
            if let Some((key, value)) = header(line) {
                g.headers.push(Header { key, value, line: n });
                continue;
            }
            in_headers = line.trim().is_empty();
        }
        g.body.push((n, line));
    }
    g
}

/// A piece of game text.
pub(crate) enum Token<'a> {
    Comment(Cow<'a, str>),
    Time(&'a str),
    Variation(usize),
    Word(&'a str),
}

/// A token with its line and its byte offset in the line.
pub(crate) struct Positioned<'a> {
    pub token: Token<'a>,
    pub line: usize,
    text: &'a str,
    at: usize,
}

impl Positioned<'_> {
    /// The 1-based character column of the token.
    pub fn column(&self) -> usize {
        text::column(self.text, self.at)
    }
}

/// The length of the blank at byte `i` of `b` (ASCII white space or U+3000), 0 if none.
fn blank_at(b: &[u8], i: usize) -> usize {
    match b[i] {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => 1,
        0xE3 if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80) => 3,
        _ => 0,
    }
}

/// Tokenizes body lines: `{…}` comments (may span lines), `(…)` times, `Variation:N`, and words.
/// Every delimiter is ASCII, so the lines are scanned as bytes. A `{` without its `}` before the
/// game's end, or a `(` without its `)` on its line, is an error at the opening character: read on,
/// it would swallow the moves after it.
pub(crate) fn tokens<'a>(body: &'a [(usize, &'a str)]) -> Result<Vec<Positioned<'a>>, RecordError> {
    let mut out = Vec::with_capacity(body.len() * 2);
    // An open comment spanning lines: (line, line text, offset, text so far).
    let mut comment: Option<(usize, &str, usize, String)> = None;
    for &(n, line) in body {
        let b = line.as_bytes();
        let mut i = 0;
        if let Some((l, t, at, mut text)) = comment.take() {
            match b.iter().position(|&c| c == b'}') {
                Some(end) => {
                    text.push_str(&line[..end]);
                    let token = Token::Comment(Cow::Owned(text.trim().to_string()));
                    out.push(Positioned { token, line: l, text: t, at });
                    i = end + 1;
                }
                None => {
                    text.push_str(line);
                    text.push('\n');
                    comment = Some((l, t, at, text));
                    continue;
                }
            }
        }
        while i < b.len() {
            let blank = blank_at(b, i);
            if blank > 0 {
                i += blank;
                continue;
            }
            let start = i;
            match b[i] {
                b'{' => match b[i + 1..].iter().position(|&c| c == b'}') {
                    Some(len) => {
                        let token = Token::Comment(Cow::Borrowed(line[i + 1..i + 1 + len].trim()));
                        out.push(Positioned { token, line: n, text: line, at: start });
                        i += len + 2;
                    }
                    None => {
                        comment = Some((n, line, start, format!("{}\n", &line[i + 1..])));
                        i = b.len();
                    }
                },
                b'(' => {
                    let Some(len) = b[i + 1..].iter().position(|&c| c == b')') else {
                        let what = "unclosed `(`: no `)` after it on its line";
                        return Err(RecordError::syntax(n, text::column(line, start), what));
                    };
                    out.push(Positioned {
                        token: Token::Time(&line[i + 1..i + 1 + len]),
                        line: n,
                        text: line,
                        at: start,
                    });
                    i += len + 2;
                }
                _ => {
                    while i < b.len() && blank_at(b, i) == 0 && b[i] != b'{' && b[i] != b'(' {
                        i += 1;
                    }
                    let word = &line[start..i];
                    let token = match word.strip_prefix("Variation:").and_then(|p| p.parse().ok()) {
                        Some(ply) => Token::Variation(ply),
                        None => Token::Word(word),
                    };
                    out.push(Positioned { token, line: n, text: line, at: start });
                }
            }
        }
    }
    if let Some((l, t, at, _)) = comment {
        let what = "unclosed comment: no `}` after this `{` before the game ends";
        return Err(RecordError::syntax(l, text::column(t, at), what));
    }
    Ok(out)
}

/// Splits a leading move number (`12.`, `12...`) off a word: (number, rest).
pub(crate) fn split_move_number(word: &str) -> (Option<usize>, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && word[digits..].starts_with('.') {
        (word[..digits].parse().ok(), word[digits..].trim_start_matches('.'))
    } else {
        (None, word)
    }
}

/// Parses `mm:ss` or `hh:mm:ss` into milliseconds.
fn clock(text: &str) -> Option<u64> {
    let mut secs = 0u64;
    let mut parts = 0;
    for p in text.trim().split(':') {
        secs = secs.checked_mul(60)?.checked_add(p.trim().parse().ok()?)?;
        parts += 1;
    }
    (1..=3).contains(&parts).then(|| secs.saturating_mul(1000))
}

/// Parses `(time / total)` contents into (move ms, total ms).
pub(crate) fn parse_times(text: &str) -> Option<(u64, u64)> {
    let (t, total) = text.split_once('/')?;
    Some((clock(t)?, clock(total)?))
}

/// Attaches `(time / total)` to the last move.
pub(crate) fn attach_time(b: &mut Builder, text: &str) {
    if let (Some((t, total)), Some(m)) = (parse_times(text), b.last_move_mut()) {
        m.time_ms = Some(t);
        m.total_ms = Some(total);
    }
}

/// Parses an engine-data comment `score cp 85 depth 12 nodes 123456 time 1500 pv 7g7f 3c3d`.
pub(crate) fn parse_engine_comment(text: &str) -> Option<EngineInfo> {
    let mut w = text.split_whitespace();
    let mut info = EngineInfo::default();
    let mut any = false;
    while let Some(key) = w.next() {
        match key {
            "score" => {
                let kind = w.next()?;
                let v: i32 = w.next()?.parse().ok()?;
                info.score = Some(match kind {
                    "cp" => Score::Cp(v),
                    "mate" => Score::Mate(v),
                    _ => return None,
                });
            }
            "depth" => info.depth = Some(w.next()?.parse().ok()?),
            "nodes" => info.nodes = Some(w.next()?.parse().ok()?),
            "time" => info.time_ms = Some(w.next()?.parse().ok()?),
            "pv" => {
                info.pv = w.by_ref().map(|m| m.parse::<UsiMove>().ok().map(UsiMove::to_move)).collect::<Option<_>>()?;
            }
            _ => return None,
        }
        any = true;
    }
    any.then_some(info)
}

/// Writes the engine-data comment text of a move (nothing when there is no data).
pub(crate) fn write_engine_comment(s: &mut String, e: &EngineInfo) {
    let mut sep = "";
    let mut part = |s: &mut String| {
        s.push_str(sep);
        sep = " ";
    };
    match e.score {
        Some(Score::Cp(v)) => {
            part(s);
            let _ = write!(s, "score cp {v}");
        }
        Some(Score::Mate(v)) => {
            part(s);
            let _ = write!(s, "score mate {v}");
        }
        None => {}
    }
    if let Some(d) = e.depth {
        part(s);
        let _ = write!(s, "depth {d}");
    }
    if let Some(n) = e.nodes {
        part(s);
        let _ = write!(s, "nodes {n}");
    }
    if let Some(t) = e.time_ms {
        part(s);
        let _ = write!(s, "time {t}");
    }
    if !e.pv.is_empty() {
        part(s);
        s.push_str("pv");
        for m in &e.pv {
            let _ = write!(s, " {m}");
        }
    }
}

/// Attaches a comment to the last move: engine data if it reads as such, else a comment.
pub(crate) fn attach_comment(b: &mut Builder, text: &str) {
    if let Some(info) = parse_engine_comment(text) {
        if let Some(m) = b.last_move_mut() {
            if m.engine.is_empty() {
                m.engine = info;
                return;
            }
        }
    }
    b.comment(text.to_string());
}

/// Writes a comment on its own line: `{text}`. Braces inside would end or confuse it, so they
/// become parentheses.
pub(crate) fn write_comment(s: &mut String, text: &str) {
    s.push('{');
    for c in text.chars() {
        s.push(match c {
            '}' => ')',
            '{' => '(',
            c => c,
        });
    }
    s.push_str("}\n");
}

/// Whole seconds, rounded: PSN's times have no fractions (the engine's own time in
/// milliseconds is in the move's `{… time MS …}` comment).
fn seconds(ms: u64) -> u64 {
    ms.saturating_add(500) / 1000
}

fn hms(s: &mut String, ms: u64) {
    let t = seconds(ms);
    let _ = write!(s, "{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
}

/// Writes a move line: `{ply}.{token}` padded to 18 columns, then `(time / total)`. PSN writes
/// the move time as `mm:ss` (minutes not wrapped at an hour, unlike MyShogi, so that hisha reads
/// back what it wrote), PSN2 as `hh:mm:ss`.
pub(crate) fn write_move_line(s: &mut String, ply: usize, token: &str, time_ms: u64, total_ms: u64, psn2: bool) {
    let start = s.len();
    let _ = write!(s, "{ply}.{token}");
    let width = s[start..].chars().count();
    for _ in width..18 {
        s.push(' ');
    }
    s.push('(');
    if psn2 {
        hms(s, time_ms);
    } else {
        let t = seconds(time_ms);
        let _ = write!(s, "{:02}:{:02}", t / 60, t % 60);
    }
    s.push_str(" / ");
    hms(s, total_ms);
    s.push_str(")\n");
}

/// How a writer spells a move: appends the token of legal move `m` in `pos`.
pub(crate) type MoveToken<'a> = &'a dyn Fn(&mut String, &Position, Move);

/// Writes the moves of a line from `pos` (numbered from `first_ply`) and returns the position
/// after them.
pub(crate) fn write_line(
    s: &mut String,
    mut pos: Position,
    first_ply: usize,
    moves: &[MoveRecord],
    token: MoveToken<'_>,
    psn2: bool,
) -> Position {
    let mut tok = String::new();
    for (i, m) in moves.iter().enumerate() {
        tok.clear();
        token(&mut tok, &pos, m.mv);
        write_move_line(s, first_ply + i, &tok, m.time_ms.unwrap_or(0), m.total_ms.unwrap_or(0), psn2);
        if !m.engine.is_empty() {
            s.push('{');
            write_engine_comment(s, &m.engine);
            s.push_str("}\n");
        }
        for c in &m.comments {
            write_comment(s, c);
        }
        pos.do_move(m.mv);
    }
    pos
}

/// Writes every variation, deepest branch first (as MyShogi does): a blank line, `Variation:N`
/// with N numbered like the move lines (`number_base` is the number of the game's first move),
/// then its moves.
pub(crate) fn write_variations(s: &mut String, rec: &GameRecord, number_base: usize, token: MoveToken<'_>, psn2: bool) {
    let Ok(start) = rec.start.position() else { return };
    for i in rec.variation_order() {
        let v = &rec.variations[i];
        let mut pos = start.clone();
        for m in rec.variation_line(i).iter().take(v.ply.saturating_sub(1)) {
            pos.do_move(*m);
        }
        let _ = write!(s, "\nVariation:{}\n", v.ply + number_base - 1);
        write_line(s, pos, v.ply + number_base - 1, &v.moves, token, psn2);
    }
}
