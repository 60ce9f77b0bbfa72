//! The position: a mailbox board plus bitboards, both hands, the side to move, incremental
//! Zobrist keys, check and pin information, and the stack of earlier states that `undo_move` and
//! the repetition rules use.
//!
//! A `Position` can only be built valid ([`Position::startpos`], [`Position::from_sfen`],
//! [`Position::from_setup`], [`Position::handicap`]), and stays valid under legal moves:
//! [`Position::play`] checks a move from outside against every rule (`legality.rs`),
//! [`Position::do_move`] trusts the caller. Position imports only `types` and `attacks`; the
//! move generator (`movegen`) builds on it and adds the move-list queries such as
//! `Position::legal_moves`.
//!
//! Do/undo with a state stack was measured against copy-make (restoring a ~450-byte snapshot of
//! the board, bitboards, hands and state): the same speed within 1 % on startpos perft 5 and matsuri
//! perft 4. We keep do/undo because the stack is also the history the repetition rules read.

mod check_squares;
mod handicap;
mod legality;
mod make;
mod rules;
mod setup;
pub mod sfen;
#[cfg(test)]
mod test_support;
mod zobrist;

pub use check_squares::CheckSquares;
pub use handicap::{Handicap, ParseHandicapError};
pub use legality::MoveError;
pub use rules::{
    DeclarationOutcome, EnteringKingRule, GameResult, IllegalMoveKind, ParseEnteringKingRuleError, Repetition,
    ResultReason, Winner,
};
pub use setup::{Setup, SetupError};

use crate::attacks;
use crate::types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};

/// Per-ply information kept on the undo stack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
    /// Enemy pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move that shield its king from an enemy slider.
    pub(crate) pinned: Bitboard,
    /// The piece captured by the move that led here.
    pub(crate) captured: Option<Piece>,
    /// The move that led here.
    pub(crate) last_move: Option<Move>,
    /// For each color, how many of its own moves in a row (ending here) gave check.
    pub(crate) continuous_checks: [u16; 2],
}

/// A legal shogi position with its game history.
#[derive(Clone, Debug)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 14],
    hands: [Hand; 2],
    side: Color,
    kings: [Option<Square>; 2],
    start_move_number: u32,
    st: State,
    history: Vec<State>,
}

impl PartialEq for Position {
    /// Same pieces, hands and side to move (history is ignored).
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board && self.hands == o.hands && self.side == o.side
    }
}

impl Eq for Position {}

impl Position {
    /// The even-game start position (Black to move).
    pub fn startpos() -> Position {
        Position::handicap(Handicap::Even)
    }

    /// The start position of a handicap game (White, the handicap giver, moves first), or the even
    /// start for [`Handicap::Even`].
    pub fn handicap(h: Handicap) -> Position {
        match Position::from_sfen(h.sfen()) {
            Ok(p) => p,
            // The sixteen SFENs are constants checked by a unit test.
            Err(e) => unreachable!("built-in handicap SFEN is invalid: {e}"),
        }
    }

    /// Builds a position from an unvalidated setup, checking every rule in [`Setup`]'s docs.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        setup.validate_material()?;
        let mut pos = Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: setup.hands,
            side: setup.side_to_move,
            kings: [None; 2],
            start_move_number: setup.move_number.max(1),
            st: State {
                board_key: 0,
                hand_key: 0,
                checkers: Bitboard::EMPTY,
                pinned: Bitboard::EMPTY,
                captured: None,
                last_move: None,
                continuous_checks: [0; 2],
            },
            history: Vec::with_capacity(256),
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put_piece(p, sq);
                pos.st.board_key ^= zobrist::piece_key(p, sq);
                if p.kind() == PieceKind::King {
                    pos.kings[p.color().index()] = Some(sq);
                }
            }
        }
        for c in Color::ALL {
            for (k, n) in pos.hands[c.index()].iter() {
                pos.st.hand_key = pos.st.hand_key.wrapping_add(zobrist::hand_key(c, k).wrapping_mul(n as u64));
            }
        }
        if pos.side == Color::White {
            pos.st.board_key ^= zobrist::SIDE_KEY;
        }
        let them = !pos.side;
        if let Some(ksq) = pos.kings[them.index()] {
            if pos.attackers_to(pos.side, ksq, pos.occupied()).is_nonempty() {
                return Err(SetupError::OpponentInCheck(them));
            }
        }
        pos.st.checkers = pos.compute_checkers();
        pos.st.pinned = pos.compute_pinned(pos.side);
        Ok(pos)
    }

    /// The position as an unvalidated [`Setup`] (without history).
    pub fn to_setup(&self) -> Setup {
        Setup { board: self.board, hands: self.hands, side_to_move: self.side, move_number: self.move_number() }
    }

    // --- queries -------------------------------------------------------------------------------

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every square's piece, by square index.
    #[inline(always)]
    pub(crate) fn squares(&self) -> &[Option<Piece>; 81] {
        &self.board
    }

    /// The pieces in `c`'s hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The square of `c`'s king (`None` only for Black in a tsume setup).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares holding `c`'s pieces.
    #[inline(always)]
    pub(crate) fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// The squares holding pieces of `kind` (both colors).
    #[inline(always)]
    pub(crate) fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares holding `c`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[c.index()]
    }

    /// Gold and the four kinds that move like it.
    #[inline(always)]
    pub(crate) fn gold_movers(&self) -> Bitboard {
        let k = &self.by_kind;
        k[PieceKind::Gold as usize]
            | k[PieceKind::ProPawn as usize]
            | k[PieceKind::ProLance as usize]
            | k[PieceKind::ProKnight as usize]
            | k[PieceKind::ProSilver as usize]
    }

    /// Bishops and horses.
    #[inline(always)]
    pub(crate) fn bishop_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop as usize] | self.by_kind[PieceKind::Horse as usize]
    }

    /// Rooks and dragons.
    #[inline(always)]
    pub(crate) fn rook_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook as usize] | self.by_kind[PieceKind::Dragon as usize]
    }

    /// Kings, horses and dragons (everything with the king's one-step moves).
    #[inline(always)]
    pub(crate) fn king_movers(&self) -> Bitboard {
        self.by_kind[PieceKind::King as usize]
            | self.by_kind[PieceKind::Horse as usize]
            | self.by_kind[PieceKind::Dragon as usize]
    }

    /// The SFEN move number (ply) of this position: the start's number plus the moves played.
    pub fn move_number(&self) -> u32 {
        self.start_move_number + self.history.len() as u32
    }

    /// Number of moves played since the position was built.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.st.last_move
    }

    /// The Zobrist key of the position (board, hands and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.board_key ^ self.st.hand_key
    }

    /// The Zobrist key of the board and side to move only (for hand-domination lookups).
    #[inline(always)]
    pub(crate) fn board_key(&self) -> u64 {
        self.st.board_key
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub(crate) fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.is_nonempty()
    }

    /// Pieces of the side to move pinned to its king.
    #[inline(always)]
    pub(crate) fn pinned(&self) -> Bitboard {
        self.st.pinned
    }

    /// `c`'s pieces that attack `sq`, given the occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let o = !c;
        let k = &self.by_kind;
        ((attacks::pawn(o, sq) & k[PieceKind::Pawn as usize])
            | (attacks::knight(o, sq) & k[PieceKind::Knight as usize])
            | (attacks::silver(o, sq) & k[PieceKind::Silver as usize])
            | (attacks::gold(o, sq) & self.gold_movers())
            | (attacks::king(sq) & self.king_movers())
            | (attacks::lance(o, sq, occ) & k[PieceKind::Lance as usize])
            | (attacks::bishop(sq, occ) & self.bishop_movers())
            | (attacks::rook(sq, occ) & self.rook_movers()))
            & self.by_color[c.index()]
    }

    /// The pieces of both colours that attack `sq`, given the occupancy `occ`: the union of
    /// [`Position::attackers_to`] for each colour, with the sliders' and the king's attacks,
    /// which are the same for both, worked out once.
    #[inline(always)]
    pub(crate) fn attackers_to_both(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let by_colour = |c: Color| {
            let o = !c;
            ((attacks::pawn(o, sq) & k[PieceKind::Pawn as usize])
                | (attacks::knight(o, sq) & k[PieceKind::Knight as usize])
                | (attacks::silver(o, sq) & k[PieceKind::Silver as usize])
                | (attacks::gold(o, sq) & self.gold_movers())
                | (attacks::lance(o, sq, occ) & k[PieceKind::Lance as usize]))
                & self.by_color[c.index()]
        };
        by_colour(Color::Black)
            | by_colour(Color::White)
            | (attacks::king(sq) & self.king_movers())
            | (attacks::bishop(sq, occ) & self.bishop_movers())
            | (attacks::rook(sq, occ) & self.rook_movers())
    }

    /// True if `c` attacks `sq` given the occupancy `occ`.
    #[inline(always)]
    pub(crate) fn is_attacked(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        let o = !c;
        let k = &self.by_kind;
        let theirs = self.by_color[c.index()];
        let steppers = (attacks::pawn(o, sq) & k[PieceKind::Pawn as usize])
            | (attacks::knight(o, sq) & k[PieceKind::Knight as usize])
            | (attacks::silver(o, sq) & k[PieceKind::Silver as usize])
            | (attacks::gold(o, sq) & self.gold_movers())
            | (attacks::king(sq) & self.king_movers());
        if (steppers & theirs).is_nonempty() {
            return true;
        }
        // Sliders: only compute a slide when a slider stands on the empty-board line.
        let rooks = self.rook_movers() & theirs;
        if (attacks::rook_pseudo(sq) & rooks).is_nonempty() && (attacks::rook(sq, occ) & rooks).is_nonempty() {
            return true;
        }
        let bishops = self.bishop_movers() & theirs;
        if (attacks::bishop_pseudo(sq) & bishops).is_nonempty() && (attacks::bishop(sq, occ) & bishops).is_nonempty() {
            return true;
        }
        let lances = k[PieceKind::Lance as usize] & theirs;
        (attacks::lance_pseudo(o, sq) & lances).is_nonempty() && (attacks::lance(o, sq, occ) & lances).is_nonempty()
    }

    /// The squares `c`'s piece on `sq` would attack with this board's occupancy.
    pub(crate) fn attacks_from(&self, piece: Piece, sq: Square) -> Bitboard {
        attacks::piece(piece.color(), piece.kind(), sq, self.occupied())
    }

    #[inline(always)]
    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side.index()] {
            Some(ksq) => self.attackers_to(!self.side, ksq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Pieces (of either color) standing alone between `c`'s king and an enemy slider.
    #[inline(always)]
    pub(crate) fn king_blockers(&self, c: Color) -> Bitboard {
        let Some(ksq) = self.kings[c.index()] else {
            return Bitboard::EMPTY;
        };
        let them = self.by_color[(!c).index()];
        let snipers = ((attacks::rook_pseudo(ksq) & self.rook_movers())
            | (attacks::bishop_pseudo(ksq) & self.bishop_movers())
            | (attacks::lance_pseudo(c, ksq) & self.by_kind[PieceKind::Lance as usize]))
            & them;
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    #[inline(always)]
    fn compute_pinned(&self, c: Color) -> Bitboard {
        self.king_blockers(c) & self.by_color[c.index()]
    }

    /// The earlier states, oldest first (for repetition rules).
    pub(crate) fn history(&self) -> &[State] {
        &self.history
    }

    /// The current state.
    pub(crate) fn state(&self) -> &State {
        &self.st
    }

    /// Forgets the history (the current position becomes the start; `undo_move` can no longer go
    /// back past it). Used when a long game has been replayed and only the present matters.
    pub fn clear_history(&mut self) {
        self.start_move_number = self.move_number();
        self.history.clear();
        self.st.last_move = None;
        self.st.captured = None;
    }
}

#[cfg(test)]
mod tests;
