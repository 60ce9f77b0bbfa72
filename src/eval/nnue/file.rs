//! YaneuraOu's `nn.bin` format, read and written byte for byte.
//!
//! Layout (all integers little-endian; `evaluate_nnue.cpp`, `nnue_feature_transformer.h`,
//! `layers/affine_transform.h`):
//! 1. header: `u32` version `0x7AF32F16`, `u32` architecture hash, `u32` length, description;
//! 2. `u32` transformer hash, `L1` i16 biases, `inputs * L1` i16 weights (row per input);
//! 3. `u32` network hash, then per affine layer from the input side: i32 biases, then the i8
//!    weights row by row (one row per output, inputs padded to a multiple of 32).
//!
//! The shape is read from the hashes, not from the description (free text in practice): the
//! transformer hash gives the feature set and `L1`, the network hash and the file size give `L2`
//! and `L3`. YaneuraOu only warns on a hash mismatch; here a mismatch is an error, because
//! evaluating with a misread shape gives nonsense.

use super::affine::Affine;
use super::architecture::{Architecture, HIDDEN_STEP, MAX_HIDDEN};
use super::features::FeatureSet;
use super::network::Network;
use super::simd::Kernel;
use crate::zeroed::ZeroedSlice;
use std::io::{self, Write};
use std::path::Path;

/// The version word of YaneuraOu's NNUE files (`kVersion`).
pub(crate) const VERSION: u32 = 0x7AF3_2F16;

/// Why a net could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The reason.
        source: io::Error,
    },
    /// The first word is not YaneuraOu's NNUE version.
    #[error("not a YaneuraOu NNUE file: version 0x{found:08X}, expected 0x{VERSION:08X}")]
    BadVersion {
        /// The word found.
        found: u32,
    },
    /// The file ends early.
    #[error("truncated at byte {at}: the {part} needs {needed} bytes")]
    Truncated {
        /// The file's size.
        at: usize,
        /// The size needed to read the part.
        needed: usize,
        /// What was being read.
        part: &'static str,
    },
    /// The transformer hash names no supported feature set and width.
    #[error("unknown feature transformer (hash 0x{hash:08X}): only HalfKP and K+P with 32..=1024 outputs are read")]
    UnknownTransformer {
        /// The hash found.
        hash: u32,
    },
    /// The network hash names no supported hidden layers.
    #[error("unknown network layers (hash 0x{hash:08X}): only two hidden layers of 8..=128 (multiples of 8) are read")]
    UnknownNetwork {
        /// The hash found.
        hash: u32,
    },
    /// The header's hash disagrees with the layers' hashes.
    #[error("architecture hash mismatch: the header says 0x{found:08X}, the layers make 0x{expected:08X}")]
    HashMismatch {
        /// The hash the layers imply.
        expected: u32,
        /// The header's hash.
        found: u32,
    },
    /// Bytes follow the last layer.
    #[error("{extra} bytes after the end of the network ({size} bytes expected)")]
    TrailingBytes {
        /// How many.
        extra: usize,
        /// The expected file size.
        size: usize,
    },
}

/// A cursor over the file's bytes that reports where it ran out.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], NnueError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return Err(NnueError::Truncated { at: self.data.len(), needed: self.pos.saturating_add(n), part });
        };
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, NnueError> {
        let b = self.take(4, part)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize, part: &'static str) -> Result<Vec<i16>, NnueError> {
        Ok(self.take(2 * n, part)?.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }

    fn i32s(&mut self, n: usize, part: &'static str) -> Result<Vec<i32>, NnueError> {
        Ok(self.take(4 * n, part)?.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    fn i8s(&mut self, n: usize, part: &'static str) -> Result<Vec<i8>, NnueError> {
        Ok(self.take(n, part)?.iter().map(|&b| b as i8).collect())
    }
}

/// The feature set and `L1` whose transformer hash is `hash`.
fn transformer_of(hash: u32) -> Option<Architecture> {
    [FeatureSet::HalfKP, FeatureSet::KP].into_iter().find_map(|features| {
        let x = (hash ^ features.hash()) as usize;
        let arch = Architecture { features, l1: x / 2, l2: HIDDEN_STEP, l3: HIDDEN_STEP };
        (x % 2 == 0 && arch.is_supported()).then_some(arch)
    })
}

/// The shapes (with `base`'s transformer) whose network hash is `hash`.
fn networks_of(base: Architecture, hash: u32) -> Vec<Architecture> {
    let widths = (HIDDEN_STEP..=MAX_HIDDEN).step_by(HIDDEN_STEP);
    widths
        .clone()
        .flat_map(|l2| widths.clone().map(move |l3| Architecture { l2, l3, ..base }))
        .filter(|a| a.network_hash() == hash)
        .collect()
}

impl Network {
    /// Reads a net from the bytes of a YaneuraOu `nn.bin` (the layout is in
    /// `src/eval/nnue/file.rs`). What it allocates is bounded by the size of `data`: the weights
    /// are read only once that size matches the shape the hashes name.
    pub fn load(data: &[u8]) -> Result<Network, NnueError> {
        let mut r = Reader { data, pos: 0 };
        let version = r.u32("header")?;
        if version != VERSION {
            return Err(NnueError::BadVersion { found: version });
        }
        let header_hash = r.u32("header")?;
        let len = r.u32("header")? as usize;
        let description = r.take(len, "description")?.to_vec();
        let ft_hash = r.u32("feature transformer hash")?;
        let base = transformer_of(ft_hash).ok_or(NnueError::UnknownTransformer { hash: ft_hash })?;
        let net_hash_at = r.pos + base.transformer_bytes();
        let needed = net_hash_at + 4;
        let Some(b) = data.get(net_hash_at..needed) else {
            return Err(NnueError::Truncated { at: data.len(), needed, part: "feature transformer" });
        };
        let net_hash = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        // Several shapes share a network hash; the file size tells them apart. A file of the
        // wrong size is measured against the shape its description names, if any.
        let candidates = networks_of(base, net_hash);
        let exact = candidates.iter().find(|a| a.file_size(len) == data.len());
        let described = candidates.iter().find(|a| a.description().as_bytes() == description);
        let &arch = exact.or(described).or(candidates.first()).ok_or(NnueError::UnknownNetwork { hash: net_hash })?;
        let size = arch.file_size(len);
        if data.len() < size {
            return Err(NnueError::Truncated { at: data.len(), needed: size, part: "network" });
        }
        if data.len() > size {
            return Err(NnueError::TrailingBytes { extra: data.len() - size, size });
        }
        if header_hash != arch.hash() {
            return Err(NnueError::HashMismatch { expected: arch.hash(), found: header_hash });
        }
        let ft_biases = r.i16s(arch.l1, "feature transformer")?;
        let ft_weights = ZeroedSlice::copied(&r.i16s(arch.l1 * arch.features.dimensions(), "feature transformer")?);
        r.u32("network hash")?;
        let mut layer = |(inputs, padded_inputs, outputs): (usize, usize, usize)| -> Result<Affine, NnueError> {
            let biases = r.i32s(outputs, "network")?;
            let weights = r.i8s(outputs * padded_inputs, "network")?;
            Ok(Affine::new(inputs, padded_inputs, biases, weights))
        };
        let [a, b, c] = arch.affine_layers();
        let layers = [layer(a)?, layer(b)?, layer(c)?];
        Ok(Network { arch, description, ft_biases, ft_weights, layers, kernel: Kernel::detect() })
    }

    /// Reads a net from a YaneuraOu `nn.bin` file: the shape from its hashes, then every weight.
    pub fn load_file(path: &Path) -> Result<Network, NnueError> {
        let data = std::fs::read(path).map_err(|source| NnueError::Io { path: path.display().to_string(), source })?;
        Network::load(&data)
    }

    /// Writes the net in YaneuraOu's `nn.bin` format: loading the bytes gives the
    /// same net, and the bytes of a loaded net are the bytes it was loaded from.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&self.to_bytes())
    }

    /// The bytes [`Network::write`] writes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.arch.file_size(self.description.len()));
        out.extend(VERSION.to_le_bytes());
        out.extend(self.arch.hash().to_le_bytes());
        out.extend((self.description.len() as u32).to_le_bytes());
        out.extend(&self.description);
        out.extend(self.arch.transformer_hash().to_le_bytes());
        out.extend(self.ft_biases.iter().chain(self.ft_weights.iter()).flat_map(|v| v.to_le_bytes()));
        out.extend(self.arch.network_hash().to_le_bytes());
        for layer in &self.layers {
            out.extend(layer.biases.iter().flat_map(|v| v.to_le_bytes()));
            out.extend(layer.weights().iter().map(|&v| v as u8));
        }
        out
    }
}
