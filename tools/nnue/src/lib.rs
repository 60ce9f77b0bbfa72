//! hisha-nnue: hisha's NNUE trainer and the data formats it shares with YaneuraOu, a tool beside
//! the engine (the engine never depends on it). The engine's inference, the `nn.bin` reader and
//! writer and the built-in net are the `hisha` library's (`hisha::eval::nnue`); this crate makes
//! the nets. `nnue/README.md` has the commands that made the committed ones.
//!
//! # Layout
//!
//! The library (this file) holds the two formats other programs share:
//! - [`packed_sfen`]: YaneuraOu's training records (`PackedSfen`, `PackedSfenValue`), also read by
//!   the fuzz target `fuzz/fuzz_targets/packed_sfen.rs`;
//! - [`float`]: the network in floating point, what a trainer holds, and its quantisation into
//!   the engine's integer `hisha::eval::nnue::Network` (through `NetworkWeights`).
//!
//! The binary `hisha-nnue` (`src/main.rs`, the command line) holds the pipeline:
//! - data: `selfplay` (the `gen` command: self-play games as records), `store` (record files and
//!   their index of whole games), `merge` (merge, hold out, shuffle, TSV in and out), `relabel`
//!   (scores replaced by the linear evaluation);
//! - training: `dataset` (records decoded into features), `model` (the float network being
//!   trained, forward and backward), `optim` (Adam), `qat` (quantisation-aware passes), `train`
//!   (the loop over threads), `fit` (a session from files to `nn.bin`).
//!
//! ```sh
//! cargo run --release -p hisha-nnue -- gen --out DATA.psv --positions 1000000 --nodes 4000 --threads 2
//! cargo run --release -p hisha-nnue -- train --features kp --data ALL.psv --out nn.bin
//! ```

#![deny(missing_docs)]

pub mod float;
pub mod packed_sfen;
