//! Attack maps and the terms that need them: the king-danger inputs of each king (enemy control
//! of the squares around it, weak and doubly attacked squares, pressure in front, escape squares,
//! defenders, the drops the enemy holds, enemy pieces close by), slider mobility, and pieces that
//! are attacked but not defended.

use super::layout::*;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind};

/// Squares each color attacks once or more, twice or more, and with pieces other than its king.
pub struct AttackMaps {
    once: [Bitboard; 2],
    twice: [Bitboard; 2],
    by_pieces: [Bitboard; 2],
    /// Squares each long-range piece reaches, for mobility (per color, per mobility kind).
    mobility: [[u32; 5]; 2],
}

impl AttackMaps {
    /// The maps of `pos`.
    pub fn new(pos: &Position) -> AttackMaps {
        let occ = pos.occupied();
        let mut m = AttackMaps {
            once: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            by_pieces: [Bitboard::EMPTY; 2],
            mobility: [[0; 5]; 2],
        };
        for c in Color::ALL {
            let i = c.index();
            let free = !pos.pieces_of(c);
            for sq in pos.pieces_of(c) {
                let Some(p) = pos.piece_on(sq) else { continue };
                let kind = p.kind();
                let a = attacks::piece(c, kind, sq, occ);
                m.twice[i] |= m.once[i] & a;
                m.once[i] |= a;
                if kind != PieceKind::King {
                    m.by_pieces[i] |= a;
                }
                if let Some(slot) = MOBILITY_KINDS.iter().position(|&k| k == kind) {
                    m.mobility[i][slot] += (a & free).count();
                }
            }
        }
        m
    }

    /// The king-danger inputs of `c`'s king, handed to `add(input, count)`.
    pub fn danger_inputs(&self, pos: &Position, c: Color, mut add: impl FnMut(usize, i32)) {
        let Some(ksq) = pos.king_square(c) else {
            return;
        };
        let (us, them) = (c.index(), (!c).index());
        let around = attacks::king(ksq);
        let zone = around.with(ksq);
        // The ring the enemy attacks from: the zone plus one more rank in front of the king.
        let front = attacks::gold(c, ksq) | around.fold(Bitboard::EMPTY, |b, s| b | attacks::pawn(c, s));
        let count = |b: Bitboard| b.count() as i32;
        add(D_ATTACKED, count(zone & self.once[them]));
        add(D_WEAK, count(zone & self.once[them] & !self.by_pieces[us]));
        add(D_DOUBLE, count(zone & self.twice[them]));
        add(D_PRESSURE, count((front - zone) & self.once[them]));
        add(D_ESCAPES, count(around - pos.pieces_of(c) - self.once[them]));
        add(D_DEFENDERS, count(around & pos.pieces_of(c)));
        let open = around - pos.occupied();
        let supported = count(open & self.once[them]);
        let open = count(open);
        for (kind, n) in pos.hand(!c).iter() {
            let (k, n) = (kind.index(), n as i32);
            add(D_HAND + k, n);
            add(D_HAND_SUPPORTED + k, n * supported);
            add(D_HAND_OPEN + k, n * open);
        }
        let near = around.fold(zone, |b, s| b | attacks::king(s));
        for sq in near & pos.pieces_of(!c) {
            if let Some(p) = pos.piece_on(sq) {
                add(D_NEAR + p.kind().index(), 1);
            }
        }
    }

    /// Squares reached by `c`'s piece of mobility slot `slot` (all such pieces together).
    pub fn mobility(&self, c: Color, slot: usize) -> u32 {
        self.mobility[c.index()][slot]
    }

    /// Pieces of `c` that the enemy attacks and `c` does not defend.
    pub fn loose(&self, pos: &Position, c: Color) -> Bitboard {
        pos.pieces_of(c) & self.once[(!c).index()] & !self.once[c.index()]
    }
}
