//! The shape of a network — feature set, transformer width `L1` per perspective, two hidden
//! layers `L2`, `L3`, one output — with the hashes and the description YaneuraOu writes for it.
//!
//! YaneuraOu's classic NNUE nets are `InputSlice[2*L1] -> AffineTransform[L2] -> ClippedReLU ->
//! AffineTransform[L3] -> ClippedReLU -> AffineTransform[1]` (`architectures/*.h`). The hashes
//! (`GetHashValue` of each layer in `layers/*.h`, `nnue_feature_transformer.h`):
//! - feature transformer: `features.hash() ^ (2 * L1)`;
//! - input slice: `0xEC42E90D ^ (2 * L1)`; affine to `n` outputs over a previous hash `h`:
//!   `(0xCC03DAE4 + n) ^ (h >> 1) ^ (h << 31)`; clipped ReLU: `0x538D24C7 + h`;
//! - the file header's hash is the transformer's xor the network's.

use super::features::FeatureSet;

/// The alignment YaneuraOu pads layer inputs to (`kMaxSimdWidth`, bytes).
pub(crate) const PADDING: usize = 32;
/// The widest transformer supported (YaneuraOu ships 256, 512 and 1024).
pub const MAX_L1: usize = 1024;
/// The widest hidden layer supported.
pub const MAX_HIDDEN: usize = 128;
/// Hidden widths are multiples of this (YaneuraOu's are 8, 16, 32 or 64). Network hashes of
/// other widths collide so often that even the file size could not tell them apart (with widths
/// 1..=128 and `L1 = 32`, 123-59 and 107-67 share both); multiples of 8 up to 128 never do, for
/// any supported `L1` (`file_tests::hidden_sizes_are_told_apart_by_hash_and_size`).
pub const HIDDEN_STEP: usize = 8;

/// `n` rounded up to a multiple of [`PADDING`].
pub(crate) const fn padded(n: usize) -> usize {
    n.div_ceil(PADDING) * PADDING
}

/// A network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// The input features.
    pub features: FeatureSet,
    /// Transformer outputs per perspective (a multiple of 32, at most [`MAX_L1`]).
    pub l1: usize,
    /// First hidden layer width (a multiple of [`HIDDEN_STEP`], at most [`MAX_HIDDEN`]).
    pub l2: usize,
    /// Second hidden layer width (a multiple of [`HIDDEN_STEP`], at most [`MAX_HIDDEN`]).
    pub l3: usize,
}

impl Architecture {
    /// YaneuraOu's standard `halfkp_256x2-32-32`, the format of most public shogi nets.
    pub const HALFKP_256X2_32_32: Architecture = Architecture { features: FeatureSet::HalfKP, l1: 256, l2: 32, l3: 32 };
    /// YaneuraOu's small `kp_256x2-32-32`.
    pub const KP_256X2_32_32: Architecture = Architecture { features: FeatureSet::KP, l1: 256, l2: 32, l3: 32 };

    /// True if the sizes are within what this implementation handles.
    pub const fn is_supported(&self) -> bool {
        self.l1 > 0
            && self.l1 % PADDING == 0
            && self.l1 <= MAX_L1
            && self.l2 > 0
            && self.l2 % HIDDEN_STEP == 0
            && self.l2 <= MAX_HIDDEN
            && self.l3 > 0
            && self.l3 % HIDDEN_STEP == 0
            && self.l3 <= MAX_HIDDEN
    }

    /// The feature transformer's hash.
    pub(crate) const fn transformer_hash(&self) -> u32 {
        self.features.hash() ^ (2 * self.l1 as u32)
    }

    /// The hash of the layers after the transformer.
    pub(crate) const fn network_hash(&self) -> u32 {
        const fn affine(outputs: usize, prev: u32) -> u32 {
            0xCC03_DAE4u32.wrapping_add(outputs as u32) ^ (prev >> 1) ^ (prev << 31)
        }
        const fn clipped_relu(prev: u32) -> u32 {
            0x538D_24C7u32.wrapping_add(prev)
        }
        let input = 0xEC42_E90Du32 ^ (2 * self.l1 as u32);
        affine(1, clipped_relu(affine(self.l3, clipped_relu(affine(self.l2, input)))))
    }

    /// The hash in the file header.
    pub(crate) const fn hash(&self) -> u32 {
        self.transformer_hash() ^ self.network_hash()
    }

    /// The architecture string YaneuraOu writes in the header of such a net.
    pub(crate) fn description(&self) -> String {
        let (l1, l2, l3) = (self.l1, self.l2, self.l3);
        let inputs = 2 * l1;
        format!(
            "Features={}[{}->{l1}x2],Network=AffineTransform[1<-{l3}](ClippedReLU[{l3}](AffineTransform[{l3}<-{l2}]\
             (ClippedReLU[{l2}](AffineTransform[{l2}<-{inputs}](InputSlice[{inputs}(0:{inputs})])))))",
            self.features.name(),
            self.features.dimensions(),
        )
    }

    /// The sizes of the three affine layers as (inputs, padded inputs, outputs).
    pub const fn affine_layers(&self) -> [(usize, usize, usize); 3] {
        [
            (2 * self.l1, padded(2 * self.l1), self.l2),
            (self.l2, padded(self.l2), self.l3),
            (self.l3, padded(self.l3), 1),
        ]
    }

    /// Bytes of the parameters after the network hash (biases i32, weights i8 padded).
    pub(crate) const fn network_bytes(&self) -> usize {
        let layers = self.affine_layers();
        let mut total = 0;
        let mut i = 0;
        while i < layers.len() {
            let (_, padded_inputs, outputs) = layers[i];
            total += outputs * 4 + outputs * padded_inputs;
            i += 1;
        }
        total
    }

    /// Bytes of the transformer's parameters after its hash (biases and weights, i16).
    pub(crate) const fn transformer_bytes(&self) -> usize {
        2 * self.l1 + 2 * self.l1 * self.features.dimensions()
    }

    /// The size of an `nn.bin` of this shape whose description is `description_len` bytes.
    pub(crate) const fn file_size(&self, description_len: usize) -> usize {
        12 + description_len + 4 + self.transformer_bytes() + 4 + self.network_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halfkp_256x2_32_32_hashes_are_the_published_ones() {
        // The HalfKP 256x2-32-32 hash code is shared with the chess nets of Stockfish 10-12
        // (same nodchip code; the feature hash does not depend on the board): their files carry
        // transformer 0x5D69D7B8, network 0x63337156, header 0x3E5AA6EE (checked by CFish's
        // `verify_net` and other loaders of those nets).
        let a = Architecture::HALFKP_256X2_32_32;
        assert_eq!(a.transformer_hash(), 0x5D69_D7B8);
        assert_eq!(a.network_hash(), 0x6333_7156);
        assert_eq!(a.hash(), 0x3E5A_A6EE);
    }

    #[test]
    fn the_chess_sized_description_has_the_published_length() {
        // Those chess files carry a 177-byte description: the same string with 41024 inputs.
        // Ours has 125388 inputs, one digit more.
        let d = Architecture::HALFKP_256X2_32_32.description();
        assert_eq!(d.len(), 178, "{d}");
        assert_eq!(d.replace("125388", "41024").len(), 177);
        assert!(d.starts_with("Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32]"));
    }

    #[test]
    fn the_chess_sized_file_has_the_published_size() {
        // A 256x2-32-32 chess net (41024 inputs) is 21,022,697 bytes; the shogi one has
        // 125388 - 41024 more input rows of 256 i16 each, and one description byte more.
        let a = Architecture::HALFKP_256X2_32_32;
        let chess = 21_022_697 - 41_024 * 512;
        assert_eq!(a.file_size(178), chess + 125_388 * 512 + 1);
    }

    #[test]
    fn the_standard_shapes_are_supported_and_odd_ones_are_not() {
        assert!(Architecture::HALFKP_256X2_32_32.is_supported());
        assert!(Architecture::KP_256X2_32_32.is_supported());
        let odd = Architecture { l1: 100, ..Architecture::KP_256X2_32_32 };
        assert!(!odd.is_supported());
        assert!(!Architecture { l2: 0, ..Architecture::KP_256X2_32_32 }.is_supported());
        assert!(!Architecture { l3: 12, ..Architecture::KP_256X2_32_32 }.is_supported());
    }
}
