//! The network being trained, in f32: a sparse feature transformer (K+P, HalfKP, or HalfKP with a
//! factoriser) and the dense layers, with the forward and backward pass of one sample.
//!
//! The factoriser adds one shared row per piece number ("P", 1,548 rows after HalfKP's 125,388):
//! every active HalfKP row `king * 1548 + p` also activates `P[p]`, so what a piece is worth
//! regardless of the king is learnt from every position at once. At export `P[p]` is added into
//! each king's row `king * 1548 + p`, which gives exactly the same sums ([`Model::to_float`]).
//!
//! The output is in units of [`OUTPUT_SCALE`]: a score is `600 × output`. The loss of a sample
//! is `(sigmoid(score / scale) - target)²` with `target = λ · sigmoid(teacher / scale) + (1 − λ)
//! · (result + 1) / 2` (the elmo / YaneuraOu / nnue-pytorch mix, `λ` on the search's score).

use crate::dataset::Sample;
use crate::qat::{quantised_view, round_activation};
use hisha::eval::nnue::bona_piece::{F_KING, FE_END, PIECE_LIST_LEN};
use hisha::eval::nnue::{Architecture, FeatureSet};
use hisha_nnue::float::{FloatNetwork, max_weight};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Score units per unit of the model's output.
pub const OUTPUT_SCALE: f32 = 600.0;
/// The most rows a perspective activates (HalfKP and its factors: 2 × 38).
pub const MAX_ACTIVE: usize = 2 * PIECE_LIST_LEN + 2;

/// The shape being trained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The exported architecture.
    pub arch: Architecture,
    /// HalfKP only: train with the shared P rows.
    pub factorised: bool,
}

impl Shape {
    /// Rows of the trained transformer (the exported ones, plus the P rows when factorised).
    pub fn rows(&self) -> usize {
        self.arch.features.dimensions() + if self.factorised { FE_END as usize } else { 0 }
    }

    /// The active rows of perspective `i` (0 = side to move) of `s`; returns how many.
    #[inline]
    pub fn active(&self, s: &Sample, i: usize, out: &mut [u32; MAX_ACTIVE]) -> usize {
        let pieces = &s.pieces[i];
        match self.arch.features {
            FeatureSet::KP => {
                for (o, &p) in out.iter_mut().zip(pieces) {
                    *o = u32::from(p);
                }
                out[PIECE_LIST_LEN] = u32::from(F_KING) + u32::from(s.kings[i][0]);
                out[PIECE_LIST_LEN + 1] = u32::from(F_KING) + 81 + u32::from(s.kings[i][1]);
                PIECE_LIST_LEN + 2
            }
            FeatureSet::HalfKP => {
                let king = u32::from(s.kings[i][0]) * u32::from(FE_END);
                for (o, &p) in out.iter_mut().zip(pieces) {
                    *o = king + u32::from(p);
                }
                if !self.factorised {
                    return PIECE_LIST_LEN;
                }
                let factor = self.arch.features.dimensions() as u32;
                for (o, &p) in out[PIECE_LIST_LEN..].iter_mut().zip(pieces) {
                    *o = factor + u32::from(p);
                }
                2 * PIECE_LIST_LEN
            }
        }
    }
}

/// Offsets of the dense parameters in [`Model::dense`].
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    l1: usize,
    l2: usize,
    l3: usize,
    /// Transformer biases.
    pub ft_b: usize,
    /// First hidden layer's weights, input-major (`2 l1` columns of `l2`: the transpose of the
    /// exported rows), and biases.
    pub w1: usize,
    /// First hidden layer's biases.
    pub b1: usize,
    /// Second hidden layer's weights (`l3` rows of `l2`) and biases.
    pub w2: usize,
    /// Second hidden layer's biases.
    pub b2: usize,
    /// Output weights (`l3`) and bias.
    pub w3: usize,
    /// Output bias.
    pub b3: usize,
    /// Total.
    pub len: usize,
}

impl Layout {
    fn of(a: &Architecture) -> Layout {
        let (l1, l2, l3) = (a.l1, a.l2, a.l3);
        let ft_b = 0;
        let w1 = ft_b + l1;
        let b1 = w1 + l2 * 2 * l1;
        let w2 = b1 + l2;
        let b2 = w2 + l3 * l2;
        let w3 = b2 + l3;
        let b3 = w3 + l3;
        Layout { l1, l2, l3, ft_b, w1, b1, w2, b2, w3, b3, len: b3 + 1 }
    }
}

/// The loss's settings.
#[derive(Clone, Copy, Debug)]
pub struct LossParams {
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Score units of the sigmoid (600: YaneuraOu's "ponanza constant").
    pub scale: f32,
}

impl LossParams {
    /// The target of a sample (a win probability).
    pub fn target(&self, s: &Sample) -> f32 {
        let teacher = sigmoid(f32::from(s.score) / self.scale);
        self.lambda * teacher + (1.0 - self.lambda) * (f32::from(s.result) + 1.0) / 2.0
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Work buffers of one thread's forward and backward passes.
pub struct Scratch {
    rows: [[u32; MAX_ACTIVE]; 2],
    counts: [usize; 2],
    acc: Vec<f32>,
    h1: Vec<f32>,
    h2: Vec<f32>,
    g_h1: Vec<f32>,
}

/// The trained parameters.
#[derive(Clone, Debug)]
pub struct Model {
    /// The shape.
    pub shape: Shape,
    /// Transformer rows, `l1` each.
    pub ft: Vec<f32>,
    /// Every other parameter (see [`Layout`]).
    pub dense: Vec<f32>,
    /// Where each part of `dense` is.
    pub layout: Layout,
    /// Whether the passes run on `rounded` ([`crate::qat`]).
    quantisation_aware: bool,
    /// `dense` rounded to the integer net's steps, when quantisation-aware.
    rounded: Vec<f32>,
}

impl Model {
    /// A freshly initialised model: transformer rows uniform in ±0.5/√(active rows) (the factored
    /// HalfKP rows at zero, their P rows random), biases at 0.5 so that the clipped sums start in
    /// their linear range; the dense layers uniform in ±1/√(inputs), PyTorch's default.
    pub fn new(shape: Shape, seed: u64) -> Model {
        let a = shape.arch;
        let layout = Layout::of(&a);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut ft = vec![0.0; shape.rows() * a.l1];
        let random_from = if shape.factorised { a.features.dimensions() * a.l1 } else { 0 };
        let range = 0.5 / (PIECE_LIST_LEN as f32).sqrt();
        for w in &mut ft[random_from..] {
            *w = rng.random_range(-range..range);
        }
        let mut dense = vec![0.0; layout.len];
        dense[layout.ft_b..layout.w1].fill(0.5);
        let mut fill = |from: usize, to: usize, inputs: usize| {
            let r = 1.0 / (inputs as f32).sqrt();
            for w in &mut dense[from..to] {
                *w = rng.random_range(-r..r);
            }
        };
        fill(layout.w1, layout.w2, 2 * a.l1);
        fill(layout.w2, layout.w3, a.l2);
        fill(layout.w3, layout.len, a.l3);
        Model { shape, ft, dense, layout, quantisation_aware: false, rounded: Vec::new() }
    }

    /// A model that starts as `net` (the factored rows at zero).
    pub fn from_float(shape: Shape, net: &FloatNetwork) -> Model {
        let mut m = Model::new(shape, 0);
        let a = shape.arch;
        let exported = a.features.dimensions() * a.l1;
        m.ft[..exported].copy_from_slice(&net.ft_weights);
        m.ft[exported..].fill(0.0);
        let l = m.layout;
        m.dense[l.ft_b..l.w1].copy_from_slice(&net.ft_biases);
        let [first, second, out] = &net.layers;
        for (i, row) in first.weights.chunks_exact(2 * a.l1).enumerate() {
            for (j, &w) in row.iter().enumerate() {
                m.dense[l.w1 + j * a.l2 + i] = w;
            }
        }
        for (dst, src) in [(l.b1, &first.biases), (l.w2, &second.weights), (l.b2, &second.biases)] {
            m.dense[dst..dst + src.len()].copy_from_slice(src);
        }
        for (i, w) in out.weights.iter().enumerate() {
            m.dense[l.w3 + i] = w / OUTPUT_SCALE;
        }
        m.dense[l.b3] = out.biases[0] / OUTPUT_SCALE;
        m
    }

    /// From now on, runs the passes on the weights and activations rounded as the integer net
    /// rounds them ([`crate::qat`]), or (`false`) on the float ones.
    pub fn set_quantisation_aware(&mut self, on: bool) {
        self.quantisation_aware = on;
        self.sync_rounded();
    }

    /// Rounds `dense` again after it changed (nothing to do unless quantisation-aware).
    pub fn sync_rounded(&mut self) {
        if self.quantisation_aware {
            quantised_view(&self.dense, &self.layout, &mut self.rounded);
        }
    }

    /// The dense parameters the passes use.
    fn pass_weights(&self) -> &[f32] {
        if self.quantisation_aware { &self.rounded } else { &self.dense }
    }

    /// Work buffers for this model.
    pub fn scratch(&self) -> Scratch {
        let l = self.layout;
        Scratch {
            rows: [[0; MAX_ACTIVE]; 2],
            counts: [0; 2],
            acc: vec![0.0; 2 * l.l1],
            h1: vec![0.0; l.l2],
            h2: vec![0.0; l.l3],
            g_h1: vec![0.0; l.l2],
        }
    }

    /// The output for `s` (score / [`OUTPUT_SCALE`]), leaving the activations in `sc`.
    pub fn forward(&self, s: &Sample, sc: &mut Scratch) -> f32 {
        let l = self.layout;
        let d = self.pass_weights();
        let rounding = self.quantisation_aware;
        for i in 0..2 {
            sc.counts[i] = self.shape.active(s, i, &mut sc.rows[i]);
            let acc = &mut sc.acc[i * l.l1..(i + 1) * l.l1];
            acc.copy_from_slice(&d[l.ft_b..l.w1]);
            for &r in &sc.rows[i][..sc.counts[i]] {
                for (a, w) in acc.iter_mut().zip(&self.ft[r as usize * l.l1..][..l.l1]) {
                    *a += w;
                }
            }
            if rounding {
                acc.iter_mut().for_each(|a| *a = round_activation(*a));
            }
        }
        // h1 = W1 x + b1, W1 stored input-major: add the column of each non-zero input.
        sc.h1.copy_from_slice(&d[l.b1..l.w2]);
        for (a, column) in sc.acc.iter().zip(d[l.w1..l.b1].chunks_exact(l.l2)) {
            if *a > 0.0 {
                let x = a.min(1.0);
                for (h, w) in sc.h1.iter_mut().zip(column) {
                    *h += w * x;
                }
            }
        }
        if rounding {
            sc.h1.iter_mut().for_each(|h| *h = round_activation(*h));
        }
        for (h2, (row, b)) in sc.h2.iter_mut().zip(d[l.w2..l.b2].chunks_exact(l.l2).zip(&d[l.b2..l.w3])) {
            *h2 = b + row.iter().zip(&sc.h1).map(|(w, h)| w * h.clamp(0.0, 1.0)).sum::<f32>();
            if rounding {
                *h2 = round_activation(*h2);
            }
        }
        d[l.b3] + d[l.w3..l.b3].iter().zip(&sc.h2).map(|(w, h)| w * h.clamp(0.0, 1.0)).sum::<f32>()
    }

    /// Forward and backward for `s`: adds the gradient of the dense parameters to `g_dense` and
    /// writes that of the transformer's sums (both perspectives, `2 l1`) to `g_acc`; returns the
    /// sample's loss. The transformer rows' gradient is `g_acc`'s half for each active row.
    pub fn backward(
        &self,
        s: &Sample,
        loss: &LossParams,
        sc: &mut Scratch,
        g_dense: &mut [f32],
        g_acc: &mut [f32],
    ) -> f32 {
        let out = self.forward(s, sc);
        let l = self.layout;
        let d = self.pass_weights();
        let q = sigmoid(out * OUTPUT_SCALE / loss.scale);
        let t = loss.target(s);
        let g_out = 2.0 * (q - t) * q * (1.0 - q) * OUTPUT_SCALE / loss.scale;
        g_dense[l.b3] += g_out;
        // Output layer and the second hidden layer.
        sc.g_h1.fill(0.0);
        for k in 0..l.l3 {
            let h2 = sc.h2[k];
            g_dense[l.w3 + k] += g_out * h2.clamp(0.0, 1.0);
            if h2 <= 0.0 || h2 >= 1.0 {
                continue;
            }
            let g = g_out * d[l.w3 + k];
            g_dense[l.b2 + k] += g;
            let row = l.w2 + k * l.l2;
            for j in 0..l.l2 {
                let h1 = sc.h1[j];
                g_dense[row + j] += g * h1.clamp(0.0, 1.0);
                sc.g_h1[j] += g * d[row + j];
            }
        }
        // First hidden layer, then the transformer's sums (only where they are not clipped).
        g_acc.fill(0.0);
        for (g, h1) in sc.g_h1.iter_mut().zip(&sc.h1) {
            if *h1 <= 0.0 || *h1 >= 1.0 {
                *g = 0.0;
            }
        }
        if sc.g_h1.iter().all(|&g| g == 0.0) {
            return (q - t) * (q - t);
        }
        for (gb, g) in g_dense[l.b1..l.w2].iter_mut().zip(&sc.g_h1) {
            *gb += g;
        }
        let (w1, g_w1) = (&d[l.w1..l.b1], &mut g_dense[l.w1..l.b1]);
        let columns = w1.chunks_exact(l.l2).zip(g_w1.chunks_exact_mut(l.l2));
        for ((a, ga), (column, g_column)) in sc.acc.iter().zip(g_acc.iter_mut()).zip(columns) {
            if *a <= 0.0 {
                continue;
            }
            let x = a.min(1.0);
            for (gw, g) in g_column.iter_mut().zip(&sc.g_h1) {
                *gw += g * x;
            }
            if *a < 1.0 {
                *ga = column.iter().zip(&sc.g_h1).map(|(w, g)| w * g).sum();
            }
        }
        let (us, them) = g_acc.split_at(l.l1);
        for (gb, (u, t)) in g_dense[l.ft_b..l.w1].iter_mut().zip(us.iter().zip(them)) {
            *gb += u + t;
        }
        (q - t) * (q - t)
    }

    /// Clips the dense weights to what quantises without clamping.
    pub fn clip(&mut self) {
        let l = self.layout;
        let limits =
            [(l.w1, l.b1, max_weight(0)), (l.w2, l.b2, max_weight(1)), (l.w3, l.b3, max_weight(2) / OUTPUT_SCALE)];
        for (from, to, limit) in limits {
            for w in &mut self.dense[from..to] {
                *w = w.clamp(-limit, limit);
            }
        }
    }

    /// The float network to export: factors folded in, the output in score units.
    pub fn to_float(&self) -> FloatNetwork {
        let a = self.shape.arch;
        let l = self.layout;
        let mut net = FloatNetwork::zeroed(a);
        let exported = a.features.dimensions() * a.l1;
        net.ft_weights.copy_from_slice(&self.ft[..exported]);
        if self.shape.factorised {
            let p_rows = &self.ft[exported..];
            for king_block in net.ft_weights.chunks_exact_mut(FE_END as usize * a.l1) {
                for (w, p) in king_block.iter_mut().zip(p_rows) {
                    *w += p;
                }
            }
        }
        net.ft_biases.copy_from_slice(&self.dense[l.ft_b..l.w1]);
        let d = &self.dense;
        let [first, second, out] = &mut net.layers;
        for (j, column) in d[l.w1..l.b1].chunks_exact(l.l2).enumerate() {
            for (i, &w) in column.iter().enumerate() {
                first.weights[i * 2 * l.l1 + j] = w;
            }
        }
        first.biases.copy_from_slice(&d[l.b1..l.w2]);
        second.weights.copy_from_slice(&d[l.w2..l.b2]);
        second.biases.copy_from_slice(&d[l.b2..l.w3]);
        for (o, w) in out.weights.iter_mut().zip(&d[l.w3..l.b3]) {
            *o = w * OUTPUT_SCALE;
        }
        out.biases[0] = d[l.b3] * OUTPUT_SCALE;
        net
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
