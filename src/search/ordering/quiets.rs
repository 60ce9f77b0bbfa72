//! The quiet moves scored as the generator hands them out: one piece's moves (or one kind's
//! drops) come as a set of destinations, so what their scores share (the continuation key less
//! the destination, whether a non-promotion is useless) is worked out once per set instead of
//! from the board at every move.

use super::{SKIP, TIE_SLOTS};
use crate::movegen::{FixedList, MoveList, MoveSink, pawn_push_origin};
use crate::position::Position;
use crate::search::history::{PieceKeys, QuietScorer};
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Appends each quiet move to the picker's list and its ordering score to the scores: history
/// × [`TIE_SLOTS`] less its index among the quiet moves (ties keep generation order), or
/// [`SKIP`] for a move never to be handed out here (a useless non-promotion, or one of
/// `handed_out`).
pub(super) struct QuietSink<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut FixedList<i32>,
    scorer: QuietScorer<'a>,
    pos: &'a Position,
    /// Moves handed out before the quiet stage (the table move, killers and counter move).
    handed_out: [Option<Move>; 4],
    /// The index of the next quiet move.
    index: i32,
    /// The side to move's promotion zone.
    zone: Bitboard,
}

impl<'a> QuietSink<'a> {
    /// A sink that appends to `moves` and `scores` (of equal length).
    pub(super) fn new(
        pos: &'a Position,
        moves: &'a mut MoveList,
        scores: &'a mut FixedList<i32>,
        scorer: QuietScorer<'a>,
        handed_out: [Option<Move>; 4],
    ) -> QuietSink<'a> {
        let zone = Bitboard::far_ranks(pos.side_to_move(), 3);
        QuietSink { moves, scores, scorer, pos, handed_out, index: 0, zone }
    }

    #[inline(always)]
    fn push(&mut self, m: Move, keys: PieceKeys, to: Square, useless: bool) {
        let score = if useless || self.handed_out.contains(&Some(m)) {
            SKIP
        } else {
            self.scorer.score(m, keys.to(to)) * TIE_SLOTS - self.index
        };
        self.index += 1;
        self.moves.push(m);
        self.scores.push(score);
    }

    /// The non-promotions of `kind` from `from` to `plain` that the search never needs: a pawn,
    /// bishop or rook that could promote on the move ([`super::is_useless_non_promotion`]).
    #[inline(always)]
    fn useless(&self, kind: PieceKind, from: Square, plain: Bitboard) -> Bitboard {
        match kind {
            PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook if self.zone.has(from) => plain,
            PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook => plain & self.zone,
            _ => Bitboard::EMPTY,
        }
    }
}

impl MoveSink for QuietSink<'_> {
    #[inline(always)]
    fn board(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        let Some(piece) = self.pos.piece_on(from) else { return };
        let keys = PieceKeys::of(piece, true);
        for to in promo {
            self.push(Move::normal(from, to, true), keys, to, false);
        }
        let keys = PieceKeys::of(piece, false);
        let useless = self.useless(piece.kind(), from, plain);
        for to in plain {
            self.push(Move::normal(from, to, false), keys, to, useless.has(to));
        }
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard) {
        let pawn = Piece::new(us, PieceKind::Pawn);
        let keys = PieceKeys::of(pawn, true);
        for to in promo {
            self.push(Move::normal(pawn_push_origin(us, to), to, true), keys, to, false);
        }
        let keys = PieceKeys::of(pawn, false);
        for to in plain {
            self.push(Move::normal(pawn_push_origin(us, to), to, false), keys, to, self.zone.has(to));
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        let keys = PieceKeys::of(Piece::new(self.pos.side_to_move(), kind), false);
        for sq in to {
            self.push(Move::drop(kind, sq), keys, sq, false);
        }
    }
}
