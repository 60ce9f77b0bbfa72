//! Whether the defender has a legal reply to one checking move, decided on the board as it would
//! be after the move, without playing it: the occupancy after the move, our pieces that stayed,
//! the moved piece on its new square, and the defender's pieces less the one it captured.
//!
//! A legal reply to a check is a king move to a square we do not attack once the king has left
//! its square, or, against a single checker, a capture of the checker or (against a distant one)
//! an interposition by a board move or a drop, each legal only if no piece of ours then attacks
//! the king (which rules out moving a pinned piece off its line, whoever pinned it: a piece of
//! ours that stayed or the moved one). Every test is exact but one, which errs towards "a reply
//! exists": an interposing pawn drop that would mate our king (uchifuzume, so illegal) counts as
//! a reply.

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// The position after one move of ours (the side to move), seen from the occupancy and pieces
/// that changed.
pub(super) struct After<'a> {
    pub(super) pos: &'a Position,
    /// The side that moved (the attacker).
    pub(super) us: Color,
    /// The defender's king.
    pub(super) ek: Square,
    /// Occupancy after the move.
    pub(super) occ: Bitboard,
    /// Our pieces that did not move.
    pub(super) rest: Bitboard,
    /// Where the moved (or dropped) piece stands.
    pub(super) to: Square,
    /// Its kind there (promoted if it promoted).
    pub(super) kind: PieceKind,
}

impl After<'_> {
    /// Our pieces that attack `sq` given the occupancy `occ`.
    #[inline(always)]
    fn our_attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let stayed = self.pos.attackers_to(self.us, sq, occ) & self.rest;
        if attacks::attacks_square(self.us, self.kind, self.to, sq, occ) { stayed.with(self.to) } else { stayed }
    }

    /// The defender's pieces other than the king that can move to `sq` (every piece moves where
    /// it attacks), given the occupancy `occ`. The piece we captured on `to` is gone.
    #[inline(always)]
    fn their_movers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (self.pos.attackers_to(!self.us, sq, occ).without(self.ek)).without(self.to)
    }

    /// Our pieces giving check after the move.
    #[inline(always)]
    pub(super) fn checkers(&self) -> Bitboard {
        self.our_attackers(self.ek, self.occ)
    }

    /// True if the defender, in check from `checkers` (nonempty), has a legal move.
    pub(super) fn has_reply(&self, checkers: Bitboard) -> bool {
        let them = !self.us;
        let theirs = self.pos.pieces_of(them).without(self.to);
        let lifted = self.occ.without(self.ek);
        let around = attacks::king(self.ek) - theirs;
        // The checker's square first: a contact check is most often refuted by the king taking it.
        if around.has(self.to) && self.our_attackers(self.to, lifted).is_empty() {
            return true;
        }
        let single = if checkers.has_more_than_one() { None } else { checkers.first() };
        // Then a capture of the moved piece, the only checker, by a piece that shields the king
        // from no slider of ours that stayed (the exact test below settles the others): a few
        // bit tests, before the king's squares, which cost an attack computation each.
        let mut takers = None;
        if let Some(checker) = single.filter(|&c| c == self.to) {
            let movers = self.their_movers(checker, self.occ);
            let shields = self.slider_lines();
            if movers.into_iter().any(|t| !shields.has(t)) {
                return true;
            }
            takers = Some(movers);
        }
        for sq in around.without(self.to) {
            if self.our_attackers(sq, lifted).is_empty() {
                return true;
            }
        }
        let Some(checker) = single else {
            return checkers.is_empty();
        };
        // Take the checker: legal unless the taker shielded the king from another piece of ours.
        for taker in takers.unwrap_or_else(|| self.their_movers(checker, self.occ)) {
            if self.our_attackers(self.ek, self.occ.without(taker)).without(checker).is_empty() {
                return true;
            }
        }
        let gap = attacks::between(self.ek, checker);
        if gap.is_empty() {
            return false;
        }
        if (gap & self.drop_squares()).is_nonempty() {
            return true;
        }
        for sq in gap {
            let blocked = self.occ.with(sq);
            for blocker in self.their_movers(sq, self.occ) {
                if self.our_attackers(self.ek, blocked.without(blocker)).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// The squares between the defender's king and each slider of ours that stayed and stands
    /// on one of the king's lines (empty-board lines: a superset of the squares whose piece may
    /// shield the king), plus those sliders' squares.
    #[inline(always)]
    fn slider_lines(&self) -> Bitboard {
        let pos = self.pos;
        let aligned = ((attacks::rook_pseudo(self.ek) & pos.rook_movers())
            | (attacks::bishop_pseudo(self.ek) & pos.bishop_movers())
            | (attacks::lance_pseudo(!self.us, self.ek) & pos.pieces_of_kind(PieceKind::Lance)))
            & self.rest;
        let mut lines = aligned;
        for s in aligned {
            lines |= attacks::between(self.ek, s);
        }
        lines
    }

    /// The squares where the defender may drop a piece from its hand (occupied squares included:
    /// the caller asks only about empty ones). A pawn drop is counted wherever the pawn rules
    /// allow it (the file holds no unpromoted pawn of the defender after our move, not its last
    /// rank), even where it would mate our king.
    fn drop_squares(&self) -> Bitboard {
        let them = !self.us;
        let hand = self.pos.hand(them);
        if hand.is_empty() {
            return Bitboard::EMPTY;
        }
        if [PieceKind::Silver, PieceKind::Gold, PieceKind::Bishop, PieceKind::Rook].iter().any(|&k| hand.has(k)) {
            return Bitboard::ALL;
        }
        let mut squares = Bitboard::EMPTY;
        for kind in [PieceKind::Lance, PieceKind::Knight] {
            if hand.has(kind) {
                squares |= Bitboard::ALL - Bitboard::dead_squares(them, kind);
            }
        }
        if hand.has(PieceKind::Pawn) {
            let pawns = self.pos.pieces(them, PieceKind::Pawn).without(self.to);
            squares |= Bitboard::ALL - Bitboard::dead_squares(them, PieceKind::Pawn) - pawns.fill_files();
        }
        squares
    }
}
