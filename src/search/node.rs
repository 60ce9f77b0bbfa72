//! The values one node of the search works with: what it is asked ([`Node`]), what it learnt on
//! entering ([`NodeState`]), what it knows of a move before searching it ([`Candidate`]) and the
//! move loop's running results ([`Tally`]).

use super::correction::Keys;
use super::history::{CaptureKey, ContKey, PreviousKeys};
use super::tt::Stored;
use crate::eval::{INFINITE, Value};
use crate::types::Move;

/// What a node is asked: its window, the depth left, its distance from the root and its role.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Lower end of the window.
    pub(super) alpha: Value,
    /// Upper end of the window.
    pub(super) beta: Value,
    /// Plies left to search.
    pub(super) depth: i32,
    /// Distance from the root.
    pub(super) ply: u32,
    /// A principal-variation node (an open window).
    pub(super) pv: bool,
    /// Expected to fail high.
    pub(super) cut: bool,
}

impl Node {
    /// A node searched with the window `(alpha, beta)`, not expected to fail high.
    #[inline(always)]
    pub(super) fn full(alpha: Value, beta: Value, depth: i32, ply: u32, pv: bool) -> Node {
        Node { alpha, beta, depth, ply, pv, cut: false }
    }

    /// A zero-window, non-PV node that asks whether the score reaches `bound`: the window is
    /// `(bound - 1, bound)`.
    #[inline(always)]
    pub(super) fn scout(bound: Value, depth: i32, ply: u32, cut: bool) -> Node {
        Node { alpha: bound - 1, beta: bound, depth, ply, pv: false, cut }
    }
}

/// A node after its entry steps: the node (window narrowed, depth maybe reduced) and what the
/// table, the static evaluation and the line so far said about it.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeState {
    /// The node, as narrowed by mate-distance pruning and raised alphas.
    pub(super) node: Node,
    /// The side to move is in check.
    pub(super) in_check: bool,
    /// The position's hash key.
    pub(super) key: u64,
    /// The move a singular-extension search leaves out here.
    pub(super) excluded: Option<Move>,
    /// What the transposition table holds for this position (never read when a move is excluded).
    pub(super) hit: Option<Stored>,
    /// What the pruning decisions take for the node's value: the corrected static evaluation,
    /// or the table's score where its bound says it is nearer the truth (`-INFINITE` in check).
    pub(super) eval: Value,
    /// Static evaluation, corrected (`-INFINITE` in check).
    pub(super) static_eval: Value,
    /// Static evaluation as the evaluator gave it (what the table stores).
    pub(super) raw_eval: Value,
    /// The position's features for the correction history.
    pub(super) keys: Keys,
    /// Better than two plies ago: the position is going our way, prune less.
    pub(super) improving: bool,
    /// The killer moves of this ply when the node began.
    pub(super) killers: [Option<Move>; 2],
    /// The continuation keys of the moves [`CONT_PLIES`](super::history::CONT_PLIES) plies before this node.
    pub(super) previous: PreviousKeys,
}

impl NodeState {
    /// The index of this node's ply in the per-ply tables.
    #[inline(always)]
    pub(super) fn p(&self) -> usize {
        self.node.ply as usize
    }

    /// The table's move, to try first.
    #[inline(always)]
    pub(super) fn tt_move(&self) -> Option<Move> {
        self.hit.and_then(|h| h.mv)
    }
}

/// What the move loop knows about one move before searching it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    /// The move.
    pub(super) m: Move,
    /// A capture or a promotion.
    pub(super) tactical: bool,
    /// It checks the opponent.
    pub(super) gives_check: bool,
    /// Its continuation key (for the history tables).
    pub(super) key: Option<ContKey>,
    /// Its capture key, if it captures (for the capture history).
    pub(super) capture: Option<CaptureKey>,
    /// Its history score (0 for tactical moves).
    pub(super) history: i32,
}

/// The move loop's running results.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tally {
    /// The best score so far.
    pub(super) best: Value,
    /// The move that raised alpha last.
    pub(super) best_move: Option<Move>,
    /// Moves searched (not pruned).
    pub(super) searched: usize,
    /// Moves the picker gave, pruned and excluded included.
    pub(super) seen: usize,
    quiets: [Option<(Move, ContKey)>; 32],
    n_quiets: usize,
    captures: [Option<CaptureKey>; 32],
    n_captures: usize,
}

impl Tally {
    /// Nothing searched yet.
    #[inline(always)]
    pub(super) fn new() -> Tally {
        Tally {
            best: -INFINITE,
            best_move: None,
            searched: 0,
            seen: 0,
            quiets: [None; 32],
            n_quiets: 0,
            captures: [None; 32],
            n_captures: 0,
        }
    }

    /// Remembers a searched move that did not cut off, quiet or capture (it loses history if a
    /// later one does).
    #[inline(always)]
    pub(super) fn note_searched(&mut self, c: &Candidate) {
        if let (false, Some(k)) = (c.tactical, c.key) {
            if self.n_quiets < self.quiets.len() {
                self.quiets[self.n_quiets] = Some((c.m, k));
                self.n_quiets += 1;
            }
        }
        if c.capture.is_some() && self.n_captures < self.captures.len() {
            self.captures[self.n_captures] = c.capture;
            self.n_captures += 1;
        }
    }

    /// The quiet moves searched so far without a cut-off (at most 32).
    #[inline(always)]
    pub(super) fn quiets(&self) -> &[Option<(Move, ContKey)>] {
        &self.quiets[..self.n_quiets]
    }

    /// The captures searched so far without a cut-off (at most 32).
    #[inline(always)]
    pub(super) fn captures(&self) -> &[Option<CaptureKey>] {
        &self.captures[..self.n_captures]
    }
}
