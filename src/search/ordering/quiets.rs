//! The quiet moves scored as the generator hands them out: one piece's moves (or one kind's
//! drops) come as a set of destinations, so what their scores share (the continuation key less
//! the destination, whether a non-promotion is useless, where the piece gives check) is worked
//! out once per set instead of from the board at every move.

use super::{SKIP, TIE_SLOTS};
use crate::movegen::{FixedList, MoveList, MoveSink, pawn_push_origin};
use crate::position::{CheckSquares, Position};
use crate::search::history::{PieceKeys, QuietScorer};
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Appends each quiet move to the picker's list and its ordering score to the scores: history
/// × [`TIE_SLOTS`] less its index among the quiet moves (ties keep generation order), or
/// [`SKIP`] for a move never to be handed out here (a useless non-promotion, or one of
/// `handed_out`). Where only quiet checks are wanted, the others are left out (their indices
/// stay taken, so that the checks' scores are those of the whole list).
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
    /// Set where only quiet checks are wanted: what tells them apart.
    checks: Option<CheckSquares>,
}

impl<'a> QuietSink<'a> {
    /// A sink that appends to `moves` and `scores` (of equal length).
    pub(super) fn new(
        pos: &'a Position,
        moves: &'a mut MoveList,
        scores: &'a mut FixedList<i32>,
        scorer: QuietScorer<'a>,
        handed_out: [Option<Move>; 4],
        checks: Option<CheckSquares>,
    ) -> QuietSink<'a> {
        let zone = Bitboard::far_ranks(pos.side_to_move(), 3);
        QuietSink { moves, scores, scorer, pos, handed_out, index: 0, zone, checks }
    }

    /// The moves to `targets` made by `make`, pieces of `kind` once moved (from `from`, or
    /// dropped), with the useless non-promotions among them: all of them, or only the checks.
    #[inline(always)]
    fn push_set(
        &mut self,
        (kind, from): (PieceKind, Option<Square>),
        targets: Bitboard,
        useless: Bitboard,
        keys: PieceKeys,
        make: impl Fn(Square) -> Move,
    ) {
        match self.checks {
            None => {
                for to in targets {
                    self.push(make(to), keys, to, useless.has(to));
                }
            }
            Some(checks) => {
                // A check's index is the set's first plus the targets before it.
                let first = self.index;
                for to in targets & checks.destinations(kind, from) {
                    self.index = first + (targets.0 & ((1u128 << to.index()) - 1)).count_ones() as i32;
                    self.push(make(to), keys, to, useless.has(to));
                }
                self.index = first + targets.count() as i32;
            }
        }
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
        let kind = piece.kind();
        let promoted = kind.promoted().unwrap_or(kind);
        let keys = PieceKeys::of(piece, true);
        self.push_set((promoted, Some(from)), promo, Bitboard::EMPTY, keys, |to| Move::normal(from, to, true));
        let useless = self.useless(kind, from, plain);
        let keys = PieceKeys::of(piece, false);
        self.push_set((kind, Some(from)), plain, useless, keys, |to| Move::normal(from, to, false));
    }

    #[inline(always)]
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard) {
        // Each pawn has its own origin, which matters only for an uncovered check: one at a time.
        let pawn = Piece::new(us, PieceKind::Pawn);
        let keys = PieceKeys::of(pawn, true);
        for to in promo {
            let from = pawn_push_origin(us, to);
            let make = |to| Move::normal(from, to, true);
            self.push_set((PieceKind::ProPawn, Some(from)), Bitboard::EMPTY.with(to), Bitboard::EMPTY, keys, make);
        }
        let keys = PieceKeys::of(pawn, false);
        for to in plain {
            let from = pawn_push_origin(us, to);
            let useless = self.zone & Bitboard::EMPTY.with(to);
            let make = |to| Move::normal(from, to, false);
            self.push_set((PieceKind::Pawn, Some(from)), Bitboard::EMPTY.with(to), useless, keys, make);
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        let keys = PieceKeys::of(Piece::new(self.pos.side_to_move(), kind), false);
        self.push_set((kind, None), to, Bitboard::EMPTY, keys, |sq| Move::drop(kind, sq));
    }
}
