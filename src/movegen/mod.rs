//! Legal move generation (rules.md §1–§4).
//!
//! Moves are produced legal, never pseudo-legal: pinned pieces stay on the line through their
//! king, king moves avoid attacked squares (seen with the king lifted off the board), in check
//! only king moves, captures of the checker and interpositions are made (only king moves in
//! double check), and drops obey the dead-piece, *nifu* and *uchifuzume* rules.
//!
//! The generator hands out *sets* of destinations per origin (a [`MoveSink`]): a list sink turns
//! them into moves, a counting sink only adds population counts, which is what makes bulk-counting
//! perft fast. Every legal non-promotion is generated (perft counts them).

mod checks;
mod drops;
mod legality;
mod list;

pub use legality::MoveError;
pub use list::{MAX_MOVES, MoveList};

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// A consumer of generated moves, given as destination sets.
pub trait MoveSink {
    /// Moves of the piece on `from`: to every square of `plain` without promotion and to every
    /// square of `promo` with promotion.
    fn board(&mut self, from: Square, plain: Bitboard, promo: Bitboard);
    /// One-step pawn pushes of `us`, given by destination (the origin is the square behind).
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard);
    /// Drops of `kind` onto every square of `to`.
    fn drops(&mut self, kind: PieceKind, to: Bitboard);
}

/// Collects moves into a [`MoveList`].
struct ListSink<'a>(&'a mut MoveList);

impl MoveSink for ListSink<'_> {
    #[inline(always)]
    fn board(&mut self, from: Square, plain: Bitboard, promo: Bitboard) {
        for to in promo {
            self.0.push(Move::normal(from, to, true));
        }
        for to in plain {
            self.0.push(Move::normal(from, to, false));
        }
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, us: Color, plain: Bitboard, promo: Bitboard) {
        let back = |to: Square| match us {
            Color::Black => Square::from_index_unchecked(to.index() + 1),
            Color::White => Square::from_index_unchecked(to.index() - 1),
        };
        for to in promo {
            self.0.push(Move::normal(back(to), to, true));
        }
        for to in plain {
            self.0.push(Move::normal(back(to), to, false));
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) {
        for sq in to {
            self.0.push(Move::drop(kind, sq));
        }
    }
}

/// Counts moves without building them.
struct CountSink(u64);

impl MoveSink for CountSink {
    #[inline(always)]
    fn board(&mut self, _: Square, plain: Bitboard, promo: Bitboard) {
        self.0 += (plain.count() + promo.count()) as u64;
    }
    #[inline(always)]
    fn pawn_pushes(&mut self, _: Color, plain: Bitboard, promo: Bitboard) {
        self.0 += (plain.count() + promo.count()) as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _: PieceKind, to: Bitboard) {
        self.0 += to.count() as u64;
    }
}

/// Which legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gen {
    /// All legal moves.
    Legal,
    /// Legal moves that capture or promote (or both), every promotion choice included.
    Captures,
    /// Legal moves that neither capture nor promote, drops included.
    Quiets,
    /// All legal moves when in check; nothing when not in check.
    Evasions,
    /// Legal moves that give check.
    Checks,
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// Appends the legal moves of kind `kind` to `list`.
pub fn generate(pos: &Position, kind: Gen, list: &mut MoveList) {
    match kind {
        Gen::Legal => generate_into::<_, ALL>(pos, &mut ListSink(list)),
        Gen::Captures => generate_into::<_, CAPTURES>(pos, &mut ListSink(list)),
        Gen::Quiets => generate_into::<_, QUIETS>(pos, &mut ListSink(list)),
        Gen::Evasions => {
            if pos.in_check() {
                generate_into::<_, ALL>(pos, &mut ListSink(list))
            }
        }
        Gen::Checks => {
            let mut sink = ListSink(list);
            if let Some(mut checks) = checks::CheckSink::new(pos, &mut sink) {
                generate_into::<_, ALL>(pos, &mut checks);
            }
        }
    }
}

/// Feeds every move of `MODE` to `sink`.
#[inline(always)]
fn generate_into<S: MoveSink, const MODE: u8>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let ours = pos.pieces_of(us);
    let theirs = pos.pieces_of(!us);
    let checkers = pos.checkers();
    let ksq = pos.king_square(us);
    if let Some(k) = ksq {
        king_moves::<S, MODE>(pos, sink, k, ours, theirs);
    }
    if checkers.has_more_than_one() {
        return;
    }
    let (target, drop_target) = match (checkers.first(), ksq) {
        (Some(c), Some(k)) => {
            let between = attacks::between(k, c);
            (between | checkers, between)
        }
        _ => (!ours, !(ours | theirs)),
    };
    let plain_mask = match MODE {
        CAPTURES => theirs,
        QUIETS => !(ours | theirs),
        _ => Bitboard::ALL,
    };
    piece_moves::<S, MODE>(pos, sink, ksq, target, plain_mask);
    if MODE != CAPTURES && drop_target.is_nonempty() {
        drops::generate(pos, sink, drop_target);
    }
}

/// Legal king moves: destinations not attacked once the king has left its square.
#[inline(always)]
fn king_moves<S: MoveSink, const MODE: u8>(
    pos: &Position,
    sink: &mut S,
    ksq: Square,
    ours: Bitboard,
    theirs: Bitboard,
) {
    let t = attacks::king(ksq) - ours;
    let t = match MODE {
        CAPTURES => t & theirs,
        QUIETS => t - theirs,
        _ => t,
    };
    let occ = (ours | theirs).without(ksq);
    let them = !pos.side_to_move();
    let mut legal = Bitboard::EMPTY;
    for to in t {
        if !pos.is_attacked(them, to, occ) {
            legal = legal.with(to);
        }
    }
    if legal.is_nonempty() {
        sink.board(ksq, legal, Bitboard::EMPTY);
    }
}

/// Moves of every piece but the king, to squares in `target`.
#[inline(always)]
fn piece_moves<S: MoveSink, const MODE: u8>(
    pos: &Position,
    sink: &mut S,
    ksq: Option<Square>,
    target: Bitboard,
    plain_mask: Bitboard,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let pinned = pos.pinned();
    let zone = Bitboard::far_ranks(us, 3);
    let dead1 = Bitboard::far_ranks(us, 1);
    let dead2 = Bitboard::far_ranks(us, 2);
    let promo_ok = MODE != QUIETS;
    let pin_line = |from: Square| match ksq {
        Some(k) if pinned.has(from) => attacks::line(k, from),
        _ => Bitboard::ALL,
    };
    let promo_of = |t: Bitboard| if promo_ok { t } else { Bitboard::EMPTY };

    // Pawns: unpinned ones in bulk, pinned ones one by one.
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let free = pawns - pinned;
    let pushed = match us {
        Color::Black => free.shift_up(),
        Color::White => free.shift_down(),
    } & target;
    sink.pawn_pushes(us, (pushed - dead1) & plain_mask, promo_of(pushed & zone));
    for from in pawns & pinned {
        let t = attacks::pawn(us, from) & target & pin_line(from);
        sink.board(from, (t - dead1) & plain_mask, promo_of(t & zone));
    }

    for from in pos.pieces(us, PieceKind::Lance) {
        let t = attacks::lance(us, from, occ) & target & pin_line(from);
        sink.board(from, (t - dead1) & plain_mask, promo_of(t & zone));
    }
    for from in pos.pieces(us, PieceKind::Knight) - pinned {
        let t = attacks::knight(us, from) & target;
        sink.board(from, (t - dead2) & plain_mask, promo_of(t & zone));
    }
    let promo_zone = |from: Square, t: Bitboard| if zone.has(from) { t } else { t & zone };
    for from in pos.pieces(us, PieceKind::Silver) {
        let t = attacks::silver(us, from) & target & pin_line(from);
        sink.board(from, t & plain_mask, promo_of(promo_zone(from, t)));
    }
    for from in pos.pieces(us, PieceKind::Bishop) {
        let t = attacks::bishop(from, occ) & target & pin_line(from);
        sink.board(from, t & plain_mask, promo_of(promo_zone(from, t)));
    }
    for from in pos.pieces(us, PieceKind::Rook) {
        let t = attacks::rook(from, occ) & target & pin_line(from);
        sink.board(from, t & plain_mask, promo_of(promo_zone(from, t)));
    }
    for from in pos.gold_movers() & pos.pieces_of(us) {
        let t = attacks::gold(us, from) & target & pin_line(from);
        sink.board(from, t & plain_mask, Bitboard::EMPTY);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        let t = attacks::horse(from, occ) & target & pin_line(from);
        sink.board(from, t & plain_mask, Bitboard::EMPTY);
    }
    for from in pos.pieces(us, PieceKind::Dragon) {
        let t = attacks::dragon(from, occ) & target & pin_line(from);
        sink.board(from, t & plain_mask, Bitboard::EMPTY);
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, Gen::Legal, &mut list);
        list
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal_moves_inline()
    }

    /// [`Position::count_legal_moves`], always inlined.
    #[inline(always)]
    pub(crate) fn count_legal_moves_inline(&self) -> u64 {
        let mut sink = CountSink(0);
        generate_into::<_, ALL>(self, &mut sink);
        sink.0
    }

    /// Appends all legal moves to `list`, always inlined.
    #[inline(always)]
    pub(crate) fn legal_moves_into_inline(&self, list: &mut MoveList) {
        generate_into::<_, ALL>(self, &mut ListSink(list));
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// True if the side to move is checkmated (in check with no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }
}

#[cfg(test)]
mod tests;
