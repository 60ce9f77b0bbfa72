//! A position as every command names it: the USI `position` command and the tools that take a
//! position on the command line (`hisha perft`, `hisha mate`, `hisha book show`) read it here, so
//! they accept the same forms and report the same errors:
//!
//! ```text
//! [position] startpos [moves <usi-move> …]
//! [position] sfen <board> <side> <hand> [<ply>] [moves …]
//! <board> <side> <hand> [<ply>] [moves …]          (a plain SFEN)
//! <handicap name> [moves …]                        (`lance`, `2-piece`, `香落ち` …)
//! ```
//!
//! The USI `position` command itself takes only the first two forms (usi.md §3); its start is
//! parsed in [`crate::usi::command`] and built here. Every error names the bad token: an illegal
//! move names itself, its number in the list and the rule it breaks.

use crate::position::MoveError;
use crate::position::sfen::SfenError;
use crate::position::{Handicap, IllegalMoveKind, Position};
use crate::types::ParseMoveError;
use crate::usi::command::StartPosition;

/// A position spec that names no playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionSpecError {
    /// Nothing before `moves`.
    #[error("no position given (expected an SFEN, `startpos`, `sfen …` or a handicap name)")]
    Empty,
    /// The start is none of the accepted forms.
    #[error(
        "{0:?} is not a position: expected an SFEN, `startpos`, `sfen …` or a handicap name \
         (`hisha handicaps` lists them)"
    )]
    UnknownStart(String),
    /// The SFEN cannot be read.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// A word after `moves` is not USI move syntax.
    #[error("move {number}: {error}")]
    NotAMove {
        /// 1-based number of the move in the list.
        number: usize,
        /// What is wrong with the text.
        error: ParseMoveError,
    },
    /// A move that breaks a rule in the position reached before it.
    #[error("move {number} ({text}) is illegal: {rule}")]
    IllegalMove {
        /// 1-based number of the move in the list.
        number: usize,
        /// The move as written.
        text: String,
        /// The rule it breaks.
        rule: IllegalMoveKind,
    },
}

/// Reads a position spec from `text` (words separated by blanks).
pub fn parse(text: &str) -> Result<Position, PositionSpecError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    parse_words(&words)
}

/// Reads a position spec given as words (as a command line splits it).
pub fn parse_words<S: AsRef<str>>(words: &[S]) -> Result<Position, PositionSpecError> {
    let words: Vec<&str> = words.iter().flat_map(|w| w.as_ref().split_whitespace()).collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let moves = words.get(moves_at + 1..).unwrap_or_default();
    let start = match &words[..moves_at] {
        [] => return Err(PositionSpecError::Empty),
        ["startpos"] => Position::startpos(),
        ["sfen", fields @ ..] => Position::from_sfen(&fields.join(" "))?,
        fields if fields[0].contains('/') => Position::from_sfen(&fields.join(" "))?,
        name => {
            let name = name.join(" ");
            Position::handicap(name.parse::<Handicap>().map_err(|_| PositionSpecError::UnknownStart(name))?)
        }
    };
    play(start, moves)
}

/// Builds the position of a USI `position` command.
pub(crate) fn build<S: AsRef<str>>(start: &StartPosition, moves: &[S]) -> Result<Position, PositionSpecError> {
    let pos = match start {
        StartPosition::Startpos => Position::startpos(),
        StartPosition::Sfen(s) => Position::from_sfen(s)?,
    };
    play(pos, moves)
}

/// Plays `moves` from `pos`, stopping at the first one that is not a legal move.
fn play<S: AsRef<str>>(mut pos: Position, moves: &[S]) -> Result<Position, PositionSpecError> {
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let m = pos.parse_usi_move(text).map_err(|e| match e {
            MoveError::Syntax(error) => PositionSpecError::NotAMove { number: i + 1, error },
            MoveError::Illegal { kind, .. } => {
                PositionSpecError::IllegalMove { number: i + 1, text: text.to_string(), rule: kind }
            }
        })?;
        pos.do_move(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    fn sfen_of(text: &str) -> String {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).to_sfen()
    }

    #[test]
    fn every_form_names_the_same_position() {
        let after = sfen_of("startpos moves 7g7f 3c3d");
        assert_eq!(after, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        for text in [
            "position startpos moves 7g7f 3c3d",
            &format!("sfen {START} moves 7g7f 3c3d"),
            &format!("position sfen {START} moves 7g7f 3c3d"),
            &format!("{START} moves 7g7f 3c3d"),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "even moves 7g7f 3c3d",
        ] {
            assert_eq!(sfen_of(text), after, "{text}");
        }
        assert_eq!(sfen_of("startpos"), START);
        assert_eq!(sfen_of("startpos moves"), START);
        // Words as a command line splits them.
        let words =
            ["sfen", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL", "b", "-", "1", "moves", "7g7f"];
        assert_eq!(parse_words(&words).map(|p| p.to_sfen()), parse("startpos moves 7g7f").map(|p| p.to_sfen()));
    }

    #[test]
    fn handicap_names_start_with_white_to_move() {
        for name in ["lance", "Rook and Lance", "香落ち"] {
            let h: Handicap = name.parse().expect("known");
            assert_eq!(sfen_of(name), h.sfen(), "{name}");
        }
        let after = parse("2-piece moves 5a4b").expect("legal");
        assert_eq!(after.game_ply(), 1);
    }

    #[test]
    fn the_game_history_is_kept_for_repetitions() {
        let pos = parse("startpos moves 2h3h 8b7b 3h2h 7b8b").expect("legal");
        assert_eq!(pos.game_ply(), 4);
        assert_eq!(pos.moves_played().count(), 4);
    }

    #[test]
    fn errors_name_the_bad_token() {
        let err = |text: &str| parse(text).map(|p| p.to_sfen()).unwrap_err().to_string();
        assert_eq!(
            err("startpos moves 7g7f 3c3d 8h2b 2b2a"),
            "move 4 (2b2a) is illegal: the piece on the origin square is not yours"
        );
        assert_eq!(err("startpos moves 7g7f 7g7f"), "move 2 (7g7f) is illegal: there is no piece on the origin square");
        assert!(
            err("startpos moves 7g7f xyz").starts_with("move 2: not a USI move: \"xyz\""),
            "{}",
            err("startpos moves 7g7f xyz")
        );
        assert!(err("queen moves 7g7f").starts_with("\"queen\" is not a position"));
        assert!(err("").starts_with("no position given"));
        assert!(err("moves 7g7f").starts_with("no position given"));
        assert_eq!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1"),
            "sfen board: 8 ranks instead of 9 (at byte 0)"
        );
        assert!(err("sfen").starts_with("sfen "), "{}", err("sfen"));
    }

    #[test]
    fn the_usi_start_is_built_with_the_same_errors() {
        let moves = ["7g7f", "3c3d", "8h2b", "2b2a"];
        let e = build(&StartPosition::Startpos, &moves).map(|p| p.to_sfen()).unwrap_err();
        assert_eq!(
            e,
            PositionSpecError::IllegalMove { number: 4, text: "2b2a".into(), rule: IllegalMoveKind::NotYourPiece }
        );
        let pos = build(&StartPosition::Sfen(START.into()), &moves[..3]).expect("legal");
        assert_eq!(pos.to_sfen(), sfen_of("startpos moves 7g7f 3c3d 8h2b"));
    }
}
