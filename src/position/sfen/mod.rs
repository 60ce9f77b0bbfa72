//! SFEN text (sfen-and-handicaps.md §1): parsing with errors that name the field and byte offset,
//! and canonical USI formatting.
//!
//! Accepted on input: the USI form (`b`/`w`, hands in R B G S N L P order, counts of two digits),
//! the 2007 spec's `B`/`W`, hands in any order (a letter may repeat; counts add up), a missing
//! move number, a leading word `sfen`, and the word `startpos`. Written: canonical USI SFEN only.

use super::{Position, Setup, SetupError};
use crate::types::{Color, Hand, Piece, PieceKind, Square};
use std::fmt;

/// The SFEN of the even-game start position.
pub(crate) const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The four fields of an SFEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenField {
    /// The board (nine ranks separated by `/`).
    Board,
    /// The side to move.
    Side,
    /// The pieces in hand.
    Hand,
    /// The move number.
    MoveNumber,
    /// Text after the move number.
    Trailing,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::Side => "side to move",
            SfenField::Hand => "hand",
            SfenField::MoveNumber => "move number",
            SfenField::Trailing => "end",
        })
    }
}

/// What is wrong with an SFEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenErrorKind {
    /// The text ends before this field.
    #[error("missing")]
    Missing,
    /// The board does not have nine ranks.
    #[error("{0} ranks instead of 9")]
    RankCount(usize),
    /// A rank does not cover nine squares.
    #[error("rank {rank} covers {width} squares instead of 9")]
    RankWidth {
        /// Rank letter.
        rank: char,
        /// Squares covered.
        width: usize,
    },
    /// A character that is no piece letter, digit, `+` or `/`.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// `+` on a gold or king, or `+` not followed by a piece letter.
    #[error("'+' must be followed by one of P L N S B R (gold and king cannot promote)")]
    BadPromotion,
    /// The side to move is not `b`, `w`, `B` or `W`.
    #[error("{0:?} is not b or w")]
    BadSide(String),
    /// A malformed hand count.
    #[error("bad count {0:?} (1-18)")]
    BadCount(String),
    /// A king or promoted piece in hand.
    #[error("{0:?} cannot be held in hand")]
    NotAHandPiece(char),
    /// The move number is not a number.
    #[error("{0:?} is not a move number")]
    BadMoveNumber(String),
    /// Something follows the move number.
    #[error("unexpected text {0:?}")]
    Trailing(String),
    /// The fields parse but do not form a legal position.
    #[error("{0}")]
    Illegal(SetupError),
}

/// An SFEN that cannot be read: which field, where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sfen {field}: {kind} (at byte {offset})")]
pub struct SfenError {
    /// The field at fault.
    pub field: SfenField,
    /// Byte offset in the input text.
    pub offset: usize,
    /// What is wrong.
    pub kind: SfenErrorKind,
}

/// Splits `s` into whitespace-separated tokens with their byte offsets.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_ascii_whitespace().map(move |t| (t.as_ptr() as usize - s.as_ptr() as usize, t))
}

/// Parses SFEN text into a setup plus the byte offset of every piece letter (for error reports).
fn parse_fields(s: &str) -> Result<(Setup, [usize; 81], [usize; 3]), SfenError> {
    let mut setup = Setup::default();
    let mut where_ = [0usize; 81];
    let mut toks = tokens(s).peekable();
    if toks.peek().is_some_and(|&(_, t)| t == "sfen") {
        toks.next();
    }
    let end = s.len();
    let err = |field, offset, kind| SfenError { field, offset, kind };
    let (board_at, board) = toks.next().ok_or(err(SfenField::Board, end, SfenErrorKind::Missing))?;
    if board == "startpos" {
        let (setup, w, f) = parse_fields(STARTPOS).map_err(|e| SfenError { offset: board_at, ..e })?;
        if let Some((at, t)) = toks.next() {
            return Err(err(SfenField::Trailing, at, SfenErrorKind::Trailing(t.to_string())));
        }
        return Ok((setup, w, f));
    }
    parse_board(board, board_at, &mut setup, &mut where_)?;
    let (side_at, side) = toks.next().ok_or(err(SfenField::Side, end, SfenErrorKind::Missing))?;
    setup.side_to_move = match side {
        "b" | "B" => Color::Black,
        "w" | "W" => Color::White,
        _ => {
            return Err(err(SfenField::Side, side_at, SfenErrorKind::BadSide(side.to_string())));
        }
    };
    let (hand_at, hand) = toks.next().ok_or(err(SfenField::Hand, end, SfenErrorKind::Missing))?;
    setup.hands = parse_hand(hand, hand_at)?;
    if let Some((at, t)) = toks.next() {
        setup.move_number = t
            .parse::<u32>()
            .map_err(|_| err(SfenField::MoveNumber, at, SfenErrorKind::BadMoveNumber(t.to_string())))?
            .max(1);
    }
    if let Some((at, t)) = toks.next() {
        return Err(err(SfenField::Trailing, at, SfenErrorKind::Trailing(t.to_string())));
    }
    Ok((setup, where_, [board_at, side_at, hand_at]))
}

fn parse_board(board: &str, base: usize, setup: &mut Setup, where_: &mut [usize; 81]) -> Result<(), SfenError> {
    let err = |offset, kind| SfenError { field: SfenField::Board, offset, kind };
    let ranks = board.split('/').count();
    if ranks != 9 {
        return Err(err(base, SfenErrorKind::RankCount(ranks)));
    }
    let mut offset = base;
    for (r, text) in board.split('/').enumerate() {
        let rank_letter = (b'a' + r as u8) as char;
        let mut file = 9usize; // next file to fill, counting down
        let mut promoted_at = None;
        for (i, ch) in text.char_indices() {
            let at = offset + i;
            let width_err = |w| err(offset, SfenErrorKind::RankWidth { rank: rank_letter, width: w });
            match ch {
                '1'..='9' if promoted_at.is_none() => {
                    let n = ch as usize - '0' as usize;
                    if n > file {
                        return Err(width_err(9 - file + n));
                    }
                    file -= n;
                }
                '+' if promoted_at.is_none() => promoted_at = Some(at),
                _ => {
                    let kind = PieceKind::from_base_letter(ch)
                        .filter(|_| ch.is_ascii_alphabetic())
                        .ok_or(err(at, SfenErrorKind::UnexpectedChar(ch)))?;
                    let kind = match promoted_at {
                        Some(p) => kind.promoted().ok_or(err(p, SfenErrorKind::BadPromotion))?,
                        None => kind,
                    };
                    promoted_at = None;
                    if file == 0 {
                        return Err(width_err(10));
                    }
                    let color = if ch.is_ascii_uppercase() { Color::Black } else { Color::White };
                    let sq = Square::from_index_unchecked((file - 1) * 9 + r);
                    setup.board[sq.index()] = Some(Piece::new(color, kind));
                    where_[sq.index()] = at;
                    file -= 1;
                }
            }
        }
        if let Some(p) = promoted_at {
            return Err(err(p, SfenErrorKind::BadPromotion));
        }
        if file != 0 {
            return Err(err(offset, SfenErrorKind::RankWidth { rank: rank_letter, width: 9 - file }));
        }
        offset += text.len() + 1;
    }
    Ok(())
}

fn parse_hand(text: &str, base: usize) -> Result<[Hand; 2], SfenError> {
    let err = |offset, kind| SfenError { field: SfenField::Hand, offset, kind };
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let count = if i == start {
            1
        } else {
            let digits = &text[start..i];
            match digits.parse::<u32>() {
                Ok(n) if (1..=18).contains(&n) && !digits.starts_with('0') => n,
                _ => {
                    return Err(err(base + start, SfenErrorKind::BadCount(digits.to_string())));
                }
            }
        };
        let Some(&b) = bytes.get(i) else {
            return Err(err(base + start, SfenErrorKind::BadCount(text[start..].to_string())));
        };
        let ch = b as char;
        let kind = PieceKind::from_base_letter(ch)
            .filter(|_| ch.is_ascii_alphabetic())
            .ok_or(err(base + i, SfenErrorKind::UnexpectedChar(ch)))?;
        if !kind.is_hand_kind() {
            return Err(err(base + i, SfenErrorKind::NotAHandPiece(ch)));
        }
        let c = if ch.is_ascii_uppercase() { Color::Black } else { Color::White };
        let total = hands[c.index()].count(kind) + count;
        hands[c.index()] = hands[c.index()].with_count(kind, total).ok_or(err(
            base + start,
            SfenErrorKind::Illegal(SetupError::TooManyPieces { kind, count: total, max: kind.set_count() as u32 }),
        ))?;
        i += 1;
    }
    Ok(hands)
}

/// If the board alone holds more than `max` pieces of `kind` (promoted ones included), the byte
/// offset of the first piece letter beyond the set, in text order.
fn excess_on_board(setup: &Setup, where_: &[usize; 81], kind: PieceKind, max: u32) -> Option<usize> {
    let mut offsets: Vec<usize> = Square::all()
        .filter(|sq| setup.board[sq.index()].is_some_and(|p| p.kind().unpromoted() == kind))
        .map(|sq| where_[sq.index()])
        .collect();
    offsets.sort_unstable();
    offsets.get(max as usize).copied()
}

/// Parses SFEN text into an unvalidated [`Setup`] (syntax only).
pub fn parse_setup(s: &str) -> Result<Setup, SfenError> {
    parse_fields(s).map(|(setup, _, _)| setup)
}

impl Position {
    /// Parses an SFEN (or `startpos`) and checks that it is a legal position.
    ///
    /// ```
    /// use hisha::Position;
    /// let p = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap();
    /// assert_eq!(p, Position::startpos());
    /// let e = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1").unwrap_err();
    /// assert_eq!(e.to_string(), "sfen board: 8 ranks instead of 9 (at byte 0)");
    /// ```
    pub fn from_sfen(s: &str) -> Result<Position, SfenError> {
        let (setup, where_, [board_at, side_at, hand_at]) = parse_fields(s)?;
        Position::from_setup(&setup).map_err(|e| {
            let (field, offset) = match e {
                SetupError::OpponentInCheck(_) => (SfenField::Side, side_at),
                SetupError::TooManyPieces { kind, max, .. } => match excess_on_board(&setup, &where_, kind, max) {
                    Some(at) => (SfenField::Board, at),
                    None => (SfenField::Hand, hand_at),
                },
                _ => (SfenField::Board, e.square().map_or(board_at, |sq| where_[sq.index()])),
            };
            SfenError { field, offset, kind: SfenErrorKind::Illegal(e) }
        })
    }

    /// The canonical USI SFEN of the position, with its move number.
    pub fn to_sfen(&self) -> String {
        format_setup(&self.to_setup())
    }
}

/// Formats a setup as canonical USI SFEN.
pub(crate) fn format_setup(s: &Setup) -> String {
    let mut out = String::with_capacity(90);
    for r in 0..9 {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for f in (0..9).rev() {
            match s.board[f * 9 + r] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push_str(&p.to_sfen());
                }
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
    }
    out.push(' ');
    out.push(s.side_to_move.sfen_char());
    out.push(' ');
    let (b, w) = (s.hands[0], s.hands[1]);
    if b.is_empty() && w.is_empty() {
        out.push('-');
    } else {
        if !b.is_empty() {
            out.push_str(&b.to_string());
        }
        if !w.is_empty() {
            out.push_str(&w.to_string().to_ascii_lowercase());
        }
    }
    out.push(' ');
    out.push_str(&s.move_number.max(1).to_string());
    out
}

#[cfg(test)]
mod tests;
