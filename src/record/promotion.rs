//! The promotion rule the notations share: KI2 writes 成/不成 and Western notation `+`/`=` only
//! for a move that could have promoted.

use crate::position::Position;
use crate::types::{Move, MoveKind};

/// True if the board move `m` in `pos` could promote: a piece that promotes, moving from or into
/// the mover's zone. Drops never can.
pub(crate) fn could_promote(pos: &Position, m: Move) -> bool {
    let MoveKind::Normal { from, to, .. } = m.kind() else {
        return false;
    };
    let us = pos.side_to_move();
    pos.piece_on(from).is_some_and(|p| p.kind().can_promote()) && (from.rank().in_zone(us) || to.rank().in_zone(us))
}
