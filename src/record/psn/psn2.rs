//! PSN2, MyShogi's format (psn.md §6): UTF-8 with BOM, `[Black]`, `[White]`, time settings and
//! `[SFEN]` headers, USI move strings, `(hh:mm:ss / hh:mm:ss)` times and distinct terminal words
//! for every result. Written exactly as MyShogi writes it: the same header order, move lines
//! numbered from the SFEN's move number, the terminal line with the time the side to move used,
//! variations deepest branch first (tags MyShogi has no header for follow the `SFEN` line, where
//! its reader skips them; comments are `{…}` lines, which it skips too).

use super::body::{self, Dialect};
use super::tokens as gui_lines;
use crate::position::{GameResult, Position, ResultReason, Winner};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::{GameRecord, Start, result_words};
use crate::types::{Color, Move};
use std::fmt::Write as _;
use std::io::{self, Write};

/// The time setting MyShogi writes for an untimed game.
const UNLIMITED: &str = "0,0,0,0,0,0,0,0,1";

fn terminal(word: &str, stm: Color) -> Option<GameResult> {
    Some(match word {
        "Resigns" => GameResult::loss(stm, ResultReason::Resign),
        "Mate" => GameResult::loss(stm, ResultReason::Checkmate),
        "Timeup" => GameResult::loss(stm, ResultReason::Time),
        "Interrupt" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "RepetitionDraw" => GameResult::draw(ResultReason::Repetition),
        "RepetitionWin" => GameResult::win(stm, ResultReason::PerpetualCheck),
        "DeclarationWin" => GameResult::win(stm, ResultReason::Declaration),
        "MaxMovesDraw" => GameResult::draw(ResultReason::MaxMoves),
        "TryRuleWin" => GameResult::loss(stm, ResultReason::Declaration),
        _ => return None,
    })
}

fn terminal_word(r: &GameResult, stm: Color) -> Option<&'static str> {
    let stm_lost = r.winner == Winner::color(!stm);
    let stm_won = r.winner == Winner::color(stm);
    Some(match r.reason {
        ResultReason::Resign | ResultReason::Adjudication if stm_lost => "Resigns",
        ResultReason::Checkmate if stm_lost => "Mate",
        ResultReason::Time if stm_lost => "Timeup",
        ResultReason::Repetition => "RepetitionDraw",
        ResultReason::PerpetualCheck if stm_won => "RepetitionWin",
        ResultReason::Declaration if stm_won => "DeclarationWin",
        ResultReason::MaxMoves => "MaxMovesDraw",
        ResultReason::Interrupt | ResultReason::Disconnect => "Interrupt",
        _ => return None,
    })
}

/// PSN2's words: USI moves and its own terminal words.
struct Psn2;

impl Dialect for Psn2 {
    fn skips(&mut self, word: &str) -> bool {
        word.is_empty()
    }

    fn terminal(&self, word: &str, pos: &Position) -> Option<GameResult> {
        terminal(word, pos.side_to_move())
    }

    fn read_move(&self, b: &Builder, word: &str, ply: usize) -> Result<Move, RecordErrorKind> {
        b.position().parse_usi_move(word).map_err(|e| {
            let rule = match e {
                crate::position::MoveError::Illegal { kind, .. } => Some(kind),
                crate::position::MoveError::Syntax(_) => None,
            };
            RecordErrorKind::IllegalMove { ply, text: word.to_string(), rule }
        })
    }
}

/// Reads one game; `first_line` is the number of its first line in the file.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<GameRecord, RecordError> {
    let g = gui_lines::game_text(text, first_line);
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first_line, 1, e))?;
    for h in &g.headers {
        match h.key.to_ascii_lowercase().as_str() {
            "sfen" => {
                let start = Start::from_sfen(h.value)
                    .map_err(|e| RecordError::new(h.line, 1, RecordErrorKind::BadPosition(e.to_string())))?;
                b.set_start(start).map_err(|e| RecordError::syntax(h.line, 1, e))?;
            }
            "black" => b.tag("Black", h.value),
            "white" => b.tag("White", h.value),
            "blacktimesetting" | "whitetimesetting" if h.value == UNLIMITED => {}
            _ => b.tag(h.key, h.value),
        }
    }
    let body = body::read(&mut b, &g.body, &mut Psn2)?;
    let mut rec = b.finish();
    if body.note.is_some() {
        rec.result = body.note;
    }
    Ok(rec)
}

/// Writes one game (without the file's BOM, which the file writer adds once) and flushes.
pub fn write<W: Write>(out: &mut W, rec: &GameRecord) -> io::Result<()> {
    let mut s = String::with_capacity(112 * (rec.moves.len() + 8));
    to_text(&mut s, rec)?;
    out.write_all(s.as_bytes())?;
    out.flush()
}

fn usi(s: &mut String, _: &crate::Position, m: crate::Move) {
    let _ = write!(s, "{m}");
}

/// Appends the PSN2 text of one game.
pub(crate) fn to_text(s: &mut String, rec: &GameRecord) -> io::Result<()> {
    let quote = |v: &str| v.replace('"', "'");
    let _ = writeln!(s, "[Black \"{}\"]", quote(rec.tag("Black").unwrap_or("")));
    let _ = writeln!(s, "[White \"{}\"]", quote(rec.tag("White").unwrap_or("")));
    let _ = writeln!(s, "[BlackTimeSetting \"{}\"]", quote(rec.tag("BlackTimeSetting").unwrap_or(UNLIMITED)));
    let _ = writeln!(s, "[WhiteTimeSetting \"{}\"]", quote(rec.tag("WhiteTimeSetting").unwrap_or(UNLIMITED)));
    let _ = writeln!(s, "[SFEN \"{}\"]", rec.start.sfen());
    for (k, v) in &rec.tags {
        // Tag names are matched without regard to case (`GameRecord::tag`), as written above.
        if !["Black", "White", "BlackTimeSetting", "WhiteTimeSetting"].iter().any(|n| n.eq_ignore_ascii_case(k)) {
            let _ = writeln!(s, "[{k} \"{}\"]", quote(v));
        }
    }
    for c in &rec.summary {
        gui_lines::write_comment(s, c);
    }
    let start = rec.start.position().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let base = rec.first_move_number();
    let end = gui_lines::write_line(s, start, base, &rec.moves, &usi, true);
    if let Some(r) = rec.result {
        let stm = end.side_to_move();
        let word = terminal_word(&r, stm);
        if let Some(w) = word {
            let (used, total) = rec.end_times();
            gui_lines::write_move_line(s, base + rec.moves.len(), w, used, total, true);
        }
        if word.and_then(|w| terminal(w, stm)) != Some(r) {
            let time = if word.is_none() { rec.end_time_ms } else { None };
            gui_lines::write_comment(s, &result_words::note_with_time(&r, time));
        }
    }
    // No blank line after the game: MyShogi writes none (the next `[Black` starts a new game).
    gui_lines::write_variations(s, rec, base, &usi, true);
    Ok(())
}
