//! The KIF family (kif-csa.md §1): KIF and KIFU, KI2, their board diagrams, kanji, move text,
//! engine comments and the `まで…` result line.

mod board;
mod engine;
mod kanji;
pub mod ki2;
mod moves;
mod parse;
mod read;
mod result_line;

pub(super) use parse::{is_header, is_move_line, parse};
pub(super) use read::to_text;
