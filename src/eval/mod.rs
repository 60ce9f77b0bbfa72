//! Static evaluation. Scores are centipawns from the side to move's point of view ([`Value`],
//! with the mate conventions).
//!
//! hisha evaluates with an NNUE net by default: the built-in net ([`nnue::builtin()`], embedded in
//! the binary), what the USI option `EvalFile` names by default (`builtin`, or empty), and what
//! `hisha bench` uses; `EvalFile` may also name a YaneuraOu-format `nn.bin` ([`nnue`]). The
//! linear evaluation of this module ([`evaluate`]) is the fallback: chosen with
//! `setoption name EvalFile value linear` (`hisha bench --evalfile linear`), and used only if the
//! embedded net cannot be read. The search reaches either through its per-thread evaluator
//! (`search/evaluator.rs`).
//!
//! The linear evaluation: material on the board and in hand (with diminishing returns),
//! piece-square tables absolute and relative to both kings, king danger that grows with the
//! square of the attack units, slider mobility, threats and tempo. The terms are defined once, in
//! [`features`], over the weight vector laid out in [`layout`]; the weights (`weights.rs`) are
//! fitted to self-play games by `examples/tune_eval.rs` (the file says how they were made). The
//! fixed piece values below serve move ordering and exchange evaluation, whichever evaluation is
//! in use, not the evaluation itself.

pub mod features;
mod king;
pub mod layout;
pub mod nnue;
mod weights;

use crate::position::Position;
use crate::types::PieceKind;

pub use weights::WEIGHTS;

/// A search or evaluation score in centipawns, or a mate distance near [`MATE`].
pub type Value = i32;

/// Score of giving mate at the root (mate in 0 plies).
pub const MATE: Value = 32_000;
/// Larger than any score.
pub(crate) const INFINITE: Value = 32_001;
/// Scores at or beyond this are mate scores.
pub const MATE_BOUND: Value = MATE - 1_000;

/// The score of mating in `ply` plies.
pub(crate) const fn mate_in(ply: u32) -> Value {
    MATE - ply as Value
}

/// The score of being mated in `ply` plies.
pub(crate) const fn mated_in(ply: u32) -> Value {
    -MATE + ply as Value
}

/// True for mate scores (either side).
pub(crate) const fn is_mate_score(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Value of a piece of `kind` on the board (King: 0).
pub const fn piece_value(kind: PieceKind) -> Value {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::ProPawn => 540,
        PieceKind::ProLance => 540,
        PieceKind::ProKnight => 540,
        PieceKind::ProSilver => 540,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
        PieceKind::King => 0,
    }
}

/// Value of a piece of `kind` in hand (a hand piece can go anywhere, so it is worth a little more).
pub const fn hand_value(kind: PieceKind) -> Value {
    match kind {
        PieceKind::Pawn => 100,
        PieceKind::Lance => 340,
        PieceKind::Knight => 430,
        PieceKind::Silver => 540,
        PieceKind::Gold => 590,
        PieceKind::Bishop => 920,
        PieceKind::Rook => 1080,
        _ => 0,
    }
}

/// What capturing a piece of `kind` gains: its board value plus the value it adds to the hand.
pub(crate) const fn capture_value(kind: PieceKind) -> Value {
    piece_value(kind) + hand_value(kind.unpromoted())
}

/// The linear evaluation of `pos` (the fallback to the built-in net, `EvalFile linear`) from the
/// side to move's point of view, in centipawns.
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    features::evaluate_with(pos, &weights::WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Handicap;
    use crate::types::Square;

    #[test]
    fn the_start_position_is_balanced() {
        // Symmetric position: only the tempo bonus remains.
        assert_eq!(evaluate(&Position::startpos()), WEIGHTS[layout::TEMPO] as Value);
    }

    /// `pos` rotated 180° with the colours of pieces, hands and side to move swapped.
    fn colour_flipped(pos: &Position) -> Position {
        let setup = pos.to_setup();
        let mut flipped = setup.clone();
        for sq in Square::all() {
            flipped.board[sq.rotate().index()] =
                setup.board[sq.index()].map(|pc| crate::types::Piece::new(!pc.color(), pc.kind()));
        }
        flipped.hands = [setup.hands[1], setup.hands[0]];
        flipped.side_to_move = !setup.side_to_move;
        Position::from_setup(&flipped).expect("a flipped legal position is legal")
    }

    /// `pos` mirrored left to right (file 1 ↔ file 9).
    fn mirrored(pos: &Position) -> Position {
        let setup = pos.to_setup();
        let mut m = setup.clone();
        for sq in Square::all() {
            let f = crate::types::File::ALL[8 - sq.file().index()];
            m.board[Square::new(f, sq.rank()).index()] = setup.board[sq.index()];
        }
        Position::from_setup(&m).expect("a mirrored legal position is legal")
    }

    #[test]
    fn symmetric_under_colour_flip_and_mirror() {
        // Rotating the board and swapping colours and the side to move gives the same score.
        // Mirroring left to right does too while neither king stands on the centre file: the
        // king-relative tables are mirrored so that the king is on the left half, and with the king
        // on the centre file they tell the two sides apart. That asymmetry is kept on purpose:
        // weights fitted with the two sides merged there scored 35-43 against these at byoyomi
        // 200 ms (opening theory is not symmetric: the rook usually goes right, the king left).
        let off_centre =
            |p: &Position| crate::Color::ALL.iter().all(|&c| p.king_square(c).is_some_and(|k| k.file().index() != 4));
        let mut mirrors = 0;
        for sfen in crate::bench::POSITIONS {
            let p = Position::from_sfen(sfen).expect("valid");
            assert_eq!(evaluate(&p), evaluate(&colour_flipped(&p)), "colour flip of {sfen}");
            if off_centre(&p) {
                assert_eq!(evaluate(&p), evaluate(&mirrored(&p)), "mirror of {sfen}");
                mirrors += 1;
            }
        }
        assert!(mirrors >= 5, "only {mirrors} bench positions have both kings off the centre file");
    }

    /// Sums the terms of `extract` with the weights the way the tuner does (floats).
    struct FloatSum {
        us: crate::Color,
        linear: f64,
        units: [f64; 2],
    }

    impl features::Accumulator for FloatSum {
        fn linear(&mut self, c: crate::Color, index: usize, count: i32) {
            let sign = if c == self.us { 1.0 } else { -1.0 };
            self.linear += sign * WEIGHTS[index] as f64 * count as f64;
        }
        fn danger(&mut self, c: crate::Color, input: usize, count: i32) {
            let (sign, side) = if c == self.us { (1.0, 0) } else { (-1.0, 1) };
            self.linear += sign * WEIGHTS[layout::DANGER_LINEAR + input] as f64 * count as f64;
            self.units[side] += WEIGHTS[layout::DANGER_UNITS + input] as f64 * count as f64;
        }
    }

    #[test]
    fn the_terms_the_tuner_sees_add_up_to_the_evaluation() {
        for sfen in crate::bench::POSITIONS {
            let p = Position::from_sfen(sfen).expect("valid");
            let mut sum = FloatSum { us: p.side_to_move(), linear: 0.0, units: [0.0; 2] };
            features::extract(&p, &mut sum);
            let penalty = |u: f64| features::danger_penalty(u as i32) as f64;
            let total = sum.linear - penalty(sum.units[0]) + penalty(sum.units[1]);
            assert_eq!(total as Value, evaluate(&p), "{sfen}");
        }
    }

    #[test]
    fn material_up_is_better() {
        // A rook handicap: Black (to move second) is a rook up.
        let mut p = Position::handicap(Handicap::Rook);
        assert!(evaluate(&p) < -500, "White to move is a rook down: {}", evaluate(&p));
        p.do_null_move();
        assert!(evaluate(&p) > 500);
    }

    #[test]
    fn mate_scores() {
        assert!(is_mate_score(mate_in(5)) && is_mate_score(mated_in(7)));
        assert!(!is_mate_score(3000));
        assert!(mate_in(1) > mate_in(3));
    }
}
