//! Checking moves: the legal generator's destination sets filtered in bulk, without making or
//! testing moves one by one. A move checks directly when the piece, as it stands after the move
//! (promoted or not), attacks the enemy king from its destination: the destination is in that
//! kind's check squares, the squares from which it would attack the king on the current board.
//! (The square it leaves never opens its own line to the king: had the line been open, the king
//! would already be in check with us to move.) A move discovers check when it takes one of our
//! pieces off the line between one of our sliders and the king.

use super::MoveSink;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Keeps only the checking moves of what the generator feeds it.
pub(super) struct CheckSink<'a, S: MoveSink> {
    pos: &'a Position,
    inner: &'a mut S,
    ksq: Square,
    /// Check squares per piece kind (index = kind).
    squares: [Bitboard; 14],
    /// Our pieces that alone shield the enemy king from one of our sliders.
    blockers: Bitboard,
}

impl<'a, S: MoveSink> CheckSink<'a, S> {
    /// A filter for the side to move in `pos` feeding `inner`, or `None` without an enemy king.
    pub(super) fn new(pos: &'a Position, inner: &'a mut S) -> Option<CheckSink<'a, S>> {
        let us = pos.side_to_move();
        let ksq = pos.king_square(!us)?;
        let occ = pos.occupied();
        let mut squares = [Bitboard::EMPTY; 14];
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                // Our `kind` on s attacks the king on ksq iff their `kind` on ksq attacks s.
                squares[kind.index()] = attacks::piece(!us, kind, ksq, occ);
            }
        }
        let blockers = pos.king_blockers(!us) & pos.pieces_of(us);
        Some(CheckSink { pos, inner, ksq, squares, blockers })
    }

    /// The moves to `to` that check because `from` leaves the line of one of our sliders.
    fn discovered(&self, from: Square, to: Bitboard) -> Bitboard {
        if self.blockers.has(from) { to - attacks::line(self.ksq, from) } else { Bitboard::EMPTY }
    }
}

impl<S: MoveSink> MoveSink for CheckSink<'_, S> {
    #[inline(always)]
    fn board(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        let Some(piece) = self.pos.piece_on(from) else { return };
        let kind = piece.kind();
        let promoted = kind.promoted().unwrap_or(kind);
        let plain = (plain & self.squares[kind.index()]) | self.discovered(from, plain);
        let promo = (promo & self.squares[promoted.index()]) | self.discovered(from, promo);
        if plain.is_nonempty() || promo.is_nonempty() {
            self.inner.board(from, plain, promo);
        }
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard) {
        self.inner.pawn_pushes(
            us,
            plain & self.squares[PieceKind::Pawn.index()],
            promo & self.squares[PieceKind::ProPawn.index()],
        );
        // A pushed pawn that was a blocker discovers check unless it stays on the line.
        for from in self.blockers & self.pos.pieces(us, PieceKind::Pawn) {
            let to = Bitboard::from_square(from);
            let to = match us {
                Color::Black => to.shift_up(),
                Color::White => to.shift_down(),
            };
            let disc_plain = self.discovered(from, to & plain) - self.squares[PieceKind::Pawn.index()];
            let disc_promo = self.discovered(from, to & promo) - self.squares[PieceKind::ProPawn.index()];
            if disc_plain.is_nonempty() || disc_promo.is_nonempty() {
                self.inner.board(from, disc_plain, disc_promo);
            }
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        let to = to & self.squares[kind.index()];
        if to.is_nonempty() {
            self.inner.drops(kind, to);
        }
    }
}
