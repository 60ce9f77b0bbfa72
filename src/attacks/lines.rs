//! Between and line relations: the squares between two squares, the whole line through them,
//! alignment (for pins), and whether a piece attacks one given square.

use super::{bishop_pseudo, bit, king, lance_pseudo, line_table, piece, rook_pseudo};
use crate::types::{Bitboard, Color, PieceKind, Square};

const fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (fa, ra, fb, rb) = ((a / 9) as i32, (a % 9) as i32, (b / 9) as i32, (b % 9) as i32);
    let (df, dr) = (fb - fa, rb - ra);
    if a == b {
        None
    } else if df == 0 {
        Some((0, if dr > 0 { 1 } else { -1 }))
    } else if dr == 0 {
        Some((if df > 0 { 1 } else { -1 }, 0))
    } else if df == dr || df == -dr {
        Some((if df > 0 { 1 } else { -1 }, if dr > 0 { 1 } else { -1 }))
    } else {
        None
    }
}

const fn between_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if let Some((df, dr)) = direction(a, b) {
                let (mut f, mut r) = ((a / 9) as i32 + df, (a % 9) as i32 + dr);
                let mut x = 0u128;
                while (f * 9 + r) as usize != b {
                    x |= bit(f, r);
                    f += df;
                    r += dr;
                }
                t[a][b] = Bitboard(x);
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `LINE_ID[a][b]`: 0 if `a` and `b` share no line, else 1 + (0 file, 1 rank, 2 diagonal,
/// 3 anti-diagonal).
const fn line_id_table() -> [[u8; 81]; 81] {
    let mut t = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            t[a][b] = match direction(a, b) {
                Some((0, _)) => 1,
                Some((_, 0)) => 2,
                Some((df, dr)) if df == dr => 3,
                Some(_) => 4,
                None => 0,
            };
            b += 1;
        }
        a += 1;
    }
    t
}

/// `FULL_LINES[sq][id]`: for each `LINE_ID` value, the whole line through `sq` (empty for 0).
const fn full_line_table() -> [[Bitboard; 5]; 81] {
    let lines = line_table();
    let mut t = [[Bitboard::EMPTY; 5]; 81];
    let mut sq = 0;
    while sq < 81 {
        let own = 1u128 << sq;
        t[sq][1] = Bitboard(0x1FFu128 << ((sq / 9) * 9));
        t[sq][2] = Bitboard(lines[sq][0] | own);
        t[sq][3] = Bitboard(lines[sq][1] | own);
        t[sq][4] = Bitboard(lines[sq][2] | own);
        sq += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 81]; 81] = between_table();
static LINE_ID: [[u8; 81]; 81] = line_id_table();
static FULL_LINES: [[Bitboard; 5]; 81] = full_line_table();

/// Squares strictly between `a` and `b` if they share a file, rank or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (file, rank or diagonal, edge to edge) through `a` and `b`, including both;
/// empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    FULL_LINES[a.index()][LINE_ID[a.index()][b.index()] as usize]
}

/// True if `a`, `b` and `c` lie on one line (used for pins: a pinned piece may only move along
/// the line through its king).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).has(c)
}

/// True if a piece of `c` and `kind` on `from` attacks `to` given the occupancy `occ` (cheaper than
/// [`piece`] for sliders: one line test instead of a full slide).
#[inline(always)]
pub fn attacks_square(c: Color, kind: PieceKind, from: Square, to: Square, occ: Bitboard) -> bool {
    let clear = || (between(from, to) & occ).is_empty();
    match kind {
        PieceKind::Lance => lance_pseudo(c, from).has(to) && clear(),
        PieceKind::Bishop => bishop_pseudo(from).has(to) && clear(),
        PieceKind::Rook => rook_pseudo(from).has(to) && clear(),
        PieceKind::Horse => king(from).has(to) || (bishop_pseudo(from).has(to) && clear()),
        PieceKind::Dragon => king(from).has(to) || (rook_pseudo(from).has(to) && clear()),
        _ => piece(c, kind, from, occ).has(to),
    }
}
