//! Reach around a king: the squares from which a piece could attack one of the (up to) eight
//! squares next to a king, used to find the king's safe squares in one pass over the few enemy
//! pieces that matter.

use super::{lance_rays, pseudo_tables, step_table};
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Reach tables per king square (and per attacking color where direction matters).
struct Reach {
    step: [[Bitboard; 81]; 2],
    bishop: [Bitboard; 81],
    rook: [Bitboard; 81],
    lance: [[Bitboard; 81]; 2],
}

const fn reach() -> Reach {
    let steps = [
        step_table(PieceKind::Pawn),
        step_table(PieceKind::Knight),
        step_table(PieceKind::Silver),
        step_table(PieceKind::Gold),
        step_table(PieceKind::King),
    ];
    let pseudo = pseudo_tables();
    let rays = lance_rays();
    let mut r = Reach {
        step: [[Bitboard::EMPTY; 81]; 2],
        bishop: [Bitboard::EMPTY; 81],
        rook: [Bitboard::EMPTY; 81],
        lance: [[Bitboard::EMPTY; 81]; 2],
    };
    let king = step_table(PieceKind::King);
    let mut k = 0;
    while k < 81 {
        let mut around = king[0][k].0;
        while around != 0 {
            let z = around.trailing_zeros() as usize;
            around &= around - 1;
            let mut c = 0;
            while c < 2 {
                // A piece of color `c` attacks `z` from where the other color's piece on `z` would.
                let mut i = 0;
                while i < steps.len() {
                    r.step[c][k].0 |= steps[i][1 - c][z].0;
                    i += 1;
                }
                r.lance[c][k].0 |= rays[1 - c][z];
                c += 1;
            }
            r.bishop[k].0 |= pseudo[0][z].0;
            r.rook[k].0 |= pseudo[1][z].0;
        }
        k += 1;
    }
    r
}

static REACH: Reach = reach();

/// Squares from which a step piece (pawn, knight, silver, gold-like, king, or the one-step moves of
/// a horse or dragon) of `c` could attack a square next to `ksq`.
#[inline(always)]
pub fn step_reach(c: Color, ksq: Square) -> Bitboard {
    REACH.step[c.index()][ksq.index()]
}

/// Squares from which a bishop or horse could slide onto a square next to `ksq` (on an empty board).
#[inline(always)]
pub fn bishop_reach(ksq: Square) -> Bitboard {
    REACH.bishop[ksq.index()]
}

/// Squares from which a rook or dragon could slide onto a square next to `ksq` (on an empty board).
#[inline(always)]
pub fn rook_reach(ksq: Square) -> Bitboard {
    REACH.rook[ksq.index()]
}

/// Squares from which a lance of `c` could slide onto a square next to `ksq` (on an empty board).
#[inline(always)]
pub fn lance_reach(c: Color, ksq: Square) -> Bitboard {
    REACH.lance[c.index()][ksq.index()]
}
