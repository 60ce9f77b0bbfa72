//! The KIF family (kif-csa.md §1): KIF and KIFU, KI2, their board diagrams, kanji, move text,
//! engine comments and the `まで…` result line.

mod board;
mod detect;
mod engine;
mod header;
mod kanji;
pub mod ki2;
mod moves;
mod parse;
mod read;
mod result_line;
mod write;

pub(super) use detect::{Ki2Boundaries, KifBoundaries, sniff};
pub(super) use parse::parse;
pub(super) use write::to_text;
