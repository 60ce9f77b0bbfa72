//! Attack tables and slider attacks, all built by `const fn` (no run-time initialisation).
//!
//! * Step pieces (pawn, knight, silver, gold, king) use per-color, per-square tables.
//! * File sliders (lance, the rook's file) use a table indexed by the seven inner squares of the
//!   file, which are nine consecutive bits in the file-major layout.
//! * Rank and diagonal sliders use the *obstruction difference* method: every line through a
//!   square is a run of increasing bit indices, so the nearest blocker below the square is the
//!   highest set bit of the lower part, and one subtraction finds the nearest blocker above.
//!
//! Rules: rules.md §1 (how each piece moves).

use crate::types::{Bitboard, Color, PieceKind, Square};

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
// File sliders: FILE_ATTACKS[rank][inner] is the 9-bit attack pattern within the file for a
// slider on `rank` when the file's ranks b..h hold the 7-bit occupancy `inner`.

const fn file_table() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut r = 0;
    while r < 9 {
        let mut inner = 0;
        while inner < 128 {
            let occ = (inner as u32) << 1;
            let mut a = 0u16;
            let mut i = r as i32 - 1;
            while i >= 0 {
                a |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i -= 1;
            }
            let mut i = r + 1;
            while i < 9 {
                a |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i += 1;
            }
            t[r][inner] = a;
            inner += 1;
        }
        r += 1;
    }
    t
}

static FILE_ATTACKS: [[u16; 128]; 9] = file_table();

/// Forward ray masks within a file, per color and rank: all ranks in front of `rank` for `c`.
const fn forward_masks() -> [[u16; 9]; 2] {
    let mut t = [[0u16; 9]; 2];
    let mut r = 0;
    while r < 9 {
        t[0][r] = ((1u32 << r) - 1) as u16;
        t[1][r] = (0x1FF & !((1u32 << (r + 1)) - 1)) as u16;
        r += 1;
    }
    t
}
static FORWARD_IN_FILE: [[u16; 9]; 2] = forward_masks();

#[inline(always)]
fn file_pattern(sq: Square, occ: Bitboard) -> u16 {
    let base = sq.file().index() * 9;
    let inner = ((occ.0 >> (base + 1)) & 0x7F) as usize;
    FILE_ATTACKS[sq.rank().index()][inner]
}

/// Squares a rook on `sq` attacks along its file.
#[inline(always)]
pub fn file_slider(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard((file_pattern(sq, occ) as u128) << (sq.file().index() * 9))
}

/// Squares a lance of `c` on `sq` attacks.
#[inline(always)]
pub fn lance(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let p = file_pattern(sq, occ) & FORWARD_IN_FILE[c.index()][sq.rank().index()];
    Bitboard((p as u128) << (sq.file().index() * 9))
}

// ---------------------------------------------------------------------------------------------
// Rank and diagonal lines: LINES[sq] = [rank line, diagonal, anti-diagonal], each without `sq`.

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
static LINES: [[u128; 3]; 81] = line_table();

/// Attacks along one line (a mask without `sq`) by obstruction difference.
#[inline(always)]
fn line_attacks(sq: Square, line: u128, occ: u128) -> u128 {
    let below = (1u128 << sq.index()) - 1;
    let o = occ & line;
    let lower = o & below;
    let upper = o & !below;
    let ms1b = 1u128 << (127 - (lower | 1).leading_zeros());
    (upper ^ upper.wrapping_sub(ms1b)) & line
}

/// Squares a bishop on `sq` attacks.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LINES[sq.index()];
    Bitboard(line_attacks(sq, l[1], occ.0) | line_attacks(sq, l[2], occ.0))
}

/// Squares a rook on `sq` attacks.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(line_attacks(sq, LINES[sq.index()][0], occ.0)) | file_slider(sq, occ)
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

/// Squares a bishop on `sq` attacks on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    let l = &LINES[sq.index()];
    Bitboard(l[1] | l[2])
}

/// Squares a rook on `sq` attacks on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard(LINES[sq.index()][0] | (0x1FFu128 << (sq.file().index() * 9)) & !(1u128 << sq.index()))
}

/// Squares a lance of `c` on `sq` attacks on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    lance(c, sq, Bitboard::EMPTY)
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

// ---------------------------------------------------------------------------------------------
// Between and line relations.

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

static BETWEEN: [[Bitboard; 81]; 81] = between_table();
static LINE_ID: [[u8; 81]; 81] = line_id_table();

/// Squares strictly between `a` and `b` if they share a file, rank or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (file, rank or diagonal, edge to edge) through `a` and `b`, including both;
/// empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    let i = a.index();
    let full = match LINE_ID[i][b.index()] {
        0 => return Bitboard::EMPTY,
        1 => 0x1FFu128 << (a.file().index() * 9),
        id => LINES[i][id as usize - 2] | 1u128 << i,
    };
    Bitboard(full)
}

/// True if `a`, `b` and `c` lie on one line (used for pins: a pinned piece may only move along
/// the line through its king).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).has(c)
}

#[cfg(test)]
mod tests;
