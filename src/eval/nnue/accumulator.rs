//! The accumulator: the feature transformer's output before clipping, one half per perspective,
//! computed from scratch ([`Network::refresh`]) or from the previous ply's accumulator and the
//! move's [`DirtyPieces`] ([`Network::update`]).
//!
//! A search keeps one accumulator per ply: `do_move` records `DirtyPieces::of_move(&pos, m)`
//! before playing the move, the child's accumulator is derived from the parent's when first
//! needed, and undoing a move is just going back to the parent's (nothing to undo). A move of
//! the perspective's own king makes HalfKP recompute that half
//! ([`Network::update_perspective`] says so by returning `false`).

use super::architecture::MAX_L1;
use super::bona_piece::F_KING;
use super::features::{self, DirtyPieces};
use super::network::Network;
use crate::position::Position;
use crate::types::Color;

/// The transformer's sums for both perspectives (indexed by [`Color::index`]), and the king
/// squares (each as its own side sees it) they were computed with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub(super) halves: [[i16; MAX_L1]; 2],
    pub(super) kings: [u8; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { halves: [[0; MAX_L1]; 2], kings: [0; 2] }
    }
}

impl Accumulator {
    /// The first `l1` sums of `perspective`'s half.
    pub(crate) fn half(&self, perspective: Color, l1: usize) -> &[i16] {
        &self.halves[perspective.index()][..l1]
    }
}

impl Network {
    /// Computes both halves of `acc` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        for perspective in Color::ALL {
            self.refresh_perspective(pos, perspective, acc);
        }
    }

    /// Computes `perspective`'s half of `acc` from scratch: biases plus the active rows.
    pub(crate) fn refresh_perspective(&self, pos: &Position, perspective: Color, acc: &mut Accumulator) {
        let set = self.arch.features;
        let active = features::active(set, pos, perspective);
        let p = perspective.index();
        acc.kings[p] = features::king_square(pos, perspective, perspective) as u8;
        let l1 = self.arch.l1;
        self.kernel.accumulate(&mut acc.halves[p], &self.ft_biases, &self.ft_weights, l1, &[], active.as_slice());
    }

    /// Derives `perspective`'s half of `next` from `prev` and the move's changes. Returns
    /// `false`, leaving that half untouched, when the move needs a full recomputation instead
    /// (HalfKP, the perspective's own king moved): call [`Network::refresh_perspective`] then.
    pub(crate) fn update_perspective(
        &self,
        prev: &Accumulator,
        dirty: &DirtyPieces,
        perspective: Color,
        next: &mut Accumulator,
    ) -> bool {
        let set = self.arch.features;
        let own_king_moved = dirty.king_moved() == Some(perspective);
        if own_king_moved && set.refreshes_on_own_king_move() {
            return false;
        }
        let p = perspective.index();
        let king = prev.kings[p] as usize;
        let (mut sub, mut add, mut n) = ([0u32; 2], [0u32; 2], 0);
        next.kings[p] = prev.kings[p];
        for change in dirty.changes() {
            if change.is_king() {
                if own_king_moved {
                    next.kings[p] = (change.new[p] - F_KING) as u8;
                }
                if set.refreshes_on_own_king_move() {
                    continue; // HalfKP has no row for a king, and the enemy king does not matter.
                }
            }
            sub[n] = set.index(king, change.old[p]) as u32;
            add[n] = set.index(king, change.new[p]) as u32;
            n += 1;
        }
        let l1 = self.arch.l1;
        self.kernel.accumulate(&mut next.halves[p], &prev.halves[p], &self.ft_weights, l1, &sub[..n], &add[..n]);
        true
    }

    /// Derives `next` from `prev` for a move with changes `dirty`; `after` (the position after
    /// the move) serves the halves that must be recomputed.
    pub fn update(&self, prev: &Accumulator, dirty: &DirtyPieces, after: &Position, next: &mut Accumulator) {
        for perspective in Color::ALL {
            if !self.update_perspective(prev, dirty, perspective, next) {
                self.refresh_perspective(after, perspective, next);
            }
        }
    }
}
