//! Squares of the 9×9 board, named as in USI: file digit 1–9 (right to left from Black's seat) then
//! rank letter a–i (top to bottom), e.g. `7g`.
//!
//! Layout is file-major: `index = (file - 1) * 9 + rank`, so 1a = 0, 1i = 8, 2a = 9, 9i = 80. A file
//! is nine consecutive bits of a [`Bitboard`](super::Bitboard), which keeps lance and rook file
//! attacks cheap.

use super::Color;
use std::fmt;
use std::str::FromStr;

/// A file (column), 1 to 9. Stored as 0..=8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// All files, 1 to 9.
    pub const ALL: [File; 9] = [File(0), File(1), File(2), File(3), File(4), File(5), File(6), File(7), File(8)];

    /// The file with the given number 1–9.
    pub const fn new(number: u8) -> Option<File> {
        if number >= 1 && number <= 9 { Some(File(number - 1)) } else { None }
    }

    /// Index 0..=8 (file 1 is 0).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file number 1–9.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
}

/// A rank (row), a to i. Stored as 0..=8 (a = 0, the top rank from Black's seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// All ranks, a to i.
    pub const ALL: [Rank; 9] = [Rank(0), Rank(1), Rank(2), Rank(3), Rank(4), Rank(5), Rank(6), Rank(7), Rank(8)];

    /// The rank with index 0..=8 (a = 0).
    pub(crate) const fn from_index(i: usize) -> Option<Rank> {
        if i < 9 { Some(Rank(i as u8)) } else { None }
    }

    /// Index 0..=8 (a = 0).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank counted 1–9 (a = 1), as KIF and CSA write it.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The USI letter `a`–`i`.
    pub(crate) const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The rank as seen by `c`: rank a for Black is relative rank 0, for White relative rank 8.
    #[inline(always)]
    pub(crate) const fn relative_to(self, c: Color) -> usize {
        match c {
            Color::Black => self.0 as usize,
            Color::White => 8 - self.0 as usize,
        }
    }

    /// True if the rank is in `c`'s promotion zone (the three ranks farthest from `c`).
    #[inline(always)]
    pub(crate) const fn in_zone(self, c: Color) -> bool {
        self.relative_to(c) < 3
    }
}

/// A square, 0..81 in file-major order (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file`, `rank`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(file.0 * 9 + rank.0)
    }

    /// The square with index 0..81.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 { Some(Square(i as u8)) } else { None }
    }

    /// The square with index `i`, which the caller guarantees to be below 81 (checked in debug).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 81);
        Square(i as u8)
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Index 0..81.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 / 9)
    }

    /// The rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9)
    }

    /// The square seen from the other side of the board (180° rotation): 1a ↔ 9i.
    pub(crate) const fn rotate(self) -> Square {
        Square(80 - self.0)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board. Positive `dr` goes toward
    /// rank i, positive `df` toward file 9.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.0 as i8 / 9 + df;
        let r = self.0 as i8 % 9 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 9 { Some(Square((f * 9 + r) as u8)) } else { None }
    }

    /// Parses a square from the first two bytes of `s` (`7g`).
    pub(crate) fn from_usi_bytes(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'1'..=b'9', r @ b'a'..=b'i', ..] => Some(Square((f - b'1') * 9 + (r - b'a'))),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().number(), self.rank().to_char())
    }
}

/// Error for text that is not a USI square name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?} (expected a file digit 1-9 and a rank letter a-i, e.g. 7g)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match (s.len(), Square::from_usi_bytes(s.as_bytes())) {
            (2, Some(sq)) => Ok(sq),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_names_round_trip() {
        for sq in Square::all() {
            let text = sq.to_string();
            assert_eq!(text.parse::<Square>(), Ok(sq));
        }
        assert_eq!("1a".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("9i".parse::<Square>().map(Square::index), Ok(80));
        assert_eq!("7g".parse::<Square>().map(|s| (s.file().number(), s.rank().to_char())), Ok((7, 'g')));
        for bad in ["", "0a", "1j", "10a", "a1", "7g7"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn zones_are_three_far_ranks() {
        let zone = |c| Rank::ALL.iter().filter(|r| r.in_zone(c)).map(|r| r.to_char()).collect::<String>();
        assert_eq!(zone(Color::Black), "abc");
        assert_eq!(zone(Color::White), "ghi");
    }

    #[test]
    fn square_is_one_byte() {
        assert_eq!(std::mem::size_of::<Square>(), 1);
    }
}
