//! The CSA family (kif-csa.md §2): CSA records and the engine data in their comments.

mod detect;
mod engine;
mod moves;
mod read;
mod write;

pub(super) use detect::{Boundaries, sniff};
pub(super) use read::parse;
pub(super) use write::to_text;

/// A legal move in CSA notation with its sign (`+7776FU`), as the CSA writer writes it.
pub(crate) fn move_text(pos: &crate::position::Position, m: crate::types::Move) -> String {
    let mut s = String::with_capacity(7);
    moves::write_move(&mut s, pos, m);
    s
}
