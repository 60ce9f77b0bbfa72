//! Piece kinds and colored pieces, with their SFEN letters.
//!
//! Kind numbering puts the seven kinds that can be held in hand first (Pawn … Gold), so a kind's
//! index is also its hand slot, and the six promotable kinds are exactly those below `Gold`:
//! promoting adds 8.

use super::Color;
use std::fmt;
use std::num::NonZeroU8;

/// One of the 14 kinds of shogi piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩 *fu*.
    Pawn = 0,
    /// 香 *kyo*.
    Lance = 1,
    /// 桂 *kei*.
    Knight = 2,
    /// 銀 *gin*.
    Silver = 3,
    /// 角 *kaku*.
    Bishop = 4,
    /// 飛 *hi*.
    Rook = 5,
    /// 金 *kin*.
    Gold = 6,
    /// 玉/王 *gyoku/ou*.
    King = 7,
    /// と *tokin*.
    ProPawn = 8,
    /// 成香 *narikyo*.
    ProLance = 9,
    /// 成桂 *narikei*.
    ProKnight = 10,
    /// 成銀 *narigin*.
    ProSilver = 11,
    /// 馬 *uma* (promoted bishop).
    Horse = 12,
    /// 龍 *ryu* (promoted rook).
    Dragon = 13,
}

impl PieceKind {
    /// Number of kinds.
    pub(crate) const NUM: usize = 14;
    /// All kinds in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kind whose index + 1 is in the low four bits of `bits` (a [`Piece`] code, or a drop's
    /// origin field less 80): a lookup without a subtraction or a bounds check.
    #[inline(always)]
    pub(crate) const fn of_low_bits(bits: usize) -> PieceKind {
        KIND_OF_CODE[bits & 15]
    }

    /// The seven kinds that can be held in hand, in hand-slot order: the first seven of [`Self::ALL`].
    pub const HAND: [PieceKind; 7] = match Self::ALL.first_chunk() {
        Some(hand) => *hand,
        None => unreachable!(),
    };
    /// The hand kinds in the order USI SFEN writes them: R B G S N L P.
    pub(crate) const SFEN_HAND_ORDER: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// Index 0..14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i`.
    #[inline(always)]
    pub(crate) const fn try_from_index(i: usize) -> Option<PieceKind> {
        if i < 14 { Some(PieceKind::ALL[i]) } else { None }
    }

    /// True for Pawn, Lance, Knight, Silver, Bishop and Rook.
    #[inline(always)]
    pub(crate) const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// True for the six promoted kinds.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind, if this kind can promote.
    #[inline(always)]
    pub const fn promoted(self) -> Option<PieceKind> {
        if self.can_promote() { PieceKind::try_from_index(self as usize + 8) } else { None }
    }

    /// The kind after a move that promotes (`promote`) or not: the promoted kind where this kind
    /// can promote and the move promotes, else this kind.
    #[inline(always)]
    pub const fn after_move(self, promote: bool) -> PieceKind {
        match (promote, self.promoted()) {
            (true, Some(k)) => k,
            _ => self,
        }
    }

    /// The kind a captured piece of this kind becomes in hand (promoted kinds revert; King has none).
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        if self.is_promoted() { PieceKind::ALL[self as usize - 8] } else { self }
    }

    /// True if a piece of this kind can be held in hand (not King, not promoted).
    #[inline(always)]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < 7
    }

    /// The upper-case SFEN letter of the unpromoted base kind (`P L N S B R G K`).
    pub const fn base_letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind written with this (upper- or lower-case) SFEN letter.
    pub(crate) const fn from_base_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'G' => Some(PieceKind::Gold),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// How many pieces of this (unpromoted) kind a full set has, both sides together.
    pub const fn set_count(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }
}

impl fmt::Display for PieceKind {
    /// Upper-case SFEN text: `P`, `+P`, `K` …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_promoted() {
            f.write_str("+")?;
        }
        write!(f, "{}", self.base_letter())
    }
}

/// The kind of each value of a [`Piece`] code's low four bits (`kind + 1`; 0 and 15 never occur).
const KIND_OF_CODE: [PieceKind; 16] = {
    let mut table = [PieceKind::Pawn; 16];
    let mut k = 0;
    while k < PieceKind::NUM {
        table[k + 1] = PieceKind::ALL[k];
        k += 1;
    }
    table
};

/// A piece of one color: `(color << 4) | kind + 1`, never zero, so `Option<Piece>` is one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(((color as u8) << 4) | (kind as u8 + 1)) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    /// The piece's color.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() & 16 == 0 { Color::Black } else { Color::White }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::of_low_bits(self.0.get() as usize)
    }

    /// The piece's one-byte code (never 0; `None` as an `Option<Piece>` is 0).
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.0.get()
    }

    /// The piece whose [`Piece::code`] is `code`, `None` for 0 (codes come only from `code`).
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        match NonZeroU8::new(code) {
            Some(v) => Some(Piece(v)),
            None => None,
        }
    }

    /// A dense index 0..28 (`color * 14 + kind`) for tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color() as usize * 14 + self.kind() as usize
    }

    /// The SFEN text of the piece: `P`, `+p`, `k` …
    pub fn to_sfen(self) -> String {
        let s = self.kind().to_string();
        match self.color() {
            Color::Black => s,
            Color::White => s.to_ascii_lowercase(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_pairs() {
        for k in PieceKind::ALL {
            match k.promoted() {
                Some(p) => {
                    assert!(k.can_promote());
                    assert_eq!(p.unpromoted(), k);
                    assert!(p.is_promoted());
                }
                None => assert!(!k.can_promote()),
            }
        }
        assert_eq!(PieceKind::Gold.promoted(), None);
        assert_eq!(PieceKind::King.promoted(), None);
        assert_eq!(PieceKind::Dragon.unpromoted(), PieceKind::Rook);
    }

    #[test]
    fn piece_fields_round_trip() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!((p.color(), p.kind()), (c, k));
                assert!(p.index() < 28);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::new(Color::White, PieceKind::Horse).to_sfen(), "+b");
    }

    #[test]
    fn set_counts_match_a_full_set() {
        let total: u32 = PieceKind::HAND.iter().map(|k| k.set_count() as u32).sum::<u32>() + 2;
        assert_eq!(total, 40);
    }
}
