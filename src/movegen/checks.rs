//! Moves that give check (for the mate solver's attacking side), found with bitboards: the
//! legal moves are generated as usual and every destination set is cut down to the squares from
//! which the moved (or promoted, or dropped) piece attacks the enemy king, plus every square off
//! the line for a piece that uncovers one of our sliders. Order is generation order.
//!
//! Why the direct-check squares can be computed once, before any move: a piece attacks the king
//! from `to` iff the king, standing on its square as a piece of the other colour and kind, would
//! attack `to`; the occupancy that matters is unchanged by the move except for `from`, and `from`
//! can only lie between `to` and the king if the piece was already on that line, blocked (else the
//! side not to move would be in check), by a blocker that is still there.

use super::MoveSink;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Passes on only the checking moves of what it is fed.
pub(super) struct CheckSink<'a, S: MoveSink> {
    inner: &'a mut S,
    pos: &'a Position,
    eksq: Square,
    /// Per kind of ours, the squares from which it attacks the enemy king.
    direct: [Bitboard; PieceKind::NUM],
    /// Our pieces whose move off their line to the enemy king uncovers one of our sliders.
    discoverers: Bitboard,
}

impl<'a, S: MoveSink> CheckSink<'a, S> {
    /// A filter for the side to move's checks, or `None` if the opponent has no king (nothing
    /// can give check).
    pub(super) fn new(pos: &'a Position, inner: &'a mut S) -> Option<CheckSink<'a, S>> {
        let us = pos.side_to_move();
        let them = !us;
        let eksq = pos.king_square(them)?;
        let occ = pos.occupied();
        let mut direct = [Bitboard::EMPTY; PieceKind::NUM];
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                direct[kind.index()] = attacks::piece(them, kind, eksq, occ);
            }
        }
        let discoverers = pos.king_blockers(them) & pos.pieces_of(us);
        Some(CheckSink { inner, pos, eksq, direct, discoverers })
    }

    /// The squares a piece leaving `from` may go to and uncover a check: off its line to the king.
    #[inline(always)]
    fn uncovering(&self, from: Square) -> Bitboard {
        if self.discoverers.has(from) { !attacks::line(self.eksq, from) } else { Bitboard::EMPTY }
    }
}

impl<S: MoveSink> MoveSink for CheckSink<'_, S> {
    #[inline(always)]
    fn board(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        let Some(p) = self.pos.piece_on(from) else { return };
        let kind = p.kind();
        let open = self.uncovering(from);
        let promoted = kind.promoted().unwrap_or(kind);
        let plain = plain & (self.direct[kind.index()] | open);
        let promo = promo & (self.direct[promoted.index()] | open);
        if (plain | promo).is_nonempty() {
            self.inner.board(from, plain, promo);
        }
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard) {
        let mut open = Bitboard::EMPTY;
        for from in self.discoverers & self.pos.pieces(us, PieceKind::Pawn) {
            open |= attacks::pawn(us, from) & self.uncovering(from);
        }
        let plain = plain & (self.direct[PieceKind::Pawn.index()] | open);
        let promo = promo & (self.direct[PieceKind::ProPawn.index()] | open);
        self.inner.pawn_pushes(us, plain, promo);
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        let to = to & self.direct[kind.index()];
        if to.is_nonempty() {
            self.inner.drops(kind, to);
        }
    }
}
