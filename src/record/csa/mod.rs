//! The CSA family (kif-csa.md §2): CSA records and the engine data in their comments.

mod detect;
mod engine;
mod moves;
mod read;

pub(super) use detect::{Boundaries, sniff};
pub(super) use read::parse;
pub(super) use read::to_text;
