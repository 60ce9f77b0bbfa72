//! PSN in all its forms (psn.md §1–§5): PSN-1998 (with `Handicap` and the 13-field `FEN`
//! header), T. Gene Davis's Draft 1 (every property alias, curly quotes, abbreviations, per-ply or
//! per-turn numbering) and the GUI dialect of Shogidokoro and MyShogi (`[SFEN]`, one move per line
//! with `(mm:ss / hh:mm:ss)` times, terminal words, `Variation:N`).
//!
//! The writer produces the GUI dialect with full extended notation, so that every older reader
//! can read it: `[Sente]`, `[Gote]`, other tags, `[Handicap]` for handicap starts, `[SFEN]`,
//! `[Result]`, then `1.P7g-7f          (00:03 / 00:00:03)` lines, engine data as
//! `{score cp 85 depth 12 nodes 123456 pv 7g7f 3c3d}`, and a terminal word. The reader also takes
//! USI move text (`7g7f`) where a move is expected.

use super::builder::Builder;
use super::error::{RecordError, RecordErrorKind};
use super::gui_lines::{self, Token, Tokens};
use super::result_words;
use super::{GameRecord, Start, notation};
use crate::position::{GameResult, Handicap, Position, ResultReason, Winner};
use crate::types::Color;
use std::io::{self, Write};

/// Reads every game of PSN text (any variant).
pub fn read(text: &str) -> impl Iterator<Item = Result<GameRecord, RecordError>> + '_ {
    gui_lines::split_games(text).map(|g| read_game(&g))
}

/// Maps a property name (any spelling of either spec) to hisha's tag name.
fn canonical_tag(key: &str) -> String {
    let k = key.to_ascii_lowercase();
    let name = match k.as_str() {
        "sente" | "black" => "Black",
        "gote" | "white" => "White",
        "senterank" | "sentegrade" | "blackrank" | "blackgrade" => "BlackRank",
        "goterank" | "gotegrade" | "whiterank" | "whitegrade" => "WhiteRank",
        "joseki" | "opening" => "Opening",
        "event" => "Event",
        "site" => "Site",
        "date" => "Date",
        "round" => "Round",
        "time" => "Time",
        _ => return key.to_string(),
    };
    name.to_string()
}

/// PSN-1998's 13-field `FEN` header as SFEN (psn.md §1).
fn fen_to_sfen(fen: &str) -> Result<String, String> {
    let fields: Vec<&str> = fen.split(['/', ' ']).filter(|s| !s.is_empty()).collect();
    if fields.len() != 13 {
        return Err(format!("FEN needs 13 fields, got {}", fields.len()));
    }
    let board = fields[..9].join("/");
    const ORDER: [char; 7] = ['P', 'L', 'N', 'S', 'G', 'B', 'R'];
    let hand = |digits: &str, upper: bool| -> Result<Vec<(char, u32)>, String> {
        if digits.len() != 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("a FEN hand is seven digits, got {digits:?}"));
        }
        Ok(digits
            .bytes()
            .zip(ORDER)
            .map(|(d, c)| (if upper { c } else { c.to_ascii_lowercase() }, (d - b'0') as u32))
            .collect())
    };
    let black = hand(fields[9], true)?;
    let setup = crate::position::sfen::parse_setup(&format!("{board} b - 1")).map_err(|e| e.to_string())?;
    let mut white = Vec::new();
    if fields[10].eq_ignore_ascii_case("t") {
        // Everything not on the board and not in Black's hand.
        for (i, k) in [
            crate::PieceKind::Pawn,
            crate::PieceKind::Lance,
            crate::PieceKind::Knight,
            crate::PieceKind::Silver,
            crate::PieceKind::Gold,
            crate::PieceKind::Bishop,
            crate::PieceKind::Rook,
        ]
        .iter()
        .enumerate()
        {
            let on_board = setup.board.iter().flatten().filter(|p| p.kind().unpromoted() == *k).count() as u32;
            let left = (k.set_count() as u32).saturating_sub(on_board + black[i].1);
            white.push((ORDER[i].to_ascii_lowercase(), left));
        }
    } else {
        white = hand(fields[10], false)?;
    }
    let side = match fields[11] {
        "s" | "S" => Color::Black,
        "g" | "G" => Color::White,
        s => return Err(format!("side to move must be s or g, got {s:?}")),
    };
    let pair: u32 = fields[12].parse().map_err(|_| format!("bad move number {:?}", fields[12]))?;
    let mut hand_text = String::new();
    for (c, n) in black.iter().chain(white.iter()) {
        match n {
            0 => {}
            1 => hand_text.push(*c),
            n => hand_text.push_str(&format!("{n}{c}")),
        }
    }
    if hand_text.is_empty() {
        hand_text.push('-');
    }
    let ply = 2 * pair.max(1) - 1 + (side == Color::White) as u32;
    let sfen = format!("{} {} {hand_text} {ply}", board, side.sfen_char());
    let pos = Position::from_sfen(&sfen).map_err(|e| e.to_string())?;
    Ok(pos.to_sfen())
}

/// The result of a PSN terminal word said at a position where `stm` is to move.
fn terminal(word: &str, stm: Color) -> Option<GameResult> {
    Some(match word.to_ascii_lowercase().as_str() {
        "resigns" | "resign" => GameResult::loss(stm, ResultReason::Resign),
        "mate" => GameResult::loss(stm, ResultReason::Checkmate),
        "timeup" => GameResult::loss(stm, ResultReason::Time),
        "interrupt" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "sennichite" => GameResult::draw(ResultReason::Repetition),
        "jishogi" => GameResult::win(stm, ResultReason::Declaration),
        _ => return None,
    })
}

fn result_token(word: &str) -> Option<Winner> {
    match word {
        "1-0" => Some(Winner::Black),
        "0-1" => Some(Winner::White),
        "1/2-1/2" | "½-½" | "1⁄2-1⁄2" => Some(Winner::Draw),
        _ => None,
    }
}

fn read_game(g: &gui_lines::GameText<'_>) -> Result<GameRecord, RecordError> {
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(g.first_line, 1, e))?;
    let mut header_result = None;
    for h in &g.headers {
        let key = h.key.as_str();
        let bad = |e: String| RecordError::new(h.line, 1, RecordErrorKind::BadPosition(e));
        match key.to_ascii_lowercase().as_str() {
            "handicap" => {
                let handicap: Handicap =
                    h.value.parse().map_err(|e: crate::position::ParseHandicapError| bad(e.to_string()))?;
                b.set_start(Start::Handicap(handicap)).map_err(bad)?;
            }
            "sfen" => b.set_start(Start::from_sfen(&h.value).map_err(|e| bad(e.to_string()))?).map_err(bad)?,
            "fen" => b
                .set_start(Start::from_sfen(&fen_to_sfen(&h.value).map_err(bad)?).map_err(|e| bad(e.to_string()))?)
                .map_err(bad)?,
            "result" => {
                header_result = result_token(&h.value);
                if h.value.eq_ignore_ascii_case("resigns") {
                    header_result = Some(Winner::Unfinished); // decided after the moves
                }
                b.tag("Result", &h.value);
            }
            _ => b.tag(&canonical_tag(key), &h.value),
        }
    }
    let mut note = None;
    let mut token_result = None;
    let mut ended = false;
    for tok in Tokens::new(&g.body) {
        let (line, col) = (tok.line, tok.column);
        match tok.token {
            Token::Comment(text) => {
                if let Some(r) = result_words::parse_note(&text) {
                    note = Some(r);
                } else if !ended || !b.on_main_line() {
                    gui_lines::attach_comment(&mut b, text);
                }
            }
            Token::Time(t) => {
                if !ended {
                    gui_lines::attach_time(&mut b, &t);
                }
            }
            Token::Variation(ply) => {
                ended = false;
                b.start_variation(ply).map_err(|e| RecordError::syntax(line, col, e))?;
            }
            Token::Word(word) => {
                let word = gui_lines::strip_move_number(&word);
                if word.is_empty() || word.chars().all(|c| c == '.') {
                    continue;
                }
                if let Some(w) = result_token(word) {
                    token_result = Some(w);
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
                // A USI move (`7g7f`, `P*5e`) is accepted too: no Western move starts with a digit,
                // and a drop's `*` after an upper-case letter reads the same in both.
                let usi = word
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
                    .then(|| b.position().parse_usi_move(word).ok())
                    .flatten();
                let m = match usi {
                    Some(m) => m,
                    None => notation::read(b.position(), word, b.last_to(), ply)
                        .map_err(|kind| RecordError::new(line, col, kind))?,
                };
                b.push(m);
            }
        }
    }
    let mut record = b.finish();
    if record.result.is_none() {
        let stm = record.final_position().map(|p| p.side_to_move()).unwrap_or(Color::Black);
        record.result = match token_result.or(header_result) {
            Some(Winner::Unfinished) => Some(GameResult::loss(stm, ResultReason::Resign)),
            Some(Winner::Draw) => Some(GameResult::draw(ResultReason::Repetition)),
            Some(w) => Some(GameResult { winner: w, reason: ResultReason::Resign }),
            None => None,
        };
    }
    if note.is_some() {
        record.result = note;
    }
    record.tags.retain(|(k, _)| k != "Result");
    Ok(record)
}

/// The PSN terminal word for a result with `stm` to move, if PSN has one.
fn terminal_word(r: &GameResult, stm: Color) -> Option<&'static str> {
    let stm_lost = r.winner == Winner::color(!stm);
    Some(match r.reason {
        ResultReason::Resign | ResultReason::Adjudication if stm_lost => "Resigns",
        ResultReason::Checkmate if stm_lost => "Mate",
        ResultReason::Time if stm_lost => "Timeup",
        ResultReason::Repetition | ResultReason::PerpetualCheck => "Sennichite",
        ResultReason::Declaration | ResultReason::MaxMoves => "Jishogi",
        ResultReason::Interrupt | ResultReason::Disconnect => "Interrupt",
        _ => return None,
    })
}

/// Writes one game in the GUI dialect and flushes.
pub fn write<W: Write>(out: &mut W, rec: &GameRecord) -> io::Result<()> {
    let mut s = String::new();
    let quote = |v: &str| v.replace('"', "'");
    s.push_str(&format!("[Sente \"{}\"]\n", quote(rec.tag("Black").unwrap_or(""))));
    s.push_str(&format!("[Gote \"{}\"]\n", quote(rec.tag("White").unwrap_or(""))));
    for (k, v) in &rec.tags {
        if !matches!(k.as_str(), "Black" | "White") {
            s.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
        }
    }
    if let Start::Handicap(h) = rec.start {
        if h != Handicap::Even {
            s.push_str(&format!("[Handicap \"{}\"]\n", h.english()));
        }
    }
    s.push_str(&format!("[SFEN \"{}\"]\n", rec.start.sfen()));
    if let Some(r) = rec.result {
        let text = match r.winner {
            Winner::Black => "1-0",
            Winner::White => "0-1",
            Winner::Draw => "1/2-1/2",
            Winner::Unfinished => "*",
        };
        s.push_str(&format!("[Result \"{text}\"]\n"));
    }
    for c in &rec.summary {
        s.push_str(&gui_lines::comment_line(c));
    }
    let start = rec.start.position().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let stm = gui_lines::write_line(&mut s, &start, 1, &rec.moves, &notation::write);
    if let Some(r) = rec.result {
        let ply = rec.moves.len() + 1;
        if let Some(w) = terminal_word(&r, stm) {
            s.push_str(&gui_lines::move_line(ply, w, None, None, false));
        }
        if terminal_word(&r, stm).and_then(|w| terminal(w, stm)) != Some(r) {
            s.push_str(&gui_lines::comment_line(&result_words::note(&r)));
        }
    }
    gui_lines::write_variations(&mut s, rec, &notation::write, false);
    s.push('\n');
    out.write_all(s.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests;
