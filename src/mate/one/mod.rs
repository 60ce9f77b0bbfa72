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
    Attacker::new(pos, Reach::All)?.find()
}

/// A mate in one by a contact check, if there is one: a move or drop next to the enemy king, or a
/// knight's check (neither can be interposed), as YaneuraOu's search looks for at every node.
/// Every move it answers is a legal mate ([`mate_in_one`]'s exact test decides), but mates by a
/// distant check are not looked for: the price of being cheap enough for every node.
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
    Attacker::new(pos, Reach::Contact)?.find()
}

/// Which checks a search looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Every check.
    All,
    /// Checks from a square next to the king, and knight checks.
    Contact,
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

/// Per square, the squares within `files` files and `ranks` ranks of it (two and four: where a
/// step piece must stand to move to a square from which it, or what it promotes to, attacks a
/// king on that square).
const fn near_table(files: i32, ranks: i32) -> [Bitboard; 81] {
    let mut t = [Bitboard(0); 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut b = 0u128;
        let mut other = 0;
        while other < 81 {
            let (g, s) = (other / 9, other % 9);
            if (g - f).abs() <= files && (s - r).abs() <= ranks {
                b |= 1u128 << other;
            }
            other += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
}

/// Per enemy king square, where our step pieces must stand to give check in one move.
static NEAR: [Bitboard; 81] = near_table(2, 4);
/// Per enemy king square, where our step pieces other than knights must stand to move next to it.
static BESIDE: [Bitboard; 81] = near_table(2, 2);

/// What is known about the position before any check is tried.
struct Attacker<'a> {
    pos: &'a Position,
    us: Color,
    ek: Square,
    occ: Bitboard,
    ours: Bitboard,
    /// Squares next to the enemy king that it may step to now.
    free: Bitboard,
    /// Per kind, the squares from which a piece of ours of that kind attacks the enemy king.
    direct: [Bitboard; PieceKind::NUM],
    /// Our pieces that uncover a check when they leave their line to the enemy king.
    discoverers: Bitboard,
    /// Where our pieces other than the king may move: anywhere not ours, or, in check, onto the
    /// checker or between it and our king.
    target: Bitboard,
    /// Where we may drop: empty squares, or in check the squares between the checker and our king.
    drop_target: Bitboard,
    /// Our promotion zone.
    zone: Bitboard,
    /// Which checks are looked at.
    reach: Reach,
    /// The squares a checking move may end on (everywhere, or only the contact squares).
    landing: Bitboard,
}

impl<'a> Attacker<'a> {
    fn new(pos: &'a Position, reach: Reach) -> Option<Attacker<'a>> {
        let us = pos.side_to_move();
        let them = !us;
        let ek = pos.king_square(them)?;
        let occ = pos.occupied();
        let ours = pos.pieces_of(us);
        let free = attacks::king(ek) - pos.pieces_of(them) - danger(pos, us, ek, ours);
        let mut direct = [Bitboard::EMPTY; PieceKind::NUM];
        let landing = match reach {
            Reach::All => {
                for kind in PieceKind::ALL {
                    if kind != PieceKind::King {
                        direct[kind.index()] = attacks::piece(them, kind, ek, occ);
                    }
                }
                Bitboard::ALL
            }
            Reach::Contact => {
                let table = &contact_checks()[them.index()];
                for kind in PieceKind::ALL {
                    if kind != PieceKind::King {
                        direct[kind.index()] = table[kind.index()][ek.index()];
                    }
                }
                attacks::king(ek) | attacks::knight(them, ek)
            }
        };
        let discoverers = pos.king_blockers(them) & ours;
        let checkers = pos.checkers();
        let (target, drop_target) = match (checkers.first(), pos.king_square(us)) {
            _ if checkers.has_more_than_one() => (Bitboard::EMPTY, Bitboard::EMPTY),
            (Some(c), Some(k)) => (attacks::between(k, c).with(c), attacks::between(k, c)),
            _ => (!ours, !occ),
        };
        let (target, drop_target) = (target & landing, drop_target & landing);
        let zone = Bitboard::far_ranks(us, 3);
        Some(Attacker { pos, us, ek, occ, ours, free, direct, discoverers, target, drop_target, zone, reach, landing })
    }

    /// The first mating move found: drops, then moves of the board's pieces.
    fn find(&self) -> Option<Move> {
        self.drops().or_else(|| self.board_moves())
    }

    fn drops(&self) -> Option<Move> {
        let hand = self.pos.hand(self.us);
        // Every hand kind but the pawn (the pawn comes last in SFEN's order).
        for &kind in &PieceKind::SFEN_HAND_ORDER[..6] {
            if !hand.has(kind) {
                continue;
            }
            // A piece dropped next to the king where nothing of ours guards it is taken.
            let squares =
                (self.direct[kind.index()] & (self.drop_target - Bitboard::dead_squares(self.us, kind))) - self.free;
            for to in squares {
                if self.mates(None, to, kind) {
                    return Some(Move::drop(kind, to));
                }
            }
        }
        None
    }

    fn board_moves(&self) -> Option<Move> {
        let pos = self.pos;
        let sliders = pos.pieces_of_kind(PieceKind::Lance) | pos.bishop_movers() | pos.rook_movers();
        let steppers = self.ours - sliders - pos.pieces_of_kind(PieceKind::King);
        let near = NEAR[self.ek.index()];
        let movers = match self.reach {
            Reach::All => (sliders & self.ours) | (steppers & near) | self.discoverers,
            // Only moves next to the king or a knight's check: steppers beside it, knights near.
            Reach::Contact => {
                let knights = pos.pieces_of_kind(PieceKind::Knight);
                (sliders & self.ours) | ((steppers - knights) & BESIDE[self.ek.index()]) | (steppers & knights & near)
            }
        };
        for from in movers {
            // A slider whose lines miss every landing square (contact checks only) has none.
            if self.reach == Reach::Contact && sliders.has(from) {
                let lines = attacks::rook_pseudo(from) | attacks::bishop_pseudo(from) | attacks::king(from);
                if (lines & self.landing).is_empty() {
                    continue;
                }
            }
            let Some(piece) = pos.piece_on(from) else { continue };
            if let Some(m) = self.piece_mates(from, piece.kind()) {
                return Some(m);
            }
        }
        None
    }

    /// A mating move of our `kind` on `from`, if it has one.
    fn piece_mates(&self, from: Square, kind: PieceKind) -> Option<Move> {
        let pos = self.pos;
        let uncovering = if self.discoverers.has(from) { !attacks::line(self.ek, from) } else { Bitboard::EMPTY };
        let reach = attacks::piece(self.us, kind, from, self.occ) - self.ours;
        if kind == PieceKind::King {
            let lifted = self.occ.without(from);
            for to in reach & uncovering & self.landing {
                if pos.attackers_to(!self.us, to, lifted).is_empty() && self.mates(Some(from), to, kind) {
                    return Some(Move::normal(from, to, false));
                }
            }
            return None;
        }
        let mut reach = reach & self.target;
        if let Some(k) = pos.king_square(self.us) {
            if pos.pinned().has(from) {
                reach &= attacks::line(k, from);
            }
        }
        if let Some(promoted) = kind.promoted() {
            let zone = if self.zone.has(from) { Bitboard::ALL } else { self.zone };
            for to in reach & zone & (self.direct[promoted.index()] | uncovering) {
                if self.mates(Some(from), to, promoted) {
                    return Some(Move::normal(from, to, true));
                }
            }
        }
        let plain = (reach & (self.direct[kind.index()] | uncovering)) - Bitboard::dead_squares(self.us, kind);
        for to in plain {
            if self.mates(Some(from), to, kind) {
                return Some(Move::normal(from, to, false));
            }
        }
        None
    }

    /// True if our legal move of a piece from `from` (`None`: a drop) to `to`, becoming `kind`
    /// there, checkmates.
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
        let checkers = after.checkers();
        checkers.is_nonempty() && !after.has_reply(checkers)
    }
}

#[cfg(test)]
mod tests;
