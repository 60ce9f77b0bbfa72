//! The weights of one network: the feature transformer (i16) and three affine layers (i32
//! biases, i8 weights), plus the SIMD kernel chosen for this machine.

use super::affine::Affine;
use super::architecture::Architecture;
use super::simd::Kernel;
use crate::zeroed::ZeroedSlice;

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

    /// The shape.
    pub fn architecture(&self) -> Architecture {
        self.arch
    }

    /// Uses `kernel` from now on (e.g. [`Kernel::Scalar`] to compare with the SIMD path).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    /// Mutable access to the transformer's biases and weights (for trainers and generators).
    pub(crate) fn transformer_mut(&mut self) -> (&mut [i16], &mut [i16]) {
        (&mut self.ft_biases, &mut self.ft_weights)
    }

    /// Mutable access to the affine layers, input side first (for trainers and generators).
    pub(crate) fn layers_mut(&mut self) -> &mut [Affine; 3] {
        &mut self.layers
    }
}
