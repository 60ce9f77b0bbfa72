//! The move loop's pruning of single moves: late-move (move-count), history, futility and SEE
//! pruning of quiet moves, futility and SEE pruning of captures, judged at the move's
//! late-move-reduced depth where Stockfish and YaneuraOu do; and the late-move reduction itself
//! (its formula and the move loop's adjustments).

use super::history::History;
use super::node::{Candidate, Node, NodeState, Tally};
use super::ordering::MovePicker;
use super::params;
use crate::eval::{MATE_BOUND, piece_value};
use crate::position::Position;
use std::sync::OnceLock;

/// Natural logarithms of 0..1024 (0 for 0), looked up instead of computed at every move.
fn ln_table() -> &'static [f32; 1024] {
    static TABLE: OnceLock<[f32; 1024]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|i| (i.max(1) as f32).ln()))
}

/// `ln(x.max(1))`, from the table where it reaches.
#[inline(always)]
fn ln(x: usize) -> f32 {
    ln_table().get(x).copied().unwrap_or_else(|| (x as f32).ln())
}

/// Late-move reduction in plies for `depth` and move number `n` (both ≥ 1), rounded down.
pub(super) fn reduction(depth: i32, n: usize) -> i32 {
    fine_reduction(depth, n).div_euclid(1024)
}

/// Late-move reduction in 1/1024 ply for `depth` and move number `n` (both ≥ 1), the base plus
/// ln(depth)·ln(n)·100 / divisor: not yet rounded, for the move loop to add its adjustments to at
/// that precision and round down once, as Stockfish and YaneuraOu do.
pub(super) fn fine_reduction(depth: i32, n: usize) -> i32 {
    let d = ln(depth.max(1) as usize);
    let m = ln(n);
    params::lmr_base() + (d * m * 102_400.0 / params::lmr_divisor() as f32) as i32
}

/// The late-move reduction in plies of `c`, the `searched`-th move searched at `state`'s node
/// (counted from 0), to be searched to `new_depth`: none for the first moves, captures,
/// promotions and evasions; else the formula and the node's and move's adjustments summed in
/// 1/1024 ply and rounded down once, at most `new_depth - 1`.
#[inline(always)]
pub(super) fn late_move_reduction(state: &NodeState, c: &Candidate, searched: usize, new_depth: i32) -> i32 {
    let Node { depth, pv, cut, .. } = state.node;
    if depth < params::lmr_depth() || searched < params::lmr_searched() as usize || c.tactical || state.in_check {
        return 0;
    }
    let formula = fine_reduction(depth, searched);
    let mut fine = formula;
    fine -= pv as i32 * params::lmr_pv_node();
    fine += cut as i32 * params::lmr_cut_node();
    // Not improving: a constant and a share of the formula's log product (YaneuraOu's).
    let log_product = formula - params::lmr_base();
    let not_improving = params::lmr_not_improving() + log_product * params::lmr_not_improving_scale() / 512;
    fine += !state.improving as i32 * not_improving;
    if state.killers.contains(&Some(c.m)) {
        fine -= params::lmr_killer();
    }
    // Quiet checks are reduced too (in shogi checks keep coming), a ply less.
    fine -= c.gives_check as i32 * params::lmr_quiet_check();
    fine -= c.history * 1024 / params::lmr_history_divisor();
    // Less for each move searched before it (YaneuraOu's 65 a move, beside its larger base).
    fine -= searched as i32 * params::lmr_move_count();
    // More at nodes expected to fail low (neither PV nor cut), most at shallow ones
    // (YaneuraOu's 273 / (256·depth + 260) of the reduction).
    if !pv && !cut {
        fine += fine * params::lmr_all_node_scale() / (256 * depth + 260);
    }
    fine.div_euclid(1024).clamp(0, new_depth - 1)
}

/// True once the node searched as many moves as its depth allows (late-move pruning): from then
/// on the quiet moves that do not give check are pruned.
#[inline(always)]
pub(super) fn moves_exhausted(state: &NodeState, tally: &Tally) -> bool {
    let depth = state.node.depth;
    if state.in_check || tally.searched == 0 || tally.best <= -MATE_BOUND || depth > params::lmp_depth() {
        return false;
    }
    let kept = (params::lmp_base() + depth * depth * params::lmp_depth_squared()) / (2 - state.improving as i32);
    tally.searched >= kept.max(0) as usize
}

/// The history from which quiet moves escape futility pruning, once every quiet move that
/// does not check and has less would be pruned by it from here on: the node is futile at the
/// deepest reduced depth such a move can get (its history below `futility_history`, its
/// reduction at least the current move's, which grows with the moves searched). Alpha only
/// rises and the reduction only grows, so the answer holds for the rest of the node.
#[inline(always)]
pub(super) fn quiets_futile_below(state: &NodeState, tally: &Tally) -> Option<i32> {
    let Node { alpha, depth, .. } = state.node;
    if state.in_check || tally.searched == 0 || tally.best <= -MATE_BOUND || depth > params::futility_depth() {
        return None;
    }
    let below = params::futility_history();
    let deepest = depth - 1 - reduction(depth, tally.searched) + (below - 1) / params::lmr_history_divisor();
    let deepest = deepest.max(0);
    let futile = state.eval + params::futility_base() + params::futility_margin() * deepest <= alpha;
    (deepest <= params::futility_depth() && futile).then_some(below)
}

/// Late-move, futility, history and SEE pruning at nodes not in check (PV nodes too, as
/// Stockfish's), once a move was searched: true if `c` is not worth searching here.
/// `exhausted` is [`moves_exhausted`] for this node, which the move loop already asked.
#[inline(always)]
pub(super) fn is_prunable(
    pos: &Position,
    state: &NodeState,
    c: &Candidate,
    tally: &Tally,
    picker: &MovePicker,
    history: &History,
    exhausted: bool,
) -> bool {
    let Node { alpha, depth, .. } = state.node;
    if state.in_check || tally.searched == 0 || tally.best <= -MATE_BOUND {
        return false;
    }
    if !c.tactical && !c.gives_check {
        if exhausted {
            return true;
        }
        if depth <= params::history_prune_depth() && c.history < -params::history_prune_margin() * depth {
            return true;
        }
        // Futility and SEE pruning judge the move at the depth its late-move reduction would
        // search it to (Stockfish's lmrDepth), so that they reach deeper nodes.
        let reduced = depth - 1 - reduction(depth, tally.searched) + c.history / params::lmr_history_divisor();
        let lmr_depth = reduced.max(0);
        let futile = state.eval + params::futility_base() + params::futility_margin() * lmr_depth <= alpha;
        if lmr_depth <= params::futility_depth() && futile && c.history < params::futility_history() {
            return true;
        }
        // A quiet move or drop that hangs material.
        lmr_depth <= params::see_depth()
            && !super::see_ge(pos, c.m, -params::see_quiet_margin() * lmr_depth * lmr_depth)
    } else {
        // A capture or promotion that even with the captured piece and a margin for the depth
        // its late-move reduction would leave cannot lift the static eval to alpha (Stockfish's
        // and YaneuraOu's futility pruning for captures).
        if !c.gives_check {
            let lmr_depth = depth - 1 - reduction(depth, tally.searched);
            if lmr_depth < params::capture_futility_depth() {
                let captured = pos.piece_on(c.m.to()).map_or(0, |p| piece_value(p.kind()));
                // Read only here, where it is used.
                let capture_history = c.capture.map_or(0, |k| history.capture_score(k));
                let futility = state.static_eval
                    + params::capture_futility_base()
                    + params::capture_futility_margin() * lmr_depth
                    + captured
                    + params::capture_futility_history() * capture_history / 1024;
                if futility <= alpha {
                    return true;
                }
            }
        }
        // A sacrifice (capture or check) that loses too much for the depth left.
        let sacrifice = c.gives_check || picker.last_was_bad_capture();
        depth <= params::see_depth() && sacrifice && !super::see_ge(pos, c.m, -params::see_tactical_margin() * depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fine_reduction_is_the_base_plus_the_log_product_and_rounds_down_to_the_plies() {
        // ln(1) = 0: the base alone, 1024 by default (params.rs).
        assert_eq!(fine_reduction(1, 30), params::lmr_base());
        assert_eq!(fine_reduction(12, 1), params::lmr_base());
        // ln(10)² · 102,400 / 176 = 3,084.7 (the formula by hand with the default divisor 176).
        assert_eq!(fine_reduction(10, 10), params::lmr_base() + 3084);
        for depth in 1..64 {
            for n in 1..300 {
                let fine = fine_reduction(depth, n);
                assert!(fine >= fine_reduction(depth, n - 1), "grows with the move number");
                assert!(fine >= fine_reduction(depth - 1, n), "grows with the depth");
                // The old formula in plies: the constant plus the log product, truncated.
                let plies = 1.0 + ((depth as f64).ln() * (n as f64).ln() * 100.0 / 176.0);
                if (plies - plies.round()).abs() > 1e-3 {
                    assert_eq!(reduction(depth, n), plies.floor() as i32, "depth {depth}, move {n}");
                }
            }
        }
    }
}
