//! The df-pn search (multiple iterative deepening, `mid`): OR nodes play checks, AND nodes every
//! legal evasion, interposing drops included. Thresholds use the 1+ε trick against the seesaw
//! effect. Every result carries its proof or disproof pieces (see `hands`) and, for a mate, its
//! length (a node's value from its children's: `node`); the table stores them for hand
//! domination.
//!
//! Repetitions (graph history interaction): a position met again on the current path (or in the
//! game before the root) is "no mate" on this path only. A disproof that leans on a repetition of
//! a position above the node is kept in a side map keyed by the path from the root, never in the
//! table, so another path to the same position searches it afresh; a disproof whose repetitions
//! all return to the node itself holds wherever the node is met and is stored. Perpetual check is
//! therefore never a mate, and the table is never poisoned by a path.

use super::hands;
use super::node::{Child, NO_REP, Summary, Value};
use super::table::{INF, Known, NEVER};
use super::{MateEnd, MateSolver};
use crate::movegen::{Gen, MoveList, generate};
use crate::position::Position;
use crate::types::{Hand, Move, MoveKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `Value::mate` of a child whose table lookup is still to come (its `hand` is the child's).
const KEY_ONLY: u16 = u16::MAX;

/// The ε of the 1+ε trick: a child may run until its value passes its best sibling's × (1 + 1/2).
fn one_plus_epsilon(x: u64) -> u64 {
    x.saturating_add(x / 2).saturating_add(1).min(INF)
}

/// The path key of the child reached by `m` (order-sensitive).
pub(super) fn path_step(key: u64, m: Move) -> u64 {
    (key ^ (m.bits() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .rotate_left(23)
        .wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

impl MateSolver {
    /// The table key of the board of `pos` (with the side to move and this solve's salt).
    pub(super) fn board_of(&self, pos: &Position) -> u64 {
        pos.board_key() ^ self.salt
    }

    /// What is known of `pos` for a search with `left` plies left.
    pub(super) fn known(&self, pos: &Position, left: u32) -> Known {
        self.table.get(self.board_of(pos), pos.hand(self.attacker), left)
    }

    /// Nodes are counted here; every 1024 nodes the clock and the stop flag are read, and the
    /// table's garbage is collected when it is nearly full.
    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        let stopped_by = if self.nodes >= self.node_limit {
            Some(MateEnd::NodeLimit)
        } else if self.nodes & 1023 != 0 {
            None
        } else if stop.load(Ordering::Relaxed) {
            Some(MateEnd::Stopped)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(MateEnd::Deadline)
        } else {
            if self.table.needs_gc() {
                let deadline = self.deadline;
                let go_on = || !stop.load(Ordering::Relaxed) && deadline.is_none_or(|d| Instant::now() < d);
                let freed = self.table.collect_garbage(go_on);
                self.gc_runs += 1;
                log::debug!("mate: garbage collection {} freed {freed} entries", self.gc_runs);
            }
            None
        };
        if let Some(why) = stopped_by {
            self.aborted = true;
            self.stopped_by = why;
        }
        self.aborted
    }

    /// The rank on the path (see `Value::rep`) of an earlier occurrence of `key`, if any.
    fn repetition(&self, key: u64) -> Option<u32> {
        if !self.cut_cycles {
            return None;
        }
        if let Some(i) = self.path.find(key) {
            return Some(i as u32 + 1);
        }
        self.history.contains(&key).then_some(0)
    }

    /// The value of a child not searched yet: table, path map, or the initial (1, 1).
    fn lookup(&self, board: u64, hand: Hand, path: u64, left: u32) -> Value {
        match self.table.get(board, hand, left) {
            Known::Mate { len, hand } => Value::mate(len, hand),
            Known::NoMate { depth, hand } => Value::nomate(depth, hand, NO_REP),
            Known::Open { pn, dn } => match self.reps.get(&path) {
                Some(&(rep, depth)) if depth as u32 >= left => Value::nomate(depth, hand, rep),
                _ => Value::open(pn, dn),
            },
        }
    }

    /// Pushes the children of `pos` on the child stack; returns how many. A check that leaves no
    /// evasion is a mate at once; another check starts with the number of evasions as its proof
    /// number (fewer escapes, easier mate).
    fn expand(&mut self, pos: &mut Position, or_node: bool, left: u32, path: u64) -> usize {
        let mut moves = MoveList::new();
        generate(pos, if or_node { Gen::Checks } else { Gen::Legal }, &mut moves);
        let base = self.children.len();
        // First make every child (keys, evasion counts), then touch their table clusters together
        // so that the cache misses overlap, then look them up.
        for &mv in moves.iter() {
            let (dropped, gained) = match (or_node, mv.kind()) {
                (true, MoveKind::Drop { kind, .. }) => (Some(kind), None),
                (true, MoveKind::Normal { to, .. }) => (None, pos.piece_on(to).map(|p| p.kind().unpromoted())),
                _ => (None, None),
            };
            pos.do_move(mv);
            let (key, board, hand) = (pos.key(), self.board_of(pos), pos.hand(self.attacker));
            let child_path = path_step(path, mv);
            let value = if let Some(rep) = self.repetition(key) {
                Value::nomate(NEVER, hand, rep)
            } else if or_node {
                match pos.count_legal_moves() {
                    0 => Value::mate(0, self.and_proof(pos, Hand::EMPTY)),
                    // Not mated and no plies left: no mate within 0 plies, for any hand.
                    _ if left == 1 => Value::nomate(0, hands::full(), NO_REP),
                    n => Value { hand, mate: KEY_ONLY, ..Value::open(n, 1) },
                }
            } else if left == 1 {
                Value::nomate(0, hands::full(), NO_REP) // the attacker has no ply left for a check
            } else {
                let mut checks = MoveList::new();
                generate(pos, Gen::Checks, &mut checks);
                match checks.len() {
                    // No check with these kinds in hand, nor with more of them.
                    0 => Value::nomate(NEVER, hands::only_kinds_of(hands::full(), hand), NO_REP),
                    n => Value { hand, mate: KEY_ONLY, ..Value::open(1, n as u64) },
                }
            };
            pos.undo_move();
            self.children.push(Child { mv, path: child_path, board, dropped, gained, value });
        }
        self.table.touch(self.children[base..].iter().map(|c| c.board));
        let child_left = left.saturating_sub(1);
        for i in base..self.children.len() {
            let c = self.children[i];
            if c.value.mate != KEY_ONLY {
                continue;
            }
            let v = self.lookup(c.board, c.value.hand, c.path, child_left);
            // Keep the evasion count as the first estimate of a position never searched.
            self.children[i].value = if v == Value::open(1, 1) { Value::open(c.value.pn, c.value.dn) } else { v };
        }
        moves.len()
    }

    /// Multiple iterative deepening: searches `pos` until its numbers reach the thresholds or it
    /// is decided; stores what it learnt and returns the node's value.
    pub(super) fn mid(
        &mut self,
        pos: &mut Position,
        or_node: bool,
        th: (u64, u64),
        at: (u32, u64),
        stop: &AtomicBool,
    ) -> Value {
        let (ply, path) = at;
        self.nodes += 1;
        let (board, hand) = (self.board_of(pos), pos.hand(self.attacker));
        let left = self.max_ply.saturating_sub(ply);
        if self.out_of_budget(stop) {
            return self.lookup(board, hand, path, left);
        }
        if left == 0 {
            // No plies left: mated already, or no mate within 0 plies (true of any hand).
            return if !or_node && !pos.has_legal_move() {
                Value::mate(0, self.and_proof(pos, Hand::EMPTY))
            } else {
                Value::nomate(0, hands::full(), NO_REP)
            };
        }
        let base = self.children.len();
        let n = self.expand(pos, or_node, left, path);
        if n == 0 {
            let v = if or_node {
                // No check with these kinds in hand, nor with more of them.
                Value::nomate(NEVER, hands::only_kinds_of(hands::full(), hand), NO_REP)
            } else {
                Value::mate(0, self.and_proof(pos, Hand::EMPTY))
            };
            self.store(board, hand, path, ply, &v, 1);
            return v;
        }
        let start = self.nodes;
        self.path.push(pos.key());
        loop {
            let Summary { pn, dn, best, second, rest } = self.summarize(base, or_node);
            if pn == 0 || dn == 0 || pn >= th.0 || dn >= th.1 || self.aborted {
                break;
            }
            let c = self.children[best];
            let child_th = if or_node {
                (th.0.min(one_plus_epsilon(second)), th.1 - rest)
            } else {
                (th.0 - rest, th.1.min(one_plus_epsilon(second)))
            };
            pos.do_move(c.mv);
            let v = self.mid(pos, !or_node, child_th, (ply + 1, c.path), stop);
            pos.undo_move();
            self.children[best].value = v;
        }
        self.path.pop();
        let v = self.conclude(pos, base, or_node, hand);
        let work = (self.nodes - start).min(u32::MAX as u64) as u32;
        self.store(board, hand, path, ply, &v, work);
        self.children.truncate(base);
        v
    }

    /// Stores a node's value: facts in the table (path-dependent disproofs in the path map),
    /// numbers under the exact hand.
    fn store(&mut self, board: u64, hand: Hand, path: u64, ply: u32, v: &Value, work: u32) {
        if v.pn == 0 {
            self.table.put_mate(board, v.hand, v.mate, work);
        } else if v.dn == 0 {
            if v.rep == NO_REP || v.rep > ply {
                self.table.put_nomate(board, v.hand, v.nomate, work);
            } else {
                if self.reps.len() >= MAX_REPS {
                    self.reps.clear();
                }
                self.reps.insert(path, (v.rep, v.nomate));
            }
        } else {
            self.table.put_open(board, hand, v.pn, v.dn, work);
        }
    }

    /// Runs df-pn from `pos` (an OR node if `or_node`) with `max_ply` plies until it is decided,
    /// or returns `None` when a limit stops it.
    pub(super) fn run(&mut self, pos: &mut Position, or_node: bool, max_ply: u32, stop: &AtomicBool) -> Option<Value> {
        self.max_ply = max_ply;
        // A bounded search may ignore repetitions: a mate within the bound that repeats a
        // position contains a shorter one that does not (cut the cycle), so "mate within n plies"
        // means the same with or without the repetition rules, and every fact stays
        // path-independent. Without a useful bound, cycles are cut to end the search.
        self.cut_cycles = cuts_cycles(max_ply);
        self.path.clear();
        let hist = pos.history();
        self.history =
            hist[hist.len().saturating_sub(HISTORY_PLIES)..].iter().map(|s| s.board_key ^ s.hand_key).collect();
        let path = pos.key();
        loop {
            let v = self.mid(pos, or_node, (INF - 1, INF - 1), (0, path), stop);
            if v.pn == 0 || v.dn == 0 {
                return Some(v);
            }
            if self.aborted {
                return None;
            }
            if v.pn >= INF - 1 || v.dn >= INF - 1 {
                // The numbers overflowed (despite `DELTA_MAX_FROM`): start them afresh, keeping
                // every fact proven so far, and go on.
                self.number_resets += 1;
                log::debug!("mate: numbers overflowed after {} nodes: reset {}", self.nodes, self.number_resets);
                self.table.forget_numbers();
            }
        }
    }
}

/// Entries in the path map before it is emptied.
const MAX_REPS: usize = 1 << 20;

/// Bounds up to which searches ignore repetitions (see `run`).
const CYCLE_FREE_PLIES: u32 = 255;

/// True if a search with `max_ply` plies cuts repetitions (see `run`).
pub(super) fn cuts_cycles(max_ply: u32) -> bool {
    max_ply > CYCLE_FREE_PLIES
}

/// How far back the game before the root counts for repetitions.
const HISTORY_PLIES: usize = 64;
