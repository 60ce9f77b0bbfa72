//! Moves, packed into 16 bits: destination (bits 0–6), origin or `81 + hand kind` for a drop
//! (bits 7–13), promotion flag (bit 14). Never zero, so `Option<Move>` is two bytes.
//!
//! A `Move` does not know which piece moves; the position does. [`UsiMove`] is the syntax-only
//! form parsed from text (`7g7f`, `8h2b+`, `P*5e`) before it is checked against a position.

use super::{Color, PieceKind, Square};
use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

/// A move of a piece on the board or a drop from hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

/// The parts of a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves on the board, promoting if `promote`.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Whether the piece promotes.
        promote: bool,
    },
    /// A piece of `kind` is dropped from hand onto `to`.
    Drop {
        /// The hand kind dropped.
        kind: PieceKind,
        /// Destination.
        to: Square,
    },
}

const PROMOTE_BIT: u16 = 1 << 14;

impl Move {
    /// A board move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        let v = to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE_BIT } else { 0 };
        match NonZeroU16::new(v) {
            Some(v) => Move(v),
            // from == to == 1a without promotion is the only zero; it is not a move.
            None => Move(match NonZeroU16::new(PROMOTE_BIT) {
                Some(v) => v,
                None => unreachable!(),
            }),
        }
    }

    /// A drop of `kind` (a hand kind) onto `to`.
    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        debug_assert!(kind.is_hand_kind());
        let v = to.index() as u16 | (81 + kind as u16) << 7;
        match NonZeroU16::new(v) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// The raw 16 bits (for tables and the transposition table).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::bits`]; `None` for values no move has.
    pub(crate) const fn from_bits(bits: u16) -> Option<Move> {
        let to = bits & 0x7F;
        let from = (bits >> 7) & 0x7F;
        let drop = from >= 81;
        if to >= 81 || from >= 88 || bits >> 15 != 0 || (drop && bits & PROMOTE_BIT != 0) {
            return None;
        }
        match NonZeroU16::new(bits) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7F) as usize)
    }

    /// True for a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        (self.0.get() >> 7) & 0x7F >= 81
    }

    /// True for a promoting board move.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE_BIT != 0
    }

    /// Origin square of a board move (meaningless for a drop; see [`Move::kind`]).
    #[inline(always)]
    pub(crate) const fn origin_unchecked(self) -> Square {
        Square::from_index_unchecked(((self.0.get() >> 7) & 0x7F) as usize)
    }

    /// Origin square, `None` for a drop.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() { None } else { Some(self.origin_unchecked()) }
    }

    /// The dropped kind of a drop move (meaningless for a board move).
    #[inline(always)]
    pub(crate) const fn dropped_unchecked(self) -> PieceKind {
        // Origin 81 + kind less 80 is kind + 1, as in a piece code (a board move gives some
        // kind, not a panic).
        PieceKind::of_low_bits(((self.0.get() >> 7) & 0x7F).wrapping_sub(80) as usize)
    }

    /// The parts of the move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        if self.is_drop() {
            MoveKind::Drop { kind: self.dropped_unchecked(), to: self.to() }
        } else {
            MoveKind::Normal { from: self.origin_unchecked(), to: self.to(), promote: self.is_promotion() }
        }
    }

    /// True if this is a board move that starts or ends in `us`'s promotion zone (the three far
    /// ranks): the one place the zone rule of rules.md §2 is written. A piece whose kind can
    /// promote may promote on exactly such a move. Always false for a drop.
    #[inline(always)]
    pub(crate) const fn touches_zone(self, us: Color) -> bool {
        !self.is_drop() && (self.origin_unchecked().rank().in_zone(us) || self.to().rank().in_zone(us))
    }

    /// The syntax-only form of this move.
    pub const fn to_usi(self) -> UsiMove {
        UsiMove(self.kind())
    }
}

impl fmt::Display for Move {
    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_usi().fmt(f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A move as written in USI (`7g7f`, `8h2b+`, `P*5e`): its parts, checked for syntax only.
/// [`crate::Position::parse_usi_move`] turns it into a legal [`Move`] or says which rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsiMove(MoveKind);

impl UsiMove {
    /// The packed move with the same parts (legality is not checked).
    pub(crate) const fn to_move(self) -> Move {
        match self.0 {
            MoveKind::Normal { from, to, promote } => Move::normal(from, to, promote),
            MoveKind::Drop { kind, to } => Move::drop(kind, to),
        }
    }
}

impl fmt::Display for UsiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            MoveKind::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            MoveKind::Drop { kind, to } => write!(f, "{}*{to}", kind.base_letter()),
        }
    }
}

/// Error for text that is not a USI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a USI move: {text:?} ({reason})")]
pub struct ParseMoveError {
    /// The offending text.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl FromStr for UsiMove {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<UsiMove, ParseMoveError> {
        let err = |reason| ParseMoveError { text: s.to_string(), reason };
        let b = s.as_bytes();
        match b {
            [p, b'*', rest @ ..] => {
                let kind = PieceKind::from_base_letter(*p as char)
                    .filter(|k| k.is_hand_kind() && p.is_ascii_uppercase())
                    .ok_or(err("a drop starts with one of P L N S G B R"))?;
                if rest.len() != 2 {
                    return Err(err("a drop is a letter, '*' and a square, like P*5e"));
                }
                let to = Square::from_usi_bytes(rest).ok_or(err("bad destination square"))?;
                Ok(UsiMove(MoveKind::Drop { kind, to }))
            }
            [_, _, _, _, tail @ ..] => {
                let promote = match tail {
                    [] => false,
                    [b'+'] => true,
                    _ => return Err(err("a board move is two squares and an optional '+'")),
                };
                let from = Square::from_usi_bytes(b).ok_or(err("bad origin square"))?;
                let to = Square::from_usi_bytes(&b[2..]).ok_or(err("bad destination square"))?;
                if from == to {
                    return Err(err("origin and destination are the same square"));
                }
                Ok(UsiMove(MoveKind::Normal { from, to, promote }))
            }
            _ => Err(err("too short")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_text_round_trips() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i", "9i1a+"] {
            let m: UsiMove = text.parse().expect("valid");
            assert_eq!(m.to_string(), text);
            assert_eq!(m.to_move().to_string(), text);
            assert_eq!(m.to_move().to_usi(), m);
        }
        for bad in ["", "7g", "7g7", "7g7g", "7g7f=", "K*5e", "p*5e", "+*5e", "P*5", "P*5ee", "0a1a", "7g7f++"] {
            assert!(bad.parse::<UsiMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_packed_move_survives_bits() {
        for from in Square::all() {
            for to in Square::all() {
                if from == to {
                    continue;
                }
                for promote in [false, true] {
                    let m = Move::normal(from, to, promote);
                    assert_eq!(Move::from_bits(m.bits()), Some(m));
                    assert_eq!(m.kind(), MoveKind::Normal { from, to, promote });
                }
            }
            for k in PieceKind::HAND {
                let m = Move::drop(k, from);
                assert_eq!(Move::from_bits(m.bits()), Some(m));
                assert_eq!(m.kind(), MoveKind::Drop { kind: k, to: from });
            }
        }
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        assert_eq!(Move::from_bits(0), None);
    }

    #[test]
    fn touches_zone_when_the_origin_or_the_destination_is_in_the_three_far_ranks() {
        let zone = |text: &str, us| text.parse::<UsiMove>().map(|m| m.to_move().touches_zone(us));
        // rules.md §2: origin or destination in the zone (Black: ranks a-c; White: g-i).
        assert_eq!(zone("2d2c", Color::Black), Ok(true), "into the zone");
        assert_eq!(zone("2c2d", Color::Black), Ok(true), "out of the zone");
        assert_eq!(zone("2b2a", Color::Black), Ok(true), "within the zone");
        assert_eq!(zone("2e2d", Color::Black), Ok(false));
        assert_eq!(zone("2d2c", Color::White), Ok(false), "Black's zone is not White's");
        assert_eq!(zone("8f8g", Color::White), Ok(true));
        assert_eq!(zone("P*2a", Color::Black), Ok(false), "a drop never touches the zone");
    }
}
