//! Terms that need attack maps: king danger (enemy control of the squares around a king, weak
//! squares there, double attacks, escape squares, drops the enemy holds), slider mobility, and
//! threats against pieces that are attacked but not defended.

use super::{Value, piece_value};
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind};

/// Squares each color attacks once or more, twice or more, and with pieces other than its king.
pub struct AttackMaps {
    once: [Bitboard; 2],
    twice: [Bitboard; 2],
    by_pieces: [Bitboard; 2],
}

impl AttackMaps {
    /// The maps of `pos`.
    pub fn new(pos: &Position) -> AttackMaps {
        let occ = pos.occupied();
        let mut m =
            AttackMaps { once: [Bitboard::EMPTY; 2], twice: [Bitboard::EMPTY; 2], by_pieces: [Bitboard::EMPTY; 2] };
        for c in Color::ALL {
            let i = c.index();
            for sq in pos.pieces_of(c) {
                let Some(p) = pos.piece_on(sq) else { continue };
                let a = attacks::piece(c, p.kind(), sq, occ);
                m.twice[i] |= m.once[i] & a;
                m.once[i] |= a;
                if p.kind() != PieceKind::King {
                    m.by_pieces[i] |= a;
                }
            }
        }
        m
    }

    /// How much danger `c`'s king is in (a penalty for `c`), growing with the square of the
    /// attack units.
    pub fn king_danger(&self, pos: &Position, c: Color) -> Value {
        let Some(ksq) = pos.king_square(c) else {
            return 0;
        };
        let (us, them) = (c.index(), (!c).index());
        let around = attacks::king(ksq);
        let zone = around.with(ksq);
        // The ring the enemy attacks from: the zone plus one more rank in front of the king.
        let front = attacks::gold(c, ksq) | around.fold(Bitboard::EMPTY, |b, s| b | attacks::pawn(c, s));
        let attacked = (zone & self.once[them]).count() as Value;
        let weak = (zone & self.once[them] & !self.by_pieces[us]).count() as Value;
        let double = (zone & self.twice[them]).count() as Value;
        let pressure = ((front - zone) & self.once[them]).count() as Value;
        let escapes = (around - pos.pieces_of(c) - self.once[them]).count() as Value;
        let hand = pos.hand(!c);
        let droppers = 3 * hand.count(PieceKind::Gold) as Value
            + 3 * hand.count(PieceKind::Silver) as Value
            + 4 * hand.count(PieceKind::Rook) as Value
            + 3 * hand.count(PieceKind::Bishop) as Value
            + 2 * hand.count(PieceKind::Knight) as Value
            + hand.count(PieceKind::Lance) as Value
            + (hand.count(PieceKind::Pawn) as Value).min(1);
        // Empty squares next to the king that the enemy controls: drops there come with support.
        let supported_drops = (around - pos.occupied()) & self.once[them];
        let units = 9 * attacked
            + 14 * weak
            + 10 * double
            + 4 * pressure
            + droppers * (2 + 3 * supported_drops.count() as Value)
            - 6 * escapes;
        let units = units.max(0);
        units * units / 64
    }

    /// Mobility of `c`'s long-range pieces.
    pub fn mobility(&self, pos: &Position, c: Color) -> Value {
        let occ = pos.occupied();
        let free = !pos.pieces_of(c);
        let mut v = 0;
        for (kind, w) in [
            (PieceKind::Rook, 3),
            (PieceKind::Dragon, 3),
            (PieceKind::Bishop, 4),
            (PieceKind::Horse, 3),
            (PieceKind::Lance, 1),
        ] {
            for sq in pos.pieces(c, kind) {
                v += w * (attacks::piece(c, kind, sq, occ) & free).count() as Value;
            }
        }
        v
    }

    /// Threats from the side to move's point of view: enemy pieces it attacks that are
    /// undefended, minus its own such pieces (weighted less: it is its move).
    pub fn threats(&self, pos: &Position, us: Color) -> Value {
        let hanging = |c: Color| -> Value {
            let loose = pos.pieces_of(c) & self.once[(!c).index()] & !self.once[c.index()];
            loose.filter_map(|sq| pos.piece_on(sq)).map(|p| piece_value(p.kind())).max().unwrap_or(0)
        };
        hanging(!us) / 8 - hanging(us) / 4
    }
}
