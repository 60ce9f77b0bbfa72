//! CSA standard records, V2.2 and V3.0 (kif-csa.md §2): several games per file separated by `/`,
//! `N+`/`N-` names, `$` info, `PI` with removed pieces or `P1`–`P9` plus `P+`/`P-` hand lines,
//! moves `+7776FU` with `T` times, `%` terminal words (and a `T` after them), `'` comments (`'*`
//! lines are move comments; engine data is in [`super::engine`]). The writer is `super::write`.

use super::engine as csa_engine;
use super::moves::{kind_of, read_move, square};
use crate::position::{GameResult, Position, Repetition, ResultReason, Setup, Winner};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::record::psn::tokens as gui_lines;
use crate::record::{GameRecord, Start, result_words, text};
use crate::types::{Color, Piece, PieceKind};

/// The result a `%` word gives at the final position. `%±ILLEGAL_ACTION` is read as perpetual
/// check when the position shows the offender checking perpetually, else as an illegal move.
pub(super) fn terminal(word: &str, pos: &Position) -> Option<GameResult> {
    let stm = pos.side_to_move();
    let foul_by = |c: Color| {
        let reason = if pos.repetition(4) == Repetition::PerpetualCheckBy(c) {
            ResultReason::PerpetualCheck
        } else {
            ResultReason::IllegalMove
        };
        GameResult::loss(c, reason)
    };
    Some(match word {
        "%TORYO" => GameResult::loss(stm, ResultReason::Resign),
        "%TSUMI" => GameResult::loss(stm, ResultReason::Checkmate),
        "%TIME_UP" => GameResult::loss(stm, ResultReason::Time),
        "%SENNICHITE" => GameResult::draw(ResultReason::Repetition),
        "%ILLEGAL_MOVE" => GameResult::loss(stm, ResultReason::IllegalMove),
        "%+ILLEGAL_ACTION" => foul_by(Color::Black),
        "%-ILLEGAL_ACTION" => foul_by(Color::White),
        "%JISHOGI" | "%MAX_MOVES" => GameResult::draw(ResultReason::MaxMoves),
        "%KACHI" => GameResult::win(stm, ResultReason::Declaration),
        "%HIKIWAKE" => GameResult::draw(ResultReason::Adjudication),
        "%CHUDAN" | "%ERROR" | "%MATTA" | "%FUZUMI" => {
            GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt }
        }
        _ => return None,
    })
}

fn bad_pos(n: usize, e: impl ToString) -> RecordError {
    RecordError::new(n, 1, RecordErrorKind::BadPosition(e.to_string()))
}

/// Reads `PI` with removed pieces (`PI82HI22KA`).
fn read_pi(rest: &str, n: usize) -> Result<Setup, RecordError> {
    let mut s = Position::startpos().to_setup();
    for chunk in rest.as_bytes().chunks(4) {
        let t = std::str::from_utf8(chunk).unwrap_or("");
        let sq = (t.len() == 4).then(|| square(chunk[0].wrapping_sub(b'0'), chunk[1].wrapping_sub(b'0'))).flatten();
        match (sq, kind_of(t.get(2..).unwrap_or(""))) {
            (Some(sq), Some(k)) if s.board[sq.index()].map(|p| p.kind()) == Some(k) => s.board[sq.index()] = None,
            _ => return Err(bad_pos(n, format!("bad PI piece {t:?}"))),
        }
    }
    Ok(s)
}

/// Reads a rank line `P1-KY-KE * …` into `s`.
fn read_rank(line: &str, s: &mut Setup, n: usize) -> Result<(), RecordError> {
    let r = line.as_bytes()[1] - b'0';
    let mut cells = line[2..].chars();
    for i in 0..9u8 {
        let cell: String = cells.by_ref().take(3).collect();
        let sq = square(9 - i, r).ok_or_else(|| bad_pos(n, "bad rank line"))?;
        s.board[sq.index()] = match cell.trim() {
            "*" | "" => None,
            t => {
                let color = if t.starts_with('+') { Color::Black } else { Color::White };
                let kind = t.get(1..).and_then(kind_of).ok_or_else(|| bad_pos(n, format!("bad cell {t:?}")))?;
                Some(Piece::new(color, kind))
            }
        };
    }
    Ok(())
}

/// Reads a piece line `P+00KI0055FU` or `P-00AL` into `s`.
fn read_pieces(line: &str, s: &mut Setup, n: usize) -> Result<(), RecordError> {
    let color = if line.as_bytes()[1] == b'+' { Color::Black } else { Color::White };
    for chunk in line.as_bytes()[2..].chunks(4) {
        let t = std::str::from_utf8(chunk).unwrap_or("");
        if t == "00AL" {
            give_all_remaining(s, color);
            continue;
        }
        let k = kind_of(t.get(2..).unwrap_or("")).ok_or_else(|| bad_pos(n, format!("bad piece {t:?}")))?;
        if t.starts_with("00") {
            let h = s.hands[color.index()];
            s.hands[color.index()] = h.added(k).ok_or_else(|| bad_pos(n, "too many pieces in hand"))?;
        } else {
            let sq = square(chunk[0].wrapping_sub(b'0'), chunk[1].wrapping_sub(b'0'))
                .ok_or_else(|| bad_pos(n, "bad square"))?;
            s.board[sq.index()] = Some(Piece::new(color, k));
        }
    }
    Ok(())
}

/// Reads one game; `first_line` is the number of its first line in the file.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<GameRecord, RecordError> {
    let mut b = Builder::new(Start::default()).map_err(|e| RecordError::syntax(first_line, 1, e))?;
    let mut setup: Option<Setup> = None;
    let mut started = false;
    let mut note = None;
    let mut ended = false;
    let mut last_line = first_line;
    for (i, raw) in text::lines(text).enumerate() {
        let n = first_line + i;
        last_line = n;
        let raw = raw.trim();
        // Comment lines keep their commas; others may join statements with commas.
        if let Some(c) = raw.strip_prefix('\'') {
            comment(&mut b, c, ended, &mut note);
            continue;
        }
        for line in raw.split(',') {
            let line = line.trim();
            if line.is_empty() || line.starts_with('V') {
                continue;
            }
            if let Some(c) = line.strip_prefix('\'') {
                comment(&mut b, c, ended, &mut note);
            } else if let Some(name) = line.strip_prefix("N+") {
                b.tag("Black", name);
            } else if let Some(name) = line.strip_prefix("N-") {
                b.tag("White", name);
            } else if let Some(info) = line.strip_prefix('$') {
                let (k, v) = info.split_once(':').unwrap_or((info, ""));
                let tag = match k {
                    "EVENT" => "Event",
                    "SITE" => "Site",
                    "START_TIME" => "Date",
                    "END_TIME" => "GameEndTime",
                    "OPENING" => "Opening",
                    "TIME_LIMIT" | "TIME" => "TimeControl",
                    "TIME+" => "BlackTimeControl",
                    "TIME-" => "WhiteTimeControl",
                    other => other,
                };
                b.tag(tag, v);
            } else if let Some(rest) = line.strip_prefix("PI") {
                setup = Some(read_pi(rest, n)?);
            } else if line.len() >= 2 && line.starts_with('P') && line.as_bytes()[1].is_ascii_digit() {
                read_rank(line, setup.get_or_insert_with(Setup::default), n)?;
            } else if line.starts_with("P+") || line.starts_with("P-") {
                read_pieces(line, setup.get_or_insert_with(Setup::default), n)?;
            } else if (line == "+" || line == "-") && !started {
                let mut s = setup.take().unwrap_or_else(|| Position::startpos().to_setup());
                s.side_to_move = if line == "+" { Color::Black } else { Color::White };
                let pos = Position::from_setup(&s).map_err(|e| bad_pos(n, e))?;
                let start = Start::from_sfen(&pos.to_sfen()).map_err(|e| bad_pos(n, e))?;
                b.set_start(start).map_err(|e| bad_pos(n, e))?;
                started = true;
            } else if line.starts_with(['+', '-']) {
                let col = text::column(raw, line.as_ptr() as usize - raw.as_ptr() as usize);
                if setup.is_some() && !started {
                    return Err(bad_pos(n, NO_TURN_LINE));
                }
                if ended && b.on_main_line() {
                    return Err(RecordError::syntax(n, col, format!("move {line:?} after the end of the game")));
                }
                let ply = b.ply() + 1;
                let illegal = |rule| RecordErrorKind::IllegalMove { ply, text: line.to_string(), rule };
                let m = read_move(b.position(), line).ok_or_else(|| RecordError::new(n, col, illegal(None)))?;
                b.position().check_move(m).map_err(|rule| RecordError::new(n, col, illegal(Some(rule))))?;
                b.push(m);
            } else if let Some(t) = line.strip_prefix('T') {
                let ms = t
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .map(|s| (s * 1000.0).round() as u64)
                    .ok_or_else(|| RecordError::syntax(n, 2, format!("bad time {t:?}")))?;
                if ended {
                    b.set_end_time(Some(ms));
                } else {
                    let mover_total = previous_total(&b);
                    if let Some(m) = b.last_move_mut() {
                        m.time_ms = Some(ms);
                        m.total_ms = Some(mover_total.saturating_add(ms));
                    }
                }
            } else if line.starts_with('%') {
                if let Some(r) = terminal(line, b.position()) {
                    b.set_result(r, None);
                    ended = true;
                }
            } else {
                return Err(RecordError::syntax(n, 1, format!("unexpected line {line:?}")));
            }
        }
    }
    if setup.is_some() && !started {
        // Cut inside the position, or before its turn line: the game cannot be set up.
        return Err(bad_pos(last_line, NO_TURN_LINE));
    }
    let mut rec = b.finish();
    if note.is_some() {
        rec.result = note;
    }
    Ok(rec)
}

/// A position (`PI`, `P1`–`P9`, `P+`/`P-` lines) whose turn line never comes: it is required
/// (kif-csa.md §2), and guessing the side to move would invent the game's start.
const NO_TURN_LINE: &str = "the position has no turn line (`+` or `-`) after it";

/// A `'` comment: hisha's result note, floodgate engine data (`'**`), hisha's engine data or a
/// move comment (`'*`). Other `'` lines are for programs to skip.
fn comment(b: &mut Builder, c: &str, ended: bool, note: &mut Option<GameResult>) {
    if let Some(r) = result_words::parse_note(c) {
        *note = Some(r);
        return;
    }
    let Some(body) = c.strip_prefix('*') else { return };
    let engine = match (body.strip_prefix('*'), b.position_and_last_move()) {
        (Some(e), (pos, Some(m))) => csa_engine::read(e, pos, m),
        (None, (_, Some(m))) => {
            gui_lines::parse_engine_comment(body).is_some_and(|info| csa_engine::merge(&mut m.engine, info))
        }
        (_, (_, None)) => false,
    };
    if !engine && (!ended || !b.on_main_line()) {
        b.comment_line(body);
    }
}

/// The mover's total time before its last move (CSA stores only per-move times).
fn previous_total(b: &Builder) -> u64 {
    let moves = &b.record.moves;
    if !b.on_main_line() || moves.len() < 3 {
        return 0;
    }
    moves[moves.len() - 3].total_ms.unwrap_or(0)
}

/// `00AL`: every piece of a full set not placed yet goes to `color`'s hand.
fn give_all_remaining(s: &mut Setup, color: Color) {
    for k in PieceKind::HAND {
        let on_board = s.board.iter().flatten().filter(|p| p.kind().unpromoted() == k).count() as u32;
        let held = s.hands[0].count(k) + s.hands[1].count(k);
        let left = (k.set_count() as u32).saturating_sub(on_board + held);
        let h = s.hands[color.index()];
        s.hands[color.index()] = h.with_count(k, h.count(k) + left).unwrap_or(h);
    }
}
