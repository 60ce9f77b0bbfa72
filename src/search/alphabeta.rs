//! The node search: principal variation search with null-move pruning, reverse futility pruning,
//! late-move reductions and pruning, check extensions and mate-distance pruning, followed by a
//! quiescence search (`qsearch.rs`).
//!
//! [`Searcher::alphabeta`] reads as its steps: `enter` (stop, game rules, mate-distance pruning,
//! the table's cutoff, mate in one at PV and deep nodes, static eval corrected by the correction
//! history), `prune_node` (reverse futility, a mate in one by a contact check at shallower nodes
//! from `contact_mate_depth`, the null move), then `search_moves`, whose per-move steps
//! are `candidate`, `is_prunable` (`pruning.rs`), `extension` and `search_move` (a cut-off's
//! lessons for the move ordering: `rewards.rs`), and `finish` (the correction history's update,
//! the table store). The node's values live in `node.rs`. The steps are `#[inline(always)]`: the
//! node stays one function for the optimiser, as before the split (letting LLVM choose measured
//! no faster on `hisha bench`).

use super::correction::Keys;
use super::history::{CONT_PLIES, CaptureKey, ContKey, PreviousKeys};
use super::node::{Candidate, Node, NodeState, Tally};
use super::ordering::{Context, MovePicker, is_capture};
use super::params;
use super::pruning::{is_prunable, late_move_reduction, moves_exhausted, quiets_futile_below};
use super::tt::{Bound, Stored};
use super::{MAX_PLY, SearchControl, Searcher};
use crate::eval::{INFINITE, MATE_BOUND, Value, is_mate_score, mate_in, mated_in};
use crate::mate::{mate_in_one, mate_in_one_by_contact};
use crate::position::{CheckSquares, Position};
use crate::types::Move;
use std::ops::ControlFlow;

impl Searcher {
    /// Makes `m` followed by the child's line the principal variation of ply `ply`.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    /// A node (at `ply`, with `key`, its raw static `eval`) that mates in one with `m`: `m`
    /// becomes its line, the table keeps the mate at `depth`, and the mate's score is returned.
    /// Rare, so kept out of the node's hot code (`cold`).
    #[cold]
    pub(super) fn mate_in_one_found(&mut self, key: u64, ply: u32, m: Move, depth: i32, eval: Value) -> Value {
        let (v, p) = (mate_in(ply + 1), ply as usize);
        self.pv_len[p + 1] = p + 1;
        self.update_pv(p, m);
        self.tt.store(key, ply, Stored { mv: Some(m), score: v, eval, depth, bound: Bound::Exact });
        v
    }

    /// Alpha-beta search of `pos` for `node`: its entry steps, the node pruning, then the moves.
    pub(super) fn alphabeta(&mut self, pos: &mut Position, node: Node, control: &SearchControl) -> Value {
        let p = node.ply as usize;
        self.pv_len[p] = p;
        if node.depth <= 0 {
            return self.qsearch(pos, node.alpha, node.beta, node.ply, 0, control);
        }
        let mut state = match self.enter(pos, node, control) {
            ControlFlow::Continue(state) => state,
            ControlFlow::Break(v) => return v,
        };
        if let Some(v) = self.prune_node(pos, &state, control) {
            return v;
        }
        // No move to try first: reduce instead of searching blind at full depth.
        if state.tt_move().is_none()
            && state.node.depth >= params::iir_depth()
            && !state.in_check
            && state.excluded.is_none()
        {
            state.node.depth -= 1;
        }
        self.search_moves(pos, &mut state, control)
    }

    /// The steps before any move: the stop test, game rules, mate-distance pruning, the table's
    /// cutoff, a mate in one and the static evaluation. `Break` carries the node's score.
    #[inline(always)]
    fn enter(&mut self, pos: &mut Position, mut node: Node, control: &SearchControl) -> ControlFlow<Value, NodeState> {
        let (ply, p) = (node.ply, node.ply as usize);
        if self.count_node_and_check_stop(control) {
            return ControlFlow::Break(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.rule_score(pos, ply) {
            return ControlFlow::Break(v);
        }
        if p >= MAX_PLY - 2 {
            return ControlFlow::Break(self.eval.evaluate(pos, p));
        }
        // Mate-distance pruning.
        node.alpha = node.alpha.max(mated_in(ply));
        node.beta = node.beta.min(mate_in(ply + 1));
        if node.alpha >= node.beta {
            return ControlFlow::Break(node.alpha);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        // A singular-extension search (one move excluded) must not share this node's entry.
        let excluded = self.stack[p].excluded;
        let hit = if excluded.is_some() { None } else { self.tt.probe(key, ply) };
        if let Some(h) = hit {
            if !node.pv && h.depth >= node.depth && h.cuts(node.alpha, node.beta) {
                return ControlFlow::Break(h.score);
            }
        }
        // A mate in one ends the node, looked for the first time a node is seen at PV and deep
        // nodes (shallower ones look for a contact mate in `prune_node`).
        if !in_check && hit.is_none() && excluded.is_none() && (node.pv || node.depth >= params::mate_one_depth()) {
            if let Some(m) = mate_in_one(pos) {
                let eval = self.eval.evaluate(pos, p);
                return ControlFlow::Break(self.mate_in_one_found(key, ply, m, node.depth, eval));
            }
        }
        let raw_eval = if in_check { -INFINITE } else { hit.map_or_else(|| self.eval.evaluate(pos, p), |h| h.eval) };
        let previous = self.previous_keys(p);
        let keys = if in_check { Keys::default() } else { Keys::of(pos, &previous) };
        let static_eval =
            if in_check { raw_eval } else { self.correction.corrected(pos.side_to_move(), &keys, raw_eval) };
        self.stack[p].eval = static_eval;
        let improving = !in_check && p >= 2 && static_eval > self.stack[p - 2].eval;
        // The table's score, where its bound says it is nearer the truth, is a better estimate
        // for the pruning decisions.
        let eval = match hit {
            Some(h) if !in_check && !is_mate_score(h.score) && h.improves_on(static_eval) => h.score,
            _ => static_eval,
        };
        let killers = self.killers[p];
        ControlFlow::Continue(NodeState {
            node,
            in_check,
            key,
            excluded,
            hit,
            eval,
            static_eval,
            raw_eval,
            keys,
            improving,
            killers,
            previous,
        })
    }

    /// Reverse futility pruning and the null move, at non-PV nodes not in check: `Some` is the
    /// node's score.
    #[inline(always)]
    fn prune_node(&mut self, pos: &mut Position, state: &NodeState, control: &SearchControl) -> Option<Value> {
        let Node { beta, depth, ply, pv, cut, .. } = state.node;
        if pv || state.in_check || is_mate_score(beta) || state.excluded.is_some() {
            return None;
        }
        let eval = state.eval;
        // Reverse futility pruning.
        if depth <= params::rfp_depth() && eval - params::rfp_margin() * (depth - state.improving as i32) >= beta {
            return Some(eval);
        }
        // A mate by a contact check (the cheap kind) at shallower nodes seen for the first time,
        // from `contact_mate_depth`: after reverse futility, where a mate would change only the
        // size of the fail-high, before the null move, whose search costs far more.
        if state.hit.is_none() && depth >= params::contact_mate_depth() && depth < params::mate_one_depth() {
            if let Some(m) = mate_in_one_by_contact(pos) {
                return Some(self.mate_in_one_found(state.key, ply, m, depth, state.raw_eval));
            }
        }
        // Null move: give the opponent a free move; if we still beat beta, this node fails high.
        if depth >= params::nmp_depth() && eval >= beta && pos.last_move().is_some() {
            let by_eval = ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
            let r = params::nmp_base() + depth / params::nmp_depth_divisor() + by_eval;
            self.stack[state.p()].key = None;
            self.eval.push_null(state.p() + 1);
            pos.do_null_move();
            self.eval.played(pos, state.p() + 1);
            let v = -self.alphabeta(pos, Node::scout(-beta + 1, depth - r, ply + 1, !cut), control);
            pos.undo_move();
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        None
    }

    /// The move loop: each move is pruned, extended and searched in turn; a cut-off rewards a
    /// quiet move. Ends with the table store.
    #[inline(always)]
    fn search_moves(&mut self, pos: &mut Position, state: &mut NodeState, control: &SearchControl) -> Value {
        let p = state.p();
        let us = pos.side_to_move();
        let mut picker = MovePicker::new(pos, state.tt_move(), state.node.depth);
        let mut tally = Tally::new();
        // Built at the second move: most nodes cut off at the first are spared the cost.
        let mut check_squares: Option<CheckSquares> = None;
        let mut futile_set = false;
        loop {
            let ctx = Context { history: &self.history, killers: state.killers, previous: state.previous };
            let Some(m) = picker.next(pos, &ctx) else { break };
            tally.seen += 1;
            if Some(m) == state.excluded {
                continue;
            }
            let gives_check = if tally.seen == 1 {
                pos.gives_check(m)
            } else {
                check_squares.get_or_insert_with(|| pos.check_squares()).gives_check(pos, m)
            };
            // Late-move pruning would prune every quiet move but checks from here on: the
            // picker skips them (same tree, 9 % fewer instructions a search).
            let exhausted = moves_exhausted(state, &tally);
            if exhausted {
                picker.quiet_checks_only(check_squares.get_or_insert_with(|| pos.check_squares()));
            } else if !futile_set {
                // Futility would prune every quiet move below this history but the checks: the
                // picker skips them (same pruning, fewer moves handed out).
                if let Some(below) = quiets_futile_below(state, &tally) {
                    picker.quiet_checks_below(below, check_squares.get_or_insert_with(|| pos.check_squares()));
                    futile_set = true;
                }
            }
            let c = self.candidate(pos, m, gives_check, &state.previous);
            if is_prunable(pos, state, &c, &tally, &picker, &self.history, exhausted) {
                continue;
            }
            let extension = match self.extension(pos, state, &c, control) {
                ControlFlow::Continue(e) => e,
                ControlFlow::Break(v) => return v,
            };
            let score = self.search_move(pos, state, &c, state.node.depth - 1 + extension, tally.searched, control);
            if self.stopped {
                return 0;
            }
            tally.searched += 1;
            if score > tally.best {
                tally.best = score;
                if score > state.node.alpha {
                    tally.best_move = Some(m);
                    self.update_pv(p, m);
                    if score >= state.node.beta {
                        let depth = state.node.depth;
                        if let (false, Some(k)) = (c.tactical, c.key) {
                            self.reward_quiet(us, p, (m, k), &state.previous, depth, tally.quiets());
                        }
                        self.reward_capture(c.capture, depth, tally.captures());
                        break;
                    }
                    state.node.alpha = score;
                }
            }
            tally.note_searched(&c);
        }
        self.finish(pos, state, &tally)
    }

    /// What the move loop needs to know about `m` (which gives check or not) before searching it.
    #[inline(always)]
    fn candidate(&self, pos: &Position, m: Move, gives_check: bool, previous: &PreviousKeys) -> Candidate {
        let tactical = is_capture(pos, m) || m.is_promotion();
        let key = ContKey::of(pos, m);
        let history = match key {
            Some(k) if !tactical => self.history.score(pos.side_to_move(), m, k, previous),
            _ => 0,
        };
        let capture = if tactical { CaptureKey::of(pos, m) } else { None };
        Candidate { m, tactical, gives_check, key, capture, history }
    }

    /// The check extension, or the singular extension when the table's move is much better than
    /// every other move here. `Break` ends the node: stopped, or several moves beat beta.
    #[inline(always)]
    fn extension(
        &mut self,
        pos: &mut Position,
        state: &NodeState,
        c: &Candidate,
        control: &SearchControl,
    ) -> ControlFlow<Value, i32> {
        let Node { beta, depth, ply, cut, .. } = state.node;
        let p = state.p();
        let checks = c.gives_check && (depth <= params::check_extension_depth() || super::see_ge(pos, c.m, 0));
        let mut extension = checks as i32;
        let singular_candidate = Some(c.m) == state.tt_move() && depth >= params::singular_depth() && p > 0;
        if let (Some(h), true) = (state.hit, singular_candidate) {
            if h.depth >= depth - params::singular_tt_depth() && h.bound != Bound::Upper && !is_mate_score(h.score) {
                let singular_beta = h.score - params::singular_margin() * depth;
                self.stack[p].excluded = Some(c.m);
                let v = self.alphabeta(pos, Node::scout(singular_beta, (depth - 1) / 2, ply, cut), control);
                self.stack[p].excluded = None;
                if self.stopped {
                    return ControlFlow::Break(0);
                }
                if v < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    return ControlFlow::Break(singular_beta); // several moves beat beta: multi-cut
                }
            }
        }
        ControlFlow::Continue(extension)
    }

    /// Plays `c` and searches it to `new_depth`: the first move with the node's window, later ones
    /// with a zero window (late quiet moves reduced), searched again when they beat alpha.
    #[inline(always)]
    fn search_move(
        &mut self,
        pos: &mut Position,
        state: &NodeState,
        c: &Candidate,
        new_depth: i32,
        searched: usize,
        control: &SearchControl,
    ) -> Value {
        let Node { alpha, beta, ply, pv, cut, .. } = state.node;
        self.stack[state.p()].key = c.key;
        self.eval.push(pos, c.m, state.p() + 1);
        pos.do_move(c.m);
        // The child's table entry comes into the cache while its evaluation is brought up to date.
        self.tt.prefetch(pos.key());
        self.eval.played(pos, state.p() + 1);
        let score = if searched == 0 {
            -self.alphabeta(pos, Node::full(-beta, -alpha, new_depth, ply + 1, pv), control)
        } else {
            let r = late_move_reduction(state, c, searched, new_depth);
            let mut s = -self.alphabeta(pos, Node::scout(-alpha, new_depth - r, ply + 1, true), control);
            if s > alpha && r > 0 {
                s = -self.alphabeta(pos, Node::scout(-alpha, new_depth, ply + 1, !cut), control);
            }
            if s > alpha && s < beta && pv {
                s = -self.alphabeta(pos, Node::full(-beta, -alpha, new_depth, ply + 1, true), control);
            }
            s
        };
        pos.undo_move();
        score
    }

    /// The node's score once the moves are done (mated, or everything pruned), stored in the table.
    #[inline(always)]
    fn finish(&mut self, pos: &Position, state: &NodeState, tally: &Tally) -> Value {
        let Node { alpha, beta, depth, ply, pv, .. } = state.node;
        if tally.seen == 0 {
            // No legal move: checkmated (there is no stalemate in shogi).
            return mated_in(ply);
        }
        if state.excluded.is_some() {
            return if tally.searched == 0 { alpha } else { tally.best };
        }
        if tally.searched == 0 {
            return alpha; // everything was pruned
        }
        let bound = if tally.best >= beta {
            Bound::Lower
        } else if pv && tally.best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !state.in_check && tally.best_move.is_none_or(|m| !is_capture(pos, m)) {
            let raised = tally.best_move.is_some();
            self.correction.learn(
                pos.side_to_move(),
                &state.keys,
                state.node.depth,
                state.static_eval,
                tally.best,
                raised,
            );
        }
        let eval = if state.in_check { 0 } else { state.raw_eval };
        self.tt.store(state.key, ply, Stored { mv: tally.best_move, score: tally.best, eval, depth, bound });
        tally.best
    }

    /// The continuation keys of the moves `CONT_PLIES` plies before ply `p`.
    pub(super) fn previous_keys(&self, p: usize) -> PreviousKeys {
        CONT_PLIES.map(|back| p.checked_sub(back).and_then(|i| self.stack[i].key))
    }
}
