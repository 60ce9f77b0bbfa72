//! Drops (rules.md §3): dead ranks, *nifu* and *uchifuzume*.

use super::MoveSink;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Feeds the legal drops onto `target` (empty squares, or the interposition squares in check).
#[inline(always)]
pub(super) fn generate<S: MoveSink>(pos: &Position, sink: &mut S, target: Bitboard) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    if hand.has(PieceKind::Pawn) {
        let nifu = pos.pieces(us, PieceKind::Pawn).fill_files();
        let mut t = target - Bitboard::dead_squares(us, PieceKind::Pawn) - nifu;
        if let Some(eksq) = pos.king_square(!us) {
            let front = attacks::pawn(!us, eksq) & t;
            if let Some(sq) = front.first() {
                if is_pawn_drop_mate(pos, us, sq, eksq) {
                    t = t.without(sq);
                }
            }
        }
        sink.drops(PieceKind::Pawn, t);
    }
    if hand.has(PieceKind::Lance) {
        sink.drops(PieceKind::Lance, target - Bitboard::dead_squares(us, PieceKind::Lance));
    }
    if hand.has(PieceKind::Knight) {
        sink.drops(PieceKind::Knight, target - Bitboard::dead_squares(us, PieceKind::Knight));
    }
    for kind in [PieceKind::Silver, PieceKind::Gold, PieceKind::Bishop, PieceKind::Rook] {
        if hand.has(kind) {
            sink.drops(kind, target);
        }
    }
}

/// True if `us` dropping a pawn on `to` (the square in front of the enemy king on `eksq`) would
/// checkmate: nothing but the king can take the pawn legally, and the king has no safe square.
pub(crate) fn is_pawn_drop_mate(pos: &Position, us: Color, to: Square, eksq: Square) -> bool {
    let them = !us;
    let occ = pos.occupied().with(to);
    let ours = pos.pieces_of(us);
    // 0. An unguarded pawn is simply taken by the king.
    if !pos.is_attacked(us, to, occ) {
        return false;
    }
    // 1. A capture by another piece is legal unless that piece was shielding the king from one of
    //    our sliders. The pawn on `to` gives the only check (a drop discovers nothing).
    let capturers = pos.attackers_to(them, to, occ).without(eksq);
    for from in capturers {
        let after = occ.without(from);
        let sliders = (attacks::bishop(eksq, after) & pos.bishop_movers())
            | (attacks::rook(eksq, after) & pos.rook_movers())
            | (attacks::lance(them, eksq, after) & pos.pieces_of_kind(PieceKind::Lance));
        if (sliders & ours).is_empty() {
            return false;
        }
    }
    // 2. King moves to squares our pieces do not attack once the king has left `eksq` (taking the
    //    pawn was ruled out above). The pawn only attacks `eksq`, so it adds no attacked square.
    let lifted = occ.without(eksq);
    for sq in attacks::king(eksq) - pos.pieces_of(them) - Bitboard::from_square(to) {
        if !pos.is_attacked(us, sq, lifted) {
            return false;
        }
    }
    true
}
