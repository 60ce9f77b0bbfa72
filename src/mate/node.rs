//! A node's value from its children's: the proof and disproof numbers (the δ of many children
//! summed, the large ones counted by maximum), the most promising child, and when the node is
//! decided its length or depth and its proof or disproof pieces (see `hands`).

use super::MateSolver;
use super::hands;
use super::table::{INF, NEVER};
use crate::attacks;
use crate::position::Position;
use crate::types::{Hand, Move, PieceKind};

/// `Value::rep` of a result that does not depend on the path.
pub(super) const NO_REP: u32 = u32::MAX;

/// A node's value as its parent sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Value {
    /// Proof number (0: mate).
    pub pn: u64,
    /// Disproof number (0: no mate within `nomate` plies).
    pub dn: u64,
    /// Plies to mate when proven.
    pub mate: u16,
    /// Plies for which no mate is proven when disproven (`NEVER`: any).
    pub nomate: u16,
    /// Proof pieces (proven) or disproof pieces (disproven).
    pub hand: Hand,
    /// For a disproof that holds only on this path: the rank of the repeated position on the path
    /// (0 = before the root, 1 = the root, …); `NO_REP` otherwise.
    pub rep: u32,
}

impl Value {
    pub(super) fn open(pn: u64, dn: u64) -> Value {
        Value { pn, dn, mate: 0, nomate: 0, hand: Hand::EMPTY, rep: NO_REP }
    }

    pub(super) fn mate(len: u16, proof: Hand) -> Value {
        Value { pn: 0, dn: INF, mate: len, nomate: 0, hand: proof, rep: NO_REP }
    }

    pub(super) fn nomate(depth: u16, disproof: Hand, rep: u32) -> Value {
        Value { pn: INF, dn: 0, mate: 0, nomate: depth, hand: disproof, rep }
    }
}

/// Children whose δ (the number their parent sums) reaches this count by maximum, not by sum
/// (as KomoringHeights does): where transpositions make sums count the same subtrees again and
/// again, sums grow exponentially with depth (in Asuka, 703 plies, past 2^31 within 136 k
/// nodes); counting the large ones by maximum keeps them finite.
const DELTA_MAX_FROM: u64 = INF >> 10;

/// What `summarize` finds.
pub(super) struct Summary {
    /// The node's proof number.
    pub pn: u64,
    /// The node's disproof number.
    pub dn: u64,
    /// The most promising child (its place on the child stack).
    pub best: usize,
    /// The runner-up's φ.
    pub second: u64,
    /// The node's δ without the best child, as the best child's threshold needs it.
    pub rest: u64,
}

/// A child of the node being searched.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    /// The move to it.
    pub mv: Move,
    /// Its path key (see `search::path_step`).
    pub path: u64,
    /// Its table key.
    pub board: u64,
    /// The kind dropped by an attacker's drop.
    pub dropped: Option<PieceKind>,
    /// The kind an attacker's capture puts in hand.
    pub gained: Option<PieceKind>,
    /// Its value as last known.
    pub value: Value,
}

fn plus_one(depth: u16) -> u16 {
    if depth == NEVER { NEVER } else { (depth + 1).min(NEVER - 1) }
}

impl MateSolver {
    /// Proof pieces of a mated or proven AND node from its children's: the largest, raised so that
    /// the defender still lacks every kind it could interpose with and does not hold now.
    pub(super) fn and_proof(&self, pos: &Position, children: Hand) -> Hand {
        let defender = pos.side_to_move();
        let checkers = pos.checkers();
        let interposable = match (pos.king_square(defender), checkers.first()) {
            (Some(k), Some(c)) if !checkers.has_more_than_one() => attacks::between(k, c).is_nonempty(),
            _ => false,
        };
        if !interposable {
            return children;
        }
        let theirs = pos.hand(defender);
        hands::raise_to(children, pos.hand(self.attacker), PieceKind::HAND.into_iter().filter(|&k| !theirs.has(k)))
    }

    /// The node's numbers, its most promising child, the runner-up's φ and the node's δ without
    /// the best child. φ is the number the node minimises (pn at an OR node, dn at an AND node),
    /// δ the one it sums (see `DELTA_MAX_FROM`).
    pub(super) fn summarize(&self, base: usize, or_node: bool) -> Summary {
        let (mut best, mut best_phi, mut best_delta, mut second) = (base, INF, INF, INF);
        // δ = Σ small δ + max large δ.
        let (mut small_sum, mut large_max) = (0u64, 0u64);
        for (i, c) in self.children[base..].iter().enumerate() {
            let (phi, delta) = if or_node { (c.value.pn, c.value.dn) } else { (c.value.dn, c.value.pn) };
            if phi < best_phi || (phi == best_phi && delta > best_delta) {
                second = best_phi;
                (best, best_phi, best_delta) = (base + i, phi, delta);
            } else if phi < second {
                second = phi;
            }
            if delta < DELTA_MAX_FROM {
                small_sum = small_sum.saturating_add(delta);
            } else {
                large_max = large_max.max(delta);
            }
        }
        let delta = small_sum.saturating_add(large_max).min(INF);
        // The best child may raise its δ until the node's reaches the threshold: with the others'
        // δ added when it is summed, with the small δ only when it counts by maximum.
        let rest = if best_delta < DELTA_MAX_FROM { delta - best_delta } else { small_sum.min(INF) };
        let (pn, dn) = if or_node { (best_phi, delta) } else { (delta, best_phi) };
        Summary { pn, dn, best, second, rest }
    }

    /// The node's value from its children's.
    pub(super) fn conclude(&self, pos: &Position, base: usize, or_node: bool, hand: Hand) -> Value {
        let Summary { pn, dn, .. } = self.summarize(base, or_node);
        let kids = &self.children[base..];
        if pn == 0 {
            return if or_node {
                let Some(c) = kids.iter().filter(|c| c.value.pn == 0).min_by_key(|c| c.value.mate) else {
                    return Value::open(pn, dn);
                };
                let mut proof = c.value.hand;
                if let Some(k) = c.dropped {
                    proof = hands::plus(proof, k);
                }
                if let Some(k) = c.gained {
                    proof = hands::minus(proof, k);
                }
                Value::mate(c.value.mate.saturating_add(1), proof)
            } else {
                let len = kids.iter().map(|c| c.value.mate).max().unwrap_or(0);
                let proof = kids.iter().fold(Hand::EMPTY, |p, c| hands::max(p, c.value.hand));
                Value::mate(len.saturating_add(1), self.and_proof(pos, proof))
            };
        }
        if dn == 0 {
            return if or_node {
                let mut depth = NEVER;
                let mut disproof = hands::full();
                let mut rep = NO_REP;
                for c in kids {
                    depth = depth.min(plus_one(c.value.nomate));
                    let mut d = c.value.hand;
                    if let Some(k) = c.dropped {
                        d = hands::plus(d, k);
                    }
                    if let Some(k) = c.gained {
                        d = hands::minus(d, k);
                    }
                    disproof = hands::min(disproof, d);
                    rep = rep.min(c.value.rep);
                }
                Value::nomate(depth, hands::only_kinds_of(disproof, hand), rep)
            } else {
                // The defence that depends least on the path, then holds for the most plies.
                let Some(c) = kids.iter().filter(|c| c.value.dn == 0).max_by_key(|c| (c.value.rep, c.value.nomate))
                else {
                    return Value::open(pn, dn);
                };
                Value::nomate(plus_one(c.value.nomate), c.value.hand, c.value.rep)
            };
        }
        Value::open(pn, dn)
    }
}
