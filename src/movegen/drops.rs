//! Drops (rules.md §3): dead ranks, *nifu* and *uchifuzume*.

use super::MoveSink;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, PieceKind};

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
                if pos.is_pawn_drop_mate(sq, eksq) {
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
