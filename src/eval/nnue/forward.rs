//! The forward pass from an accumulator to a score, in integers as YaneuraOu computes it
//! (`evaluate_nnue.cpp` `ComputeScore`, `nnue_feature_transformer.h` `Transform`,
//! `layers/affine_transform.h`, `layers/clipped_relu.h`):
//! 1. the side to move's half then the other half, each clamped to 0..=127 (u8);
//! 2. affine to `L2` (i32), clipped ReLU (`>>` [`WEIGHT_SCALE_BITS`] = 6, clamped to 0..=127);
//! 3. affine to `L3`, clipped ReLU; affine to one i32 output;
//! 4. the score is the output divided by [`FV_SCALE`] (truncating, as C++ `/`), from the side to
//!    move's point of view, in YaneuraOu's units — the units of [`Value`] (a pawn is 90).

pub use super::simd::WEIGHT_SCALE_BITS;

use super::accumulator::Accumulator;
use super::architecture::{MAX_HIDDEN, MAX_L1, padded};
use super::network::Network;
use crate::eval::{MATE_BOUND, Value};
use crate::position::Position;
use crate::types::Color;

/// The divisor from the network's output to the score (YaneuraOu's default `FV_SCALE`).
pub const FV_SCALE: i32 = 16;

/// The largest score an evaluation returns: YaneuraOu clamps at ±31,753 (`VALUE_MAX_EVAL`);
/// here the bound stays below [`MATE_BOUND`] so that no evaluation reads as a mate score.
pub const MAX_EVAL: Value = MATE_BOUND - 1;

#[repr(C, align(32))]
struct Bytes<const N: usize>([u8; N]);

impl Network {
    /// The network's raw output for `acc` with `side_to_move` to move (before [`FV_SCALE`]).
    pub fn propagate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        // Buffers sized for the net: zeroing the largest ones for a small net cost more than
        // the forward pass itself (about 100 instructions an evaluation for HalfKP-64).
        let (l1, hidden) = (self.arch.l1, self.arch.l2.max(self.arch.l3));
        match (l1, hidden) {
            (..=64, ..=32) => self.propagate_in::<128, 32>(acc, side_to_move),
            (..=256, ..=32) => self.propagate_in::<512, 32>(acc, side_to_move),
            _ => self.propagate_in::<{ 2 * MAX_L1 }, { padded(MAX_HIDDEN) }>(acc, side_to_move),
        }
    }

    /// [`Network::propagate`] with buffers of `IN` transformer outputs (at least `2 * l1`) and
    /// `H` hidden values (at least the widest hidden layer, padded).
    #[inline(always)]
    fn propagate_in<const IN: usize, const H: usize>(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let l1 = self.arch.l1;
        let k = self.kernel;
        let mut input = Bytes::<IN>([0; IN]);
        k.transform(acc.half(side_to_move, l1), acc.half(!side_to_move, l1), &mut input.0);
        let [first, second, output] = &self.layers;
        let mut sums = [0i32; H];
        let mut hidden = Bytes::<H>([0; H]);
        k.affine(first, &input.0, &mut sums);
        k.clipped_relu(&sums[..first.outputs()], &mut hidden.0[..second.padded_inputs]);
        k.affine(second, &hidden.0, &mut sums);
        k.clipped_relu(&sums[..second.outputs()], &mut hidden.0[..output.padded_inputs]);
        let mut out = [0i32; 1];
        k.affine(output, &hidden.0, &mut out);
        out[0]
    }

    /// The score of the position `acc` was computed for, `side_to_move` to move: YaneuraOu's
    /// evaluation of that position (within ±[`MAX_EVAL`]).
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> Value {
        (self.propagate(acc, side_to_move) / FV_SCALE).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The score of `pos` from scratch (a fresh accumulator; for tests and tools — a search
    /// keeps accumulators and updates them).
    pub fn evaluate_position(&self, pos: &Position) -> Value {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side_to_move())
    }
}
