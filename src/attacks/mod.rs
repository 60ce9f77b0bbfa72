//! Attack tables and slider attacks, all built by `const fn` (no run-time initialisation).
//!
//! * Step pieces (pawn, knight, silver, gold, king) use per-color, per-square tables.
//! * File sliders (lance, the rook's file) work on the nine consecutive bits of a file in the
//!   file-major layout: the nearest blocker is the lowest or highest set bit of the ray.
//! * Rank and diagonal sliders use the *obstruction difference* method: every line through a
//!   square is a run of increasing bit indices, so the nearest blocker below the square is the
//!   highest set bit of the lower part, and one subtraction finds the nearest blocker above.
//!
//! Rules: rules.md §1 (how each piece moves).

use crate::types::{Bitboard, Color, PieceKind, Square};

mod lines;
mod reach;

pub use lines::{aligned, attacks_square, between, line};
pub use reach::{bishop_reach, lance_reach, rook_reach, step_reach};

const fn bit(f: i32, r: i32) -> u128 {
    if f >= 0 && f < 9 && r >= 0 && r < 9 { 1u128 << (f * 9 + r) } else { 0 }
}

/// Step offsets `(file delta, rank delta)` for Black; White mirrors the rank delta. Positive rank
/// delta points toward rank i, so Black's "forward" is `-1`.
const fn steps(kind: PieceKind) -> &'static [(i32, i32)] {
    match kind {
        PieceKind::Pawn => &[(0, -1)],
        PieceKind::Knight => &[(-1, -2), (1, -2)],
        PieceKind::Silver => &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
        PieceKind::King => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        // Gold and everything that moves like it.
        _ => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
    }
}

const fn step_table(kind: PieceKind) -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let s = steps(kind);
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
            let mut b = 0u128;
            let mut i = 0;
            while i < s.len() {
                let (df, dr) = s[i];
                b |= bit(f + df, if c == 0 { r + dr } else { r - dr });
                i += 1;
            }
            t[c][sq] = Bitboard(b);
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[Bitboard; 81]; 2] = step_table(PieceKind::Pawn);
static KNIGHT: [[Bitboard; 81]; 2] = step_table(PieceKind::Knight);
static SILVER: [[Bitboard; 81]; 2] = step_table(PieceKind::Silver);
static GOLD: [[Bitboard; 81]; 2] = step_table(PieceKind::Gold);
static KING: [[Bitboard; 81]; 2] = step_table(PieceKind::King);

/// Squares a pawn of `c` on `sq` attacks.
#[inline(always)]
pub fn pawn(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}
/// Squares a knight of `c` on `sq` attacks.
#[inline(always)]
pub fn knight(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}
/// Squares a silver of `c` on `sq` attacks.
#[inline(always)]
pub fn silver(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}
/// Squares a gold (or tokin, promoted lance/knight/silver) of `c` on `sq` attacks.
#[inline(always)]
pub fn gold(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}
/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}

// ---------------------------------------------------------------------------------------------
// File sliders. A file is nine consecutive bits (rank a lowest), so a lance ray is a run of bits
// ending next to its square: White's runs upward and ends at the lowest blocker, which
// `x ^ (x - 1)` finds; Black's runs downward and ends at the highest blocker, found with one
// leading-zero count. No tables beyond the empty-board rays.

const fn lance_rays() -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut i = 1;
        while i < 9 {
            t[0][sq] |= bit(f, r - i);
            t[1][sq] |= bit(f, r + i);
            i += 1;
        }
        sq += 1;
    }
    t
}

static LANCE_RAYS: [[u128; 81]; 2] = lance_rays();

/// Black's lance ray (toward rank a) from `sq`, cut at the first blocker in `occ`.
#[inline(always)]
fn black_lance(sq: Square, occ: u128) -> u128 {
    let ray = LANCE_RAYS[0][sq.index()];
    // Bit 0 (square 1a) stands in for "no blocker": it keeps the whole ray.
    let nearest = 1u128 << (127 - ((occ & ray) | 1).leading_zeros());
    ray & nearest.wrapping_neg()
}

/// White's lance ray (toward rank i) from `sq`, cut at the first blocker in `occ`.
#[inline(always)]
fn white_lance(sq: Square, occ: u128) -> u128 {
    let ray = LANCE_RAYS[1][sq.index()];
    let x = occ & ray;
    ray & (x ^ x.wrapping_sub(1))
}

/// Squares a rook on `sq` attacks along its file.
#[inline(always)]
pub fn file_slider(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(black_lance(sq, occ.0) | white_lance(sq, occ.0))
}

/// Squares a lance of `c` on `sq` attacks.
#[inline(always)]
pub fn lance(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(match c {
        Color::Black => black_lance(sq, occ.0),
        Color::White => white_lance(sq, occ.0),
    })
}

// ---------------------------------------------------------------------------------------------
// Rank and diagonal lines: `line_table()[sq]` = [rank line, diagonal, anti-diagonal], each without
// `sq`.

const fn ray_line(sq: usize, df: i32, dr: i32) -> u128 {
    let (f0, r0) = ((sq / 9) as i32, (sq % 9) as i32);
    let mut b = 0u128;
    let mut k = 1;
    while k < 9 {
        b |= bit(f0 + df * k, r0 + dr * k) | bit(f0 - df * k, r0 - dr * k);
        k += 1;
    }
    b
}

const fn line_table() -> [[u128; 3]; 81] {
    let mut t = [[0u128; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = [ray_line(sq, 1, 0), ray_line(sq, 1, 1), ray_line(sq, 1, -1)];
        sq += 1;
    }
    t
}
/// One line through a square, split at the square: the part below it and the part above it.
#[derive(Clone, Copy)]
struct HalfLines {
    below: u128,
    above: u128,
}

/// `[rank, diagonal, anti-diagonal]` through each square, split at the square.
const fn half_line_table() -> [[HalfLines; 3]; 81] {
    let lines = line_table();
    let mut t = [[HalfLines { below: 0, above: 0 }; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let below = (1u128 << sq) - 1;
        let mut d = 0;
        while d < 3 {
            t[sq][d] = HalfLines { below: lines[sq][d] & below, above: lines[sq][d] & !below };
            d += 1;
        }
        sq += 1;
    }
    t
}
static HALF_LINES: [[HalfLines; 3]; 81] = half_line_table();

/// Attacks along one line by obstruction difference: the nearest blocker below the square is the
/// highest set bit of the lower half (bit 0 stands in for none), and subtracting it from the upper
/// half's blockers borrows up to the nearest blocker above.
#[inline(always)]
fn line_attacks(line: HalfLines, occ: u128) -> u128 {
    let lower = occ & line.below;
    let upper = occ & line.above;
    let ms1b = 1u128 << (127 - (lower | 1).leading_zeros());
    (upper ^ upper.wrapping_sub(ms1b)) & (line.below | line.above)
}

/// Squares a bishop on `sq` attacks.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &HALF_LINES[sq.index()];
    Bitboard(line_attacks(l[1], occ.0) | line_attacks(l[2], occ.0))
}

/// Squares a rook on `sq` attacks.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(line_attacks(HALF_LINES[sq.index()][0], occ.0)) | file_slider(sq, occ)
}

/// Squares a horse (promoted bishop) on `sq` attacks.
#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    bishop(sq, occ) | king(sq)
}

/// Squares a dragon (promoted rook) on `sq` attacks.
#[inline(always)]
pub fn dragon(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | king(sq)
}

const fn pseudo_tables() -> [[Bitboard; 81]; 2] {
    let lines = line_table();
    let rays = lance_rays();
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] = Bitboard(lines[sq][1] | lines[sq][2]);
        t[1][sq] = Bitboard(lines[sq][0] | rays[0][sq] | rays[1][sq]);
        sq += 1;
    }
    t
}

/// Empty-board attacks: `[bishop, rook]` per square.
static PSEUDO: [[Bitboard; 81]; 2] = pseudo_tables();

/// Squares a bishop on `sq` attacks on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    PSEUDO[0][sq.index()]
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    PSEUDO[1][sq.index()]
}

/// Squares a lance of `c` on `sq` attacks on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    Bitboard(LANCE_RAYS[c.index()][sq.index()])
}

/// Squares a piece of `c` and `kind` on `sq` attacks given the occupancy `occ`.
#[inline]
pub fn piece(c: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn(c, sq),
        PieceKind::Lance => lance(c, sq, occ),
        PieceKind::Knight => knight(c, sq),
        PieceKind::Silver => silver(c, sq),
        PieceKind::Bishop => bishop(sq, occ),
        PieceKind::Rook => rook(sq, occ),
        PieceKind::King => king(sq),
        PieceKind::Horse => horse(sq, occ),
        PieceKind::Dragon => dragon(sq, occ),
        _ => gold(c, sq),
    }
}

#[cfg(test)]
mod tests;
