//! How CSA text is recognised, and where its games end: at a `/` line.

use crate::record::Format;
use crate::record::boundary::{Cut, GameBoundaries, Sample};

/// CSA when the first line is a version (`'CSA`, `V2…`, `V3…`), a player name (`N+`) or a
/// position (`PI`, `P1`).
pub(crate) fn sniff(sample: &Sample) -> Option<Format> {
    const OPENINGS: [&str; 6] = ["'CSA", "V2", "V3", "N+", "PI", "P1"];
    let first = sample.first_line();
    OPENINGS.iter().any(|o| first.starts_with(o)).then_some(Format::Csa)
}

/// The game boundaries of CSA: `/` separates games; comment lines alone make no game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Boundaries;

impl GameBoundaries for Boundaries {
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        let t = line.trim();
        if t == "/" { (Cut::Separates, false) } else { (Cut::Line, !t.is_empty() && !t.starts_with('\'')) }
    }
}
