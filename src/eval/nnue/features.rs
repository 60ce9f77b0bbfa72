//! Input features: which rows of the feature transformer a position switches on, per perspective,
//! and which ones a move changes (the "dirty pieces" of Stockfish and YaneuraOu).
//!
//! Two feature sets, as YaneuraOu defines them (`source/eval/nnue/features/half_kp.cpp`, `k.cpp`,
//! `p.cpp`, `feature_set.h`):
//! - **HalfKP(Friend)**: `king * 1548 + p` for the perspective's own king square (turned for
//!   White) and each of the 38 non-king pieces' [`bona_piece`] numbers `p`; 125,388 inputs. A
//!   move of that king changes every row: the perspective is recomputed from scratch.
//! - **K+P**: `p` for the 38 pieces (0..1548), then `1548 + k` for both kings' numbers
//!   `k` (0..162); 1,710 inputs, always updated incrementally.
//!
//! A piece off the board and out of hand (handicaps) keeps number 0 and so activates row
//! `king * 1548` (HalfKP) or 0 (K+P), once per missing piece, as in YaneuraOu. A missing king
//! (tsume setups) is taken to stand on its starting square (5i for Black, 5a for White).

use super::bona_piece::{self, BothSides, FE_END, FE_END2, PIECE_LIST_LEN};
use crate::position::Position;
use crate::types::{Color, Move, MoveKind, Piece, PieceKind, Square};

/// The input feature set of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// King square x piece, own king only (YaneuraOu's `HalfKP<Side::kFriend>`).
    HalfKP,
    /// Pieces and kings on their own (YaneuraOu's `FeatureSet<K, P>`).
    KP,
}

impl FeatureSet {
    /// Number of inputs per perspective.
    pub const fn dimensions(self) -> usize {
        match self {
            FeatureSet::HalfKP => 81 * FE_END as usize,
            FeatureSet::KP => FE_END2 as usize,
        }
    }

    /// The name YaneuraOu writes in a net's architecture string.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKP => "HalfKP(Friend)",
            FeatureSet::KP => "K+P",
        }
    }

    /// YaneuraOu's hash of the feature set (`RawFeatures::kHashValue`).
    pub(crate) const fn hash(self) -> u32 {
        // HalfKP: 0x5D69D5B9 ^ (AssociatedKing == kFriend); K: 0xD3CEE169; P: 0x764CFB4B; a
        // two-member set combines them as Head ^ (Tail << 1) ^ (Tail >> 31) (feature_set.h).
        const K: u32 = 0xD3CE_E169;
        const P: u32 = 0x764C_FB4B;
        match self {
            FeatureSet::HalfKP => 0x5D69_D5B9 ^ 1,
            FeatureSet::KP => K ^ (P << 1) ^ (P >> 31),
        }
    }

    /// True if a move of `perspective`'s own king forces a full recomputation of its half.
    pub(crate) const fn refreshes_on_own_king_move(self) -> bool {
        matches!(self, FeatureSet::HalfKP)
    }

    /// The input row of piece number `p` for a perspective whose king stands on `king`
    /// (relative square). King numbers have a row only in [`FeatureSet::KP`]; HalfKP callers
    /// never pass them.
    #[inline(always)]
    pub(crate) fn index(self, king: usize, p: u16) -> usize {
        match self {
            FeatureSet::HalfKP => king * FE_END as usize + p as usize,
            FeatureSet::KP => p as usize,
        }
    }
}

/// `c`'s king square as `perspective` sees it, or the king's starting square if it has none.
pub fn king_square(pos: &Position, c: Color, perspective: Color) -> usize {
    let home = match c {
        Color::Black => 4 * 9 + 8, // 5i
        Color::White => 4 * 9,     // 5a
    };
    let sq = pos.king_square(c).unwrap_or(Square::from_index_unchecked(home));
    bona_piece::relative_square(perspective, sq)
}

/// Up to 40 active input rows of one perspective.
#[derive(Clone, Debug)]
pub struct ActiveFeatures {
    rows: [u32; PIECE_LIST_LEN + 2],
    len: usize,
}

impl ActiveFeatures {
    fn push(&mut self, row: usize) {
        self.rows[self.len] = row as u32;
        self.len += 1;
    }

    /// The rows, in no particular order (a row appears once per piece that activates it).
    pub fn as_slice(&self) -> &[u32] {
        &self.rows[..self.len]
    }
}

/// Every piece number (kings excluded) of `pos` seen by `perspective`, including one
/// `bona_piece::ZERO` per piece missing from the full set: always 38 numbers.
pub fn piece_numbers(pos: &Position, perspective: Color, mut f: impl FnMut(u16)) {
    let mut count = 0;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq).filter(|p| p.kind() != PieceKind::King) {
            f(bona_piece::board(perspective, p, sq));
            count += 1;
        }
    }
    for owner in Color::ALL {
        for (kind, n) in pos.hand(owner).iter() {
            for nth in 0..n {
                f(bona_piece::hand(perspective, owner, kind, nth));
                count += 1;
            }
        }
    }
    for _ in count..PIECE_LIST_LEN {
        f(bona_piece::ZERO);
    }
}

/// The active rows of `perspective` in `pos` for feature set `set`: the rows of
/// [`piece_numbers`] (and, for K+P, of both kings), found kind by kind from the piece bitboards
/// (a third of the instructions of going square by square, and a refresh after every king move
/// of HalfKP asks for them).
pub fn active(set: FeatureSet, pos: &Position, perspective: Color) -> ActiveFeatures {
    let mut out = ActiveFeatures { rows: [0; PIECE_LIST_LEN + 2], len: 0 };
    let own_king = king_square(pos, perspective, perspective);
    // A row is the king's block plus the piece number (`FeatureSet::index` is affine in it).
    let block = set.index(own_king, 0);
    for c in Color::ALL {
        for kind in PieceKind::ALL {
            if kind == PieceKind::King {
                continue;
            }
            let first = block + bona_piece::board_base(perspective, Piece::new(c, kind)) as usize;
            for sq in pos.pieces(c, kind) {
                out.push(first + bona_piece::relative_square(perspective, sq));
            }
        }
    }
    for owner in Color::ALL {
        let hand = pos.hand(owner);
        for kind in PieceKind::HAND {
            let first = block + bona_piece::hand(perspective, owner, kind, 0) as usize;
            for nth in 0..hand.count(kind) as usize {
                out.push(first + nth);
            }
        }
    }
    // A piece neither on the board nor in hand (handicaps) activates number 0.
    while out.len < PIECE_LIST_LEN {
        out.push(block + bona_piece::ZERO as usize);
    }
    if set == FeatureSet::KP {
        for c in Color::ALL {
            let friend = if c == perspective { 0 } else { 81 };
            out.push(bona_piece::F_KING as usize + friend + king_square(pos, c, perspective));
        }
    }
    out
}

/// One piece whose number a move changes: `old` leaves, `new` arrives (both sides' numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceChange {
    /// The number before the move.
    pub old: BothSides,
    /// The number after the move.
    pub new: BothSides,
}

impl PieceChange {
    /// True if the piece is a king (numbers from [`bona_piece::F_KING`] on).
    pub(crate) fn is_king(&self) -> bool {
        self.old[0] >= FE_END
    }
}

/// What a move changes in the inputs: one or two pieces (the mover, and a captured piece going
/// to hand), and which king moved. Computed from the position *before* the move, so a search can
/// record it at `do_move` and update accumulators later (lazily).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirtyPieces {
    changes: [PieceChange; 2],
    len: u8,
    king_moved: Option<Color>,
}

impl DirtyPieces {
    /// The changed pieces (the mover first).
    pub(crate) fn changes(&self) -> &[PieceChange] {
        &self.changes[..self.len as usize]
    }

    /// The side whose king moved, if the move was a king move.
    pub(crate) fn king_moved(&self) -> Option<Color> {
        self.king_moved
    }

    /// The changes of a null move: none (the side to move flips, the inputs stay).
    pub(crate) const fn null() -> DirtyPieces {
        let none = PieceChange { old: [0; 2], new: [0; 2] };
        DirtyPieces { changes: [none; 2], len: 0, king_moved: None }
    }

    /// The changes of `m`, legal in `before` (the position before the move is played).
    pub fn of_move(before: &Position, m: Move) -> DirtyPieces {
        let us = before.side_to_move();
        let none = PieceChange { old: [0; 2], new: [0; 2] };
        let mut dirty = DirtyPieces { changes: [none; 2], len: 1, king_moved: None };
        match m.kind() {
            MoveKind::Drop { kind, to } => {
                let nth = before.hand(us).count(kind).saturating_sub(1);
                dirty.changes[0] = PieceChange {
                    old: bona_piece::hand_both(us, kind, nth),
                    new: bona_piece::board_both(Piece::new(us, kind), to),
                };
            }
            MoveKind::Normal { from, to, promote } => {
                let Some(p) = before.piece_on(from) else {
                    dirty.len = 0;
                    return dirty;
                };
                let moved = match (promote, p.kind().promoted()) {
                    (true, Some(k)) => Piece::new(us, k),
                    _ => p,
                };
                if p.kind() == PieceKind::King {
                    dirty.king_moved = Some(us);
                }
                dirty.changes[0] =
                    PieceChange { old: bona_piece::board_both(p, from), new: bona_piece::board_both(moved, to) };
                if let Some(c) = before.piece_on(to) {
                    let kind = c.kind().unpromoted();
                    let nth = before.hand(us).count(kind);
                    dirty.changes[1] =
                        PieceChange { old: bona_piece::board_both(c, to), new: bona_piece::hand_both(us, kind, nth) };
                    dirty.len = 2;
                }
            }
        }
        dirty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_38_pieces_and_no_missing_ones() {
        let pos = Position::startpos();
        for perspective in Color::ALL {
            let mut numbers = Vec::new();
            piece_numbers(&pos, perspective, |p| numbers.push(p));
            assert_eq!(numbers.len(), 38);
            assert!(!numbers.contains(&bona_piece::ZERO));
            numbers.sort_unstable();
            let mut other = Vec::new();
            piece_numbers(&pos, !perspective, |p| other.push(p));
            other.sort_unstable();
            // The start is symmetric: both sides see the same numbers.
            assert_eq!(numbers, other);
        }
        // Black's king on 5i (square 44) from Black's side, White's on 5a turned to 5i too.
        assert_eq!(king_square(&pos, Color::Black, Color::Black), 44);
        assert_eq!(king_square(&pos, Color::White, Color::White), 44);
        let rows = active(FeatureSet::HalfKP, &pos, Color::Black);
        assert!(rows.as_slice().iter().all(|&r| (44 * 1548..45 * 1548).contains(&r)));
        assert_eq!(active(FeatureSet::KP, &pos, Color::Black).as_slice().len(), 40);
    }

    #[test]
    fn a_handicap_counts_each_missing_piece_as_number_zero() {
        // Two-piece handicap: White (the giver) lacks its rook and bishop.
        let pos = Position::handicap(crate::Handicap::TwoPiece);
        for perspective in Color::ALL {
            let mut zeros = 0;
            piece_numbers(&pos, perspective, |p| zeros += usize::from(p == bona_piece::ZERO));
            assert_eq!(zeros, 2);
            let king = king_square(&pos, perspective, perspective) as u32;
            let rows = active(FeatureSet::HalfKP, &pos, perspective);
            assert_eq!(rows.as_slice().iter().filter(|&&r| r == king * 1548).count(), 2);
        }
    }

    #[test]
    fn active_rows_are_the_piece_numbers_in_the_king_s_block() {
        // Hands of every kind and size, promoted pieces, a handicap with missing pieces, and
        // positions along a random game: `active` agrees with `piece_numbers` (as a multiset).
        let mut positions = vec![
            Position::startpos(),
            Position::handicap(crate::Handicap::TwoPiece),
            Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1")
                .expect("valid"),
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2RB4G4S4N4L17Pb 1").expect("valid"),
        ];
        let mut pos = Position::startpos();
        for ply in 0..120 {
            let moves = pos.legal_moves();
            let Some(&m) = moves.get((ply * 7919 + 13) % moves.len().max(1)) else { break };
            pos.do_move(m);
            positions.push(pos.clone());
        }
        for pos in &positions {
            for set in [FeatureSet::HalfKP, FeatureSet::KP] {
                for perspective in Color::ALL {
                    let king = king_square(pos, perspective, perspective);
                    let mut expected = Vec::new();
                    piece_numbers(pos, perspective, |p| expected.push(set.index(king, p) as u32));
                    if set == FeatureSet::KP {
                        for c in Color::ALL {
                            let friend = if c == perspective { 0 } else { 81 };
                            expected.push(bona_piece::F_KING as u32 + friend + king_square(pos, c, perspective) as u32);
                        }
                    }
                    let mut got = active(set, pos, perspective).as_slice().to_vec();
                    expected.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, expected, "{set:?} {perspective:?} {}", pos.to_sfen());
                }
            }
        }
    }

    #[test]
    fn hand_pieces_take_consecutive_numbers() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3P2r 1").expect("valid");
        let mut numbers = Vec::new();
        piece_numbers(&pos, Color::Black, |p| numbers.push(p));
        numbers.sort_unstable();
        // 3 black pawns: f_hand_pawn + 0..3; 2 white rooks: e_hand_rook + 0..2; 33 missing.
        assert_eq!(&numbers[33..], &[1, 2, 3, 88, 89]);
        assert!(numbers[..33].iter().all(|&p| p == 0));
    }
}
