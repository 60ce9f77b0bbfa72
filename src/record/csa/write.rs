//! The CSA writer, V3.0 (kif-csa.md §2; www2.computer-shogi.org/protocol/record_v3.html): the
//! `V3.0` line (the file's `'CSA encoding=UTF-8` line is the file writer's), names, `$` info with
//! `$START_TIME`/`$END_TIME` and `$TIME`, the start position, moves with `T` times in seconds and
//! milliseconds (`T0.512`), engine comments and the `%` word that ends the game.
//!
//! The `%` words are floodgate's and the CSA standard's: a game the side to move lost is
//! `%TORYO` (floodgate's record of a checkmate is the mated side's `%TORYO`, and of a
//! disconnection too: shogi-server game_result.rb, `GameResultAbnormalWin`), `%TIME_UP` or
//! `%ILLEGAL_MOVE`; one it won `%KACHI` or the loser's `%±ILLEGAL_ACTION`, the standard's word
//! for a win of the side to move. `%SENNICHITE`, `%MAX_MOVES` (a move-limit draw; `%JISHOGI` is
//! an impasse), `%HIKIWAKE` (a declared or adjudicated draw) and `%CHUDAN` are the others.
//! Where the word does not give hisha's exact result, hisha's note (`'hisha-result: …`) follows.

use super::engine as csa_engine;
use super::moves::{code, push_square, sign, write_move};
use super::read::terminal;
use crate::position::sfen::SfenError;
use crate::position::{Position, ResultReason};
use crate::record::ending::Ending;
use crate::record::game::zoneless;
use crate::record::{GameRecord, Start, TimeControl, result_words};
use crate::types::{Color, Hand, Square};
use std::fmt::Write as _;

/// The `%` word for an ending with `to_move` on move at the end.
fn terminal_word(ending: Ending, to_move: Color) -> &'static str {
    match ending {
        Ending::MoverLost(ResultReason::Time) => "%TIME_UP",
        Ending::MoverLost(ResultReason::IllegalMove | ResultReason::PerpetualCheck) => "%ILLEGAL_MOVE",
        Ending::MoverLost(_) => "%TORYO",
        Ending::MoverWon(ResultReason::Declaration) => "%KACHI",
        // The loser is the side that moved last.
        Ending::MoverWon(_) if to_move == Color::Black => "%-ILLEGAL_ACTION",
        Ending::MoverWon(_) => "%+ILLEGAL_ACTION",
        Ending::Draw(ResultReason::Repetition) => "%SENNICHITE",
        Ending::Draw(ResultReason::MaxMoves) => "%MAX_MOVES",
        Ending::Draw(_) => "%HIKIWAKE",
        Ending::Unfinished => "%CHUDAN",
    }
}

/// Seconds as CSA V3.0 writes them, with the milliseconds when there are any: `1`, `0.512`.
fn seconds(ms: u64) -> String {
    match ms % 1000 {
        0 => (ms / 1000).to_string(),
        frac => format!("{}.{}", ms / 1000, format!("{frac:03}").trim_end_matches('0')),
    }
}

/// `$TIME` (V3.0: main time, byoyomi and increment in seconds) for a time control, if it has one.
fn time_line(tc: TimeControl) -> Option<String> {
    match tc {
        TimeControl::Clock { time, inc, byoyomi } => {
            Some(format!("{}+{}+{}", seconds(time), seconds(byoyomi), seconds(inc)))
        }
        TimeControl::MoveTime(ms) => Some(format!("0+{}+0", seconds(ms))),
        TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
    }
}

/// The `$` line for a tag (`None`: not written here).
fn info_line(rec: &GameRecord, key: &str, value: &str) -> Option<String> {
    let time = |v: &str| v.parse().ok().and_then(time_line);
    Some(match key {
        "Black" | "White" => return None,
        "Date" if rec.tag("GameStartTime").is_some() => return None,
        "Date" | "GameStartTime" => format!("$START_TIME:{}", rec.start_datetime().unwrap_or(value)),
        "GameEndTime" => format!("$END_TIME:{}", zoneless(value)),
        "Event" => format!("$EVENT:{value}"),
        "Site" => format!("$SITE:{value}"),
        "Opening" => format!("$OPENING:{value}"),
        "TimeControl" => match time(value) {
            Some(t) => format!("$TIME:{t}"),
            None => format!("$TIME_LIMIT:{value}"),
        },
        "BlackTimeControl" => format!("$TIME+:{}", time(value).unwrap_or_else(|| value.to_string())),
        "WhiteTimeControl" => format!("$TIME-:{}", time(value).unwrap_or_else(|| value.to_string())),
        other => format!("${other}:{value}"),
    })
}

fn write_hand(s: &mut String, h: Hand, c: Color) {
    if h.is_empty() {
        return;
    }
    s.push('P');
    s.push(sign(c));
    for (k, n) in h.iter() {
        for _ in 0..n {
            s.push_str("00");
            s.push_str(code(k));
        }
    }
    s.push('\n');
}

/// Appends the start position: `PI` with the removed pieces for a named start, else the nine rank
/// lines and the hands; then the side to move.
fn write_start(s: &mut String, rec: &GameRecord, start: &Position) {
    match rec.start {
        Start::Handicap(_) => {
            s.push_str("PI");
            let full = Position::startpos();
            for sq in Square::all() {
                if let (Some(p), None) = (full.piece_on(sq), start.piece_on(sq)) {
                    push_square(s, sq);
                    s.push_str(code(p.kind()));
                }
            }
            s.push('\n');
        }
        Start::Sfen(_) => {
            let setup = start.to_setup();
            for r in 0..9 {
                let _ = write!(s, "P{}", r + 1);
                for f in (0..9).rev() {
                    match setup.board[f * 9 + r] {
                        None => s.push_str(" * "),
                        Some(p) => {
                            s.push(sign(p.color()));
                            s.push_str(code(p.kind()));
                        }
                    }
                }
                s.push('\n');
            }
            write_hand(s, setup.hands[0], Color::Black);
            write_hand(s, setup.hands[1], Color::White);
        }
    }
    s.push(sign(start.side_to_move()));
    s.push('\n');
}

/// The CSA V3.0 text of one game.
pub(crate) fn to_text(rec: &GameRecord) -> Result<String, SfenError> {
    let mut s = String::with_capacity(96 * (rec.moves.len() + 16));
    s.push_str("V3.0\n");
    let _ = writeln!(s, "N+{}\nN-{}", rec.tag("Black").unwrap_or(""), rec.tag("White").unwrap_or(""));
    for (k, v) in &rec.tags {
        if let Some(line) = info_line(rec, k, v) {
            let _ = writeln!(s, "{line}");
        }
    }
    for c in &rec.summary {
        for l in c.split('\n') {
            let _ = writeln!(s, "'*{l}");
        }
    }
    let mut pos = rec.start.position()?;
    write_start(&mut s, rec, &pos);
    for m in &rec.moves {
        write_move(&mut s, &pos, m.mv);
        s.push('\n');
        if let Some(t) = m.time_ms {
            let _ = writeln!(s, "T{}", seconds(t));
        }
        if !m.engine.is_empty() {
            csa_engine::write(&mut s, &m.engine, &mut pos, m.mv);
        }
        for c in &m.comments {
            for l in c.split('\n') {
                let _ = writeln!(s, "'*{l}");
            }
        }
        pos.do_move(m.mv);
    }
    if let Some(r) = rec.result {
        let to_move = pos.side_to_move();
        let word = terminal_word(Ending::new(&r, to_move), to_move);
        let _ = writeln!(s, "{word}");
        if let Some(t) = rec.end_time_ms {
            let _ = writeln!(s, "T{}", seconds(t));
        }
        if terminal(word, &pos) != Some(r) {
            let _ = writeln!(s, "'{}", result_words::note(&r));
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{GameResult, Winner};

    #[test]
    fn times_keep_their_milliseconds_as_csa_v3_allows() {
        assert_eq!(seconds(512), "0.512");
        assert_eq!(seconds(1500), "1.5");
        assert_eq!(seconds(3000), "3");
        assert_eq!(time_line("byoyomi=1000".parse().expect("valid")), Some("0+1+0".to_string()));
        assert_eq!(time_line("time=600000,inc=2500".parse().expect("valid")), Some("600+0+2.5".to_string()));
        assert_eq!(time_line("nodes=5".parse().expect("valid")), None);
    }

    #[test]
    fn the_percent_word_names_the_winner_from_the_side_to_move() {
        let word =
            |winner, reason, to_move| terminal_word(Ending::new(&GameResult { winner, reason }, to_move), to_move);
        // The mated side resigns, as on floodgate; a move-limit draw is %MAX_MOVES.
        assert_eq!(word(Winner::White, ResultReason::Checkmate, Color::Black), "%TORYO");
        assert_eq!(word(Winner::White, ResultReason::Disconnect, Color::Black), "%TORYO");
        assert_eq!(word(Winner::Draw, ResultReason::MaxMoves, Color::Black), "%MAX_MOVES");
        // White's perpetual check: Black on move wins, White committed the foul.
        assert_eq!(word(Winner::Black, ResultReason::PerpetualCheck, Color::Black), "%-ILLEGAL_ACTION");
        assert_eq!(word(Winner::White, ResultReason::Adjudication, Color::White), "%+ILLEGAL_ACTION");
        assert_eq!(word(Winner::Unfinished, ResultReason::Interrupt, Color::White), "%CHUDAN");
    }
}
