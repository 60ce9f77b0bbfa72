//! `Setup`: a board, hands, side to move and move number with no guarantees, and the checks that
//! turn it into a [`Position`](super::Position).
//!
//! Rules enforced (sfen-and-handicaps.md §1.2, rules.md): at most the full set of each kind (board
//! and hands together), at most one king per color, a White king, no pawn or lance on its owner's
//! last rank and no knight on its last two, no two unpromoted pawns of one color on a file, and the
//! side not to move not in check.
//!
//! A missing **Black** king is allowed, for tsume problems (the attacker, Black, usually has no
//! king; sfen-and-handicaps.md §2). White's king is required. How every rule treats the missing king:
//!
//! * SFEN checks: the piece-count, dead-piece and *nifu* rules are unchanged (the set still has two
//!   kings; one unused is fine); "two kings of one colour" cannot apply to Black; "the side not to
//!   move is in check" can only fire against White (with Black to move).
//! * Black's moves: never illegal for king safety ("leaves the king in check" and pins do not
//!   exist for Black); dead piece, *nifu*, promotion and *uchifuzume* (a pawn drop that mates
//!   White's king) apply as usual.
//! * White's moves: never give check, so no White pawn drop is ever *uchifuzume*; White's own king
//!   safety applies as usual.
//! * Game end: Black is never in check and never checkmated; a Black side with no legal move
//!   (for example with nothing left on the board or in hand) loses by having no move (rules.md §4,
//!   no stalemate). White is checkmated as usual.
//! * Repetition: White can never give check, so a repetition is a draw or a perpetual check by
//!   Black, never by White.
//! * Entering-king declaration: Black cannot declare (no king to enter); White can as usual.

use crate::types::{Color, File, Hand, Piece, PieceKind, Square};
use std::fmt;

/// An unvalidated position: what a parser has read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by square index.
    pub board: [Option<Piece>; 81],
    /// Pieces in hand, Black's then White's.
    pub hands: [Hand; 2],
    /// Side to move.
    pub side_to_move: Color,
    /// SFEN move number (ply, 1 = the first move of the game).
    pub move_number: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup { board: [None; 81], hands: [Hand::EMPTY; 2], side_to_move: Color::Black, move_number: 1 }
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// More pieces of a kind (counting promoted ones and both hands) than a set has.
    #[error("too many {kind:?}s: {count} on board and in hand, a set has {max}")]
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many were found.
        count: u32,
        /// How many a set has.
        max: u32,
    },
    /// Two kings of one color.
    #[error("two {color} kings (the second on {square})")]
    TwoKings {
        /// Whose kings.
        color: Color,
        /// Where one of them stands (the later in square order).
        square: Square,
    },
    /// White has no king (only Black's may be missing, for tsume problems).
    #[error("White has no king")]
    NoWhiteKing,
    /// A pawn or lance on its owner's last rank, or a knight on its last two.
    #[error("{piece} on {square} can never move (dead piece)")]
    DeadPiece {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// Two unpromoted pawns of one color on one file (*nifu*).
    #[error("two {color} pawns on file {} (nifu)", file.number())]
    Nifu {
        /// Whose pawns.
        color: Color,
        /// The file.
        file: File,
        /// The second pawn found.
        square: Square,
    },
    /// The side that has just moved is in check (its king could be captured).
    #[error("the side not to move ({0}) is in check")]
    OpponentInCheck(Color),
}

impl SetupError {
    /// The square the error is about, if it is about one.
    pub fn square(&self) -> Option<Square> {
        match *self {
            SetupError::DeadPiece { square, .. }
            | SetupError::Nifu { square, .. }
            | SetupError::TwoKings { square, .. } => Some(square),
            _ => None,
        }
    }
}

impl Setup {
    /// Checks everything but check (which needs attack computation; see `Position::from_setup`).
    pub(crate) fn validate_material(&self) -> Result<(), SetupError> {
        let mut counts = [0u32; 8];
        let mut kings = [0u32; 2];
        let mut pawn_files = [[false; 9]; 2];
        for sq in Square::all() {
            let Some(p) = self.board[sq.index()] else {
                continue;
            };
            let (c, k) = (p.color(), p.kind());
            counts[k.unpromoted().index()] += 1;
            if k == PieceKind::King {
                kings[c.index()] += 1;
                if kings[c.index()] > 1 {
                    return Err(SetupError::TwoKings { color: c, square: sq });
                }
            }
            let rel = sq.rank().relative_to(c);
            let dead = match k {
                PieceKind::Pawn | PieceKind::Lance => rel == 0,
                PieceKind::Knight => rel <= 1,
                _ => false,
            };
            if dead {
                return Err(SetupError::DeadPiece { piece: p, square: sq });
            }
            if k == PieceKind::Pawn {
                let seen = &mut pawn_files[c.index()][sq.file().index()];
                if *seen {
                    return Err(SetupError::Nifu { color: c, file: sq.file(), square: sq });
                }
                *seen = true;
            }
        }
        for hand in self.hands {
            for (k, n) in hand.iter() {
                counts[k.index()] += n;
            }
        }
        for k in PieceKind::HAND {
            let (count, max) = (counts[k.index()], k.set_count() as u32);
            if count > max {
                return Err(SetupError::TooManyPieces { kind: k, count, max });
            }
        }
        if kings[Color::White.index()] == 0 {
            return Err(SetupError::NoWhiteKing);
        }
        Ok(())
    }
}

impl fmt::Display for Setup {
    /// The setup as SFEN (it need not be legal).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::sfen::format_setup(self))
    }
}
