//! The two players. Black (*sente*, 先手) moves first in an even game and is written in upper case in
//! SFEN; White (*gote*, 後手) is lower case and moves first in handicap games.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// *Sente*: moves toward rank a, upper-case letters, `b` in SFEN.
    Black = 0,
    /// *Gote*: moves toward rank i, lower-case letters, `w` in SFEN.
    White = 1,
}

impl Color {
    /// Both colors, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Index 0 (Black) or 1 (White).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other color.
    #[inline(always)]
    pub(crate) const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The SFEN side-to-move letter (`b` or `w`).
    pub(crate) const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A pair of values, one per color, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> ByColor<T> {
    /// Builds the pair from Black's and White's value.
    pub const fn new(black: T, white: T) -> Self {
        ByColor([black, white])
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_and_index_round_trip() {
        for c in Color::ALL {
            assert_eq!(Color::ALL[c.index()], c);
            assert_eq!(!!c, c);
            assert_ne!(!c, c);
        }
    }
}
