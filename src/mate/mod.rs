//! Tsume (mate) solving with df-pn (depth-first proof-number search, usi.md §7): the attacker is
//! the side to move and plays only checks; the defender plays every evasion, interposing drops
//! included. Refinements: the 1+ε trick against the seesaw effect, a table of proof/disproof
//! numbers with mate distances, repetitions treated as "no mate" on the current path only (never
//! stored, so they do not poison the table: perpetual check is not mate), node and ply limits.
//!
//! Shortest mates: after a first proof of length L, passes with a ply limit of L - 2 look for a
//! shorter one until none exists (table entries remember the plies left when they were made, so a
//! disproof under a limit is never taken for a disproof without one). Lengths count every defence,
//! interposing drops included, like a full-width mate search (cshogi's `mate_move`).
//!
//! The answer is the proven line: the attacker takes its shortest mate, the defender its longest
//! resistance, preferring a move to an interposing drop that does not prolong the mate (a useless
//! interposition, 無駄合). Every line returned is replayed: legal, alternating checks and
//! evasions, ending in checkmate.

mod table;

use crate::movegen::{Gen, MoveList, generate};
use crate::position::{Position, Repetition};
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use table::{INF, Table};

/// Limits of one solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct MateLimits {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Longest line considered, in plies (default 255).
    pub max_ply: Option<u32>,
}

/// The outcome of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate, as the line from the position (odd length, ending in checkmate).
    Mate(Vec<Move>),
    /// Proven: there is no mate (within the ply limit).
    NoMate,
    /// Not decided (stopped, or a limit was reached).
    Unknown,
}

/// The solver, with its table (kept between solves until cleared).
pub struct MateSolver {
    table: Table,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    max_ply: u32,
    aborted: bool,
    path: Vec<u64>,
}

/// The ε of the 1+ε trick: a child's threshold is its sibling's value × (1 + 1/4).
fn one_plus_epsilon(x: u32) -> u32 {
    x.saturating_add(x / 4).saturating_add(1).min(INF)
}

impl MateSolver {
    /// A solver with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver {
            table: Table::new(hash_mb),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            max_ply: 255,
            aborted: false,
            path: Vec::new(),
        }
    }

    /// Rebuilds the table with `hash_mb` MiB.
    pub fn resize(&mut self, hash_mb: usize) {
        self.table = Table::new(hash_mb);
    }

    /// Forgets everything learnt.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Nodes searched by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `pos` for the side to move. A first df-pn pass finds a mate; further passes with a
    /// ply limit two shorter than the mate found look for shorter ones, until none exists.
    pub fn solve(&mut self, pos: &Position, limits: &MateLimits, stop: &AtomicBool) -> MateResult {
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline;
        self.aborted = false;
        let mut pos = pos.clone();
        if pos.king_square(!pos.side_to_move()).is_none() {
            return MateResult::NoMate;
        }
        let mut max_ply = limits.max_ply.unwrap_or(255).clamp(1, 1000);
        let mut best: Option<Vec<Move>> = None;
        loop {
            match self.pass(&mut pos, max_ply, stop) {
                Some(true) => match self.line(&mut pos) {
                    Some(line) if line.len() >= 3 => {
                        max_ply = line.len() as u32 - 2;
                        best = Some(line);
                        self.table.clear();
                    }
                    Some(line) => return MateResult::Mate(line),
                    None => break,
                },
                Some(false) => {
                    return match best {
                        Some(line) => MateResult::Mate(line),
                        None => MateResult::NoMate,
                    };
                }
                None => break,
            }
        }
        match best {
            Some(line) => MateResult::Mate(line),
            None => MateResult::Unknown,
        }
    }

    /// One df-pn pass with a ply limit: `Some(true)` proven, `Some(false)` disproven, `None`
    /// stopped.
    fn pass(&mut self, pos: &mut Position, max_ply: u32, stop: &AtomicBool) -> Option<bool> {
        self.max_ply = max_ply;
        self.path.clear();
        let key = pos.key();
        loop {
            let (pn, dn) = self.value(key);
            if pn == 0 {
                return Some(true);
            }
            if dn == 0 {
                return Some(false);
            }
            self.mid(pos, true, INF - 1, INF - 1, 0, stop);
            if self.aborted {
                return None;
            }
        }
    }

    fn moves(pos: &Position, or_node: bool) -> MoveList {
        let mut l = MoveList::new();
        generate(pos, if or_node { Gen::Checks } else { Gen::Legal }, &mut l);
        l
    }

    /// The stored (or initial) numbers of the position `key`.
    fn value(&self, key: u64) -> (u32, u32) {
        match self.table.get(key) {
            Some(e) if e.dn == 0 && (e.left as u32) < self.max_ply => (1, 1),
            Some(e) if e.pn == 0 && e.dist as u32 > self.max_ply => (1, 1),
            Some(e) => (e.pn, e.dn),
            None => (1, 1),
        }
    }

    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        let out_of_time = || stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && out_of_time()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of child `m` of `pos` (with `left` plies left below it) as seen from the parent:
    /// table entry, repetition on the path (no mate), or the initial estimate. Entries made with
    /// less depth left do not count as disproofs, nor proofs longer than `left`.
    fn child_value(&self, pos: &mut Position, m: Move, left: u32) -> (u32, u32, u16) {
        pos.do_move(m);
        let key = pos.key();
        let on_path = self.path.contains(&key) || pos.repetition_within(2, 32) != Repetition::None;
        let v = if on_path {
            (INF, 0, 0)
        } else {
            match self.table.get(key) {
                Some(e) if e.pn == 0 && e.dist as u32 > left => (1, 1, 0),
                Some(e) if e.dn == 0 && (e.left as u32) < left => (1, 1, 0),
                Some(e) => (e.pn, e.dn, e.dist),
                None => (1, 1, 0),
            }
        };
        pos.undo_move();
        v
    }

    /// Multiple iterative deepening: searches `pos` until its numbers reach the thresholds.
    fn mid(&mut self, pos: &mut Position, or_node: bool, th_pn: u32, th_dn: u32, ply: u32, stop: &AtomicBool) {
        self.nodes += 1;
        let key = pos.key();
        if self.out_of_budget(stop) {
            return;
        }
        let left = self.max_ply.saturating_sub(ply);
        let moves = MateSolver::moves(pos, or_node);
        if moves.is_empty() {
            // Attacker without checks: no mate at any depth. Defender without evasions: mated.
            if or_node {
                self.table.put(key, INF, 0, 0, u16::MAX, 1)
            } else {
                self.table.put(key, 0, INF, 0, u16::MAX, 1)
            }
            return;
        }
        if left == 0 {
            self.table.put(key, INF, 0, 0, 0, 1); // no plies left: no mate within the limit
            return;
        }
        self.path.push(key);
        let start_nodes = self.nodes;
        loop {
            // Gather the children's numbers.
            let (mut best, mut best_pn, mut best_dn, mut second) = (0usize, INF, INF, INF);
            let (mut sum, mut dist) = (0u32, 0u16);
            let mut proven_dist = u16::MAX;
            for (i, &m) in moves.iter().enumerate() {
                let (pn, dn, d) = self.child_value(pos, m, left - 1);
                // From the parent's point of view: OR minimises pn, AND minimises dn.
                let (mine, other) = if or_node { (pn, dn) } else { (dn, pn) };
                if mine < best_pn || (mine == best_pn && other < best_dn) {
                    second = best_pn;
                    best = i;
                    best_pn = mine;
                    best_dn = other;
                } else if mine < second {
                    second = mine;
                }
                sum = sum.saturating_add(other).min(INF);
                if or_node && pn == 0 {
                    proven_dist = proven_dist.min(d);
                }
                if !or_node {
                    dist = dist.max(d);
                }
            }
            // This node's numbers.
            let (pn, dn) = if or_node { (best_pn, sum) } else { (sum, best_pn) };
            let node_dist = if or_node {
                if pn == 0 { proven_dist.saturating_add(1) } else { 0 }
            } else if pn == 0 {
                dist.saturating_add(1)
            } else {
                0
            };
            let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
            self.table.put(key, pn, dn, node_dist, left.min(u16::MAX as u32 - 1) as u16, work);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.aborted {
                break;
            }
            // Thresholds for the most promising child (1+ε trick on the sibling's value).
            // `best_dn` is the best child's other number (dn under OR, pn under AND).
            let (c_pn, c_dn) = if or_node {
                (th_pn.min(one_plus_epsilon(second)), (th_dn - dn).saturating_add(best_dn).min(INF - 1))
            } else {
                ((th_pn - pn).saturating_add(best_dn).min(INF - 1), th_dn.min(one_plus_epsilon(second)))
            };
            let m = moves[best];
            pos.do_move(m);
            let child_key = pos.key();
            if self.path.contains(&child_key) {
                pos.undo_move();
                break;
            }
            self.mid(pos, !or_node, c_pn, c_dn, ply + 1, stop);
            pos.undo_move();
            if self.aborted {
                break;
            }
        }
        self.path.pop();
    }

    /// The proven line from an OR node: shortest mate for the attacker, longest resistance for
    /// the defender (useless interpositions do not count), verified by replaying it.
    fn line(&mut self, pos: &mut Position) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut or_node = true;
        let start = pos.clone();
        for _ in 0..self.max_ply + 1 {
            let moves = MateSolver::moves(pos, or_node);
            if moves.is_empty() {
                break;
            }
            let mut best: Option<(Move, i32)> = None;
            for &m in moves.iter() {
                let (pn, _, d) = self.child_value(pos, m, u32::MAX);
                if pn != 0 {
                    if !or_node {
                        return None; // an unproven defence: the proof is incomplete
                    }
                    continue;
                }
                // Attacker: shortest. Defender: longest, and among equals a move rather than an
                // interposing drop (a drop that does not prolong the mate is useless).
                let d = d as i32;
                let score = if or_node { -d } else { 2 * d + (!m.is_drop()) as i32 };
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((m, score));
                }
            }
            let (m, _) = best?;
            line.push(m);
            pos.do_move(m);
            or_node = !or_node;
        }
        // Verify: checks and evasions alternate, the line is legal and ends in mate.
        let mut p = start;
        for (i, &m) in line.iter().enumerate() {
            if !p.is_legal(m) || (i % 2 == 0 && !p.gives_check(m)) {
                return None;
            }
            p.do_move(m);
        }
        (line.len() % 2 == 1 && p.is_checkmate()).then_some(line)
    }
}

/// A mate in one for the side to move, if there is one (a cheap probe for the main search).
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let mut checks = MoveList::new();
    generate(pos, Gen::Checks, &mut checks);
    for &m in checks.iter() {
        pos.do_move(m);
        let mated = !pos.has_legal_move();
        pos.undo_move();
        if mated {
            return Some(m);
        }
    }
    None
}

#[cfg(test)]
mod tests;
