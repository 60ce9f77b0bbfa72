//! What the picker and the search need to know of a move's kind: a capture, a quiescence move,
//! a useless non-promotion, and the MVV-LVA score of captures and promotions.

use crate::eval::{Value, capture_value, piece_value};
use crate::position::Position;
use crate::types::{Move, MoveKind, PieceKind};

/// True if `m` is a non-promotion that search never needs (pawn, bishop or rook that could
/// promote on this move).
pub fn is_useless_non_promotion(pos: &Position, m: Move) -> bool {
    let MoveKind::Normal { from, promote: false, .. } = m.kind() else {
        return false;
    };
    if !m.touches_zone(pos.side_to_move()) {
        return false;
    }
    matches!(pos.piece_on(from).map(|p| p.kind()), Some(PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook))
}

/// True if `m` captures.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_drop() && pos.piece_on(m.to()).is_some()
}

/// True if quiescence search tries `m` outside check: a capture, or a pawn's promotion.
///
/// Other pieces' non-capture promotions are left out, as YaneuraOu's quiescence leaves them out
/// (its `CAPTURES_PRO_PLUS` generator): a silver, lance, knight, bishop or rook that promotes
/// without capturing is a positional move, and every one in or entering the promotion zone is
/// one more branch at every quiescence ply. With an NNUE net trained on hisha's self-play labels
/// those branches grew `hisha bench 6` from 0.87 M to 20 M nodes (see `nnue/README.md`).
pub(super) fn is_quiescence_move(pos: &Position, m: Move) -> bool {
    is_capture(pos, m) || (m.is_promotion() && pos.moved_piece(m).is_some_and(|p| p.kind() == PieceKind::Pawn))
}

/// MVV-LVA score of a capture or promotion.
pub(super) fn mvv_lva(pos: &Position, m: Move) -> Value {
    let victim = pos.piece_on(m.to()).map_or(0, |p| capture_value(p.kind()));
    let attacker = pos.moved_piece(m).map_or(0, |p| piece_value(p.kind()));
    let promo = if m.is_promotion() { 300 } else { 0 };
    victim * 8 - attacker / 16 + promo
}
