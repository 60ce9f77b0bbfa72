//! NNUE evaluation compatible with YaneuraOu's classic nets (`nn.bin`): HalfKP or K+P inputs, a
//! feature transformer of `L1` i16 sums per perspective, two clipped-ReLU hidden layers, one
//! output — all in integers, so a YaneuraOu net gives YaneuraOu's evaluation.
//!
//! Pieces: [`bona_piece`] (YaneuraOu's piece numbering), [`features`] (active rows, and what a
//! move changes), [`architecture`] (shapes and hashes), [`Network`] (weights; [`file`] reads and
//! writes `nn.bin`), [`Accumulator`] (refresh and incremental update), the forward pass
//! ([`Network::evaluate`]), [`simd`] kernels (scalar and AVX2, picked at run time) and
//! [`random`] nets for tests.
//!
//! Use in a search: keep one [`Accumulator`] per ply; before `do_move` take
//! [`DirtyPieces::of_move`]; derive the child's accumulator with [`Network::update`] (or per
//! perspective with [`Network::update_perspective`], which says when a king move needs
//! [`Network::refresh_perspective`]); evaluate with [`Network::evaluate`]. Not wired into the
//! search yet: [`crate::eval::evaluate`] is still the default.
//!
//! Speed (`cargo bench --bench nnue`, this 2-core machine under load from other jobs, so
//! figures are rough): see the bench's doc comment for the latest table.

pub mod accumulator;
pub mod architecture;
#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod bona_piece;
pub mod features;
pub mod file;
pub mod forward;
pub mod network;
pub mod random;
pub mod simd;

#[cfg(test)]
mod file_tests;

pub use accumulator::Accumulator;
pub use architecture::Architecture;
pub use features::{DirtyPieces, FeatureSet};
pub use file::NnueError;
pub use network::Network;
pub use random::Spread;
pub use simd::Kernel;

#[cfg(test)]
mod tests;
