//! The static evaluation as the search sees it: an NNUE net ([`Network`]: by default the built-in
//! net, [`crate::eval::nnue::builtin()`], or a net file, as the USI option `EvalFile` says) or the
//! linear evaluation ([`crate::eval::evaluate`]: the fallback, `EvalFile linear`, or when the
//! embedded net cannot be read), behind one per-thread [`Evaluator`] that every evaluation of the
//! search goes through. The engine and `hisha bench` hand it the net ([`Evaluator::set_network`]);
//! until then it evaluates linearly.
//!
//! With a net the evaluator keeps one [`Accumulator`] per ply. Before a move is played the search
//! records the move's [`DirtyPieces`] for the child's ply ([`Evaluator::push`]; a null move records
//! no change, so the child's accumulator is the parent's with the other side to move), and once it
//! is played it computes the child's accumulator ([`Evaluator::played`]): from the parent's, or,
//! for the side whose own king moved (HalfKP), from the half last computed with the king on its
//! new square, kept in a [`RefreshCache`], and the pieces that differ since. Undoing a move is
//! going back to the parent's ply. Computing eagerly measured faster than computing lazily (when the child is first
//! evaluated, from the nearest known ply above, which [`Evaluator::evaluate`] still does for a ply
//! not computed): 8.3-8.4 s against 8.9-9.1 s for `hisha bench` with a HalfKP-256 net, though lazy
//! skips the children that never evaluate (table hits, checks, cut-offs); see `nnue/README.md`.
//!
//! With the linear evaluation (no net) every method is one predictable branch on top of that
//! evaluation.

use super::MAX_PLY;
use crate::eval::nnue::{Accumulator, DirtyPieces, Network, RefreshCache};
use crate::eval::{self, Value};
use crate::position::Position;
use crate::types::{Color, Move};
use std::sync::Arc;

/// One ply of the accumulator stack: the move that led here, and the accumulator once known.
#[derive(Clone)]
struct Ply {
    /// The inputs the move into this ply changed (none for a null move or the root).
    dirty: DirtyPieces,
    /// Which halves of `acc` (by [`Color::index`]) are known for this ply's position.
    computed: [bool; 2],
    acc: Accumulator,
}

/// A net and the per-ply accumulators of one search thread.
struct Nnue {
    net: Arc<Network>,
    plies: Box<[Ply]>,
    /// The halves last computed for each own-king square (HalfKP's refreshes start there).
    cache: RefreshCache,
}

/// The evaluation of one search thread: an NNUE net with its accumulator stack, or (no net) the
/// linear evaluation.
#[derive(Default)]
pub(crate) struct Evaluator {
    nnue: Option<Nnue>,
}

impl Evaluator {
    /// Evaluates with `net` from now on (`None`: the linear evaluation). Setting the net already
    /// in use keeps its stack.
    pub(crate) fn set_network(&mut self, net: Option<Arc<Network>>) {
        if self.network().map(Arc::as_ptr) == net.as_ref().map(Arc::as_ptr) {
            return;
        }
        self.nnue = net.map(|net| {
            let ply = Ply { dirty: DirtyPieces::null(), computed: [false; 2], acc: Accumulator::default() };
            let cache = RefreshCache::new(&net);
            Nnue { net, plies: vec![ply; MAX_PLY + 2].into_boxed_slice(), cache }
        });
    }

    /// The net in use, if any.
    pub(crate) fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| &n.net)
    }

    /// A search starts from `root` (ply 0).
    pub(crate) fn start(&mut self, root: &Position) {
        if let Some(n) = &mut self.nnue {
            let ply = &mut n.plies[0];
            n.net.refresh(root, &mut ply.acc);
            ply.computed = [true; 2];
            ply.dirty = DirtyPieces::null();
        }
    }

    /// `m` is about to be played in `pos` (at ply `child - 1`), leading to ply `child`.
    #[inline(always)]
    pub(crate) fn push(&mut self, pos: &Position, m: Move, child: usize) {
        if let Some(n) = &mut self.nnue {
            let ply = &mut n.plies[child];
            ply.dirty = DirtyPieces::of_move(pos, m);
            ply.computed = [false; 2];
        }
    }

    /// The move pushed for ply `ply` was played: `pos` is that ply's position.
    #[inline(always)]
    pub(crate) fn played(&mut self, pos: &Position, ply: usize) {
        if let Some(n) = &mut self.nnue {
            n.compute(pos, ply);
        }
    }

    /// A null move is about to be played, leading to ply `child`.
    #[inline(always)]
    pub(crate) fn push_null(&mut self, child: usize) {
        if let Some(n) = &mut self.nnue {
            let ply = &mut n.plies[child];
            ply.dirty = DirtyPieces::null();
            ply.computed = [false; 2];
        }
    }

    /// The static evaluation of `pos`, the position at ply `ply` of the current line, from the
    /// side to move's point of view (centipawns, below the mate scores).
    #[inline(always)]
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> Value {
        match &mut self.nnue {
            None => eval::evaluate(pos),
            Some(n) => n.evaluate(pos, ply),
        }
    }

    /// The accumulator of ply `ply`, computed if needed (for tests; `None` without a net).
    #[cfg(test)]
    pub(crate) fn accumulator(&mut self, pos: &Position, ply: usize) -> Option<&Accumulator> {
        let n = self.nnue.as_mut()?;
        n.compute(pos, ply);
        Some(&n.plies[ply].acc)
    }
}

impl Nnue {
    fn evaluate(&mut self, pos: &Position, ply: usize) -> Value {
        self.compute(pos, ply);
        // The net's units are YaneuraOu's, which are the search's (a pawn is 90), and
        // `Network::evaluate` clamps below the mate scores.
        self.net.evaluate(&self.plies[ply].acc, pos.side_to_move())
    }

    /// Makes both halves of ply `ply`'s accumulator known; `pos` is that ply's position.
    fn compute(&mut self, pos: &Position, ply: usize) {
        for perspective in Color::ALL {
            self.compute_perspective(pos, ply, perspective);
        }
    }

    fn compute_perspective(&mut self, pos: &Position, ply: usize, perspective: Color) {
        let c = perspective.index();
        let refreshes = self.net.architecture().features.refreshes_on_own_king_move();
        // The nearest ply at or above `ply` whose half is known, unless a move of this side's
        // king on the way forces a refresh (or nothing above is known).
        let mut known = ply;
        while !self.plies[known].computed[c] {
            let king_moved = refreshes && self.plies[known].dirty.king_moved() == Some(perspective);
            if king_moved || known == 0 {
                let target = &mut self.plies[ply];
                self.cache.refresh(&self.net, pos, perspective, &mut target.acc);
                target.computed[c] = true;
                return;
            }
            known -= 1;
        }
        for next in known + 1..=ply {
            let (above, below) = self.plies.split_at_mut(next);
            let (prev, cur) = (&above[next - 1], &mut below[0]);
            let updated = self.net.update_perspective(&prev.acc, &cur.dirty, perspective, &mut cur.acc);
            debug_assert!(updated, "king moves were refreshed above");
            cur.computed[c] = true;
        }
    }
}

#[cfg(test)]
#[path = "evaluator_tests.rs"]
mod tests;
