//! PSN in all its forms (psn.md §1–§5): PSN-1998 (with `Handicap` and the 13-field `FEN`
//! header), T. Gene Davis's Draft 1 (every property alias, curly quotes, abbreviations, per-ply or
//! per-turn numbering, the handicap `...` placeholder) and the GUI dialect of Shogidokoro and
//! MyShogi (`[SFEN]`, one move per line with `(mm:ss / hh:mm:ss)` times, terminal words,
//! `Variation:N`).
//!
//! The writer produces the GUI dialect with full extended notation, so that every older reader
//! can read it: `[Sente]`, `[Gote]`, other tags, `[Handicap]` for handicap starts, `[SFEN]`,
//! `[Result]`, then `1.P7g-7f          (00:03 / 00:00:03)` lines numbered from the SFEN's move
//! number (as MyShogi does), engine data as `{score cp 85 depth 12 nodes 123456 time 950 pv 7g7f
//! 3c3d}`, and a terminal word. The reader also takes USI move text (`7g7f`) where a move is
//! expected.

use super::body::{self, Dialect};
use super::tokens::{self as gui_lines, Header};
use super::{fen, notation};
use crate::position::{DeclarationOutcome, EnteringKingRule, GameResult, Handicap, Position, Repetition};
use crate::position::{ResultReason, Winner};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::result_words;
use crate::record::{GameRecord, Start};
use crate::types::Move;
use std::fmt::Write as _;
use std::io::{self, Write};

/// Maps a property name (any spelling of either spec) to hisha's tag name.
fn canonical_tag(key: &str) -> &str {
    const NAMES: [(&str, &str); 18] = [
        ("sente", "Black"),
        ("black", "Black"),
        ("gote", "White"),
        ("white", "White"),
        ("senterank", "BlackRank"),
        ("sentegrade", "BlackRank"),
        ("blackrank", "BlackRank"),
        ("blackgrade", "BlackRank"),
        ("goterank", "WhiteRank"),
        ("gotegrade", "WhiteRank"),
        ("whiterank", "WhiteRank"),
        ("whitegrade", "WhiteRank"),
        ("joseki", "Opening"),
        ("opening", "Opening"),
        ("event", "Event"),
        ("site", "Site"),
        ("date", "Date"),
        ("round", "Round"),
    ];
    NAMES.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map_or(key, |(_, v)| v)
}

/// The start a Draft 1 or PSN-1998 `Handicap` value names. Draft 1 also lists `Sente` and `Gote`
/// without saying what they mean (UNCONFIRMED in psn.md); in Japanese handicap ladders 先 ("sente")
/// is the step between an even game and a lance handicap where the weaker player always takes
/// Black, so both are read as the even start (the value is kept as a tag).
fn handicap_start(value: &str) -> Result<(Handicap, bool), crate::position::ParseHandicapError> {
    if value.trim().eq_ignore_ascii_case("sente") || value.trim().eq_ignore_ascii_case("gote") {
        return Ok((Handicap::Even, true));
    }
    value.parse().map(|h| (h, false))
}

/// The result a PSN terminal word gives at the final position `pos` (side to move = the side
/// the word is about). `Sennichite` is a draw unless the position shows perpetual check (then the
/// checker lost), as MyShogi decides it; `Jishogi` is an entering-king declaration win when the
/// side to move could declare (27- or 24-point rule), else a draw by the move limit.
fn terminal(word: &str, pos: &Position) -> Option<GameResult> {
    let stm = pos.side_to_move();
    let w = word.to_ascii_lowercase();
    Some(match w.as_str() {
        "resigns" | "resign" => GameResult::loss(stm, ResultReason::Resign),
        "mate" => GameResult::loss(stm, ResultReason::Checkmate),
        "timeup" => GameResult::loss(stm, ResultReason::Time),
        "interrupt" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "sennichite" => match pos.repetition(4) {
            Repetition::PerpetualCheckBy(c) => GameResult::loss(c, ResultReason::PerpetualCheck),
            _ => GameResult::draw(ResultReason::Repetition),
        },
        "jishogi" => {
            let can = |rule| matches!(pos.declaration(rule), DeclarationOutcome::Win);
            if can(EnteringKingRule::Point27) || can(EnteringKingRule::Point24) {
                GameResult::win(stm, ResultReason::Declaration)
            } else {
                GameResult::draw(ResultReason::MaxMoves)
            }
        }
        _ => return None,
    })
}

/// A result given as points (`1-0` …, `*` = unfinished) or, in a Draft 1 `Result` property, as
/// `Resigns` (the side to move at the end resigned).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Points(Winner),
    Resigned,
}

fn result_token(word: &str) -> Option<Outcome> {
    Some(Outcome::Points(match word {
        "1-0" => Winner::Black,
        "0-1" => Winner::White,
        "1/2-1/2" | "½-½" | "1⁄2-1⁄2" => Winner::Draw,
        "*" => Winner::Unfinished,
        _ if word.eq_ignore_ascii_case("resigns") => return Some(Outcome::Resigned),
        _ => return None,
    }))
}

/// PSN's words: Western or USI moves, terminal words decided by the position, points results.
#[derive(Default)]
struct Psn {
    /// The last result given as points in the text (`1-0` …, `*`).
    token_result: Option<Outcome>,
}

impl Dialect for Psn {
    fn skips(&mut self, word: &str) -> bool {
        if let Some(o @ Outcome::Points(_)) = result_token(word) {
            self.token_result = Some(o);
            return true;
        }
        // Empty: a number alone; dots: Draft 1's handicap placeholder `...`.
        word.bytes().all(|c| c == b'.')
    }

    fn terminal(&self, word: &str, pos: &Position) -> Option<GameResult> {
        terminal(word, pos)
    }

    fn read_move(&self, b: &Builder, word: &str, ply: usize) -> Result<Move, RecordErrorKind> {
        // A USI move (`7g7f`, `P*5e`) is accepted too: no Western move starts with a digit, and a
        // drop's `*` after an upper-case letter reads the same in both.
        let usi =
            word.as_bytes().first().is_some_and(u8::is_ascii_digit).then(|| b.position().parse_usi_move(word).ok());
        match usi.flatten() {
            Some(m) => Ok(m),
            None => notation::read(b.position(), word, b.last_to(), ply),
        }
    }

    fn comment_after_end(&mut self, b: &mut Builder, text: &str) {
        if text.contains("宣言") {
            // Shogidokoro's `Jishogi` line followed by 入玉宣言により勝ち。
            let stm = b.position().side_to_move();
            let time = b.record.end_time_ms;
            b.set_result(GameResult::win(stm, ResultReason::Declaration), time);
        }
    }
}

/// Reads one game; `first_line` is the number of its first line in the file.
///
/// The result comes from the moves' end: a terminal word, a points result or hisha's note. A
/// `[Result]` header alone gives it only in PSN-1998 and Draft 1, which have no other place for
/// it; in the GUI dialect (an `[SFEN]` header or move times) every writer ends the moves with a
/// terminal word, so moves that stop without one were cut (a crashed match, a partial download)
/// and the header's claim is not taken: the result stays unknown ([`unconfirmed_result`]).
pub(crate) fn parse(text: &str, first_line: usize) -> Result<GameRecord, RecordError> {
    let g = gui_lines::game_text(text, first_line);
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first_line, 1, e))?;
    let headers = read_headers(&mut b, &g.headers)?;
    let mut psn = Psn::default();
    let body = body::read(&mut b, &g.body, &mut psn)?;
    let gui_dialect = headers.sfen || body.timed;
    let mut record = b.finish();
    if record.result.is_none() {
        let header_result = headers.result.filter(|_| !gui_dialect);
        record.result = psn.token_result.or(header_result).map(|o| points_result(o, &record));
    }
    if body.note.is_some() {
        record.result = body.note;
    }
    Ok(record)
}

/// The value of the `[Result]` header of a game read without a result: a claim the moves do not
/// bear out (see [`parse`]), for the reader's warning.
pub(crate) fn unconfirmed_result(text: &str) -> Option<String> {
    let g = gui_lines::game_text(text, 1);
    g.headers.iter().find(|h| h.key.eq_ignore_ascii_case("result")).map(|h| h.value.to_string())
}

/// What the headers say beyond the tags they set.
struct Headers {
    /// The result of a `Result` header.
    result: Option<Outcome>,
    /// An `SFEN` header: the GUI dialect.
    sfen: bool,
}

/// Reads the headers into `b`: the start (`Handicap`, `SFEN`, `FEN`) and tags.
fn read_headers(b: &mut Builder, headers: &[Header<'_>]) -> Result<Headers, RecordError> {
    let mut header_result = None;
    let mut sfen = false;
    for h in headers {
        let bad = |e: String| RecordError::new(h.line, 1, RecordErrorKind::BadPosition(e));
        let start = |s: &str| Start::from_sfen(s).map_err(|e| bad(e.to_string()));
        match h.key.to_ascii_lowercase().as_str() {
            "handicap" => {
                let (handicap, keep) = handicap_start(h.value).map_err(|e| bad(e.to_string()))?;
                b.set_start(Start::Handicap(handicap)).map_err(|e| bad(e.to_string()))?;
                if keep {
                    b.tag("Handicap", h.value);
                }
            }
            "sfen" => {
                sfen = true;
                b.set_start(start(h.value)?).map_err(|e| bad(e.to_string()))?
            }
            "fen" => {
                let sfen = fen::to_sfen(h.value).map_err(|e| bad(e.to_string()))?;
                b.set_start(start(&sfen)?).map_err(|e| bad(e.to_string()))?
            }
            "result" => header_result = result_token(h.value.trim()),
            _ => b.tag(canonical_tag(h.key), h.value),
        }
    }
    Ok(Headers { result: header_result, sfen })
}

/// The result a points result (or a `Resigns` property) gives at the end of `record`.
fn points_result(o: Outcome, record: &GameRecord) -> GameResult {
    let stm = record.final_position().map(|p| p.side_to_move()).unwrap_or(crate::Color::Black);
    match o {
        Outcome::Resigned => GameResult::loss(stm, ResultReason::Resign),
        Outcome::Points(Winner::Unfinished) => {
            GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt }
        }
        Outcome::Points(Winner::Draw) => GameResult::draw(ResultReason::Repetition),
        Outcome::Points(w) => GameResult { winner: w, reason: ResultReason::Resign },
    }
}

/// The PSN terminal word for a result at the final position `pos`, if PSN has one.
fn terminal_word(r: &GameResult, pos: &Position) -> Option<&'static str> {
    let stm = pos.side_to_move();
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

/// Appends the Western token of a legal move.
fn western(s: &mut String, pos: &Position, m: crate::Move) {
    notation::write_to(s, pos, m);
}

/// Writes one game in the GUI dialect and flushes.
pub fn write<W: Write>(out: &mut W, rec: &GameRecord) -> io::Result<()> {
    let mut s = String::with_capacity(128 * (rec.moves.len() + 8));
    to_text(&mut s, rec)?;
    out.write_all(s.as_bytes())?;
    out.flush()
}

/// Appends the GUI-dialect text of one game.
pub(crate) fn to_text(s: &mut String, rec: &GameRecord) -> io::Result<()> {
    let quote = |v: &str| v.replace('"', "'");
    let _ = writeln!(s, "[Sente \"{}\"]", quote(rec.tag("Black").unwrap_or("")));
    let _ = writeln!(s, "[Gote \"{}\"]", quote(rec.tag("White").unwrap_or("")));
    let handicap = match rec.start {
        Start::Handicap(h) if h != Handicap::Even => Some(h),
        _ => None,
    };
    for (k, v) in &rec.tags {
        let skip =
            matches!(k.as_str(), "Black" | "White") || (handicap.is_some() && k.eq_ignore_ascii_case("handicap"));
        if !skip {
            let _ = writeln!(s, "[{k} \"{}\"]", quote(v));
        }
    }
    if let Some(h) = handicap {
        let _ = writeln!(s, "[Handicap \"{}\"]", h.english());
    }
    let _ = writeln!(s, "[SFEN \"{}\"]", rec.start.sfen());
    if let Some(r) = rec.result {
        let text = match r.winner {
            Winner::Black => "1-0",
            Winner::White => "0-1",
            Winner::Draw => "1/2-1/2",
            Winner::Unfinished => "*",
        };
        let _ = writeln!(s, "[Result \"{text}\"]");
    }
    for c in &rec.summary {
        gui_lines::write_comment(s, c);
    }
    let start = rec.start.position().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let base = rec.first_move_number();
    let end = gui_lines::write_line(s, start, base, &rec.moves, &western, false);
    if let Some(r) = rec.result {
        let word = terminal_word(&r, &end);
        if let Some(w) = word {
            let (used, total) = rec.end_times();
            gui_lines::write_move_line(s, base + rec.moves.len(), w, used, total, false);
        }
        if word.and_then(|w| terminal(w, &end)) != Some(r) {
            let time = if word.is_none() { rec.end_time_ms } else { None };
            gui_lines::write_comment(s, &result_words::note_with_time(&r, time));
        }
    }
    gui_lines::write_variations(s, rec, base, &western, false);
    s.push('\n');
    Ok(())
}
