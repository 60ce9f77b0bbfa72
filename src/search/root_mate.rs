//! The mate probe at the root: before the alpha-beta iterations, a short node-limited df-pn
//! (`mate::MateProbe`) looks for a mate for the side to move. Mates of 7 to 30 plies, which the
//! alpha-beta search with its pruning sees late or never, are found in a few milliseconds.
//!
//! Inner nodes look for a mate in one themselves (`alphabeta.rs`, `qsearch.rs`): every mate at
//! PV and deep nodes; mates by a contact check (`mate::mate_in_one_by_contact`) at shallower ones
//! and in quiescence (the tunables `contact_mate_depth` and `qsearch_contact_mate`), only where
//! the static evaluation's cut-offs have not already ended the node (see `README.md`).

use super::{Limits, Searcher, params};
use crate::position::Position;
use crate::types::Move;

/// Longest mate (plies) the root probe looks for.
pub(super) const ROOT_MATE_PLIES: u32 = 31;
/// Mate-solver nodes a millisecond, about what the solver visits: the soft deadline's share
/// (`root_mate_share`) is given to the probe as nodes at this rate.
const SOLVER_NODES_PER_MS: u64 = 200;
/// Node budget bounds.
const MIN_NODES: u64 = 1_000;
const MAX_NODES: u64 = 200_000;
/// Budget when the search has no deadline (depth limit, analysis).
const UNTIMED_NODES: u64 = 20_000;

impl Searcher {
    /// Looks for a mate for the side to move within the probe's budget (none where
    /// `root_mate_share` is 0): the first move and the length of the mate proven. Counts its
    /// nodes in the search's nodes.
    pub(super) fn root_mate(&mut self, pos: &mut Position, limits: &Limits) -> Option<(Move, u32)> {
        let share = params::root_mate_share() as u64;
        if share == 0 {
            return None;
        }
        let budget = match (self.deadlines.soft, limits.nodes) {
            // Never more than half the node limit, so that the iterations get the rest.
            (_, Some(n)) => (n * share / 1000).clamp(MIN_NODES, MAX_NODES).min(n / 2),
            (Some(ms), None) => (ms * SOLVER_NODES_PER_MS * share / 1000).clamp(MIN_NODES, MAX_NODES),
            (None, None) => UNTIMED_NODES,
        };
        let found = self.mate.probe(pos, ROOT_MATE_PLIES, budget);
        self.nodes += self.mate.nodes();
        found
    }
}
