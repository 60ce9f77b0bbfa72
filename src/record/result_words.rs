//! How each format writes the end of a game (psn.md §7, kif-csa.md §3), and hisha's exact result
//! note for the cases a format's words cannot tell apart (e.g. PSN's `Sennichite` is a draw *or*
//! a perpetual-check win). The note is a comment in the format's own comment syntax, which other
//! readers skip.

use crate::position::{GameResult, ResultReason, Winner};

const REASONS: [(ResultReason, &str); 11] = [
    (ResultReason::Resign, "resign"),
    (ResultReason::Checkmate, "checkmate"),
    (ResultReason::Time, "time"),
    (ResultReason::Repetition, "repetition"),
    (ResultReason::PerpetualCheck, "perpetual-check"),
    (ResultReason::Declaration, "declaration"),
    (ResultReason::MaxMoves, "max-moves"),
    (ResultReason::IllegalMove, "illegal-move"),
    (ResultReason::Adjudication, "adjudication"),
    (ResultReason::Disconnect, "disconnect"),
    (ResultReason::Interrupt, "interrupt"),
];

/// Prefix of hisha's result note.
pub const NOTE_PREFIX: &str = "hisha-result: ";

/// The short id of a reason (`perpetual-check` …).
pub fn reason_id(r: ResultReason) -> &'static str {
    REASONS.iter().find(|(x, _)| *x == r).map_or("interrupt", |(_, s)| s)
}

/// The reason with a short id.
pub fn reason_from_id(s: &str) -> Option<ResultReason> {
    REASONS.iter().find(|(_, id)| *id == s).map(|(r, _)| *r)
}

/// hisha's exact note for a result: `hisha-result: black resign`.
pub fn note(r: &GameResult) -> String {
    let w = match r.winner {
        Winner::Black => "black",
        Winner::White => "white",
        Winner::Draw => "draw",
        Winner::Unfinished => "unfinished",
    };
    format!("{NOTE_PREFIX}{w} {}", reason_id(r.reason))
}

/// hisha's note with the time the side to move used before the end, for formats that write that
/// time on a terminal line but have no line for this result: `hisha-result: black illegal-move
/// time 4000`.
pub fn note_with_time(r: &GameResult, time_ms: Option<u64>) -> String {
    match time_ms {
        Some(t) => format!("{} time {t}", note(r)),
        None => note(r),
    }
}

/// Reads hisha's note (the text after the comment marker).
pub fn parse_note(text: &str) -> Option<GameResult> {
    parse_note_with_time(text).map(|(r, _)| r)
}

/// Reads hisha's note and the time it may carry.
pub fn parse_note_with_time(text: &str) -> Option<(GameResult, Option<u64>)> {
    let rest = text.trim().strip_prefix(NOTE_PREFIX)?;
    let mut w = rest.split_whitespace();
    let winner = match w.next()? {
        "black" => Winner::Black,
        "white" => Winner::White,
        "draw" => Winner::Draw,
        "unfinished" => Winner::Unfinished,
        _ => return None,
    };
    let result = GameResult { winner, reason: reason_from_id(w.next()?)? };
    let time = match (w.next(), w.next()) {
        (Some("time"), Some(t)) => t.parse().ok(),
        _ => None,
    };
    Some((result, time))
}
