//! The contact mate in one, cheap enough for every node of a search: one pass over our pieces
//! that reach the squares around the enemy king finds which of those squares we attack (once,
//! and twice or more), and only moves onto a square around the king that something else of ours
//! also guards, drops there, and checks from a knight's square are tried (a checker next to the
//! king that nothing else guards is taken by the king).

use super::{Siege, contact_checks, targets};
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// The squares around the enemy king that our pieces attack, and which pieces do.
struct Cover {
    /// Attacked by at least one of our pieces.
    once: Bitboard,
    /// Attacked by at least two.
    twice: Bitboard,
    /// Our pieces other than the king that may move onto a square around the king.
    touching: Bitboard,
}

impl Cover {
    /// Counts the attacks `a` of our piece on `from` onto `around`.
    #[inline(always)]
    fn add(&mut self, from: Square, a: Bitboard, around: Bitboard, ours: Bitboard) {
        let a = a & around;
        self.twice |= self.once & a;
        self.once |= a;
        if (a - ours).is_nonempty() {
            self.touching |= Bitboard::EMPTY.with(from);
        }
    }
}

/// Our cover of the squares around `ek` (our king's attacks count; the king is not a mover).
fn cover(pos: &Position, us: Color, ek: Square, occ: Bitboard, ours: Bitboard) -> Cover {
    let around = attacks::king(ek);
    let mut c = Cover { once: Bitboard::EMPTY, twice: Bitboard::EMPTY, touching: Bitboard::EMPTY };
    let near = ours & attacks::step_reach(us, ek);
    if near.is_nonempty() {
        for from in near & pos.pieces_of_kind(PieceKind::Pawn) {
            c.add(from, attacks::pawn(us, from), around, ours);
        }
        for from in near & pos.pieces_of_kind(PieceKind::Knight) {
            c.add(from, attacks::knight(us, from), around, ours);
        }
        for from in near & pos.pieces_of_kind(PieceKind::Silver) {
            c.add(from, attacks::silver(us, from), around, ours);
        }
        for from in near & pos.gold_movers() {
            c.add(from, attacks::gold(us, from), around, ours);
        }
        if let Some(k) = pos.king_square(us).filter(|&k| near.has(k)) {
            let a = attacks::king(k) & around;
            c.twice |= c.once & a;
            c.once |= a;
        }
    }
    // Sliders, near or far (a horse or dragon near the king counts once, with all its moves).
    let reach = |lines: Bitboard| ours & (lines | near);
    for from in reach(attacks::bishop_reach(ek)) & pos.pieces_of_kind(PieceKind::Bishop) {
        c.add(from, attacks::bishop(from, occ), around, ours);
    }
    for from in reach(attacks::bishop_reach(ek)) & pos.pieces_of_kind(PieceKind::Horse) {
        c.add(from, attacks::horse(from, occ), around, ours);
    }
    for from in reach(attacks::rook_reach(ek)) & pos.pieces_of_kind(PieceKind::Rook) {
        c.add(from, attacks::rook(from, occ), around, ours);
    }
    for from in reach(attacks::rook_reach(ek)) & pos.pieces_of_kind(PieceKind::Dragon) {
        c.add(from, attacks::dragon(from, occ), around, ours);
    }
    for from in ours & pos.pieces_of_kind(PieceKind::Lance) & attacks::lance_reach(us, ek) {
        c.add(from, attacks::lance(us, from, occ), around, ours);
    }
    c
}

/// The first contact mate in one found (see [`super::mate_in_one_by_contact`]): drops, moves
/// onto the squares around the king, then moves to a knight's square.
pub(super) fn find(pos: &Position) -> Option<Move> {
    let us = pos.side_to_move();
    let them = !us;
    let ek = pos.king_square(them)?;
    let (occ, ours) = (pos.occupied(), pos.pieces_of(us));
    let around = attacks::king(ek);
    // In double check only our king may move: none of its moves lands next to the enemy king.
    let (target, drop_target) = targets(pos, ours).unwrap_or((Bitboard::EMPTY, Bitboard::EMPTY));
    // No piece of ours attacks the enemy king now (it is our move), so our attacks on its
    // neighbours are the same with the king lifted off its square.
    let cover = cover(pos, us, ek, occ, ours);
    let free = around - pos.pieces_of(them) - cover.once;
    let siege = Siege { pos, us, ek, occ, ours, free };
    let checks = &contact_checks()[them.index()];
    let check_squares = |kind: PieceKind| checks[kind.index()][ek.index()];

    let hand = pos.hand(us);
    // A drop ends on an empty square next to the king that we guard (or the king takes it), or
    // on a knight's square.
    let knight_squares = check_squares(PieceKind::Knight) - ours;
    let spots = if hand.has(PieceKind::Knight) { (around & cover.once) | knight_squares } else { around & cover.once };
    if hand.has_besides_pawns() && (spots & drop_target).is_nonempty() {
        // Every hand kind but the pawn (a pawn drop may not mate).
        for &kind in &PieceKind::SFEN_HAND_ORDER[..6] {
            if hand.has(kind) {
                let squares = (check_squares(kind) & drop_target & spots) - Bitboard::dead_squares(us, kind);
                for to in squares {
                    if siege.mates(None, to, kind) {
                        return Some(Move::drop(kind, to));
                    }
                }
            }
        }
    }

    let our_king = pos.king_square(us);
    let pinned = pos.pinned();
    let discoverers = pos.king_blockers(them) & ours;
    let zone = Bitboard::far_ranks(us, 3);
    // The squares a piece on `from` may move to without leaving our king in check.
    let legal = |from: Square, dest: Bitboard| match our_king {
        Some(k) if pinned.has(from) => dest & attacks::line(k, from),
        _ => dest,
    };
    // Where a move from `from` checks through the line it opens.
    let uncovering = |from: Square| if discoverers.has(from) { !attacks::line(ek, from) } else { Bitboard::EMPTY };
    // Tries a move of our `kind` from `from` to `to`, promoted first where it may promote.
    let try_move = |from: Square, to: Square, kind: PieceKind, opens: bool| -> Option<Move> {
        if let Some(promoted) = kind.promoted() {
            if (zone.has(from) || zone.has(to))
                && (opens || check_squares(promoted).has(to))
                && siege.mates(Some(from), to, promoted)
            {
                return Some(Move::normal(from, to, true));
            }
        }
        let plain = (opens || check_squares(kind).has(to)) && !Bitboard::dead_squares(us, kind).has(to);
        (plain && siege.mates(Some(from), to, kind)).then(|| Move::normal(from, to, false))
    };

    for from in cover.touching {
        let Some(piece) = pos.piece_on(from) else { continue };
        let kind = piece.kind();
        let dest = legal(from, attacks::piece(us, kind, from, occ) & around & target);
        let opens = uncovering(from);
        for to in dest {
            // The king takes a checker next to it that nothing else of ours guards.
            let guarded =
                cover.twice.has(to) || (pos.attackers_to(us, to, occ.without(from)) & ours.without(from)).is_nonempty();
            if guarded {
                if let Some(m) = try_move(from, to, kind, opens.has(to)) {
                    return Some(m);
                }
            }
        }
    }

    // Checks from a knight's square: by a knight, or by a piece that opens a line as it goes.
    let knights = ours & pos.pieces_of_kind(PieceKind::Knight);
    for to in knight_squares & (target - Bitboard::dead_squares(us, PieceKind::Knight)) {
        for from in attacks::knight(them, to) & knights {
            if legal(from, Bitboard::EMPTY.with(to)).is_nonempty() && siege.mates(Some(from), to, PieceKind::Knight) {
                return Some(Move::normal(from, to, false));
            }
        }
    }
    for from in discoverers {
        let Some(piece) = pos.piece_on(from) else { continue };
        let kind = piece.kind();
        let reach = attacks::piece(us, kind, from, occ) & knight_squares & uncovering(from);
        if kind == PieceKind::King {
            let lifted = occ.without(from);
            for to in reach {
                if pos.attackers_to(them, to, lifted).is_empty() && siege.mates(Some(from), to, kind) {
                    return Some(Move::normal(from, to, false));
                }
            }
            continue;
        }
        for to in legal(from, reach & target) {
            if let Some(m) = try_move(from, to, kind, true) {
                return Some(m);
            }
        }
    }
    None
}
