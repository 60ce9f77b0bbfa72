//! One affine layer's weights, the data the network holds and the kernels compute with.

use super::architecture::padded;

/// An affine layer `y = W x + b` over `inputs` bytes padded to `padded_inputs`; `weights` is
/// row-major (`outputs` rows of `padded_inputs`), as in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Affine {
    /// Meaningful inputs.
    pub inputs: usize,
    /// Row stride (inputs rounded up to 32).
    pub padded_inputs: usize,
    /// Biases, one per output.
    pub biases: Vec<i32>,
    /// Weights, `outputs * padded_inputs`.
    pub weights: Vec<i8>,
}

impl Affine {
    /// A layer of zeros.
    pub(crate) fn zeroed(inputs: usize, outputs: usize) -> Affine {
        let padded_inputs = padded(inputs);
        Affine { inputs, padded_inputs, biases: vec![0; outputs], weights: vec![0; outputs * padded_inputs] }
    }

    /// Number of outputs.
    pub(crate) fn outputs(&self) -> usize {
        self.biases.len()
    }
}
