//! One affine layer's weights, the data the network holds and the kernels compute with.

use super::architecture::padded;
use std::sync::OnceLock;

/// Outputs in one block of the grouped layout (eight i32 sums fill a 256-bit register).
pub(crate) const BLOCK_OUTPUTS: usize = 8;
/// Inputs in one group of the grouped layout (four u8 inputs make one i32 to broadcast).
pub(crate) const GROUP_INPUTS: usize = 4;

/// An affine layer `y = W x + b` over `inputs` bytes padded to `padded_inputs`; the weights are
/// row-major (`outputs` rows of `padded_inputs`), as in the file.
#[derive(Clone, Debug)]
pub(crate) struct Affine {
    /// Meaningful inputs.
    pub inputs: usize,
    /// Row stride (inputs rounded up to 32).
    pub padded_inputs: usize,
    /// Biases, one per output.
    pub biases: Vec<i32>,
    /// Weights, `outputs * padded_inputs`.
    weights: Vec<i8>,
    /// The same weights in the grouped layout ([`Affine::grouped`]), made on first use and
    /// forgotten when the weights change.
    grouped: OnceLock<Vec<i8>>,
}

impl PartialEq for Affine {
    /// The same layer: shape, biases and weights (the grouped copy follows from them).
    fn eq(&self, o: &Affine) -> bool {
        (self.inputs, self.padded_inputs, &self.biases, &self.weights)
            == (o.inputs, o.padded_inputs, &o.biases, &o.weights)
    }
}

impl Eq for Affine {}

impl Affine {
    /// The layer with these biases and row-major weights (`biases.len()` rows of `padded_inputs`).
    pub(crate) fn new(inputs: usize, padded_inputs: usize, biases: Vec<i32>, weights: Vec<i8>) -> Affine {
        Affine { inputs, padded_inputs, biases, weights, grouped: OnceLock::new() }
    }

    /// A layer of zeros.
    pub(crate) fn zeroed(inputs: usize, outputs: usize) -> Affine {
        let padded_inputs = padded(inputs);
        Affine::new(inputs, padded_inputs, vec![0; outputs], vec![0; outputs * padded_inputs])
    }

    /// Number of outputs.
    pub(crate) fn outputs(&self) -> usize {
        self.biases.len()
    }

    /// The row-major weights.
    pub(crate) fn weights(&self) -> &[i8] {
        &self.weights
    }

    /// The row-major weights, to change.
    pub(crate) fn weights_mut(&mut self) -> &mut [i8] {
        self.grouped = OnceLock::new();
        &mut self.weights
    }

    /// Groups of four inputs (the meaningful ones, the last group padded with zero weights).
    pub(crate) fn groups(&self) -> usize {
        self.inputs.div_ceil(GROUP_INPUTS)
    }

    /// The weights laid out for a kernel that broadcasts four inputs at a time (Stockfish's
    /// affine for small layers): for each group of four inputs, then each block of eight outputs,
    /// the eight outputs' four weights of that group, 32 bytes. `None` if the outputs do not
    /// fill whole blocks.
    pub(crate) fn grouped(&self) -> Option<&[i8]> {
        if self.outputs() % BLOCK_OUTPUTS != 0 {
            return None;
        }
        Some(self.grouped.get_or_init(|| {
            let blocks = self.outputs() / BLOCK_OUTPUTS;
            let mut out = Vec::with_capacity(self.groups() * blocks * BLOCK_OUTPUTS * GROUP_INPUTS);
            for g in 0..self.groups() {
                for row in 0..self.outputs() {
                    for i in g * GROUP_INPUTS..(g + 1) * GROUP_INPUTS {
                        let w = if i < self.inputs { self.weights[row * self.padded_inputs + i] } else { 0 };
                        out.push(w);
                    }
                }
            }
            out
        }))
    }
}
