//! A set of squares: 81 bits of a `u128`, bit `i` = square index `i` (file-major, see
//! [`Square`]). Bits 81..128 are always zero; `!` masks them off.

use super::{Color, PieceKind, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub(crate) u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;
const FILE1: u128 = 0x1FF;
const RANK_A: u128 = {
    let mut b = 0u128;
    let mut f = 0;
    while f < 9 {
        b |= 1u128 << (f * 9);
        f += 1;
    }
    b
};

impl Bitboard {
    /// No squares.
    pub(crate) const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline(always)]
    pub(crate) const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of file `f` (index 0 = file 1).
    #[inline(always)]
    pub const fn file(f: usize) -> Bitboard {
        Bitboard(FILE1 << (f * 9))
    }

    /// All squares of rank `r` (index 0 = rank a).
    #[inline(always)]
    pub const fn rank(r: usize) -> Bitboard {
        Bitboard(RANK_A << r)
    }

    /// The ranks with relative index `< n` for `c` (its `n` farthest ranks): `n = 3` is the
    /// promotion zone, `n = 1` where pawns and lances may not go, `n = 2` the same for knights.
    #[inline(always)]
    pub(crate) const fn far_ranks(c: Color, n: usize) -> Bitboard {
        let mut b = 0u128;
        let mut i = 0;
        while i < n {
            b |= match c {
                Color::Black => RANK_A << i,
                Color::White => RANK_A << (8 - i),
            };
            i += 1;
        }
        Bitboard(b)
    }

    /// The squares where a `kind` of `c` could never move again, so that it may neither go nor be
    /// dropped there (the dead-piece rule, rules.md §2–§3): the last rank for a pawn or lance,
    /// the last two for a knight, none for the other kinds.
    #[inline(always)]
    pub(crate) const fn dead_squares(c: Color, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Pawn | PieceKind::Lance => Bitboard::far_ranks(c, 1),
            PieceKind::Knight => Bitboard::far_ranks(c, 2),
            _ => Bitboard::EMPTY,
        }
    }

    /// True if no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if at least one square is set.
    #[inline(always)]
    pub(crate) const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// True if `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True if more than one square is set.
    #[inline(always)]
    pub(crate) const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index_unchecked(self.0.trailing_zeros() as usize)) }
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Shifts every square one rank toward rank a (Black's forward). Squares on rank a fall off
    /// into the previous file's rank i, so callers mask with the rank they allow.
    #[inline(always)]
    pub(crate) const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// Shifts every square one rank toward rank i (White's forward); see [`Bitboard::shift_up`].
    #[inline(always)]
    pub(crate) const fn shift_down(self) -> Bitboard {
        Bitboard((self.0 << 1) & ALL_BITS)
    }

    /// For each occupied file, all nine squares of it (used for *nifu*: files that hold a pawn).
    #[inline(always)]
    pub(crate) const fn fill_files(self) -> Bitboard {
        // Per file: adding 0xFF to the low eight bits carries into bit 8 iff one of them is set;
        // OR-ing the original bit 8 then marks every occupied file, and `z - (z >> 8)` spreads
        // that mark over bits 0..8 of the file without borrowing across files.
        let low = self.0 & (LOW8_PER_FILE);
        let z = ((low + LOW8_PER_FILE) | self.0) & (RANK_A << 8);
        Bitboard(z | (z - (z >> 8)))
    }
}

const LOW8_PER_FILE: u128 = RANK_A * 0xFF;

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline(always)]
    fn sub(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & !o.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0;
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl fmt::Debug for Bitboard {
    /// A 9×9 diagram from Black's seat (file 9 on the left, rank a on top).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in 0..9 {
            for file in (0..9).rev() {
                let sq = Square::from_index_unchecked(file * 9 + r);
                f.write_str(if self.has(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rank;

    #[test]
    fn not_stays_inside_the_board() {
        assert_eq!((!Bitboard::EMPTY).count(), 81);
        assert_eq!(!Bitboard::ALL, Bitboard::EMPTY);
    }

    #[test]
    fn files_ranks_and_zones() {
        let mut all = Bitboard::EMPTY;
        for i in 0..9 {
            assert_eq!(Bitboard::file(i).count(), 9);
            assert_eq!(Bitboard::rank(i).count(), 9);
            for sq in Bitboard::file(i) {
                assert_eq!(sq.file().index(), i);
            }
            for sq in Bitboard::rank(i) {
                assert_eq!(sq.rank().index(), i);
            }
            all |= Bitboard::rank(i);
        }
        assert_eq!(all, Bitboard::ALL);
        for sq in Bitboard::far_ranks(Color::White, 3) {
            assert!(sq.rank().in_zone(Color::White));
        }
        assert_eq!(Bitboard::far_ranks(Color::Black, 3).count(), 27);
    }

    #[test]
    fn dead_squares_are_the_last_rank_for_pawns_and_lances_and_two_for_knights() {
        let ranks = |c, kind| {
            let b = Bitboard::dead_squares(c, kind);
            Rank::ALL
                .iter()
                .filter(|&&r| (b & Bitboard::rank(r.index())).is_nonempty())
                .map(|r| r.to_char())
                .collect::<String>()
        };
        let expect: [(Color, PieceKind, &str); 6] = [
            (Color::Black, PieceKind::Pawn, "a"),
            (Color::Black, PieceKind::Lance, "a"),
            (Color::Black, PieceKind::Knight, "ab"),
            (Color::White, PieceKind::Pawn, "i"),
            (Color::White, PieceKind::Knight, "hi"),
            (Color::White, PieceKind::Silver, ""),
        ];
        for (c, kind, want) in expect {
            assert_eq!(ranks(c, kind), want.to_string(), "{c} {kind:?}");
            assert_eq!(Bitboard::dead_squares(c, kind).count() as usize, 9 * want.len());
        }
    }

    #[test]
    fn fill_files_covers_whole_files() {
        let b = Bitboard::EMPTY.with(Square::from_index_unchecked(13)).with(Square::from_index_unchecked(80));
        assert_eq!(b.fill_files(), Bitboard::file(1) | Bitboard::file(8));
    }

    #[test]
    fn iteration_visits_each_square_once_in_order() {
        let b = Bitboard::file(3) | Bitboard::rank(8);
        let v: Vec<usize> = b.map(Square::index).collect();
        assert_eq!(v.len(), 17);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
    }
}
