//! A game as one USI line: `startpos moves 7g7f 3c3d …` or `sfen <sfen> moves …` (a leading
//! `position` is accepted). One game per line; blank lines and `#` lines are skipped. The format
//! carries no tags, times, comments or result.

use super::boundary::{Cut, GameBoundaries, Sample};
use super::error::{RecordError, RecordErrorKind};
use super::{Format, GameRecord, Start};
use std::io::{self, Write};

/// USI lines when the first line starts with `startpos`, `sfen` or `position`.
pub(super) fn sniff(sample: &Sample) -> Option<Format> {
    let first = sample.first_line();
    ["startpos", "sfen", "position"].iter().any(|w| first.starts_with(w)).then_some(Format::Usi)
}

/// The game boundaries of USI lines: every line that holds a game (not blank, not a `#` comment)
/// is one; other lines belong to none.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Boundaries;

impl GameBoundaries for Boundaries {
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        let t = line.trim_start();
        if !t.is_empty() && !t.starts_with('#') { (Cut::Starts, true) } else { (Cut::Separates, false) }
    }
}

/// Reads the game on the first line of `text`, which is line `n` of the file.
pub(super) fn parse(text: &str, n: usize) -> Result<GameRecord, RecordError> {
    let line = super::text::lines(text).next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    let column_of = |w: &str| line.find(w).map_or(1, |i| line[..i].chars().count() + 1);
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let start = match &words[..moves_at] {
        ["startpos"] => Start::default(),
        ["sfen", rest @ ..] => Start::from_sfen(&rest.join(" "))
            .map_err(|e| RecordError::new(n, column_of("sfen"), RecordErrorKind::BadPosition(e.to_string())))?,
        _ => return Err(RecordError::syntax(n, 1, "expected `startpos` or `sfen …`")),
    };
    let mut pos = start.position().map_err(|e| RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string())))?;
    let mut rec = GameRecord::new(start, []);
    rec.moves.reserve(words.len().saturating_sub(moves_at + 1));
    let mut search_from = 0;
    for (i, w) in words.iter().enumerate().skip(moves_at + 1) {
        let at = line[search_from..].find(w).map_or(search_from, |p| p + search_from);
        search_from = at + w.len();
        let m = pos.parse_usi_move(w).map_err(|e| {
            let column = super::text::column(line, at);
            let rule = match e {
                crate::position::MoveError::Illegal { kind, .. } => Some(kind),
                crate::position::MoveError::Syntax(_) => None,
            };
            RecordError::new(n, column, RecordErrorKind::IllegalMove { ply: i - moves_at, text: w.to_string(), rule })
        })?;
        pos.do_move(m);
        rec.moves.push(super::MoveRecord::new(m));
    }
    Ok(rec)
}

/// The USI line of a game (`startpos moves …` or `sfen … moves …`).
pub fn line(rec: &GameRecord) -> String {
    let mut s = match &rec.start {
        Start::Handicap(crate::Handicap::Even) => "startpos".to_string(),
        other => format!("sfen {}", other.sfen()),
    };
    if !rec.moves.is_empty() {
        s.push_str(" moves");
        for m in &rec.moves {
            s.push(' ');
            s.push_str(&m.mv.to_string());
        }
    }
    s
}

/// Writes one game as a line and flushes.
pub fn write<W: Write>(out: &mut W, rec: &GameRecord) -> io::Result<()> {
    writeln!(out, "{}", line(rec))?;
    out.flush()
}
