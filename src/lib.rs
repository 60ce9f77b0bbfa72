//! hisha: a shogi engine (USI), game-record converter and match runner.
//!
//! # Module map
//!
//! The crate is layered; a module imports only from the modules before it in its own layer and
//! from the layers named beside it (tests may use more, e.g. [`mod@bench`]'s positions):
//!
//! - **rules**: [`types`] ← `attacks` ← [`position`] ← `movegen` ← [`perft`] (`attacks` and
//!   `movegen` are crate-private). Positions travel as SFEN ([`position::sfen`]); the sixteen
//!   handicap starts are [`position::Handicap`].
//! - **memory**: `zeroed` (crate-private), the allocation of large tables (fallible, zeroed lazily
//!   by the system); imports nothing. Used by the mate and transposition tables.
//! - **array jobs**: [`array_task`], which task of a Slurm or Kubernetes array job this process
//!   is (from the scheduler's variables); imports nothing. Used by [`arena`]'s shards and the
//!   NNUE generator.
//! - **evaluation and search**: [`eval`] and [`mate`] (rules) ← [`search`] (rules, eval, mate).
//! - **engine**: `engine` (crate-private), the protocol-free player: position, settings, book,
//!   search thread, typed events. Imports rules, eval (the `EvalFile` net), search, mate and book;
//!   never `usi`.
//! - **protocol**: [`usi`], the USI session that drives the engine (rules, eval's score scale,
//!   engine; records' text decoding, [`record::decode_text`], for input lines that are not
//!   UTF-8); its `command`/`response` types are shared with the match runner.
//! - **records**: [`record`] (game-record formats), [`output_file`] (safe output writes). Import
//!   rules only.
//! - **book**: [`book`], the run-time opening book (load, key, choose). Imports rules only.
//! - **offline tools**: [`book_tools`] (book building, opening generation), [`mod@bench`]; they may use
//!   search and records.
//! - **match**: [`client`], a USI client of other engines (engine definitions, processes, time
//!   controls; rules, records, usi's `command`/`response`), and `chart` (crate-private), the SVG
//!   line chart; above them, side by side and importing neither each other: [`arena`], the match
//!   runner, and [`analyze`], record analysis (both: rules, records, usi, client, chart; arena also
//!   array jobs, for its shards). Above arena: [`tune`], SPSA tuning (`hisha tune`), which plays
//!   its games with arena's game, openings and time stamps (rules, records, usi's commands,
//!   client, chart, output files; arena never imports it).
//!
//! The command line is the binary's (`src/main.rs`, `src/cli/`): the library has no argument-parser
//! types; [`arena::MatchSettings`] is the match runner's plain options struct.
//!
//! Tools that only make data for the engine are crates of their own in `tools/`, members of the
//! workspace that use this library: `tools/nnue` (`hisha-nnue`), the NNUE trainer, with its float
//! network and YaneuraOu's training records (`PackedSfenValue`).
//!
//! The root re-exports only the names the binary, tests, examples and fuzz targets use by their
//! short path ([`Position`], [`Handicap`], [`Color`], [`Move`], [`PieceKind`]) and [`MoveList`]
//! (what [`Position::legal_moves`] returns; `movegen` is crate-private); everything else is reached
//! by its module path (`hisha::types::Square`).

#![deny(missing_docs)]
#![deny(unsafe_code)]
#![warn(clippy::unwrap_used, clippy::expect_used)]

// Rules.
// Attack tables and sliding-piece attacks.
pub(crate) mod attacks;
// Legal move generation and USI move parsing.
pub(crate) mod movegen;
// Leaf counts of the legal-move tree (move generator correctness and speed).
pub mod perft;
// The board, its state, SFEN, handicaps, repetition and the rules of the game.
pub mod position;
// Squares, pieces, moves, bitboards, hands: the vocabulary.
pub mod types;

// Large tables of zeros, allocated fallibly.
pub(crate) mod zeroed;

// Array jobs.
// Which task of a scheduler's array job this process is.
pub mod array_task;

// Evaluation and search.
// Static evaluation (material, piece-square, NNUE).
pub mod eval;
// Tsume solving by df-pn.
pub mod mate;
// Alpha-beta search, time management and the search thread.
pub mod search;

// Engine.
// The protocol-free engine façade.
mod engine;
/// What the engine evaluates with (the USI option `EvalFile`): the built-in net, the linear
/// evaluation or a net file; also for tools that search outside the engine.
pub use engine::{EvalFileError, EvalSource};

// Protocol.
// The USI session: `hisha` with no arguments.
pub mod usi;

// Records.
// Output files written beside themselves and renamed into place.
pub mod output_file;
// Game records: PSN, PSN2, KIF, KIFU, KI2, CSA, USI lines; reading, detection, writing.
pub mod record;

// Book.
// The run-time opening book (YaneuraOu format).
pub mod book;

// Offline tools.
// The fixed search benchmark whose node count is the search's signature.
pub mod bench;
// Book building from records and match-opening generation.
pub mod book_tools;

// Match.
// The USI client of other engines: definitions, processes, time controls.
pub mod client;
// The SVG line chart of the match page and the analysis graph.
pub(crate) mod chart;
// The match runner (`hisha match`).
pub mod arena;
// Record analysis (`hisha analyze`) with the same client.
pub mod analyze;
// SPSA tuning of an engine's options (`hisha tune`) with the match runner's games.
pub mod tune;

pub use movegen::MoveList;
pub use position::{Handicap, Position};
pub use types::{Color, Move, PieceKind};

// Test support: positions reached by USI moves, temporary folders (unit tests only).
#[cfg(test)]
mod testing;
// The layering above, checked on the sources: no import circles, no printing (unit tests only).
#[cfg(test)]
mod layering_tests;
