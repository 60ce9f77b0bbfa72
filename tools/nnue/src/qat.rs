//! Quantisation-aware training: the passes can run on the weights and activations the integer
//! inference will use, each rounded to its integer step, while Adam goes on updating the float
//! weights (the straight-through estimator: rounding is taken as the identity for gradients).
//!
//! A small net needs it: the first hidden layer of a HalfKP 64x2-16-16 net has weights of a few
//! 1/64 steps (median 3 in the net shipped on 2026-11-24), so rounding them at export cost that
//! net 0.0014 of held-out loss (0.05930 float, 0.06071 quantised). The transformer's weights are
//! not rounded here (8 M of them, each a small share of a sum of 38), its outputs are.

use crate::model::{Layout, OUTPUT_SCALE};
use hisha_nnue::float::max_weight;

/// Integer steps per unit of activation (the inference's u8 activations run over `0..=127`).
const ACTIVATION_STEPS: f32 = 127.0;

/// `x` rounded to a multiple of `1 / steps`.
#[inline]
fn round_to(x: f32, steps: f32) -> f32 {
    (x * steps).round() / steps
}

/// `x` rounded to the integer inference's activation step.
#[inline]
pub fn round_activation(x: f32) -> f32 {
    round_to(x, ACTIVATION_STEPS)
}

/// Writes into `out` the dense parameters `dense` (laid out as `l` says) as the quantised net
/// holds them: transformer biases in steps of 1/127, hidden weights of 1/64 and their biases of
/// 1/(64 × 127), the output weights and bias in the steps of `FV_SCALE` (model units, a score
/// being [`OUTPUT_SCALE`] × the output).
pub fn quantised_view(dense: &[f32], l: &Layout, out: &mut Vec<f32>) {
    out.clear();
    out.extend_from_slice(dense);
    for b in &mut out[l.ft_b..l.w1] {
        *b = round_activation(*b);
    }
    // (weights, biases, end, layer, model units per float unit of the library's layer)
    let layers = [(l.w1, l.b1, l.w2, 0, 1.0), (l.w2, l.b2, l.w3, 1, 1.0), (l.w3, l.b3, l.len, 2, OUTPUT_SCALE)];
    for (weights, biases, end, layer, unit) in layers {
        // The library's weight scale is 127 / max_weight; a bias's is that times 127.
        let steps = 127.0 / max_weight(layer) * unit;
        for w in &mut out[weights..biases] {
            *w = round_to(*w, steps);
        }
        for b in &mut out[biases..end] {
            *b = round_to(*b, steps * ACTIVATION_STEPS);
        }
    }
}
