//! Legal move generation (rules.md §1–§4).
//!
//! Moves are produced legal, never pseudo-legal: pinned pieces stay on the line through their
//! king, king moves avoid attacked squares (seen with the king lifted off the board), in check
//! only king moves, captures of the checker and interpositions are made (only king moves in
//! double check), and drops obey the dead-piece, *nifu* and *uchifuzume* rules.
//!
//! The generator hands out *sets* of destinations per origin (a [`MoveSink`]): a list sink turns
//! them into moves, a counting sink only adds population counts, which is what makes bulk-counting
//! perft fast, and a check filter keeps only the destinations that give check (`checks.rs`).
//! Every legal non-promotion is generated (perft counts them).
//!
//! Layering: movegen sits above `position` and imports it, never the other way round. The rules of
//! a single move (`Position::check_move`, `is_legal`, `play`, `gives_check`, the *uchifuzume* test
//! that the drop generator also asks) live in `position/legality.rs`; this module adds to
//! [`Position`] only the queries over the whole move list: [`Position::legal_moves`],
//! [`Position::count_legal_moves`], [`Position::has_legal_move`] and [`Position::is_checkmate`].

mod checks;
mod drops;
mod king;
mod list;

pub(crate) use king::danger;
pub use list::{FixedList, MoveList};

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

/// The square a pawn of `us` pushed one step to `to` came from (for [`MoveSink::pawn_pushes`]).
#[inline(always)]
pub fn pawn_push_origin(us: Color, to: Square) -> Square {
    match us {
        Color::Black => Square::from_index_unchecked(to.index() + 1),
        Color::White => Square::from_index_unchecked(to.index() - 1),
    }
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
        for to in promo {
            self.0.push(Move::normal(pawn_push_origin(us, to), to, true));
        }
        for to in plain {
            self.0.push(Move::normal(pawn_push_origin(us, to), to, false));
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
    /// Legal captures (every promotion choice included) and pawns' non-capture promotions: the
    /// moves of quiescence search outside check (YaneuraOu's `CAPTURES_PRO_PLUS`).
    QuiescenceCaptures,
    /// Legal moves that neither capture nor promote, drops included.
    Quiets,
    /// Legal moves that give check.
    Checks,
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;
const QUIESCENCE: u8 = 3;

/// Appends the legal moves of kind `kind` to `list`.
pub fn generate(pos: &Position, kind: Gen, list: &mut MoveList) {
    generate_to(pos, kind, &mut ListSink(list));
}

/// Feeds the legal moves of kind `kind` to `sink`, in the order [`generate`] lists them: for a
/// consumer that works on each move as it comes (the move picker scores quiet moves so).
#[inline(always)]
pub fn generate_to<S: MoveSink>(pos: &Position, kind: Gen, sink: &mut S) {
    match kind {
        Gen::Legal => generate_into::<_, ALL>(pos, sink),
        Gen::Captures => generate_into::<_, CAPTURES>(pos, sink),
        Gen::QuiescenceCaptures => generate_into::<_, QUIESCENCE>(pos, sink),
        Gen::Quiets => generate_into::<_, QUIETS>(pos, sink),
        Gen::Checks => {
            if let Some(mut checks) = checks::CheckSink::new(pos, sink) {
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
        king::king_moves::<S, MODE>(pos, sink, k, ours, theirs);
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
        CAPTURES | QUIESCENCE => theirs,
        QUIETS => !(ours | theirs),
        _ => Bitboard::ALL,
    };
    piece_moves::<S, MODE>(pos, sink, ksq, target, plain_mask);
    if MODE != CAPTURES && MODE != QUIESCENCE && drop_target.is_nonempty() {
        drops::generate(pos, sink, drop_target);
    }
}

/// Moves of every piece but the king, to squares in `target`. Pieces that are not pinned go in
/// bulk by kind; pinned ones (rare) one by one, kept on the line through their king.
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
    let rules = Rules::new::<MODE>(us, plain_mask);

    // Unpinned pawns push in bulk.
    let free = pos.pieces(us, PieceKind::Pawn) - pinned;
    let pushed = match us {
        Color::Black => free.shift_up(),
        Color::White => free.shift_down(),
    } & target;
    sink.pawn_pushes(us, (pushed - rules.dead1) & plain_mask, rules.promo(pushed & rules.zone));

    for from in pos.pieces(us, PieceKind::Lance) - pinned {
        let t = attacks::lance(us, from, occ) & target;
        rules.emit(sink, PieceKind::Lance, from, t);
    }
    for from in pos.pieces(us, PieceKind::Knight) - pinned {
        let t = attacks::knight(us, from) & target;
        rules.emit(sink, PieceKind::Knight, from, t);
    }
    for from in pos.pieces(us, PieceKind::Silver) - pinned {
        let t = attacks::silver(us, from) & target;
        rules.emit(sink, PieceKind::Silver, from, t);
    }
    for from in (pos.gold_movers() & pos.pieces_of(us)) - pinned {
        let t = attacks::gold(us, from) & target;
        rules.emit(sink, PieceKind::Gold, from, t);
    }
    for from in pos.pieces(us, PieceKind::Bishop) - pinned {
        let t = attacks::bishop(from, occ) & target;
        rules.emit(sink, PieceKind::Bishop, from, t);
    }
    for from in pos.pieces(us, PieceKind::Rook) - pinned {
        let t = attacks::rook(from, occ) & target;
        rules.emit(sink, PieceKind::Rook, from, t);
    }
    for from in pos.pieces(us, PieceKind::Horse) - pinned {
        let t = attacks::horse(from, occ) & target;
        rules.emit(sink, PieceKind::Horse, from, t);
    }
    for from in pos.pieces(us, PieceKind::Dragon) - pinned {
        let t = attacks::dragon(from, occ) & target;
        rules.emit(sink, PieceKind::Dragon, from, t);
    }
    if let Some(k) = ksq {
        for from in pinned {
            if let Some(p) = pos.piece_on(from) {
                let t = attacks::piece(us, p.kind(), from, occ) & target & attacks::line(k, from);
                rules.emit(sink, p.kind(), from, t);
            }
        }
    }
}

/// The promotion and dead-piece rules for the side to move, and the stage's mask.
struct Rules {
    zone: Bitboard,
    dead1: Bitboard,
    dead2: Bitboard,
    plain_mask: Bitboard,
    promotions: bool,
    /// Where pieces other than pawns may promote (quiescence: only where they capture).
    piece_promo_mask: Bitboard,
}

impl Rules {
    #[inline(always)]
    fn new<const MODE: u8>(us: Color, plain_mask: Bitboard) -> Rules {
        Rules {
            zone: Bitboard::far_ranks(us, 3),
            dead1: Bitboard::dead_squares(us, PieceKind::Pawn),
            dead2: Bitboard::dead_squares(us, PieceKind::Knight),
            plain_mask,
            promotions: MODE != QUIETS,
            piece_promo_mask: if MODE == QUIESCENCE { plain_mask } else { Bitboard::ALL },
        }
    }

    /// `t` if this stage generates promotions, else nothing.
    #[inline(always)]
    fn promo(&self, t: Bitboard) -> Bitboard {
        if self.promotions { t } else { Bitboard::EMPTY }
    }

    /// Feeds the moves of a `kind` on `from` to the squares `t`: with promotion where it may
    /// promote, without where the piece can still move afterwards.
    #[inline(always)]
    fn emit<S: MoveSink>(&self, sink: &mut S, kind: PieceKind, from: Square, t: Bitboard) {
        let (plain, promo) = match kind {
            PieceKind::Pawn => (t - self.dead1, t & self.zone),
            PieceKind::Lance => (t - self.dead1, t & self.zone & self.piece_promo_mask),
            PieceKind::Knight => (t - self.dead2, t & self.zone & self.piece_promo_mask),
            PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                (t, if self.zone.has(from) { t } else { t & self.zone } & self.piece_promo_mask)
            }
            _ => (t, Bitboard::EMPTY),
        };
        sink.board(from, plain & self.plain_mask, self.promo(promo));
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
