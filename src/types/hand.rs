//! Pieces in hand, packed into one `u32` with a spare bit above every count.
//!
//! Layout (bit offsets): Pawn 0–4, Lance 8–10, Knight 12–14, Silver 16–18, Bishop 24–25, Rook
//! 28–29, Gold 20–22. The spare bits make "has at least as many of every kind" one subtraction and
//! one mask (used by the mate solver's hand domination). Counts are checked against the full set
//! (18 pawns, 4 of each minor, 2 bishops, 2 rooks): adding never wraps.

use super::PieceKind;
use std::fmt;

const SHIFT: [u32; 7] = [0, 8, 12, 16, 24, 28, 20];
const MASK: [u32; 7] = [0x1F, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
const BORROW: u32 = (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 26) | (1 << 30);

/// The pieces one player holds in hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(u32);

impl Hand {
    /// No pieces.
    pub(crate) const EMPTY: Hand = Hand(0);

    /// The raw packed value (for hashing and tables).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u32 {
        self.0
    }

    /// The hand whose packed value is `bits` (as returned by [`Hand::bits`]; for tables that store
    /// hands as words).
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u32) -> Hand {
        Hand(bits)
    }

    /// How many pieces of `kind` are held. `kind` must be a hand kind (0 for others).
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let i = kind as usize;
        if i < 7 { (self.0 >> SHIFT[i]) & MASK[i] } else { 0 }
    }

    /// True if at least one piece of `kind` is held.
    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// True if a piece other than a pawn is held.
    #[inline(always)]
    pub(crate) const fn has_besides_pawns(self) -> bool {
        self.0 >> SHIFT[1] != 0
    }

    /// True if the hand is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The hand with one more `kind`, or `None` if `kind` cannot be held or the count would exceed
    /// the number of such pieces in a full set.
    pub const fn added(self, kind: PieceKind) -> Option<Hand> {
        if !kind.is_hand_kind() || self.count(kind) >= kind.set_count() as u32 {
            return None;
        }
        Some(Hand(self.0 + (1 << SHIFT[kind as usize])))
    }

    /// The hand with one `kind` fewer, or `None` if there is none.
    pub const fn removed(self, kind: PieceKind) -> Option<Hand> {
        if !self.has(kind) {
            return None;
        }
        Some(Hand(self.0 - (1 << SHIFT[kind as usize])))
    }

    /// Adds one `kind`; the caller guarantees room (a captured piece always fits). Checked in debug.
    #[inline(always)]
    pub(crate) fn add_unchecked(&mut self, kind: PieceKind) {
        debug_assert!(self.added(kind).is_some(), "hand overflow for {kind:?}");
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one `kind`; the caller guarantees it is held. Checked in debug.
    #[inline(always)]
    pub(crate) fn remove_unchecked(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind), "hand underflow for {kind:?}");
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// The hand with `count` pieces of `kind`, or `None` if the count is out of range.
    pub(crate) const fn with_count(self, kind: PieceKind, count: u32) -> Option<Hand> {
        if !kind.is_hand_kind() || count > kind.set_count() as u32 {
            return None;
        }
        let i = kind as usize;
        Some(Hand((self.0 & !(MASK[i] << SHIFT[i])) | (count << SHIFT[i])))
    }

    /// True if this hand holds at least as many of every kind as `other` (hand domination).
    #[inline(always)]
    pub(crate) const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// The kinds held, in hand-slot order (Pawn … Gold), with their counts.
    pub fn iter(self) -> impl Iterator<Item = (PieceKind, u32)> {
        PieceKind::HAND.into_iter().map(move |k| (k, self.count(k))).filter(|&(_, n)| n > 0)
    }
}

impl fmt::Display for Hand {
    /// Upper-case SFEN hand text in R B G S N L P order (`2P` for two pawns), `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for k in PieceKind::SFEN_HAND_ORDER {
            match self.count(k) {
                0 => {}
                1 => write!(f, "{}", k.base_letter())?,
                n => write!(f, "{n}{}", k.base_letter())?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_capped_at_the_full_set() {
        for k in PieceKind::HAND {
            let mut h = Hand::EMPTY;
            for n in 0..k.set_count() as u32 {
                assert_eq!(h.count(k), n);
                h = h.added(k).expect("room below the set count");
            }
            assert_eq!(h.added(k), None, "{k:?} must not exceed {}", k.set_count());
            for other in PieceKind::HAND {
                if other != k {
                    assert_eq!(h.count(other), 0, "{k:?} leaked into {other:?}");
                }
            }
        }
        assert_eq!(Hand::EMPTY.removed(PieceKind::Pawn), None);
        assert_eq!(Hand::EMPTY.added(PieceKind::King), None);
        assert_eq!(Hand::EMPTY.added(PieceKind::Horse), None);
    }

    #[test]
    fn domination_compares_every_kind() {
        let a = Hand::EMPTY.with_count(PieceKind::Pawn, 3).and_then(|h| h.with_count(PieceKind::Rook, 1));
        let b = Hand::EMPTY.with_count(PieceKind::Pawn, 2);
        let (Some(a), Some(b)) = (a, b) else { panic!("valid counts") };
        assert!(a.dominates(b));
        assert!(!b.dominates(a));
        assert!(a.dominates(a));
        let c = Hand::EMPTY.with_count(PieceKind::Gold, 1).unwrap_or_default();
        assert!(!a.dominates(c) && !c.dominates(a));
        let full = PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| h.with_count(k, k.set_count() as u32).unwrap_or(h));
        for k in PieceKind::HAND {
            assert_eq!(full.count(k), k.set_count() as u32);
            assert!(full.dominates(Hand::EMPTY.with_count(k, 1).unwrap_or_default()));
        }
    }

    #[test]
    fn sfen_order_is_rbgsnlp() {
        let h = [PieceKind::Pawn, PieceKind::Pawn, PieceKind::Gold, PieceKind::Rook]
            .iter()
            .fold(Hand::EMPTY, |h, &k| h.added(k).unwrap_or(h));
        assert_eq!(h.to_string(), "RG2P");
        assert_eq!(Hand::EMPTY.to_string(), "-");
    }
}
