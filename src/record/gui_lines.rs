//! What PSN and PSN2 share (psn.md §1–§6): splitting a file into games, header lines, a
//! tokenizer for the game text (comments, times, `Variation:N`, words) with line and column,
//! the `{ply}.{move}  (time / total)` line layout, engine-data comments and variations.

use super::builder::Builder;
use super::{EngineInfo, GameRecord, MoveRecord, Score};
use crate::position::Position;
use crate::types::{Color, Move, UsiMove};

/// A header line `[Key "Value"]`.
pub(super) struct Header {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// One game's text: its headers and the body lines with their numbers.
pub(super) struct GameText<'a> {
    pub headers: Vec<Header>,
    pub body: Vec<(usize, &'a str)>,
    pub first_line: usize,
}

/// Parses `[Key "Value"]` (straight or curly quotes).
fn header(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(|c: char| c.is_whitespace() || c == '"' || c == '“')?;
    let value = rest.trim().trim_start_matches(['"', '“', '”']).trim_end_matches(['"', '”', '“']);
    if key.is_empty() {
        return None;
    }
    Some((key.to_string(), value.to_string()))
}

/// Splits text into games: a header line after some game text starts a new game.
pub(super) fn split_games(text: &str) -> impl Iterator<Item = GameText<'_>> {
    let mut games = Vec::new();
    let mut cur = GameText { headers: Vec::new(), body: Vec::new(), first_line: 1 };
    let mut depth = 0usize; // inside `{ … }`
    for (i, line) in super::text::lines(text).enumerate() {
        let n = i + 1;
        if depth == 0 {
            if let Some((key, value)) = header(line) {
                let has_text = cur.body.iter().any(|(_, l)| !l.trim().is_empty());
                if has_text {
                    games.push(std::mem::replace(
                        &mut cur,
                        GameText { headers: Vec::new(), body: Vec::new(), first_line: n },
                    ));
                } else if cur.headers.is_empty() {
                    cur.first_line = n;
                }
                cur.headers.push(Header { key, value, line: n });
                continue;
            }
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        cur.body.push((n, line));
    }
    if !cur.headers.is_empty() || cur.body.iter().any(|(_, l)| !l.trim().is_empty()) {
        games.push(cur);
    }
    games.into_iter()
}

/// A piece of game text.
pub(super) enum Token {
    Comment(String),
    Time(String),
    Variation(usize),
    Word(String),
}

/// A token with its 1-based line and column.
pub(super) struct Positioned {
    pub token: Token,
    pub line: usize,
    pub column: usize,
}

/// Tokenizer over body lines.
pub(super) struct Tokens {
    items: std::vec::IntoIter<Positioned>,
}

impl Tokens {
    pub fn new(body: &[(usize, &str)]) -> Tokens {
        let mut out = Vec::new();
        let mut comment: Option<(usize, usize, String)> = None;
        for &(n, line) in body {
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if let Some((_, _, text)) = &mut comment {
                    if chars[i] == '}' {
                        let (l, c, t) = comment.take().unwrap_or_default();
                        out.push(Positioned { token: Token::Comment(t.trim().to_string()), line: l, column: c });
                    } else {
                        text.push(chars[i]);
                    }
                    i += 1;
                    continue;
                }
                let c = chars[i];
                if c.is_whitespace() {
                    i += 1;
                } else if c == '{' {
                    comment = Some((n, i + 1, String::new()));
                    i += 1;
                } else if c == '(' {
                    let start = i;
                    while i < chars.len() && chars[i] != ')' {
                        i += 1;
                    }
                    let text: String = chars[start + 1..i.min(chars.len())].iter().collect();
                    out.push(Positioned { token: Token::Time(text), line: n, column: start + 1 });
                    i += 1;
                } else {
                    let start = i;
                    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '{' && chars[i] != '(' {
                        i += 1;
                    }
                    let word: String = chars[start..i].iter().collect();
                    let token = match word.strip_prefix("Variation:").and_then(|p| p.parse().ok()) {
                        Some(ply) => Token::Variation(ply),
                        None => Token::Word(word),
                    };
                    out.push(Positioned { token, line: n, column: start + 1 });
                }
            }
            if let Some((_, _, text)) = &mut comment {
                text.push('\n');
            }
        }
        if let Some((l, c, t)) = comment {
            out.push(Positioned { token: Token::Comment(t.trim().to_string()), line: l, column: c });
        }
        Tokens { items: out.into_iter() }
    }
}

impl Iterator for Tokens {
    type Item = Positioned;
    fn next(&mut self) -> Option<Positioned> {
        self.items.next()
    }
}

/// Strips a leading move number (`12.`, `12...`) from a word.
pub(super) fn strip_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && word[digits..].starts_with('.') { word[digits..].trim_start_matches('.') } else { word }
}

/// Parses `mm:ss` or `hh:mm:ss` into milliseconds.
fn clock(text: &str) -> Option<u64> {
    let parts: Vec<u64> = text.trim().split(':').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
    let secs = parts.iter().fold(0u64, |acc, &p| acc.saturating_mul(60).saturating_add(p));
    (1..=3).contains(&parts.len()).then_some(secs * 1000)
}

/// Attaches `(time / total)` to the last move.
pub(super) fn attach_time(b: &mut Builder, text: &str) {
    let mut it = text.split('/');
    let (Some(t), Some(total)) = (it.next().and_then(clock), it.next().and_then(clock)) else {
        return;
    };
    if let Some(m) = b.last_move_mut() {
        m.time_ms = Some(t);
        m.total_ms = Some(total);
    }
}

/// Parses an engine-data comment `score cp 85 depth 12 nodes 123456 pv 7g7f 3c3d`.
pub(super) fn parse_engine_comment(text: &str) -> Option<EngineInfo> {
    let w: Vec<&str> = text.split_whitespace().collect();
    if !matches!(w.first(), Some(&"score" | &"depth" | &"nodes" | &"pv")) {
        return None;
    }
    let mut info = EngineInfo::default();
    let mut i = 0;
    while i < w.len() {
        match w[i] {
            "score" => {
                let v: i32 = w.get(i + 2)?.parse().ok()?;
                info.score = Some(match *w.get(i + 1)? {
                    "cp" => Score::Cp(v),
                    "mate" => Score::Mate(v),
                    _ => return None,
                });
                i += 3;
            }
            "depth" => {
                info.depth = Some(w.get(i + 1)?.parse().ok()?);
                i += 2;
            }
            "nodes" => {
                info.nodes = Some(w.get(i + 1)?.parse().ok()?);
                i += 2;
            }
            "pv" => {
                info.pv = w[i + 1..]
                    .iter()
                    .map(|m| m.parse::<UsiMove>().ok().map(UsiMove::to_move))
                    .collect::<Option<_>>()?;
                break;
            }
            _ => return None,
        }
    }
    Some(info)
}

/// The engine-data comment text of a move (empty when there is no data).
pub(super) fn engine_comment(e: &EngineInfo) -> String {
    let mut parts = Vec::new();
    match e.score {
        Some(Score::Cp(v)) => parts.push(format!("score cp {v}")),
        Some(Score::Mate(v)) => parts.push(format!("score mate {v}")),
        None => {}
    }
    if let Some(d) = e.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = e.nodes {
        parts.push(format!("nodes {n}"));
    }
    if !e.pv.is_empty() {
        parts.push(format!("pv {}", e.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")));
    }
    parts.join(" ")
}

/// Attaches a comment to the last move: engine data if it reads as such, else a comment.
pub(super) fn attach_comment(b: &mut Builder, text: String) {
    if let Some(info) = parse_engine_comment(&text) {
        if let Some(m) = b.last_move_mut() {
            if m.engine.is_empty() {
                m.engine = info;
                return;
            }
        }
    }
    b.comment(text);
}

/// A comment on its own line: `{text}` (a `}` inside would end it early, so it becomes `)`).
pub(super) fn comment_line(text: &str) -> String {
    format!("{{{}}}\n", text.replace('}', ")"))
}

fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A move line: `{ply}.{token}` padded to 18 columns, then `(time / total)`. PSN writes the move
/// time as `mm:ss`, PSN2 as `hh:mm:ss`.
pub(super) fn move_line(ply: usize, token: &str, time_ms: Option<u64>, total_ms: Option<u64>, psn2: bool) -> String {
    let head = format!("{ply}.{token}");
    let t = time_ms.unwrap_or(0);
    let move_time = if psn2 { hms(t) } else { format!("{:02}:{:02}", t / 1000 / 60, t / 1000 % 60) };
    format!("{head:<18}({move_time} / {})\n", hms(total_ms.unwrap_or(0)))
}

/// Writes the moves of a line from `pos` (ply `first_ply` on) and returns the side to move after.
pub(super) fn write_line(
    s: &mut String,
    pos: &Position,
    first_ply: usize,
    moves: &[MoveRecord],
    token: &dyn Fn(&Position, Move) -> String,
) -> Color {
    write_line_with(s, pos, first_ply, moves, token, false)
}

/// [`write_line`] for PSN (`psn2 = false`) or PSN2.
pub(super) fn write_line_with(
    s: &mut String,
    pos: &Position,
    first_ply: usize,
    moves: &[MoveRecord],
    token: &dyn Fn(&Position, Move) -> String,
    psn2: bool,
) -> Color {
    let mut pos = pos.clone();
    for (i, m) in moves.iter().enumerate() {
        s.push_str(&move_line(first_ply + i, &token(&pos, m.mv), m.time_ms, m.total_ms, psn2));
        if !m.engine.is_empty() {
            s.push_str(&comment_line(&engine_comment(&m.engine)));
        }
        for c in &m.comments {
            s.push_str(&comment_line(c));
        }
        pos.do_move(m.mv);
    }
    pos.side_to_move()
}

/// Writes every variation: a blank line, `Variation:N`, its moves.
pub(super) fn write_variations(
    s: &mut String,
    rec: &GameRecord,
    token: &dyn Fn(&Position, Move) -> String,
    psn2: bool,
) {
    for (i, v) in rec.variations.iter().enumerate() {
        let Ok(mut pos) = rec.start.position() else {
            return;
        };
        let line = rec.variation_line(i);
        for m in line.iter().take(v.ply.saturating_sub(1)) {
            pos.do_move(*m);
        }
        s.push_str(&format!("\nVariation:{}\n", v.ply));
        write_line_with(s, &pos, v.ply, &v.moves, token, psn2);
    }
}
