//! The root of the search: root moves, iterative deepening, aspiration windows, MultiPV, and the
//! final choice (a move, `resign` or an entering-king `win`).

use super::node::Node;
use super::ordering::is_useless_non_promotion;
use super::root_moves::RootMove;
use super::time::deadlines;
use super::{Limits, MAX_PLY, SearchControl, SearchOptions, Searcher};
use crate::eval::{INFINITE, MATE, MATE_BOUND, Value, is_mate_score};
use crate::position::{DeclarationOutcome, Position};
use crate::types::Move;
use std::time::Instant;

/// Whether an iteration's score is exact or only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact score.
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

/// What one finished iteration (or one MultiPV line of it) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score from the side to move's view.
    pub score: Value,
    /// Exact or bound.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Transposition table use in per-mille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The search's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move (with a move to ponder on, if known).
    Move {
        /// The move.
        best: Move,
        /// The expected reply.
        ponder: Option<Move>,
    },
    /// Resign: no legal move, or the score is below the resign threshold.
    Resign,
    /// Declare an entering-king win.
    Win,
}

/// Result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What to play.
    pub best: BestMove,
    /// Score of the best move (side to move's view).
    pub score: Value,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Whether legal move `m` is searched at the root: one of `searchmoves` when any are given (a
/// move asked for is searched even if it is a useless non-promotion), else any move but a useless
/// non-promotion.
fn is_root_candidate(pos: &Position, m: Move, searchmoves: &[Move]) -> bool {
    if searchmoves.is_empty() { !is_useless_non_promotion(pos, m) } else { searchmoves.contains(&m) }
}

/// True when the best score is a mate, for or against the side to move, and the iterations have
/// gone two and a half times its length past it: a shorter mate (or a longer defence) is then
/// rarely found, and iterating on only repeats the same line (`mate 1` at depth 1, 2, … 124).
/// YaneuraOu's rule (yaneuraou-search.cpp: stop when `(plies + 2) * 5 / 2 < depth`, with MultiPV
/// 1). A search that only `stop` ends still waits for it before answering (the engine holds the
/// answer).
fn mate_settled(score: Value, depth: u32) -> bool {
    let plies = (MATE - score.abs()).max(0) as u32;
    is_mate_score(score) && (plies + 2) * 5 / 2 < depth
}

impl Searcher {
    /// Searches `pos` within `limits`, calling `report` after every iteration, and returns the
    /// move to play. `pos` is restored before returning.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        opts: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(&Iteration),
    ) -> Outcome {
        self.start = control.asked_at().unwrap_or_else(Instant::now);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.opts = *opts;
        self.root_side = pos.side_to_move();
        self.eval.start(pos);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadlines = deadlines(limits, pos.side_to_move(), pos.move_number(), &opts.time);
        if self.id == 0 {
            self.tt.new_search(); // once per search, not once per thread
            self.table_used = true;
        }

        if opts.entering_king_rule != crate::position::EnteringKingRule::None
            && pos.declaration(opts.entering_king_rule) == DeclarationOutcome::Win
        {
            return Outcome { best: BestMove::Win, score: crate::eval::mate_in(1), depth: 0, nodes: 0 };
        }
        let mut roots: Vec<RootMove> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| is_root_candidate(pos, m, &limits.searchmoves))
            .map(|&m| RootMove { mv: m, score: -INFINITE, previous: -INFINITE, pv: vec![m] })
            .collect();
        if roots.is_empty() {
            return Outcome { best: BestMove::Resign, score: crate::eval::mated_in(0), depth: 0, nodes: 0 };
        }
        self.order_roots(pos, &mut roots);
        let multipv = opts.multipv.clamp(1, roots.len());
        if multipv == 1 && self.id == 0 {
            if let Some(outcome) = self.play_root_mate(pos, limits, &mut roots, report) {
                return outcome;
            }
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        let mut completed = 0;
        let mut last_reported = None;
        for depth in 1..=max_depth {
            if super::smp::skips_depth(self.id, depth, pos.move_number()) {
                continue;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.aspiration(pos, &mut roots, pv_idx, depth as i32, control, report);
                if self.stopped {
                    break;
                }
                roots[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            completed = depth;
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            for (i, r) in roots.iter().take(multipv).enumerate() {
                report(&self.iteration(depth, i + 1, r, super::ScoreBound::Exact));
            }
            last_reported = Some(roots[0].mv);
            for r in roots.iter_mut() {
                r.previous = r.score;
            }
            if (multipv == 1 && mate_settled(roots[0].score, depth))
                || self.should_not_deepen(limits, control, roots.len(), roots[0].score)
            {
                break;
            }
        }
        // An aborted iteration may have found a new best move, and it searched nodes that the
        // last report does not count: report the best line once more, with the whole search's
        // nodes and time (as Stockfish's last `info` before `bestmove`), so that a GUI's node
        // count and nodes per second are those of the search.
        if completed > 0 && (self.stopped || last_reported != Some(roots[0].mv)) {
            report(&self.iteration(completed, 1, &roots[0], super::ScoreBound::Exact));
        }
        if completed == 0 {
            self.report_unfinished(pos, &mut roots[0], report);
        }
        let best = &roots[0];
        let best_move = if opts.resign_value > 0 && best.score <= -opts.resign_value && completed > 0 {
            BestMove::Resign
        } else {
            BestMove::Move { best: best.mv, ponder: best.pv.get(1).copied() }
        };
        Outcome { best: best_move, score: best.score, depth: completed, nodes: self.nodes }
    }

    /// Runs the root mate probe. A mate found is reported and put first among the root moves;
    /// it is the answer at once unless the search runs until `stop` (analysis, pondering), where
    /// the iterations go on.
    fn play_root_mate(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        roots: &mut [RootMove],
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<Outcome> {
        let (m, len) = self.root_mate(pos, limits)?;
        let i = roots.iter().position(|r| r.mv == m)?;
        roots[..=i].rotate_right(1);
        let score = crate::eval::mate_in(len);
        roots[0].score = score;
        roots[0].pv = vec![m];
        self.seldepth = len;
        report(&self.iteration(len, 1, &roots[0], ScoreBound::Exact));
        if limits.waits_for_stop() {
            return None;
        }
        Some(Outcome { best: BestMove::Move { best: m, ponder: None }, score, depth: len, nodes: self.nodes })
    }

    /// Reports the line of a search that finished no iteration (a node limit below what depth 1
    /// needs, a `stop` at once), so that every search gives a score and a line: the best move the
    /// aborted iteration searched, its score a lower bound (the moves not searched may be
    /// better); with no move searched at all, the move played and the static evaluation after it
    /// (depth 0).
    fn report_unfinished(&mut self, pos: &mut Position, best: &mut RootMove, report: &mut dyn FnMut(&Iteration)) {
        if best.score > -INFINITE {
            report(&self.iteration(1, 1, best, ScoreBound::Lower));
            return;
        }
        self.eval.push(pos, best.mv, 1);
        pos.do_move(best.mv);
        self.eval.played(pos, 1);
        best.score = -self.eval.evaluate(pos, 1);
        pos.undo_move();
        report(&self.iteration(0, 1, best, ScoreBound::Exact));
    }

    fn iteration(&self, depth: u32, multipv: usize, r: &RootMove, bound: ScoreBound) -> Iteration {
        Iteration {
            depth,
            seldepth: self.seldepth.max(depth),
            multipv,
            score: r.score,
            bound,
            nodes: self.team_nodes(),
            time_ms: self.elapsed_ms(),
            hashfull: self.tt.hashfull(),
            pv: r.pv.clone(),
        }
    }

    /// After a finished iteration: stop unless there is time (and reason) for another.
    fn should_not_deepen(&self, limits: &Limits, control: &SearchControl, n_moves: usize, score: Value) -> bool {
        if limits.waits_for_stop() && control.pondering() {
            return false;
        }
        if limits.infinite {
            return false;
        }
        let elapsed = self.elapsed_ms();
        let Some(soft) = self.deadlines.soft else {
            return false;
        };
        let hard = self.deadlines.hard.unwrap_or(soft);
        if n_moves == 1 && elapsed >= soft / 8 {
            return true; // a forced move: do not waste the clock
        }
        if score.abs() >= MATE_BOUND && limits.depth.is_none() {
            return elapsed >= soft / 4;
        }
        // Measured from the `go`, also after a ponderhit (we have thought that long already).
        if soft < hard { elapsed >= soft * 6 / 10 } else { elapsed >= hard }
    }

    /// Searches the root moves from `pv_idx` on at `depth` with an aspiration window around the
    /// previous score, widening on failure.
    fn aspiration(
        &mut self,
        pos: &mut Position,
        roots: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        control: &SearchControl,
        report: &mut dyn FnMut(&Iteration),
    ) {
        let prev = roots[pv_idx].previous;
        let mut delta: Value = super::params::aspiration_delta();
        let (mut alpha, mut beta) = if depth >= 4 && !is_mate_score(prev) && prev > -INFINITE {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(pos, roots, pv_idx, Node::full(alpha, beta, depth, 0, true), control);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                ScoreBound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                ScoreBound::Lower
            } else {
                return;
            };
            if self.elapsed_ms() > 1_000 {
                let r = roots[pv_idx..].iter().max_by_key(|r| r.score).unwrap_or(&roots[pv_idx]);
                report(&self.iteration(depth as u32, pv_idx + 1, r, bound));
            }
            delta += delta / 2 + super::params::aspiration_growth();
        }
    }

    /// One pass over the root moves from `pv_idx` on, with the window and depth of `root`.
    fn search_root(
        &mut self,
        pos: &mut Position,
        roots: &mut [RootMove],
        pv_idx: usize,
        root: Node,
        control: &SearchControl,
    ) -> Value {
        let Node { mut alpha, beta, depth, .. } = root;
        let mut best = -INFINITE;
        for i in pv_idx..roots.len() {
            let m = roots[i].mv;
            let gives_check = pos.gives_check(m);
            let new_depth = depth - 1 + gives_check as i32;
            let reduction = self.root_reduction(pos, m, gives_check, i - pv_idx, depth);
            self.stack[0].key = super::history::ContKey::of(pos, m);
            self.eval.push(pos, m, 1);
            pos.do_move(m);
            self.eval.played(pos, 1);
            let score = if i == pv_idx {
                -self.alphabeta(pos, Node::full(-beta, -alpha, new_depth, 1, true), control)
            } else {
                let r = reduction;
                let mut s = -self.alphabeta(pos, Node::scout(-alpha, new_depth - r, 1, true), control);
                if s > alpha && r > 0 {
                    s = -self.alphabeta(pos, Node::scout(-alpha, new_depth, 1, true), control);
                }
                if s > alpha && s < beta {
                    s = -self.alphabeta(pos, Node::full(-beta, -alpha, new_depth, 1, true), control);
                }
                s
            };
            pos.undo_move();
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
            }
            if i == pv_idx || score > alpha {
                roots[i].score = score;
                roots[i].pv.clear();
                roots[i].pv.push(m);
                roots[i].pv.extend(self.pv[1][1..self.pv_len[1]].iter().flatten());
                if score > alpha {
                    alpha = score;
                    // Move the new best to the front of the searched range so that an aborted
                    // iteration still plays it.
                    roots[pv_idx..=i].rotate_right(1);
                }
            } else {
                roots[i].score = -INFINITE;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
