//! NNUE evaluation compatible with YaneuraOu's classic nets (`nn.bin`): HalfKP or K+P inputs, a
//! feature transformer of `L1` i16 sums per perspective, two clipped-ReLU hidden layers, one
//! output — all in integers, so a YaneuraOu net gives YaneuraOu's evaluation.
//!
//! Pieces: [`bona_piece`] (YaneuraOu's piece numbering), [`features`] (active rows, and what a
//! move changes), [`architecture`] (shapes and hashes), [`Network`] (weights; `file` reads and
//! writes `nn.bin`; [`NetworkWeights`] are its parameters as plain vectors, for tools that make
//! or read nets), [`Accumulator`] (refresh and incremental update; `refresh_cache` starts HalfKP's
//! refreshes from the half last computed for the same king square), the forward pass
//! ([`Network::evaluate`]), `simd` kernels (scalar and AVX2, picked at run time) and `random` nets
//! for tests and `hisha nnue random`. The trainer, with its float net and YaneuraOu's training
//! records (`PackedSfenValue`), is a tool of its own: the `hisha-nnue` crate in `tools/nnue/`.
//!
//! Use in a search: keep one [`Accumulator`] per ply; before `do_move` take
//! [`DirtyPieces::of_move`]; derive the child's accumulator with [`Network::update`] (or per
//! perspective with `Network::update_perspective`, which says when a king move needs
//! `Network::refresh_perspective`); evaluate with [`Network::evaluate`]. The search does so
//! (`search/evaluator.rs`, eagerly after each move, per thread, the net shared read-only) with the
//! net the USI option `EvalFile` or `hisha bench --evalfile` names; by default that is the
//! [`builtin()`] net, embedded in the binary (the linear [`crate::eval::evaluate`] with
//! `EvalFile linear`).
//!
//! Exactness: random HalfKP and K+P 256x2-32-32 nets written by hisha, loaded by YaneuraOu
//! v8.60 (AVX2 build), give YaneuraOu's `eval` on all 560 positions of
//! `tests/nnue_yaneuraou.rs` (run it with `HISHA_YANEURAOU`/`HISHA_YANEURAOU_KP` set). The
//! built-in net, loaded by YaneuraOu v9.70git's HalfKP 64x2-16-16 build (the yardstick of
//! `examples/yardstick.rs`), gives its `eval` on all 2,223 positions of the same test
//! (`HISHA_YANEURAOU_64`).
//!
//! Speed (`cargo bench --bench nnue`, ns of thread CPU time per call on this shared 2-core
//! AVX-512 machine, random-playout moves of the bench positions, 59 of 706 king moves; the
//! linear `eval::evaluate` takes 666 ns on the same positions):
//!
//! | shape              | kernel | refresh | forward | update + forward (non-king) |
//! |--------------------|--------|--------:|--------:|----------------------------:|
//! | HalfKP 256x2-32-32 | avx2   |     960 |     261 |                   543 (379) |
//! | HalfKP 256x2-32-32 | scalar |   1,479 |   2,013 |               2,549 (2,306) |
//! | HalfKP 128x2-32-32 | avx2   |     646 |     168 |                   273 (243) |
//! | K+P 256x2-32-32    | avx2   |     591 |     255 |                   312 (302) |
//! | K+P 256x2-32-32    | scalar |   1,324 |   2,093 |               2,246 (2,196) |
//! | K+P 128x2-32-32    | avx2   |     436 |     169 |                   193 (195) |
//!
//! Measured when the linear evaluation was the default: with AVX2 every shape costs less per
//! evaluation than the linear one. `hisha bench` then spent about 1,290 ns of CPU per node
//! (4,696,132 nodes in 6.06 s, the linear evaluation's tree), so if every node
//! evaluated once, HalfKP-256 would raise nps by about 10 % and K+P-256 by about 38 % (an
//! estimate: a search also pays cache misses in HalfKP's 64 MB of weights that these loops
//! only partly show). Without AVX2 the scalar kernels make an evaluation 3 to 4 times dearer
//! than the linear one.

pub(crate) mod accumulator;
pub(crate) mod affine;
pub mod architecture;
#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod bona_piece;
pub(crate) mod builtin;
pub mod features;
pub(crate) mod file;
pub mod forward;
pub(crate) mod network;
pub(crate) mod random;
pub(crate) mod refresh_cache;
pub(crate) mod simd;

#[cfg(test)]
mod file_tests;

pub use accumulator::Accumulator;
pub use architecture::Architecture;
pub use builtin::builtin;
pub use features::{DirtyPieces, FeatureSet};
pub use file::NnueError;
pub use network::{LayerWeights, Network, NetworkWeights, WeightsError};
pub use random::Spread;
pub(crate) use refresh_cache::RefreshCache;
pub use simd::Kernel;

#[cfg(test)]
mod tests;
