//! Mate in one from bitboards, cheap enough for every node of the search: no move is played.
//!
//! Each checking move of the side to move is found from attack tables (as `movegen`'s check
//! filter does: the squares from which each kind attacks the enemy king, and the pieces that
//! uncover a check when they leave their line to it), and its legality for us is decided on the
//! spot (pins, dead squares, promotion, and the evasion rules when we are in check ourselves).
//! Pawn drops are never tried: a pawn drop that mates is illegal (uchifuzume).
//!
//! A check is first put through a filter that rejects most of them with a few bitboard
//! operations: the squares next to the enemy king that it may step to now (not its own pieces,
//! not attacked by us with the king lifted) stay safe after the move unless the moved piece
//! attacks them from its new square or a line through the square it left opens onto them. A check
//! that leaves one of them safe is no mate. The checks that pass are decided exactly by
//! [`reply::After`]: king moves, captures of the checker and interpositions (board moves and
//! drops), each legal only if it leaves the defender's king unattacked.
//!
//! It finds every mate in one but one rare kind: where the defender's only replies are
//! interposing pawn drops that would themselves mate our king (illegal, so the check mates),
//! the check is taken for no mate. It never answers a move that is not a legal mate.

mod contact;
mod reply;

use crate::attacks;
use crate::movegen::danger;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};
use reply::After;
use std::sync::OnceLock;

/// A mate in one for the side to move, if there is one: a legal check after which the opponent
/// has no legal move (never a pawn drop, which may not mate). `None` also when the opponent has
/// no king.
///
/// ```
/// use hisha::Position;
/// use hisha::mate::mate_in_one;
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
/// assert_eq!(mate_in_one(&pos).map(|m| m.to_string()), Some("G*5b".to_string()));
/// ```
pub fn mate_in_one(pos: &Position) -> Option<Move> {
    Attacker::new(pos)?.find()
}

/// A mate in one by a contact check, if there is one: a move or drop next to the enemy king, or a
/// knight's check (neither can be interposed), as YaneuraOu's search looks for at every node.
/// Every move it answers is a legal mate ([`mate_in_one`]'s exact test decides), but mates by a
/// distant check are not looked for: the price of being cheap enough for every node
/// (`contact`: most positions are rejected after one pass over the few pieces near the king).
///
/// ```
/// use hisha::Position;
/// use hisha::mate::mate_in_one_by_contact;
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
/// assert_eq!(mate_in_one_by_contact(&pos).map(|m| m.to_string()), Some("G*5b".to_string()));
/// // A rook dropped down the file mates from afar (nothing can interpose): not looked for.
/// let far = Position::from_sfen("k8/2G6/9/9/9/9/9/9/4K4 b R 1").unwrap();
/// assert!(hisha::mate::mate_in_one(&far).is_some());
/// assert_eq!(mate_in_one_by_contact(&far), None);
/// ```
pub fn mate_in_one_by_contact(pos: &Position) -> Option<Move> {
    contact::find(pos)
}

/// Per colour of the king, kind and king square: the squares next to the king (or a knight's
/// jump from it) from which a piece of that kind of the other colour attacks it. Occupancy plays
/// no part there, so the table holds them all.
fn contact_checks() -> &'static [[[Bitboard; 81]; PieceKind::NUM]; 2] {
    static TABLE: OnceLock<Box<[[[Bitboard; 81]; PieceKind::NUM]; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[[Bitboard::EMPTY; 81]; PieceKind::NUM]; 2]);
        for c in Color::ALL {
            for kind in PieceKind::ALL {
                for ek in Square::all() {
                    let contact = attacks::king(ek) | attacks::knight(c, ek);
                    t[c.index()][kind.index()][ek.index()] = attacks::piece(c, kind, ek, Bitboard::ALL) & contact;
                }
            }
        }
        t
    })
}

/// Per square, the squares within two files and four ranks of it: where a step piece must stand
/// to move to a square from which it, or what it promotes to, attacks a king on that square.
static NEAR: [Bitboard; 81] = {
    let mut t = [Bitboard(0); 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut b = 0u128;
        let mut other = 0;
        while other < 81 {
            let (g, s) = (other / 9, other % 9);
            if (g - f).abs() <= 2 && (s - r).abs() <= 4 {
                b |= 1u128 << other;
            }
            other += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
};

/// Where our moves and drops may end, given our own check: anywhere not ours (empty squares for
/// drops), or against one checker its square and the squares between it and our king; `None`
/// in double check, when only our king may move (and a king move never gives a contact check).
fn targets(pos: &Position, ours: Bitboard) -> Option<(Bitboard, Bitboard)> {
    let checkers = pos.checkers();
    match (checkers.first(), pos.king_square(pos.side_to_move())) {
        _ if checkers.has_more_than_one() => None,
        (Some(c), Some(k)) => Some((attacks::between(k, c).with(c), attacks::between(k, c))),
        _ => Some((!ours, !pos.occupied())),
    }
}

/// The enemy king as the side to move finds it: what [`Siege::mates`] needs to decide one check.
struct Siege<'a> {
    pos: &'a Position,
    us: Color,
    ek: Square,
    occ: Bitboard,
    ours: Bitboard,
    /// Squares next to the enemy king that it may step to now.
    free: Bitboard,
}

impl Siege<'_> {
    /// True if our legal move of a piece from `from` (`None`: a drop, which must give check) to
    /// `to`, becoming `kind` there, checkmates.
    #[inline(always)]
    fn mates(&self, from: Option<Square>, to: Square, kind: PieceKind) -> bool {
        let (occ, rest) = match from {
            Some(f) => (self.occ.without(f).with(to), self.ours.without(f)),
            None => (self.occ.with(to), self.ours),
        };
        // The filter: a square the king may step to now stays safe unless the moved piece covers
        // it or a line through the square it left opens onto it.
        let mut covered = attacks::piece(self.us, kind, to, occ.without(self.ek));
        if let Some(f) = from {
            covered |= attacks::rook_pseudo(f) | attacks::bishop_pseudo(f);
        }
        if (self.free.without(to) - covered).is_nonempty() {
            return false;
        }
        // A checker next to the king that nothing of ours guards is taken by the king. Where we
        // guard no such square now, a move guards it only through the line it opens (drops are
        // not tried there).
        if self.free.has(to) && (self.pos.attackers_to(self.us, to, occ) & rest).is_empty() {
            return false;
        }
        let after = After { pos: self.pos, us: self.us, ek: self.ek, occ, rest, to, kind };
        // A drop uncovers no line, and none of our pieces gave check before (it is our move):
        // the dropped piece is the only checker.
        debug_assert!(from.is_some() || attacks::attacks_square(self.us, kind, to, self.ek, occ), "a drop that checks");
        let checkers = if from.is_none() { Bitboard::EMPTY.with(to) } else { after.checkers() };
        checkers.is_nonempty() && !after.has_reply(checkers)
    }
}

/// What is known about the position before any check is tried, to look at every check.
struct Attacker<'a> {
    siege: Siege<'a>,
    /// Per kind, the squares from which a piece of ours of that kind attacks the enemy king.
    direct: [Bitboard; PieceKind::NUM],
    /// Our pieces that uncover a check when they leave their line to the enemy king.
    discoverers: Bitboard,
    /// Where our pieces other than the king may move.
    target: Bitboard,
    /// Where we may drop.
    drop_target: Bitboard,
    /// Our promotion zone.
    zone: Bitboard,
}

impl<'a> Attacker<'a> {
    fn new(pos: &'a Position) -> Option<Attacker<'a>> {
        let us = pos.side_to_move();
        let them = !us;
        let ek = pos.king_square(them)?;
        let occ = pos.occupied();
        let ours = pos.pieces_of(us);
        let free = attacks::king(ek) - pos.pieces_of(them) - danger(pos, us, ek, ours);
        let mut direct = [Bitboard::EMPTY; PieceKind::NUM];
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                direct[kind.index()] = attacks::piece(them, kind, ek, occ);
            }
        }
        let discoverers = pos.king_blockers(them) & ours;
        let (target, drop_target) = targets(pos, ours).unwrap_or((Bitboard::EMPTY, Bitboard::EMPTY));
        let zone = Bitboard::far_ranks(us, 3);
        let siege = Siege { pos, us, ek, occ, ours, free };
        Some(Attacker { siege, direct, discoverers, target, drop_target, zone })
    }

    /// The first mating move found: drops, then moves of the board's pieces.
    fn find(&self) -> Option<Move> {
        self.drops().or_else(|| self.board_moves())
    }

    fn drops(&self) -> Option<Move> {
        let s = &self.siege;
        let hand = s.pos.hand(s.us);
        // Every hand kind but the pawn (the pawn comes last in SFEN's order).
        for &kind in &PieceKind::SFEN_HAND_ORDER[..6] {
            if !hand.has(kind) {
                continue;
            }
            // A piece dropped next to the king where nothing of ours guards it is taken.
            let squares =
                (self.direct[kind.index()] & (self.drop_target - Bitboard::dead_squares(s.us, kind))) - s.free;
            for to in squares {
                if s.mates(None, to, kind) {
                    return Some(Move::drop(kind, to));
                }
            }
        }
        None
    }

    fn board_moves(&self) -> Option<Move> {
        let s = &self.siege;
        let pos = s.pos;
        let sliders = pos.pieces_of_kind(PieceKind::Lance) | pos.bishop_movers() | pos.rook_movers();
        let steppers = s.ours - sliders - pos.pieces_of_kind(PieceKind::King);
        let movers = (sliders & s.ours) | (steppers & NEAR[s.ek.index()]) | self.discoverers;
        for from in movers {
            let Some(piece) = pos.piece_on(from) else { continue };
            if let Some(m) = self.piece_mates(from, piece.kind()) {
                return Some(m);
            }
        }
        None
    }

    /// A mating move of our `kind` on `from`, if it has one.
    fn piece_mates(&self, from: Square, kind: PieceKind) -> Option<Move> {
        let s = &self.siege;
        let pos = s.pos;
        let uncovering = if self.discoverers.has(from) { !attacks::line(s.ek, from) } else { Bitboard::EMPTY };
        let reach = attacks::piece(s.us, kind, from, s.occ) - s.ours;
        if kind == PieceKind::King {
            let lifted = s.occ.without(from);
            for to in reach & uncovering {
                if pos.attackers_to(!s.us, to, lifted).is_empty() && s.mates(Some(from), to, kind) {
                    return Some(Move::normal(from, to, false));
                }
            }
            return None;
        }
        let mut reach = reach & self.target;
        if let Some(k) = pos.king_square(s.us) {
            if pos.pinned().has(from) {
                reach &= attacks::line(k, from);
            }
        }
        if let Some(promoted) = kind.promoted() {
            let zone = if self.zone.has(from) { Bitboard::ALL } else { self.zone };
            for to in reach & zone & (self.direct[promoted.index()] | uncovering) {
                if s.mates(Some(from), to, promoted) {
                    return Some(Move::normal(from, to, true));
                }
            }
        }
        let plain = (reach & (self.direct[kind.index()] | uncovering)) - Bitboard::dead_squares(s.us, kind);
        for to in plain {
            if s.mates(Some(from), to, kind) {
                return Some(Move::normal(from, to, false));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
