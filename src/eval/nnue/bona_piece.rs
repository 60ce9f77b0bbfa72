//! YaneuraOu's `BonaPiece` numbering: one number per (piece, square) seen from one side, and per
//! (hand kind, how many-th piece) for pieces in hand — the "P" of every shogi NNUE input layer.
//!
//! Facts from YaneuraOu `source/evaluate.h` (`enum BonaPiece`, the Apery-style layout used with
//! `EVAL_NNUE`) and `source/eval/evaluate_bona_piece.cpp` (`kpp_board_index`, `kpp_hand_index`):
//!
//! - 0 (`BONA_PIECE_ZERO`) is the slot of a piece that is neither on the board nor in hand (the
//!   pieces a handicap removes): every such piece still counts, each one activating number 0.
//! - 1..90: hands. Per kind, the friend's range then the enemy's, in the order pawn (19 slots),
//!   lance, knight, silver, gold (5 each), bishop, rook (3 each). The `i`-th piece held (from 0)
//!   is `base + i`, so three pawns in hand are three numbers, `f_hand_pawn + 0..3`.
//! - 90..1548 (`fe_end`): the board, 81 squares per (kind, friend/enemy) in the order pawn, lance,
//!   knight, silver, gold (also every promoted minor piece), bishop, horse, rook, dragon.
//! - 1548..1710: kings (`f_king`, `e_king`), used by the K-P feature set only.
//!
//! "Friend" is the side whose point of view is taken. From White's point of view the board is
//! turned 180° (`Inv(sq) = 80 - sq`); YaneuraOu's squares are file-major from 1a = 0, as ours.

use crate::types::{Color, Piece, PieceKind, Square};

/// The number of piece numbers without kings (`fe_end`): the width of HalfKP's "P" per king square.
pub const FE_END: u16 = 1548;
/// Where the kings' numbers start (`f_king`).
pub const F_KING: u16 = FE_END;
/// One past the last king number (`fe_end2`): the K-P feature set's input count.
pub(crate) const FE_END2: u16 = F_KING + 2 * 81;
/// The number given to a piece that is neither on the board nor in hand (`BONA_PIECE_ZERO`).
pub(crate) const ZERO: u16 = 0;
/// Non-king pieces in a full set (`PIECE_NUMBER_KING`): the length of YaneuraOu's piece list.
pub const PIECE_LIST_LEN: usize = 38;

/// The friend's first number per hand kind (index = [`PieceKind::index`], Pawn … Gold), and how
/// many slots the kind has per side; the enemy's range follows the friend's.
const HAND_BASE: [(u16, u16); 7] = [
    (1, 19), // f_hand_pawn, e_hand_pawn = 20
    (39, 5), // f_hand_lance, e_hand_lance = 44
    (49, 5), // f_hand_knight, e_hand_knight = 54
    (59, 5), // f_hand_silver, e_hand_silver = 64
    (79, 3), // f_hand_bishop, e_hand_bishop = 82
    (85, 3), // f_hand_rook, e_hand_rook = 88
    (69, 5), // f_hand_gold, e_hand_gold = 74
];

/// The friend's first board number per kind (index = [`PieceKind::index`]); the enemy's is 81 on.
const BOARD_BASE: [u16; 14] = [
    90,     // Pawn: f_pawn
    252,    // Lance: f_lance
    414,    // Knight: f_knight
    576,    // Silver: f_silver
    900,    // Bishop: f_bishop
    1224,   // Rook: f_rook
    738,    // Gold: f_gold
    F_KING, // King: f_king
    738,    // ProPawn moves as a gold: f_gold
    738,    // ProLance: f_gold
    738,    // ProKnight: f_gold
    738,    // ProSilver: f_gold
    1062,   // Horse: f_horse
    1386,   // Dragon: f_dragon
];

/// `sq` as `perspective` sees it: unchanged for Black, turned 180° for White.
#[inline(always)]
pub(crate) fn relative_square(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Black => sq.index(),
        Color::White => sq.rotate().index(),
    }
}

/// The number of `piece` on `sq` seen by `perspective` (kings included: `f_king`/`e_king` + square).
#[inline(always)]
pub(crate) fn board(perspective: Color, piece: Piece, sq: Square) -> u16 {
    board_base(perspective, piece) + relative_square(perspective, sq) as u16
}

/// The first board number of `piece` seen by `perspective`: its number on a square is this plus
/// the square as `perspective` sees it ([`relative_square`]).
#[inline(always)]
pub(crate) fn board_base(perspective: Color, piece: Piece) -> u16 {
    let enemy = if piece.color() == perspective { 0 } else { 81 };
    BOARD_BASE[piece.kind().index()] + enemy
}

/// The number of the `nth` (from 0) piece of `kind` in `owner`'s hand, seen by `perspective`.
/// `kind` must be a hand kind and `nth` below its set count (checked in debug builds).
#[inline(always)]
pub(crate) fn hand(perspective: Color, owner: Color, kind: PieceKind, nth: u32) -> u16 {
    debug_assert!(kind.is_hand_kind() && nth < kind.set_count() as u32);
    let (base, slots) = HAND_BASE[kind.index()];
    let enemy = if owner == perspective { 0 } else { slots };
    base + enemy + nth as u16
}

/// A piece number seen from both sides, indexed by [`Color::index`] (YaneuraOu's `ExtBonaPiece`).
pub(crate) type BothSides = [u16; 2];

/// [`board`] from both sides.
#[inline(always)]
pub(crate) fn board_both(piece: Piece, sq: Square) -> BothSides {
    [board(Color::Black, piece, sq), board(Color::White, piece, sq)]
}

/// [`hand`] from both sides.
#[inline(always)]
pub(crate) fn hand_both(owner: Color, kind: PieceKind, nth: u32) -> BothSides {
    [hand(Color::Black, owner, kind, nth), hand(Color::White, owner, kind, nth)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_yaneuraou_enum() {
        // Values written out in YaneuraOu source/evaluate.h (enum BonaPiece, EVAL_NNUE branch).
        let b = Color::Black;
        let w = Color::White;
        let h = |owner, kind| hand(b, owner, kind, 0);
        assert_eq!(h(b, PieceKind::Pawn), 1);
        assert_eq!(h(w, PieceKind::Pawn), 20);
        assert_eq!(h(b, PieceKind::Lance), 39);
        assert_eq!(h(w, PieceKind::Lance), 44);
        assert_eq!(h(b, PieceKind::Knight), 49);
        assert_eq!(h(w, PieceKind::Silver), 64);
        assert_eq!(h(b, PieceKind::Gold), 69);
        assert_eq!(h(w, PieceKind::Gold), 74);
        assert_eq!(h(b, PieceKind::Bishop), 79);
        assert_eq!(h(w, PieceKind::Bishop), 82);
        assert_eq!(h(b, PieceKind::Rook), 85);
        assert_eq!(hand(b, w, PieceKind::Rook, 1), 89, "the last hand number is fe_hand_end - 1");
        let sq11 = Square::from_index(0).expect("1a");
        let on = |kind, color| board(b, Piece::new(color, kind), sq11);
        assert_eq!(on(PieceKind::Pawn, b), 90);
        assert_eq!(on(PieceKind::Pawn, w), 171);
        assert_eq!(on(PieceKind::Gold, w), 819);
        assert_eq!(on(PieceKind::ProSilver, b), 738, "promoted minors share gold's numbers");
        assert_eq!(on(PieceKind::Horse, b), 1062);
        assert_eq!(on(PieceKind::Rook, w), 1305);
        assert_eq!(on(PieceKind::Dragon, w), 1467);
        assert_eq!(on(PieceKind::King, b), 1548);
        assert_eq!(on(PieceKind::King, w), 1629);
        let sq99 = Square::from_index(80).expect("9i");
        assert_eq!(board(b, Piece::new(w, PieceKind::Dragon), sq99) + 1, FE_END);
        assert_eq!(board(b, Piece::new(w, PieceKind::King), sq99) + 1, FE_END2);
    }

    #[test]
    fn white_sees_the_board_turned_and_the_colours_swapped() {
        for sq in Square::all() {
            for kind in PieceKind::ALL {
                for c in Color::ALL {
                    let p = Piece::new(c, kind);
                    let flipped = Piece::new(!c, kind);
                    assert_eq!(board(Color::White, p, sq), board(Color::Black, flipped, sq.rotate()));
                }
            }
        }
        for kind in PieceKind::HAND {
            for n in 0..kind.set_count() as u32 {
                assert_eq!(hand(Color::White, Color::Black, kind, n), hand(Color::Black, Color::White, kind, n));
            }
        }
    }

    #[test]
    fn every_number_is_used_once() {
        let mut seen = vec![0u32; FE_END2 as usize];
        for c in Color::ALL {
            for kind in PieceKind::HAND {
                for n in 0..kind.set_count() as u32 {
                    seen[hand(Color::Black, c, kind, n) as usize] += 1;
                }
            }
            // The promoted minor pieces move like a gold and share Gold's numbers.
            let promoted_minor = |k: &PieceKind| {
                matches!(k, PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver)
            };
            for kind in PieceKind::ALL.into_iter().filter(|k| !promoted_minor(k)) {
                for sq in Square::all() {
                    seen[board(Color::Black, Piece::new(c, kind), sq) as usize] += 1;
                }
            }
        }
        // Unused: 0 (no piece) and the spare slot after each hand range but the last of a kind.
        let unused: Vec<usize> = (0..seen.len()).filter(|&i| seen[i] == 0).collect();
        assert_eq!(unused, vec![0, 19, 38, 43, 48, 53, 58, 63, 68, 73, 78, 81, 84, 87]);
        assert!(seen.iter().all(|&n| n <= 1));
    }
}
