//! The PSN family (psn.md): PSN in all its forms, PSN2, their shared tokenizer and line layout,
//! Western move notation and PSN-1998's `FEN` start.

mod body;
mod detect;
mod fen;
pub mod notation;
pub mod psn2;
mod read;
pub(super) mod tokens;

pub(super) use detect::{Boundaries, sniff};
pub use read::write;
pub(super) use read::{parse, unconfirmed_result};

#[cfg(test)]
mod tests;
