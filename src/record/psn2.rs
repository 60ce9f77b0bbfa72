//! PSN2, MyShogi's format (psn.md §6): UTF-8 with BOM, `[Black]`, `[White]`, time settings and
//! `[SFEN]` headers, USI move strings, `(hh:mm:ss / hh:mm:ss)` times and distinct terminal words
//! for every result. Written exactly as MyShogi writes it (tags it has no header for follow the
//! `SFEN` line, where MyShogi's reader skips them).

use super::builder::Builder;
use super::error::{RecordError, RecordErrorKind};
use super::gui_lines::{self, Token, Tokens};
use super::{GameRecord, Start, result_words};
use crate::position::{GameResult, ResultReason, Winner};
use crate::types::Color;
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

/// Reads every game of PSN2 text.
pub fn read(text: &str) -> impl Iterator<Item = Result<GameRecord, RecordError>> + '_ {
    gui_lines::split_games(text).map(|g| read_game(&g))
}

fn read_game(g: &gui_lines::GameText<'_>) -> Result<GameRecord, RecordError> {
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(g.first_line, 1, e))?;
    for h in &g.headers {
        match h.key.to_ascii_lowercase().as_str() {
            "sfen" => {
                let start = Start::from_sfen(&h.value)
                    .map_err(|e| RecordError::new(h.line, 1, RecordErrorKind::BadPosition(e.to_string())))?;
                b.set_start(start).map_err(|e| RecordError::syntax(h.line, 1, e))?;
            }
            "black" => b.tag("Black", &h.value),
            "white" => b.tag("White", &h.value),
            "blacktimesetting" | "whitetimesetting" if h.value == UNLIMITED => {}
            _ => b.tag(&h.key, &h.value),
        }
    }
    let mut note = None;
    let mut ended = false;
    for tok in Tokens::new(&g.body) {
        let (line, col) = (tok.line, tok.column);
        match tok.token {
            Token::Comment(text) => match result_words::parse_note(&text) {
                Some(r) => note = Some(r),
                None if !ended || !b.on_main_line() => gui_lines::attach_comment(&mut b, text),
                None => {}
            },
            Token::Time(t) if !ended => gui_lines::attach_time(&mut b, &t),
            Token::Time(_) => {}
            Token::Variation(ply) => {
                ended = false;
                b.start_variation(ply).map_err(|e| RecordError::syntax(line, col, e))?;
            }
            Token::Word(word) => {
                let word = gui_lines::strip_move_number(&word);
                if word.is_empty() {
                    continue;
                }
                if let Some(r) = terminal(word, b.position().side_to_move()) {
                    b.set_result(r);
                    ended = true;
                    continue;
                }
                if ended && b.on_main_line() {
                    return Err(RecordError::syntax(line, col, format!("move {word:?} after the end of the game")));
                }
                let ply = b.ply() + 1;
                let m = b.position().parse_usi_move(word).map_err(|e| {
                    let rule = match e {
                        crate::MoveError::Illegal { kind, .. } => Some(kind),
                        crate::MoveError::Syntax(_) => None,
                    };
                    RecordError::new(line, col, RecordErrorKind::IllegalMove { ply, text: word.to_string(), rule })
                })?;
                b.push(m);
            }
        }
    }
    let mut rec = b.finish();
    if note.is_some() {
        rec.result = note;
    }
    Ok(rec)
}

/// The byte-order mark PSN2 files start with.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Writes one game (without the file's BOM, which the file writer adds once) and flushes.
pub fn write<W: Write>(out: &mut W, rec: &GameRecord) -> io::Result<()> {
    let mut s = String::new();
    let quote = |v: &str| v.replace('"', "'");
    s.push_str(&format!("[Black \"{}\"]\n", quote(rec.tag("Black").unwrap_or(""))));
    s.push_str(&format!("[White \"{}\"]\n", quote(rec.tag("White").unwrap_or(""))));
    s.push_str(&format!("[BlackTimeSetting \"{}\"]\n", rec.tag("BlackTimeSetting").unwrap_or(UNLIMITED)));
    s.push_str(&format!("[WhiteTimeSetting \"{}\"]\n", rec.tag("WhiteTimeSetting").unwrap_or(UNLIMITED)));
    s.push_str(&format!("[SFEN \"{}\"]\n", rec.start.sfen()));
    for (k, v) in &rec.tags {
        if !matches!(k.as_str(), "Black" | "White" | "BlackTimeSetting" | "WhiteTimeSetting") {
            s.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
        }
    }
    for c in &rec.summary {
        s.push_str(&gui_lines::comment_line(c));
    }
    let start = rec.start.position().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let usi = |_: &crate::Position, m: crate::Move| m.to_string();
    let stm = gui_lines::write_line_with(&mut s, &start, 1, &rec.moves, &usi, true);
    if let Some(r) = rec.result {
        let word = terminal_word(&r, stm);
        if let Some(w) = word {
            s.push_str(&gui_lines::move_line(rec.moves.len() + 1, w, None, None, true));
        }
        if word.and_then(|w| terminal(w, stm)) != Some(r) {
            s.push_str(&gui_lines::comment_line(&result_words::note(&r)));
        }
    }
    gui_lines::write_variations(&mut s, rec, &usi, true);
    s.push('\n');
    out.write_all(s.as_bytes())?;
    out.flush()
}
