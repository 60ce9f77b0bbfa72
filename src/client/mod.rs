//! A USI client of other engines, shared by the match runner ([`crate::arena`]) and record
//! analysis ([`crate::analyze`]): engine definitions (`config`: `engines/*.toml`, `--engine`
//! specs), one engine as a child process (`process`, public for tools such as
//! `examples/yardstick.rs`), time controls and the clocks kept for them (`tc`), and the score an
//! engine reports, as a record keeps it.

pub mod config;
pub mod process;
pub mod tc;

use crate::record::Score;
use crate::usi::response::InfoScore;

/// A score an engine reported, as a record keeps it (a mate of unknown length counts as one ply).
pub(crate) fn score_of(s: InfoScore) -> Score {
    match s {
        InfoScore::Cp(v) => Score::Cp(v),
        InfoScore::Mate(n) => Score::Mate(n),
        InfoScore::MatePlus => Score::Mate(1),
        InfoScore::MateMinus => Score::Mate(-1),
    }
}
