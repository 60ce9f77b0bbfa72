//! Correction history: what the search learnt about the static evaluation's error in positions
//! that share a feature, added back to the evaluation of the next such position.
//!
//! When a node's search result differs from its static evaluation in the direction its bound
//! allows (a fail high above it, a fail low below it) and the best move is not a capture (a
//! capture's gain is no error of the evaluation), the difference, scaled by the depth, moves the
//! entries of the position's features towards it. The features are the pawns on the board (both
//! sides) and, per side, where its other pieces stand (the big pieces apart) with its hand:
//! shapes the net misjudges tend to keep being misjudged while they last. A continuation table
//! adds the last move after our own two and four plies back (Stockfish's continuation correction
//! history): the error the opponent's reply tends to leave after a given move of ours.
//!
//! The idea and the update rule are Stockfish's (also in YaneuraOu): the entries saturate at
//! ±[`LIMIT`], the bonus is a quarter of that at most, and the weights below sum the tables in
//! 1/[`SCALE`] of a centipawn-like unit.

use super::history::{CONT_KEYS, PreviousKeys, gravity};
use crate::eval::{MATE_BOUND, Value};
use crate::position::Position;
use crate::types::{Color, PieceKind};

/// Entries saturate at ± this.
const LIMIT: i32 = 1024;
/// Entries per table and side to move.
const SIZE: usize = 1 << 14;
/// The corrected evaluation adds the weighted entries divided by this.
const SCALE: i32 = 131_072;
/// Weight of the pawn table.
const PAWN_WEIGHT: i32 = 12_000;
/// Weight of each side's pieces-and-hand table.
const PIECES_WEIGHT: i32 = 12_000;
/// Weight of each of the two continuation entries.
const CONT_WEIGHT: i32 = 8_000;
/// The continuation table's last entry, read where a move is missing: never learnt, always 0.
const NO_PAIR: u32 = (CONT_KEYS * CONT_KEYS) as u32;

/// The table indices of one position's features (`Default`: no position's, for nodes in check,
/// which neither read nor learn).
#[derive(Clone, Copy, Debug)]
pub(super) struct Keys {
    pawns: usize,
    pieces: [usize; 2],
    /// The continuation table's entries of (our move two plies back, the last move) and (our
    /// move four plies back, the last move); [`NO_PAIR`] where a move is missing.
    cont: [u32; 2],
}

impl Default for Keys {
    fn default() -> Keys {
        Keys { pawns: 0, pieces: [0; 2], cont: [NO_PAIR; 2] }
    }
}

/// Folds a bitboard into a table index.
#[inline(always)]
fn fold(bits: u128, salt: u64) -> u64 {
    let (lo, hi) = (bits as u64, (bits >> 64) as u64);
    (lo ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (hi ^ salt.rotate_left(17)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

#[inline(always)]
fn index(h: u64) -> usize {
    (h >> (64 - SIZE.trailing_zeros())) as usize
}

impl Keys {
    /// The features of `pos`, reached by the moves with keys `previous`.
    #[inline(always)]
    pub(super) fn of(pos: &Position, previous: &PreviousKeys) -> Keys {
        let pawns = pos.pieces_of_kind(PieceKind::Pawn);
        let big = pos.bishop_movers() | pos.rook_movers();
        let side = |c: Color| {
            let own = pos.pieces_of(c);
            let h = fold((own - pawns).0, 0x51A9) ^ fold((own & big).0, 0x7E3D);
            index(h ^ (pos.hand(c).bits() as u64 + 1).wrapping_mul(0xFF51_AFD7_ED55_8CCD))
        };
        let black_pawns = pawns & pos.pieces_of(Color::Black);
        Keys {
            pawns: index(fold(black_pawns.0, 0x1234) ^ fold((pawns - black_pawns).0, 0x9876)),
            pieces: [side(Color::Black), side(Color::White)],
            cont: match *previous {
                [Some(last), ours, four] => [ours, four].map(|k| k.map_or(NO_PAIR, |k| k.pair_index(last) as u32)),
                _ => [NO_PAIR; 2],
            },
        }
    }
}

/// The correction tables of one search thread.
pub(super) struct Correction {
    /// Per side to move: pawns, Black's pieces, White's pieces.
    tables: Box<[[[i16; SIZE]; 3]; 2]>,
    /// By pair of continuation keys (the mover's point of view: both sides share it), and
    /// [`NO_PAIR`].
    cont: Box<[i16]>,
}

impl Correction {
    /// Empty tables.
    pub(super) fn new() -> Correction {
        Correction { tables: Box::new([[[0; SIZE]; 3]; 2]), cont: vec![0; NO_PAIR as usize + 1].into_boxed_slice() }
    }

    /// Forgets everything.
    pub(super) fn clear(&mut self) {
        self.tables.iter_mut().flatten().for_each(|t| t.fill(0));
        self.cont.fill(0);
    }

    /// `raw`, the static evaluation of a position with `keys` and `us` to move, corrected (and
    /// kept out of the mate range).
    #[inline(always)]
    pub(super) fn corrected(&self, us: Color, keys: &Keys, raw: Value) -> Value {
        let t = &self.tables[us.index()];
        let sum = PAWN_WEIGHT * t[0][keys.pawns] as i32
            + PIECES_WEIGHT * (t[1][keys.pieces[0]] as i32 + t[2][keys.pieces[1]] as i32)
            + CONT_WEIGHT * (self.cont[keys.cont[0] as usize] as i32 + self.cont[keys.cont[1] as usize] as i32);
        (raw + sum / SCALE).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Learns from a node searched to `depth` whose best score `best` differs from its
    /// corrected evaluation `eval`; `raised`: a move raised alpha (the caller leaves out nodes
    /// whose best move captures).
    #[inline(always)]
    pub(super) fn learn(&mut self, us: Color, keys: &Keys, depth: i32, eval: Value, best: Value, raised: bool) {
        if (best > eval) != raised || best.abs() >= MATE_BOUND {
            return;
        }
        let bonus = ((best - eval) * depth * if raised { 12 } else { 17 } / 128).clamp(-LIMIT / 4, LIMIT / 4);
        let t = &mut self.tables[us.index()];
        let indices = [keys.pawns, keys.pieces[0], keys.pieces[1]];
        for (table, i) in t.iter_mut().zip(indices) {
            gravity(&mut table[i], bonus, LIMIT);
        }
        for i in keys.cont.into_iter().filter(|&i| i != NO_PAIR) {
            gravity(&mut self.cont[i as usize], bonus, LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::{ContKey, NO_PREVIOUS};

    #[test]
    fn a_fail_high_above_the_evaluation_raises_it_and_a_fail_low_lowers_it() {
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").expect("valid");
        let keys = Keys::of(&pos, &NO_PREVIOUS);
        let us = pos.side_to_move();
        let mut c = Correction::new();
        assert_eq!(c.corrected(us, &keys, 50), 50, "nothing learnt yet");
        for _ in 0..20 {
            c.learn(us, &keys, 8, 50, 400, true);
        }
        let up = c.corrected(us, &keys, 50);
        assert!(up > 50 && up <= 50 + 3 * PAWN_WEIGHT.max(PIECES_WEIGHT) * LIMIT / SCALE, "{up}");
        assert_eq!(c.corrected(!us, &keys, 50), 50, "the other side to move learnt nothing");
        // Inconsistent with its bound (a fail high below the evaluation) or a mate: ignored.
        let mut same = Correction::new();
        same.learn(us, &keys, 8, 50, -300, true);
        same.learn(us, &keys, 8, 50, MATE_BOUND + 5, true);
        assert_eq!(same.corrected(us, &keys, 50), 50);
        for _ in 0..60 {
            c.learn(us, &keys, 8, 50, -400, false);
        }
        assert!(c.corrected(us, &keys, 50) < 50, "fail lows below the evaluation lower it");
        c.clear();
        assert_eq!(c.corrected(us, &keys, 50), 50);
    }

    #[test]
    fn the_continuation_entries_learn_by_the_moves_that_led_to_the_position() {
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").expect("valid");
        let us = pos.side_to_move();
        let key = |usi: &str| ContKey::of(&pos, pos.parse_usi_move(usi).expect("legal")).expect("a piece moves");
        let (a, b, c) = (key("7g7f"), key("2g2f"), key("2h5h"));
        let after_ab = Keys::of(&pos, &[Some(b), Some(a), None]);
        let after_cb = Keys::of(&pos, &[Some(b), Some(c), None]);
        let after_ba = Keys::of(&pos, &[Some(a), Some(b), None]);
        assert_eq!(Keys::of(&pos, &[None, Some(a), Some(c)]).cont, [NO_PAIR; 2], "no last move");
        let mut learnt = Correction::new();
        for _ in 0..20 {
            learnt.learn(us, &after_ab, 8, 50, 400, true);
        }
        // The same pieces on the board: the pawn and piece tables raise all three alike, the
        // continuation entry only the position reached by the same two moves.
        let [ab, cb, ba] = [after_ab, after_cb, after_ba].map(|k| learnt.corrected(us, &k, 50));
        assert!(ab > cb && cb > 50, "{ab} {cb}");
        assert_eq!(cb, ba, "the order of the moves counts");
        assert_eq!(learnt.cont[NO_PAIR as usize], 0, "the missing pair's entry learns nothing");
        let none = Keys::of(&pos, &NO_PREVIOUS);
        for _ in 0..20 {
            learnt.learn(us, &none, 8, 50, -400, false);
        }
        assert_eq!(learnt.cont[NO_PAIR as usize], 0);
    }

    #[test]
    fn positions_that_differ_in_pawns_pieces_or_hands_have_other_keys() {
        let keys = |sfen: &str| {
            let k = Keys::of(&Position::from_sfen(sfen).expect("valid"), &NO_PREVIOUS);
            (k.pawns, k.pieces)
        };
        let start = keys("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let pawn = keys("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1");
        let black_hand = keys("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1");
        let white_hand = keys("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b p 1");
        let rook = keys("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3R3/LNSGKGSNL b - 1");
        assert_ne!(start.0, pawn.0);
        assert_eq!(start.1, pawn.1, "only a pawn moved");
        assert_eq!(black_hand.0, white_hand.0, "the same pawns on the board");
        assert_ne!(black_hand.1[0], white_hand.1[0], "Black's hand differs");
        assert_ne!(black_hand.1[1], white_hand.1[1], "White's hand differs");
        assert_ne!(start.1[0], rook.1[0]);
    }
}
