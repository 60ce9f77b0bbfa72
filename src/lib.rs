//! hisha: a shogi engine (USI), game-record converter and match runner.
//!
//! The crate is layered one way: [`types`] ← [`attacks`] ← [`position`] ← [`movegen`] ← [`perft`].
//! Positions travel as SFEN ([`position::sfen`]); the sixteen handicap starts are
//! [`position::Handicap`].

#![deny(missing_docs)]
#![deny(unsafe_code)]
#![warn(clippy::unwrap_used, clippy::expect_used)]

pub mod arena;
pub(crate) mod attacks;
pub mod bench;
pub mod book;
pub mod book_cli;
pub mod cli;
pub mod convert;
pub mod engine;
pub mod eval;
pub mod mate;
pub(crate) mod movegen;
pub mod output_file;
pub mod perft;
pub mod position;
pub mod record;
pub mod search;
pub mod tools;
pub mod types;
pub mod usi;

pub use movegen::{Gen, MoveList};
pub use position::{GameResult, Handicap, IllegalMoveKind, MoveError, Position, Setup, SetupError};
pub use types::{Bitboard, ByColor, Color, File, Hand, Move, MoveKind, Piece, PieceKind, Rank, Square, UsiMove};
