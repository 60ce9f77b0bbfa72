//! King moves (rules.md §4): every square next to the king that the opponent does not attack
//! once the king has left its square.
//!
//! Instead of asking "is this square attacked?" once per destination, the attacked squares around
//! the king are found in one pass over the few enemy pieces that could reach them: step pieces
//! standing close by, and sliders whose empty-board lines cross the neighbourhood. In most
//! positions both sets are empty or tiny.

use super::{MoveSink, QUIETS};
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Feeds the legal king moves of the side to move (king on `ksq`).
#[inline(always)]
pub(super) fn king_moves<S: MoveSink, const MODE: u8>(
    pos: &Position,
    sink: &mut S,
    ksq: Square,
    ours: Bitboard,
    theirs: Bitboard,
) {
    let t = attacks::king(ksq) - ours;
    let t = match MODE {
        super::CAPTURES | super::QUIESCENCE => t & theirs,
        QUIETS => t - theirs,
        _ => t,
    };
    if t.is_empty() {
        return;
    }
    let safe = t - danger(pos, !pos.side_to_move(), ksq, theirs);
    if safe.is_nonempty() {
        sink.board(ksq, safe, Bitboard::EMPTY);
    }
}

/// The squares next to `ksq` (and maybe others) that `them` attacks with the king on `ksq` lifted
/// off the board, so that no square behind the king along a checking line looks safe.
#[inline(always)]
pub(crate) fn danger(pos: &Position, them: Color, ksq: Square, theirs: Bitboard) -> Bitboard {
    let occ = pos.occupied().without(ksq);
    let near = theirs & attacks::step_reach(them, ksq);
    let mut danger = Bitboard::EMPTY;
    if near.is_nonempty() {
        for from in near & pos.pieces_of_kind(PieceKind::Pawn) {
            danger |= attacks::pawn(them, from);
        }
        for from in near & pos.pieces_of_kind(PieceKind::Knight) {
            danger |= attacks::knight(them, from);
        }
        for from in near & pos.pieces_of_kind(PieceKind::Silver) {
            danger |= attacks::silver(them, from);
        }
        for from in near & pos.gold_movers() {
            danger |= attacks::gold(them, from);
        }
        for from in near & pos.king_movers() {
            danger |= attacks::king(from);
        }
    }
    // Sliders, near or far (a near horse or dragon has had its one-step moves added above).
    for from in theirs & pos.bishop_movers() & attacks::bishop_reach(ksq) {
        danger |= attacks::bishop(from, occ);
    }
    for from in theirs & pos.rook_movers() & attacks::rook_reach(ksq) {
        danger |= attacks::rook(from, occ);
    }
    for from in theirs & pos.pieces_of_kind(PieceKind::Lance) & attacks::lance_reach(them, ksq) {
        danger |= attacks::lance(them, from, occ);
    }
    danger
}
