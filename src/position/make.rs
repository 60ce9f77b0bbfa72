//! Making and taking back moves: do/undo with incremental keys, check and pin information, and the
//! state stack that is also the game history.

use super::{Position, State, zobrist};
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, PieceKind, Square};

impl Position {
    #[inline(always)]
    pub(super) fn put_piece(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
    }

    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = None;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
    }

    /// Plays `m`, which must be legal here (checked in debug builds only). For moves from outside
    /// use [`Position::play`].
    pub fn do_move(&mut self, m: Move) {
        self.do_move_inline(m);
    }

    /// [`Position::do_move`], always inlined (for hot loops compiled with extra CPU features).
    #[inline(always)]
    pub(crate) fn do_move_inline(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {}", self.to_sfen());
        let us = self.side;
        let prev = self.st;
        self.history.push(prev);
        let (board_key, hand_key) = self.keys_after(m);
        let mut captured = None;
        let (placed, to, from) = match m.kind() {
            MoveKind::Drop { kind, to } => {
                self.hands[us.index()].remove_unchecked(kind);
                let p = Piece::new(us, kind);
                self.put_piece(p, to);
                (p, to, None)
            }
            MoveKind::Normal { from, to, promote } => {
                let Some(p) = self.board[from.index()] else { unreachable!("do_move: no piece on {from} for {m}") };
                if let Some(c) = self.board[to.index()] {
                    self.remove_piece(c, to);
                    self.hands[us.index()].add_unchecked(c.kind().unpromoted());
                    captured = Some(c);
                }
                self.remove_piece(p, from);
                let moved = Piece::new(p.color(), p.kind().after_move(promote));
                self.put_piece(moved, to);
                if p.kind() == PieceKind::King {
                    self.kings[us.index()] = Some(to);
                }
                (moved, to, Some(from))
            }
        };
        self.side = !us;
        let checkers = self.checkers_after(us, placed, to, from);
        let mut continuous_checks = prev.continuous_checks;
        continuous_checks[us.index()] = if checkers.is_nonempty() { prev.continuous_checks[us.index()] + 1 } else { 0 };
        self.st = State {
            board_key,
            hand_key,
            checkers,
            pinned: self.compute_pinned(!us),
            captured,
            last_move: Some(m),
            continuous_checks,
        };
    }

    /// The board key and hand key after `m` (legal here), from the position before it.
    #[inline(always)]
    fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let mut board_key = self.st.board_key ^ zobrist::SIDE_KEY;
        let mut hand_key = self.st.hand_key;
        match m.kind() {
            MoveKind::Drop { kind, to } => {
                hand_key = hand_key.wrapping_sub(zobrist::hand_key(us, kind));
                board_key ^= zobrist::piece_key(Piece::new(us, kind), to);
            }
            MoveKind::Normal { from, to, promote } => {
                let Some(p) = self.board[from.index()] else { return (board_key, hand_key) };
                if let Some(c) = self.board[to.index()] {
                    board_key ^= zobrist::piece_key(c, to);
                    hand_key = hand_key.wrapping_add(zobrist::hand_key(us, c.kind().unpromoted()));
                }
                let moved = Piece::new(p.color(), p.kind().after_move(promote));
                board_key ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(moved, to);
            }
        }
        (board_key, hand_key)
    }

    /// Takes back the last move played by [`Position::do_move`] or `Position::do_null_move`.
    /// Does nothing at the start.
    pub fn undo_move(&mut self) {
        self.undo_move_inline();
    }

    /// [`Position::undo_move`], always inlined.
    #[inline(always)]
    pub(crate) fn undo_move_inline(&mut self) {
        let Some(prev) = self.history.pop() else {
            return;
        };
        let cur = std::mem::replace(&mut self.st, prev);
        self.side = !self.side;
        let Some(m) = cur.last_move else { return }; // a null move
        let us = self.side;
        match m.kind() {
            MoveKind::Drop { kind, to } => {
                self.remove_piece(Piece::new(us, kind), to);
                self.hands[us.index()].add_unchecked(kind);
            }
            MoveKind::Normal { from, to, promote } => {
                let Some(moved) = self.board[to.index()] else { unreachable!("undo_move: no piece on {to} for {m}") };
                self.remove_piece(moved, to);
                let original = if promote { Piece::new(us, moved.kind().unpromoted()) } else { moved };
                self.put_piece(original, from);
                if original.kind() == PieceKind::King {
                    self.kings[us.index()] = Some(from);
                }
                if let Some(c) = cur.captured {
                    self.put_piece(c, to);
                    self.hands[us.index()].remove_unchecked(c.kind().unpromoted());
                }
            }
        }
    }

    /// Plays a pass (*null move*) for the search: only the side to move changes. The side to
    /// move must not be in check. Undo with [`Position::undo_move`].
    pub(crate) fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let prev = self.st;
        self.history.push(prev);
        self.side = !self.side;
        self.st = State {
            board_key: prev.board_key ^ zobrist::SIDE_KEY,
            checkers: Bitboard::EMPTY,
            pinned: self.compute_pinned(self.side),
            captured: None,
            last_move: None,
            ..prev
        };
    }

    /// The checkers after `us` has put `placed` on `to` (coming from `from`, or dropped). Before
    /// the move `us` gave no check, so a check now comes from the placed piece itself or from a
    /// slider behind `from` whose line to the king the move opened.
    #[inline(always)]
    fn checkers_after(&self, us: Color, placed: Piece, to: Square, from: Option<Square>) -> Bitboard {
        let them = !us;
        let Some(ksq) = self.kings[them.index()] else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if attacks::attacks_square(us, placed.kind(), to, ksq, occ) {
            checkers = checkers.with(to);
        }
        if let Some(from) = from {
            let k = &self.by_kind;
            let sliders =
                (k[PieceKind::Lance as usize] | self.bishop_movers() | self.rook_movers()) & self.pieces_of(us);
            if (attacks::line(ksq, from) & sliders).is_nonempty() {
                checkers |= ((attacks::bishop(ksq, occ) & self.bishop_movers())
                    | (attacks::rook(ksq, occ) & self.rook_movers())
                    | (attacks::lance(them, ksq, occ) & k[PieceKind::Lance as usize]))
                    & self.pieces_of(us);
            }
        }
        checkers
    }
}
