//! The same networks in floating point — what a trainer holds — and their quantisation into the
//! integer [`Network`] that the inference runs: the contract between the two.
//!
//! Float semantics (scores in [`hisha::eval::Value`] units, side to move's view):
//! 1. per perspective, `acc = ft_biases + Σ ft_weights[row]` over the active rows, clipped to
//!    `0..=1`; the side to move's half first;
//! 2. `h1 = clamp(W1 · input + b1, 0, 1)`, `h2 = clamp(W2 · h1 + b2, 0, 1)`;
//! 3. `score = W3 · h2 + b3`.
//!
//! The integer inference ([`hisha::eval::nnue::forward`], YaneuraOu's) computes the same with activations
//! scaled by 127 (a u8 of `0..=127`), so the scales are fixed by it:
//! - transformer weights and biases: `× 127` (`ACTIVATION_SCALE`) to i16;
//! - hidden weights: `× 64` (`HIDDEN_WEIGHT_SCALE`, `1 << WEIGHT_SCALE_BITS`, the shift after
//!   each hidden layer) to i8; hidden biases `× 64 × 127` to i32;
//! - output weights: `× FV_SCALE / 127` to i8 (the output sums `weight × 127 h`, and the score is
//!   the sum divided by [`FV_SCALE`]); output bias `× FV_SCALE` to i32.
//!
//! So a hidden weight must stay within `±127 / 64` and an output weight within
//! `±127 × 127 / FV_SCALE` ([`max_weight`]) to survive quantisation unclipped; a trainer clips
//! to these bounds, and [`FloatNetwork::quantize`] counts what it had to clamp.

use hisha::eval::nnue::features;
use hisha::eval::nnue::forward::{FV_SCALE, WEIGHT_SCALE_BITS};
use hisha::eval::nnue::{Architecture, Network, NetworkWeights};
use hisha::{Color, Position};

/// The integer value of activation 1.0 (u8 activations run over `0..=127`).
pub(crate) const ACTIVATION_SCALE: f32 = 127.0;
/// The integer value of hidden weight 1.0.
pub(crate) const HIDDEN_WEIGHT_SCALE: f32 = (1 << WEIGHT_SCALE_BITS) as f32;

/// The largest float weight of affine layer `layer` (0, 1 = hidden, 2 = output) that quantises
/// without clamping.
pub fn max_weight(layer: usize) -> f32 {
    127.0 / weight_scale(layer)
}

/// The factor from a float weight of affine layer `layer` to its i8.
fn weight_scale(layer: usize) -> f32 {
    if layer < 2 { HIDDEN_WEIGHT_SCALE } else { FV_SCALE as f32 / ACTIVATION_SCALE }
}

/// Added to each hidden layer's integer biases so that the shift after the layer (a floor)
/// rounds to nearest instead: half of `1 << WEIGHT_SCALE_BITS`.
const ROUNDING: [f32; 3] = [HIDDEN_WEIGHT_SCALE / 2.0, HIDDEN_WEIGHT_SCALE / 2.0, 0.0];

/// The factor from a float bias of affine layer `layer` to its i32.
fn bias_scale(layer: usize) -> f32 {
    if layer < 2 { HIDDEN_WEIGHT_SCALE * ACTIVATION_SCALE } else { FV_SCALE as f32 }
}

/// A float affine layer: `weights` row-major, one row of `inputs` per output (no padding).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatAffine {
    /// Inputs per row.
    pub inputs: usize,
    /// Biases, one per output.
    pub biases: Vec<f32>,
    /// Weights, `outputs * inputs`.
    pub weights: Vec<f32>,
}

impl FloatAffine {
    fn zeroed(inputs: usize, outputs: usize) -> FloatAffine {
        FloatAffine { inputs, biases: vec![0.0; outputs], weights: vec![0.0; outputs * inputs] }
    }

    /// `clip(W x + b)` into `out` (clipped to `0..=1` if `clip`).
    fn forward(&self, x: &[f32], out: &mut [f32], clip: bool) {
        for ((o, &b), row) in out.iter_mut().zip(&self.biases).zip(self.weights.chunks_exact(self.inputs)) {
            let s = b + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
            *o = if clip { s.clamp(0.0, 1.0) } else { s };
        }
    }
}

/// A network in floating point (see the module docs for what it computes).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The shape.
    pub arch: Architecture,
    /// Transformer biases, `l1`.
    pub ft_biases: Vec<f32>,
    /// Transformer weights, one row of `l1` per input.
    pub ft_weights: Vec<f32>,
    /// The three affine layers, input side first.
    pub layers: [FloatAffine; 3],
}

/// How many values quantisation had to clamp, per part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Saturation {
    /// Transformer weights and biases beyond the i16 range.
    pub transformer: usize,
    /// Weights of each affine layer beyond the i8 range.
    pub weights: [usize; 3],
    /// Biases of each affine layer beyond the i32 range.
    pub biases: [usize; 3],
}

impl Saturation {
    /// True if nothing was clamped.
    pub fn is_none(&self) -> bool {
        *self == Saturation::default()
    }
}

/// `x` rounded into `lo..=hi`, counting a clamp in `clamped`.
fn round_clamped(x: f32, lo: f32, hi: f32, clamped: &mut usize) -> f32 {
    let r = x.round();
    if !(lo..=hi).contains(&r) {
        *clamped += 1;
    }
    r.clamp(lo, hi)
}

impl FloatNetwork {
    /// A network of `arch` (supported) with every parameter zero.
    pub fn zeroed(arch: Architecture) -> FloatNetwork {
        assert!(arch.is_supported(), "unsupported architecture {arch:?}");
        let [(i1, _, o1), (i2, _, o2), (i3, _, o3)] = arch.affine_layers();
        FloatNetwork {
            arch,
            ft_biases: vec![0.0; arch.l1],
            ft_weights: vec![0.0; arch.l1 * arch.features.dimensions()],
            layers: [FloatAffine::zeroed(i1, o1), FloatAffine::zeroed(i2, o2), FloatAffine::zeroed(i3, o3)],
        }
    }

    /// The float network that quantises to `net` exactly (each integer divided by its scale):
    /// a trained net to start from.
    pub fn from_network(net: &Network) -> FloatNetwork {
        let q = net.weights();
        let mut out = FloatNetwork::zeroed(q.arch);
        for (f, &q) in out.ft_biases.iter_mut().chain(&mut out.ft_weights).zip(q.ft_biases.iter().chain(&q.ft_weights))
        {
            *f = f32::from(q) / ACTIVATION_SCALE;
        }
        for (i, (f, q)) in out.layers.iter_mut().zip(&q.layers).enumerate() {
            for (fb, &qb) in f.biases.iter_mut().zip(&q.biases) {
                *fb = (qb as f32 - ROUNDING[i]) / bias_scale(i);
            }
            for (fw, &qw) in f.weights.iter_mut().zip(&q.weights) {
                *fw = f32::from(qw) / weight_scale(i);
            }
        }
        out
    }

    /// The transformer's clipped output for `perspective` in `pos`.
    fn transform(&self, pos: &Position, perspective: Color, out: &mut [f32]) {
        let l1 = self.arch.l1;
        out.copy_from_slice(&self.ft_biases);
        for &row in features::active(self.arch.features, pos, perspective).as_slice() {
            for (o, w) in out.iter_mut().zip(&self.ft_weights[row as usize * l1..][..l1]) {
                *o += w;
            }
        }
        for o in out.iter_mut() {
            *o = o.clamp(0.0, 1.0);
        }
    }

    /// The float score of `pos` for the side to move (a reference: slow, one position at a time).
    pub fn evaluate_position(&self, pos: &Position) -> f32 {
        let l1 = self.arch.l1;
        let mut input = vec![0.0; 2 * l1];
        let us = pos.side_to_move();
        self.transform(pos, us, &mut input[..l1]);
        self.transform(pos, !us, &mut input[l1..]);
        let [first, second, output] = &self.layers;
        let mut h1 = vec![0.0; first.biases.len()];
        first.forward(&input, &mut h1, true);
        let mut h2 = vec![0.0; second.biases.len()];
        second.forward(&h1, &mut h2, true);
        let mut out = [0.0];
        output.forward(&h2, &mut out, false);
        out[0]
    }

    /// The integer network, and what had to be clamped to make it.
    pub fn quantize(&self) -> (Network, Saturation) {
        let mut sat = Saturation::default();
        let mut net = NetworkWeights::zeroed(self.arch);
        let (lo, hi) = (f32::from(i16::MIN), f32::from(i16::MAX));
        for (q, &f) in
            net.ft_biases.iter_mut().chain(&mut net.ft_weights).zip(self.ft_biases.iter().chain(&self.ft_weights))
        {
            *q = round_clamped(f * ACTIVATION_SCALE, lo, hi, &mut sat.transformer) as i16;
        }
        for (i, (q, f)) in net.layers.iter_mut().zip(&self.layers).enumerate() {
            let (ws, bs) = (weight_scale(i), bias_scale(i));
            for (qb, &fb) in q.biases.iter_mut().zip(&f.biases) {
                // i32 bounds as f32 (2^31 rounds up): keep a margin that stays exact.
                *qb = round_clamped(fb * bs + ROUNDING[i], -2.0e9, 2.0e9, &mut sat.biases[i]) as i32;
            }
            for (qw, &fw) in q.weights.iter_mut().zip(&f.weights) {
                *qw = round_clamped(fw * ws, -127.0, 127.0, &mut sat.weights[i]) as i8;
            }
        }
        match Network::from_weights(&net) {
            Ok(net) => (net, sat),
            // `NetworkWeights::zeroed` made every part the size the architecture needs.
            Err(e) => unreachable!("weights of the architecture's own shape: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::eval::nnue::FeatureSet;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// A float net whose activations spread over their ranges, as a trained one's do.
    fn random_float(arch: Architecture, seed: u64) -> FloatNetwork {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut net = FloatNetwork::zeroed(arch);
        for b in &mut net.ft_biases {
            *b = rng.random_range(0.0..0.6);
        }
        for w in &mut net.ft_weights {
            *w = rng.random_range(-0.08..0.08);
        }
        let spreads = [(0.15, 0.2), (0.5, 0.2), (400.0, 50.0)];
        for (layer, (w_range, b_range)) in net.layers.iter_mut().zip(spreads) {
            for w in &mut layer.weights {
                *w = rng.random_range(-w_range..w_range);
            }
            for b in &mut layer.biases {
                *b = rng.random_range(-b_range..b_range);
            }
        }
        net
    }

    fn positions() -> Vec<Position> {
        let starts = hisha::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok());
        hisha::bench::random_walks(starts, 40, &mut StdRng::seed_from_u64(3))
    }

    #[test]
    fn the_quantised_net_evaluates_as_the_float_net_within_rounding() {
        for features in [FeatureSet::KP, FeatureSet::HalfKP] {
            let arch = Architecture { features, l1: 64, l2: 32, l3: 32 };
            let float = random_float(arch, 1);
            let (int, sat) = float.quantize();
            assert!(sat.is_none(), "{sat:?}");
            let (mut worst, mut sum_abs, mut spread) = (0f32, 0f32, 0f32);
            let positions = positions();
            for p in &positions {
                let f = float.evaluate_position(p);
                let q = int.evaluate_position(p) as f32;
                worst = worst.max((f - q).abs());
                sum_abs += (f - q).abs();
                spread = spread.max(f.abs());
            }
            let mean = sum_abs / positions.len() as f32;
            // Rounding moves each score by a few units per layer: the first hidden layer's
            // resolution of 1/64 against weights of at most 0.15 here (about ten steps) moves each
            // of the 32 activations feeding output weights of up to 400 by a fraction of a percent;
            // then the transformer's 1/127. Measured (rounding one layer at a time, then all): a
            // mean of 15 (K+P) and 18 (HalfKP), worst 59 and 68, for scores up to 892 and 427. A
            // wrong scale or sign moves scores by hundreds.
            assert!(spread > 300.0, "the test net's scores spread: {spread}");
            assert!(mean < 25.0 && worst < 100.0, "{features:?}: mean {mean} worst {worst} of {spread}");
        }
    }

    #[test]
    fn the_quantised_net_evaluates_as_its_own_float_form_within_activation_rounding() {
        for features in [FeatureSet::KP, FeatureSet::HalfKP] {
            let arch = Architecture { features, l1: 64, l2: 32, l3: 32 };
            let (int, _) = random_float(arch, 2).quantize();
            let float = FloatNetwork::from_network(&int);
            assert_eq!(float.quantize().0, int, "from_network inverts quantize");
            let (mut worst, mut sum_abs, mut spread) = (0f32, 0f32, 0f32);
            let positions = positions();
            for p in &positions {
                let f = float.evaluate_position(p);
                let error = (f - int.evaluate_position(p) as f32).abs();
                (worst, sum_abs, spread) = (worst.max(error), sum_abs + error, spread.max(f.abs()));
            }
            let mean = sum_abs / positions.len() as f32;
            // With the weights identical, only the activations differ: the integer net rounds each
            // hidden activation to a multiple of 1/127 and truncates the score at the end.
            // Measured: mean 2.5 and 2.6, worst 10.6 and 11.2 (K+P, HalfKP) for scores up to 578
            // and 554 (mean under 0.5 %, worst under 2 %); a wrong scale would be off by far more.
            assert!(
                mean < 0.01 * spread && worst < 0.03 * spread,
                "{features:?}: mean {mean} worst {worst} of {spread}"
            );
        }
    }

    #[test]
    fn weights_beyond_the_bounds_are_clamped_and_counted() {
        let arch = Architecture { features: FeatureSet::KP, l1: 32, l2: 8, l3: 8 };
        let mut float = FloatNetwork::zeroed(arch);
        float.layers[0].weights[0] = max_weight(0);
        float.layers[0].weights[1] = max_weight(0) * 1.1;
        float.layers[2].weights[0] = -max_weight(2) * 2.0;
        float.ft_weights[5] = 300.0;
        let (net, sat) = float.quantize();
        assert_eq!(sat.weights, [1, 0, 1]);
        assert_eq!(sat.transformer, 1);
        let q = net.weights();
        assert_eq!(&q.layers[0].weights[..2], &[127, 127]);
        assert_eq!(q.layers[2].weights[0], -127);
        assert_eq!(q.ft_weights[5], i16::MAX);
    }

    #[test]
    fn an_output_bias_alone_gives_that_score() {
        let arch = Architecture { features: FeatureSet::HalfKP, l1: 32, l2: 8, l3: 8 };
        let mut float = FloatNetwork::zeroed(arch);
        float.layers[2].biases[0] = 250.0;
        let (net, _) = float.quantize();
        let p = Position::startpos();
        assert_eq!(float.evaluate_position(&p), 250.0);
        assert_eq!(net.evaluate_position(&p), 250);
    }
}
