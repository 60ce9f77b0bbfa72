//! Single moves: checking a move that arrives from outside (USI, records) against every rule and
//! naming the one it breaks, playing it, and whether a move gives check.
//!
//! These are the position's own rules; generating all moves is `movegen`'s job, which asks
//! [`Position::is_pawn_drop_mate`] from here (position never imports movegen).

use super::{IllegalMoveKind, Position};
use crate::attacks;
use crate::types::{Bitboard, Move, MoveKind, ParseMoveError, Piece, PieceKind, Square, UsiMove};

/// A move text that is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not USI move syntax.
    #[error(transparent)]
    Syntax(#[from] ParseMoveError),
    /// Well-formed but illegal here.
    #[error("illegal move {mv}: {kind}")]
    Illegal {
        /// The move as written.
        mv: UsiMove,
        /// The rule it breaks.
        kind: IllegalMoveKind,
    },
}

impl Position {
    /// Checks a move against every rule, naming the first one it breaks.
    pub(crate) fn check_move(&self, m: Move) -> Result<(), IllegalMoveKind> {
        let us = self.side_to_move();
        let ksq = self.king_square(us);
        match m.kind() {
            MoveKind::Drop { kind, to } => {
                if !self.hand(us).has(kind) {
                    return Err(IllegalMoveKind::NotInHand);
                }
                if self.piece_on(to).is_some() {
                    return Err(IllegalMoveKind::DropOnOccupied);
                }
                if Bitboard::dead_squares(us, kind).has(to) {
                    return Err(IllegalMoveKind::DeadPiece);
                }
                if kind == PieceKind::Pawn
                    && (self.pieces(us, PieceKind::Pawn) & Bitboard::file(to.file().index())).is_nonempty()
                {
                    return Err(IllegalMoveKind::Nifu);
                }
                let checkers = self.checkers();
                if let (Some(c), Some(k)) = (checkers.first(), ksq) {
                    if checkers.has_more_than_one() || !attacks::between(k, c).has(to) {
                        return Err(IllegalMoveKind::LeavesKingInCheck);
                    }
                }
                if kind == PieceKind::Pawn {
                    if let Some(eksq) = self.king_square(!us) {
                        if attacks::pawn(us, to).has(eksq) && self.is_pawn_drop_mate(to, eksq) {
                            return Err(IllegalMoveKind::Uchifuzume);
                        }
                    }
                }
                Ok(())
            }
            MoveKind::Normal { from, to, promote } => {
                let piece = self.piece_on(from).ok_or(IllegalMoveKind::NoPiece)?;
                if piece.color() != us {
                    return Err(IllegalMoveKind::NotYourPiece);
                }
                if self.piece_on(to).is_some_and(|p| p.color() == us) {
                    return Err(IllegalMoveKind::CaptureOwnPiece);
                }
                if !self.attacks_from(piece, from).has(to) {
                    return Err(IllegalMoveKind::CannotReach);
                }
                let kind = piece.kind();
                if promote {
                    if !kind.can_promote() || !m.touches_zone(us) {
                        return Err(IllegalMoveKind::CannotPromote);
                    }
                } else if Bitboard::dead_squares(us, kind).has(to) {
                    return Err(IllegalMoveKind::DeadPiece);
                }
                let Some(k) = ksq else { return Ok(()) };
                if kind == PieceKind::King {
                    let occ = self.occupied().without(from);
                    if self.is_attacked(!us, to, occ) {
                        return Err(IllegalMoveKind::LeavesKingInCheck);
                    }
                    return Ok(());
                }
                if self.pinned().has(from) && !attacks::aligned(k, from, to) {
                    return Err(IllegalMoveKind::LeavesKingInCheck);
                }
                let checkers = self.checkers();
                if let Some(c) = checkers.first() {
                    if checkers.has_more_than_one() || !(attacks::between(k, c).with(c)).has(to) {
                        return Err(IllegalMoveKind::LeavesKingInCheck);
                    }
                }
                Ok(())
            }
        }
    }

    /// True if `m` is legal here.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Parses a USI move and checks it is legal here.
    ///
    /// ```
    /// use hisha::Position;
    /// let pos = Position::startpos();
    /// assert!(pos.parse_usi_move("7g7f").is_ok());
    /// assert_eq!(pos.parse_usi_move("7g7e").unwrap_err().to_string(), "illegal move 7g7e: the piece cannot move there");
    /// ```
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, MoveError> {
        let usi: UsiMove = text.parse()?;
        let m = usi.to_move();
        self.check_move(m).map_err(|kind| MoveError::Illegal { mv: usi, kind })?;
        Ok(m)
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and names the rule.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveKind> {
        self.check_move(m)?;
        self.do_move(m);
        Ok(())
    }

    /// True if the legal move `m` gives check (directly or by discovery).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let Some(eksq) = self.king_square(!us) else {
            return false;
        };
        match m.kind() {
            MoveKind::Drop { kind, to } => attacks::attacks_square(us, kind, to, eksq, self.occupied()),
            MoveKind::Normal { from, to, promote } => {
                let Some(p) = self.piece_on(from) else {
                    return false;
                };
                let kind = p.kind().after_move(promote);
                let after = self.occupied().without(from).with(to);
                if attacks::attacks_square(us, kind, to, eksq, after) {
                    return true;
                }
                // A discovered check comes from one of our sliders behind `from`, on the one line
                // through the king and `from`, and only if the piece leaves that line.
                let line = attacks::line(eksq, from);
                if line.is_empty() || line.has(to) {
                    return false;
                }
                let ours = self.pieces_of(us).without(from);
                let sliders = (attacks::bishop(eksq, after) & self.bishop_movers())
                    | (attacks::rook(eksq, after) & self.rook_movers())
                    | (attacks::lance(!us, eksq, after) & self.pieces_of_kind(PieceKind::Lance));
                (sliders & ours).is_nonempty()
            }
        }
    }

    /// The piece that `m` moves (for a drop, the dropped piece), if there is one.
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::Drop { kind, .. } => Some(Piece::new(self.side_to_move(), kind)),
            MoveKind::Normal { from, .. } => self.piece_on(from),
        }
    }

    /// True if the side to move dropping a pawn on `to` (the square in front of the enemy king on
    /// `eksq`) would checkmate (*uchifuzume*): nothing but the king can take the pawn legally, and
    /// the king has no safe square. Move generation asks this too.
    pub(crate) fn is_pawn_drop_mate(&self, to: Square, eksq: Square) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let occ = self.occupied().with(to);
        let ours = self.pieces_of(us);
        // 0. An unguarded pawn is simply taken by the king.
        if !self.is_attacked(us, to, occ) {
            return false;
        }
        // 1. A capture by another piece is legal unless that piece was shielding the king from one
        //    of our sliders. The pawn on `to` gives the only check (a drop discovers nothing).
        let capturers = self.attackers_to(them, to, occ).without(eksq);
        for from in capturers {
            let after = occ.without(from);
            let sliders = (attacks::bishop(eksq, after) & self.bishop_movers())
                | (attacks::rook(eksq, after) & self.rook_movers())
                | (attacks::lance(them, eksq, after) & self.pieces_of_kind(PieceKind::Lance));
            if (sliders & ours).is_empty() {
                return false;
            }
        }
        // 2. King moves to squares our pieces do not attack once the king has left `eksq` (taking
        //    the pawn was ruled out above). The pawn only attacks `eksq`, so it adds no attacked
        //    square.
        let lifted = occ.without(eksq);
        for sq in attacks::king(eksq) - self.pieces_of(them) - Bitboard::from_square(to) {
            if !self.is_attacked(us, sq, lifted) {
                return false;
            }
        }
        true
    }
}
