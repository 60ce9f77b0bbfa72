//! The weights of one network: the feature transformer (i16) and three affine layers (i32
//! biases, i8 weights), plus the SIMD kernel chosen for this machine; and [`NetworkWeights`],
//! the same parameters as plain vectors, for tools that make or read nets (a trainer quantising
//! into a net, [`Network::from_weights`], and reading one back, [`Network::weights`]).

use super::affine::Affine;
use super::architecture::Architecture;
use super::simd::Kernel;
use crate::zeroed::ZeroedSlice;

/// A network's parameters as plain vectors, in the units of the integer inference (see
/// [`super::forward`]): what [`Network::from_weights`] takes and [`Network::weights`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkWeights {
    /// The shape.
    pub arch: Architecture,
    /// The header's description, kept byte for byte (public nets are not always UTF-8).
    pub description: Vec<u8>,
    /// Transformer biases, `l1`.
    pub ft_biases: Vec<i16>,
    /// Transformer weights, one row of `l1` per input feature (`l1 * features.dimensions()`).
    pub ft_weights: Vec<i16>,
    /// The three affine layers, input side first.
    pub layers: [LayerWeights; 3],
}

/// One affine layer's parameters: `y = W x + b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerWeights {
    /// Inputs per row.
    pub inputs: usize,
    /// Biases, one per output.
    pub biases: Vec<i32>,
    /// Weights, row-major: one row of `inputs` per output, no padding.
    pub weights: Vec<i8>,
}

/// Why [`NetworkWeights`] do not make a [`Network`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The shape is outside what the inference handles ([`Architecture::is_supported`]).
    #[error("unsupported architecture {0:?}")]
    Unsupported(Architecture),
    /// A part's size disagrees with the shape.
    #[error("the {part} has {found} values, the architecture needs {expected}")]
    WrongSize {
        /// Which part.
        part: &'static str,
        /// What the architecture needs.
        expected: usize,
        /// What was given.
        found: usize,
    },
}

impl NetworkWeights {
    /// Every parameter of `arch` zero, with YaneuraOu's description for it. `arch` must be
    /// supported.
    pub fn zeroed(arch: Architecture) -> NetworkWeights {
        assert!(arch.is_supported(), "unsupported architecture {arch:?}");
        let layer = |(inputs, _, outputs): (usize, usize, usize)| LayerWeights {
            inputs,
            biases: vec![0; outputs],
            weights: vec![0; outputs * inputs],
        };
        NetworkWeights {
            arch,
            description: arch.description().into_bytes(),
            ft_biases: vec![0; arch.l1],
            ft_weights: vec![0; arch.l1 * arch.features.dimensions()],
            layers: arch.affine_layers().map(layer),
        }
    }
}

/// `Ok` if `found` is `expected`, else the size error for `part`.
fn check_size(part: &'static str, expected: usize, found: usize) -> Result<(), WeightsError> {
    if found == expected { Ok(()) } else { Err(WeightsError::WrongSize { part, expected, found }) }
}

/// A complete network.
#[derive(Clone, Debug)]
pub struct Network {
    pub(super) arch: Architecture,
    /// The header's description, kept byte for byte (public nets are not always UTF-8).
    pub(super) description: Vec<u8>,
    /// Transformer biases, `l1`.
    pub(super) ft_biases: Vec<i16>,
    /// Transformer weights, one row of `l1` per input (on huge pages: rows are read at random).
    pub(super) ft_weights: ZeroedSlice<i16>,
    /// The three affine layers, input side first.
    pub(super) layers: [Affine; 3],
    pub(super) kernel: Kernel,
}

impl PartialEq for Network {
    /// Same shape, description and weights (the kernel is ignored).
    fn eq(&self, o: &Network) -> bool {
        self.arch == o.arch
            && self.description == o.description
            && self.ft_biases == o.ft_biases
            && self.ft_weights == o.ft_weights
            && self.layers == o.layers
    }
}

impl Network {
    /// A network of `arch` with every weight zero and YaneuraOu's description for it (the
    /// fastest kernel of this machine). `arch` must be supported.
    pub(crate) fn zeroed(arch: Architecture) -> Network {
        assert!(arch.is_supported(), "unsupported architecture {arch:?}");
        let [(i1, _, o1), (i2, _, o2), (i3, _, o3)] = arch.affine_layers();
        Network {
            arch,
            description: arch.description().into_bytes(),
            ft_biases: vec![0; arch.l1],
            ft_weights: ZeroedSlice::zeroed(arch.l1 * arch.features.dimensions()),
            layers: [Affine::zeroed(i1, o1), Affine::zeroed(i2, o2), Affine::zeroed(i3, o3)],
            kernel: Kernel::detect(),
        }
    }

    /// The network with these parameters (the fastest kernel of this machine), if their sizes
    /// fit their supported architecture.
    pub fn from_weights(w: &NetworkWeights) -> Result<Network, WeightsError> {
        let arch = w.arch;
        if !arch.is_supported() {
            return Err(WeightsError::Unsupported(arch));
        }
        check_size("transformer's biases", arch.l1, w.ft_biases.len())?;
        check_size("transformer's weights", arch.l1 * arch.features.dimensions(), w.ft_weights.len())?;
        const PARTS: [[&str; 3]; 3] = [
            ["first layer's inputs", "first layer's biases", "first layer's weights"],
            ["second layer's inputs", "second layer's biases", "second layer's weights"],
            ["output layer's inputs", "output layer's biases", "output layer's weights"],
        ];
        let mut net = Network::zeroed(arch);
        net.description.clone_from(&w.description);
        net.ft_biases.copy_from_slice(&w.ft_biases);
        net.ft_weights.copy_from_slice(&w.ft_weights);
        for ((q, f), [inputs, biases, weights]) in net.layers.iter_mut().zip(&w.layers).zip(PARTS) {
            check_size(inputs, q.inputs, f.inputs)?;
            check_size(biases, q.outputs(), f.biases.len())?;
            check_size(weights, q.outputs() * q.inputs, f.weights.len())?;
            q.biases.copy_from_slice(&f.biases);
            let stride = q.padded_inputs;
            for (q_row, f_row) in q.weights_mut().chunks_exact_mut(stride).zip(f.weights.chunks_exact(f.inputs)) {
                q_row[..f.inputs].copy_from_slice(f_row);
            }
        }
        Ok(net)
    }

    /// A copy of the parameters ([`Network::from_weights`] of it is this network again).
    pub fn weights(&self) -> NetworkWeights {
        let layer = |a: &Affine| LayerWeights {
            inputs: a.inputs,
            biases: a.biases.clone(),
            weights: a.weights().chunks_exact(a.padded_inputs).flat_map(|row| &row[..a.inputs]).copied().collect(),
        };
        NetworkWeights {
            arch: self.arch,
            description: self.description.clone(),
            ft_biases: self.ft_biases.clone(),
            ft_weights: self.ft_weights.to_vec(),
            layers: [layer(&self.layers[0]), layer(&self.layers[1]), layer(&self.layers[2])],
        }
    }

    /// The shape.
    pub fn architecture(&self) -> Architecture {
        self.arch
    }

    /// Uses `kernel` from now on (e.g. [`Kernel::Scalar`] to compare with the SIMD path).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    /// Mutable access to the transformer's biases and weights (for tests that set a few).
    #[cfg(test)]
    pub(crate) fn transformer_mut(&mut self) -> (&mut [i16], &mut [i16]) {
        (&mut self.ft_biases, &mut self.ft_weights)
    }

    /// Mutable access to the affine layers, input side first (for tests that set a few).
    #[cfg(test)]
    pub(crate) fn layers_mut(&mut self) -> &mut [Affine; 3] {
        &mut self.layers
    }
}
