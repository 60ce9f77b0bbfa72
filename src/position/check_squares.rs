//! Check squares: for one position, where each kind of the side to move's pieces would stand to
//! attack the enemy king, and which of its pieces shield the king from one of its sliders. Built
//! once, they answer [`Position::gives_check`] for many moves with a bit test or two (as
//! YaneuraOu's `checkSquares` and `blockersForKing` do); the move picker uses them where it asks
//! about a long list of moves.

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Move, MoveKind, PieceKind, Square};

/// The squares from which each piece kind of the side to move gives check, and its pieces whose
/// leaving a line through the enemy king uncovers a check. See [`Position::check_squares`].
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    king: Option<Square>,
    by_kind: [Bitboard; PieceKind::NUM],
    discoverers: Bitboard,
}

impl Position {
    /// The check squares of the side to move, for [`CheckSquares::gives_check`].
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let mut by_kind = [Bitboard::EMPTY; PieceKind::NUM];
        let Some(eksq) = self.king_square(!us) else {
            return CheckSquares { king: None, by_kind, discoverers: Bitboard::EMPTY };
        };
        // A piece of ours of a kind attacks the king from exactly the squares that the same kind
        // of the king's colour attacks from the king's square. Each slider's lines are worked
        // out once: the horse and dragon add the king's steps, the promoted minors move as golds.
        let occ = self.occupied();
        let them = !us;
        let (gold, bishop, rook, steps) =
            (attacks::gold(them, eksq), attacks::bishop(eksq, occ), attacks::rook(eksq, occ), attacks::king(eksq));
        for kind in PieceKind::ALL {
            by_kind[kind.index()] = match kind {
                PieceKind::Pawn => attacks::pawn(them, eksq),
                PieceKind::Lance => attacks::lance(them, eksq, occ),
                PieceKind::Knight => attacks::knight(them, eksq),
                PieceKind::Silver => attacks::silver(them, eksq),
                PieceKind::Bishop => bishop,
                PieceKind::Rook => rook,
                PieceKind::King => Bitboard::EMPTY,
                PieceKind::Horse => bishop | steps,
                PieceKind::Dragon => rook | steps,
                _ => gold,
            };
        }
        let discoverers = self.king_blockers(!us) & self.pieces_of(us);
        CheckSquares { king: Some(eksq), by_kind, discoverers }
    }
}

impl CheckSquares {
    /// The destinations from which a move of the piece on `from` (a drop if `None`), of kind
    /// `kind` once moved (promoted if it promotes), gives check: those it attacks the king from,
    /// and every square off its line to the king where its leaving uncovers a check.
    #[inline(always)]
    pub fn destinations(&self, kind: PieceKind, from: Option<Square>) -> Bitboard {
        let Some(eksq) = self.king else {
            return Bitboard::EMPTY;
        };
        let direct = self.by_kind[kind.index()];
        match from {
            Some(from) if self.discoverers.has(from) => direct | !attacks::line(eksq, from),
            _ => direct,
        }
    }

    /// True if `m`, a legal move of the position these were built for, gives check: the same
    /// answer as [`Position::gives_check`], cheaper once the squares are built. The one-move
    /// form of [`CheckSquares::destinations`] (written out: built on it, a search took 0.5 %
    /// more instructions).
    #[inline(always)]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(eksq) = self.king else {
            return false;
        };
        match m.kind() {
            MoveKind::Drop { kind, to } => self.by_kind[kind.index()].has(to),
            MoveKind::Normal { from, to, promote } => {
                let Some(p) = pos.piece_on(from) else {
                    return false;
                };
                let kind = p.kind().after_move(promote);
                // With the king not in check before the move, the square the piece leaves never
                // opens the moved piece's own line to the king (it would have attacked it already).
                self.by_kind[kind.index()].has(to) || (self.discoverers.has(from) && !attacks::line(eksq, from).has(to))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::position::handicap::Handicap;
    use crate::position::tests::random_playout;
    use crate::types::MoveKind;
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn check_squares_answer_as_gives_check_for_every_legal_move() {
        // Random playouts from the 16 handicap starts: every legal move, each way of asking (one
        // move, or the destinations of its piece).
        let mut rng = StdRng::seed_from_u64(134);
        let (mut moves, mut checks) = (0, 0);
        for h in Handicap::ALL {
            for _ in 0..20 {
                random_playout(&Position::handicap(h), &mut rng, 160, |pos| {
                    let squares = pos.check_squares();
                    for &m in pos.legal_moves().iter() {
                        let expected = pos.gives_check(m);
                        assert_eq!(squares.gives_check(pos, m), expected, "{m} in {}", pos.to_sfen());
                        let (kind, from) = match m.kind() {
                            MoveKind::Drop { kind, .. } => (kind, None),
                            MoveKind::Normal { from, promote, .. } => {
                                (pos.piece_on(from).expect("a piece").kind().after_move(promote), Some(from))
                            }
                        };
                        assert_eq!(squares.destinations(kind, from).has(m.to()), expected, "{m} in {}", pos.to_sfen());
                        moves += 1;
                        checks += expected as usize;
                    }
                });
            }
        }
        assert!(checks > 1_000, "{checks} checks among {moves} moves");
    }
}
