//! The node search: principal variation search with null-move pruning, reverse futility pruning,
//! late-move reductions and pruning, check extensions and mate-distance pruning, followed by a
//! quiescence search over captures and promotions (all evasions when in check).

use super::history::ContKey;
use super::ordering::{Context, MovePicker, is_capture};
use super::tt::Bound;
use super::{MAX_PLY, SearchControl, Searcher};
use crate::eval::{INFINITE, MATE_BOUND, Value, capture_value, evaluate, is_mate_score, mate_in, mated_in};
use crate::mate::mate_in_one;
use crate::position::{DeclarationOutcome, EnteringKingRule, Position, Repetition};
use crate::types::{Bitboard, Color, Move};

/// Non-PV nodes look for a mate in one from this depth on.
const MATE_IN_ONE_DEPTH: i32 = 6;

/// How far back (plies) the search looks for repetitions.
const REPETITION_WINDOW: usize = 32;

/// Late-move reduction in plies for `depth` and move number `n` (both ≥ 1).
fn reduction(depth: i32, n: usize) -> i32 {
    let d = (depth.max(1) as f32).ln();
    let m = (n.max(1) as f32).ln();
    (0.5 + d * m / 2.2) as i32
}

impl Searcher {
    /// The score of a draw for the side to move.
    fn draw_score(&self, pos: &Position) -> Value {
        if pos.side_to_move() == self.root_side { self.opts.draw_value } else { -self.opts.draw_value }
    }

    /// Game-rule outcomes at an inner node: repetition, move limit, declaration. `None` = play on.
    fn rule_score(&self, pos: &Position, ply: u32) -> Option<Value> {
        match pos.repetition_within(2, REPETITION_WINDOW) {
            Repetition::None => {}
            Repetition::Draw => return Some(self.draw_score(pos)),
            Repetition::PerpetualCheckBy(c) if c == pos.side_to_move() => {
                return Some(mated_in(ply));
            }
            Repetition::PerpetualCheckBy(_) => return Some(mate_in(ply)),
        }
        let max = self.opts.max_moves_to_draw;
        if max > 0 && pos.move_number() > max {
            return Some(self.draw_score(pos));
        }
        let rule = self.opts.entering_king_rule;
        if rule != EnteringKingRule::None {
            let us = pos.side_to_move();
            let in_camp = pos.king_square(us).is_some_and(|k| Bitboard::far_ranks(us, 3).has(k));
            if in_camp && pos.declaration(rule) == DeclarationOutcome::Win {
                return Some(mate_in(ply));
            }
        }
        None
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    /// Alpha-beta search of `pos` to `depth` plies; `ply` is the distance from the root.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn alphabeta(
        &mut self,
        pos: &mut Position,
        mut alpha: Value,
        mut beta: Value,
        mut depth: i32,
        ply: u32,
        pv_node: bool,
        cut_node: bool,
        control: &SearchControl,
    ) -> Value {
        let p = ply as usize;
        self.pv_len[p] = p;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, control);
        }
        self.nodes += 1;
        if self.check_stop(control) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.rule_score(pos, ply) {
            return v;
        }
        if p >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let in_check = pos.in_check();
        let key = pos.key();
        // A singular-extension search (one move excluded) must not share this node's entry.
        let excluded = self.stack[p].excluded;
        let hit = if excluded.is_some() { None } else { self.tt.probe(key, ply) };
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let usable = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if usable {
                    return h.score;
                }
            }
        }
        // A mate in one ends the node. Looked for only where it is cheap next to the node's
        // subtree: PV nodes and deep nodes, the first time they are seen (at every node it cost
        // 30 % of the speed and lost 17-35 at byoyomi 200; see root_mate.rs).
        if (pv_node || depth >= MATE_IN_ONE_DEPTH) && !in_check && hit.is_none() && excluded.is_none() {
            if let Some(m) = mate_in_one(pos) {
                let v = mate_in(ply + 1);
                self.pv_len[p + 1] = p + 1;
                self.update_pv(p, m);
                self.tt.store(key, ply, Some(m), v, evaluate(pos), depth, Bound::Exact);
                return v;
            }
        }
        let eval = if in_check { -INFINITE } else { hit.map_or_else(|| evaluate(pos), |h| h.eval) };
        self.stack[p].eval = eval;
        // Better than two plies ago: the position is going our way, prune less.
        let improving = !in_check && p >= 2 && eval > self.stack[p - 2].eval;

        if !pv_node && !in_check && !is_mate_score(beta) && excluded.is_none() {
            // Reverse futility pruning.
            if depth <= 6 && eval - 110 * (depth - improving as i32) >= beta {
                return eval;
            }
            // Null move: give the opponent a free move; if we still beat beta, this node fails high.
            if depth >= 3 && eval >= beta && pos.last_move().is_some() {
                let r = 3 + depth / 4 + ((eval - beta) / 250).min(3);
                self.stack[p].key = None;
                pos.do_null_move();
                let v = -self.alphabeta(pos, -beta, -beta + 1, depth - r, ply + 1, false, !cut_node, control);
                pos.undo_move();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }
        // No move to try first: reduce instead of searching blind at full depth.
        if tt_move.is_none() && depth >= 4 && !in_check && excluded.is_none() {
            depth -= 1;
        }

        let killers = self.killers[p];
        let previous = self.previous_keys(p);
        let us = pos.side_to_move();
        let mut picker = MovePicker::new(pos, tt_move, depth);
        let (mut best, mut best_move) = (-INFINITE, None);
        let mut searched = 0usize;
        let mut seen = 0usize;
        let mut quiets: [Option<(Move, ContKey)>; 32] = [None; 32];
        let mut n_quiets = 0;
        loop {
            let ctx = Context { history: &self.history, killers, previous };
            let Some(m) = picker.next(pos, &ctx) else { break };
            seen += 1;
            if Some(m) == excluded {
                continue;
            }
            self.tt.prefetch(pos.key_after(m));
            let tactical = is_capture(pos, m) || m.is_promotion();
            let gives_check = pos.gives_check(m);
            let key = ContKey::of(pos, m);
            let history = match key {
                Some(k) if !tactical => self.history.score(us, m, k, &previous),
                _ => 0,
            };
            if !pv_node && !in_check && searched > 0 && best > -MATE_BOUND {
                // Late-move pruning and futility pruning of quiet moves.
                if !tactical && !gives_check {
                    let lmp = (4 + (depth * depth) as usize * 2) / (2 - improving as usize);
                    if depth <= 4 && searched >= lmp {
                        continue;
                    }
                    if depth <= 5 && eval + 120 + 130 * depth <= alpha && history < 8_000 {
                        continue;
                    }
                    if depth <= 3 && history < -6_000 * depth {
                        continue;
                    }
                    // A quiet move or drop that hangs material.
                    if depth <= 6 && super::see(pos, m) < -40 * depth * depth {
                        continue;
                    }
                } else if depth <= 6
                    && (gives_check || picker.last_was_bad_capture())
                    && super::see(pos, m) < -200 * depth
                {
                    // A sacrifice (capture or check) that loses too much for the depth left.
                    continue;
                }
            }
            let mut extension = (gives_check && (depth <= 6 || super::see(pos, m) >= 0)) as i32;
            // Singular extension: the TT move is much better than every other move here.
            if let (Some(h), true) = (hit, Some(m) == tt_move && depth >= 7 && p > 0) {
                if h.depth >= depth - 3 && h.bound != Bound::Upper && !is_mate_score(h.score) {
                    let singular_beta = h.score - 2 * depth;
                    self.stack[p].excluded = Some(m);
                    let v = self.alphabeta(
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        false,
                        cut_node,
                        control,
                    );
                    self.stack[p].excluded = None;
                    if self.stopped {
                        return 0;
                    }
                    if v < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        return singular_beta; // several moves beat beta: multi-cut
                    }
                }
            }
            let new_depth = depth - 1 + extension;
            self.stack[p].key = key;
            pos.do_move(m);
            let score = if searched == 0 {
                -self.alphabeta(pos, -beta, -alpha, new_depth, ply + 1, pv_node, false, control)
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && !tactical && !in_check && !gives_check {
                    r = reduction(depth, searched);
                    r -= pv_node as i32;
                    r += cut_node as i32;
                    r += !improving as i32;
                    if killers.contains(&Some(m)) {
                        r -= 1;
                    }
                    r -= history / 6_000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.alphabeta(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, false, true, control);
                if s > alpha && r > 0 {
                    s = -self.alphabeta(pos, -alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node, control);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.alphabeta(pos, -beta, -alpha, new_depth, ply + 1, true, false, control);
                }
                s
            };
            pos.undo_move();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(p, m);
                    if score >= beta {
                        if let (false, Some(k)) = (tactical, key) {
                            self.reward_quiet(us, p, (m, k), &previous, depth, &quiets[..n_quiets]);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if let (false, Some(k)) = (tactical, key) {
                if n_quiets < quiets.len() {
                    quiets[n_quiets] = Some((m, k));
                    n_quiets += 1;
                }
            }
        }
        if seen == 0 {
            // No legal move: checkmated (there is no stalemate in shogi).
            return mated_in(ply);
        }
        if excluded.is_some() {
            return if searched == 0 { alpha } else { best };
        }
        if searched == 0 {
            return alpha; // everything was pruned
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        self.tt.store(key, ply, best_move, best, stored_eval, depth, bound);
        best
    }

    /// The continuation keys of the moves one and two plies before ply `p`.
    pub(super) fn previous_keys(&self, p: usize) -> [Option<ContKey>; 2] {
        [p.checked_sub(1).and_then(|i| self.stack[i].key), p.checked_sub(2).and_then(|i| self.stack[i].key)]
    }

    /// A quiet move caused a cut-off: it becomes a killer and the counter move, and gains history
    /// while the quiet moves tried before it lose some.
    fn reward_quiet(
        &mut self,
        us: Color,
        p: usize,
        (m, key): (Move, ContKey),
        previous: &[Option<ContKey>; 2],
        depth: i32,
        tried: &[Option<(Move, ContKey)>],
    ) {
        let k = &mut self.killers[p];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.history.set_counter(us, previous[0], m);
        let bonus = (depth * depth * 32 + 64).min(4_000);
        self.history.update(us, m, key, previous, bonus);
        for &(q, qk) in tried.iter().flatten() {
            if q != m {
                self.history.update(us, q, qk, previous, -bonus);
            }
        }
    }

    /// Quiescence search: stand pat, then captures and promotions (all evasions in check).
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: Value,
        beta: Value,
        ply: u32,
        qdepth: u32,
        control: &SearchControl,
    ) -> Value {
        let p = ply as usize;
        self.pv_len[p] = p;
        self.nodes += 1;
        if self.check_stop(control) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if p >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        // A singular-extension search (one move excluded) must not share this node's entry.
        let excluded = self.stack[p].excluded;
        let hit = if excluded.is_some() { None } else { self.tt.probe(key, ply) };
        if let Some(h) = hit {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if usable {
                return h.score;
            }
        }
        let stand = if in_check { -INFINITE } else { hit.map_or_else(|| evaluate(pos), |h| h.eval) };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            if qdepth >= 12 {
                return stand;
            }
        }
        let mut best = stand;
        let mut best_move = None;
        let mut picker = MovePicker::new_quiescence(pos, hit.and_then(|h| h.mv));
        let previous = self.previous_keys(p);
        let mut seen = 0;
        loop {
            let ctx = Context { history: &self.history, killers: [None; 2], previous };
            let Some(m) = picker.next(pos, &ctx) else { break };
            seen += 1;
            if !in_check {
                let gain = pos.piece_on(m.to()).map_or(0, |c| capture_value(c.kind()))
                    + if m.is_promotion() { 500 } else { 0 };
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            self.tt.prefetch(pos.key_after(m));
            self.stack[p].key = ContKey::of(pos, m);
            pos.do_move(m);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qdepth + 1, control);
            pos.undo_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(p, m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && seen == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(key, ply, best_move, best, if in_check { 0 } else { stand }, 0, bound);
        best
    }
}
