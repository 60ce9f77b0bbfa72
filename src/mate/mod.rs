//! Tsume (mate) solving with df-pn (depth-first proof-number search, usi.md §7): the attacker is
//! the side to move and plays only checks; the defender plays every legal evasion, interposing
//! drops included. Every rule of the game applies: a pawn drop that mates is illegal
//! (uchifuzume), the attacker may have no king (the SFEN then usually gives the defender the
//! remaining pieces), and a repetition is never a mate (perpetual check loses).
//!
//! The search (`search`) uses the 1+ε trick against the seesaw effect, a table (`table`) with
//! proof and disproof pieces read by hand domination, path-aware repetition handling that does
//! not poison the table, and node, time and ply limits.
//!
//! Lengths count every defence, interposing drops included (a full-width count, as cshogi's
//! `Board.mate_move`); a published tsume that ignores useless interpositions (無駄合) can be two
//! plies shorter per such interposition (yumei 0224 in tests/data/tsume.txt: published 7, here
//! 9). This is deliberate: `go mate` answers a line that is mate against every legal defence and
//! that a GUI can replay; which interpositions are "useless" is a composers' convention with
//! disputed cases, not a rule of the game, and dropping them would make the line end in a
//! position that is not checkmate. After a first proof, passes with a ply limit two shorter
//! than the mate found look for shorter ones until none exists, so the length is the shortest
//! mate against the longest resistance. The answer is a line of that length (`line`): the
//! attacker's shortest mate, the defender's longest resistance, a move rather than an
//! interposing drop when both resist as long. Every line is replayed before it is returned:
//! legal, alternating checks and evasions, ending in checkmate.
//!
//! For the main search, [`mate_in_one`] (from bitboards, no move played: `one`), its cheaper
//! kind [`mate_in_one_by_contact`] (contact and knight checks only, for every node) and
//! [`MateProbe`] (a node-limited df-pn that keeps its table between calls) are cheap probes;
//! [`mate_in_one_by_playing`] is the plain mate in one that the first is tested against.

mod end;
mod hands;
mod line;
mod node;
mod one;
mod path;
mod probe;
mod search;
pub mod suite;
mod table;

pub use end::{MateEnd, MateReport};
pub use one::{mate_in_one, mate_in_one_by_contact};
pub use probe::{MateProbe, mate_in_one_by_playing};

use crate::position::Position;
use crate::types::{Color, Move};
use node::Child;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use table::Table;

/// Longest line searched when no limit is given, in plies.
pub const DEFAULT_MAX_PLY: u32 = 4095;

/// Limits of one solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct MateLimits {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Longest line considered, in plies (default [`DEFAULT_MAX_PLY`]); "no mate" then means
    /// none within this many plies.
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
    /// Path-dependent disproofs, by path key (see `search`).
    reps: HashMap<u64, (u32, u16)>,
    /// The children of the nodes on the current path, as a stack.
    children: Vec<Child>,
    /// Keys of the positions on the current path, root first.
    path: path::Path,
    /// Keys of the positions played before the root.
    history: Vec<u64>,
    attacker: Color,
    /// Mixed into board keys: the attacker and the material in play, so that hand domination
    /// (which reads the defender's hand as "the rest") stays sound across solves.
    salt: u64,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    max_ply: u32,
    /// Repetitions end lines (see `search::run`).
    cut_cycles: bool,
    aborted: bool,
    /// Why `aborted` was set.
    stopped_by: MateEnd,
    shortest: bool,
    /// Why the last solve ended.
    end: MateEnd,
    /// The length of the line the last solve answered.
    found: Option<u32>,
    /// The shortest mate the last solve proved.
    proven: Option<u32>,
    /// The ply limit the last solve was given.
    ply_limit: Option<u32>,
    /// Nodes a search for a fact the mating line needs may use (see `line`).
    fact_budget: u64,
    /// Set when such a search ran out of its budget.
    fact_budget_hit: bool,
    gc_runs: u32,
    number_resets: u32,
}

/// A stop flag that is never raised.
static NEVER_STOP: AtomicBool = AtomicBool::new(false);

impl MateSolver {
    /// A solver with a table of about `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> MateSolver {
        MateSolver {
            table: Table::new(hash_mib),
            reps: HashMap::new(),
            children: Vec::with_capacity(4096),
            path: path::Path::new(),
            history: Vec::new(),
            attacker: Color::Black,
            salt: 0,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            max_ply: DEFAULT_MAX_PLY,
            cut_cycles: true,
            aborted: false,
            stopped_by: MateEnd::Solved,
            shortest: false,
            end: MateEnd::Solved,
            found: None,
            proven: None,
            ply_limit: None,
            fact_budget: line::FACT_BUDGET,
            fact_budget_hit: false,
            gc_runs: 0,
            number_resets: 0,
        }
    }

    /// Rebuilds the table with `hash_mib` MiB (the old one released first); returns the MiB it
    /// got, less when the system refused that much memory.
    pub(crate) fn resize(&mut self, hash_mib: usize) -> usize {
        self.table.release();
        self.table = Table::new(hash_mib);
        self.table.mib()
    }

    /// Has the system provide the table's pages now and keeps them (see `Table::populate`).
    pub(crate) fn populate(&mut self) {
        self.table.populate();
    }

    /// Waits until the pages asked for by `populate` are there, or `deadline` passes.
    pub(crate) fn wait_populated(&self, deadline: std::time::Instant) -> bool {
        self.table.wait_populated(deadline)
    }

    /// Forgets everything learnt.
    pub fn clear(&mut self) {
        self.table.clear();
        self.reps.clear();
    }

    /// Nodes searched by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// True if the last mate found is proven the shortest (its length is the mate's value); false
    /// when a limit stopped the search for shorter mates first.
    pub fn shortest(&self) -> bool {
        self.shortest
    }

    /// Per mille of the table in use.
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// Why the last solve ended and what it used (one line for the user).
    pub fn report(&self) -> MateReport {
        MateReport {
            end: self.end,
            mate: self.found,
            proven: self.proven,
            max_ply: self.ply_limit,
            nodes: self.nodes,
            hashfull: self.table.hashfull(),
            table_mib: self.table.mib(),
            gc_runs: self.gc_runs,
            number_resets: self.number_resets,
            fact_budget: self.fact_budget,
        }
    }

    /// Starts a solve of `pos` (attacker to move) with `limits`.
    fn prepare(&mut self, pos: &Position, limits: &MateLimits) {
        self.attacker = pos.side_to_move();
        let mut counts = [0u64; 8];
        for sq in crate::types::Square::all() {
            if let Some(p) = pos.piece_on(sq) {
                counts[p.kind().unpromoted().index()] += 1;
            }
        }
        for c in Color::ALL {
            for (k, n) in pos.hand(c).iter() {
                counts[k.index()] += n as u64;
            }
        }
        let material = counts.iter().fold(0u64, |h, &n| h.wrapping_mul(31).wrapping_add(n));
        self.salt = (material.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (self.attacker as u64 + 1)) & !1;
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline;
        self.aborted = false;
        self.stopped_by = MateEnd::Solved;
        self.shortest = false;
        self.end = MateEnd::Solved;
        self.found = None;
        self.proven = None;
        self.ply_limit = limits.max_ply;
        self.fact_budget = line::FACT_BUDGET;
        self.gc_runs = 0;
        self.number_resets = 0;
        self.reps.clear();
    }

    /// Solves `pos` for the side to move, keeping what earlier solves learnt (call
    /// [`MateSolver::clear`] first for a fresh start). A first df-pn pass finds a mate; passes
    /// with a ply limit two shorter than the mate found then look for shorter ones until none
    /// exists or a limit stops them, and the best line found is returned.
    pub fn solve(&mut self, pos: &Position, limits: &MateLimits, stop: &AtomicBool) -> MateResult {
        self.prepare(pos, limits);
        let result = self.solve_prepared(pos, limits, stop);
        self.found = match &result {
            MateResult::Mate(line) => Some(line.len() as u32),
            _ => None,
        };
        self.end = match &result {
            _ if self.aborted => self.stopped_by,
            MateResult::NoMate => MateEnd::Solved,
            MateResult::Mate(_) if self.shortest => MateEnd::Solved,
            // Not aborted, yet no line, or none of the proven length.
            _ => MateEnd::NoLine,
        };
        result
    }

    fn solve_prepared(&mut self, pos: &Position, limits: &MateLimits, stop: &AtomicBool) -> MateResult {
        if pos.king_square(!pos.side_to_move()).is_none() {
            return MateResult::NoMate;
        }
        let mut root = pos.clone();
        let max_ply = limits.max_ply.unwrap_or(DEFAULT_MAX_PLY).clamp(1, DEFAULT_MAX_PLY);
        let mut len = match self.run(&mut root, true, max_ply, stop) {
            None => return MateResult::Unknown,
            Some(v) if v.pn != 0 => return MateResult::NoMate,
            Some(v) => v.mate as u32,
        };
        log::debug!("mate: first proof {len} plies after {} nodes", self.nodes);
        self.proven = Some(len);
        let mut best = self.line_within_budget(&root, len, false, stop);
        let mut shortest = len < 3;
        let mut cycle_facts = search::cuts_cycles(max_ply);
        while !shortest && !self.aborted {
            if cycle_facts && !search::cuts_cycles(len - 2) {
                cycle_facts = false;
                // The passes so far cut repetitions; the bounded ones that follow do not. Their
                // disproofs must not lean on the earlier ones: with them, yumei 0278 came out as
                // "no mate within 25" where bounded passes alone prove a mate in 23.
                self.table.clear();
                self.reps.clear();
            }
            match self.run(&mut root, true, len - 2, stop) {
                Some(v) if v.pn == 0 => {
                    len = v.mate as u32;
                    log::debug!("mate: shorter proof {len} plies after {} nodes", self.nodes);
                    self.proven = Some(len);
                    shortest = len < 3;
                    if let Some(line) = self.line_within_budget(&root, len, false, stop) {
                        best = Some(line);
                    }
                }
                Some(_) => {
                    log::debug!("mate: none within {} plies after {} nodes", len - 2, self.nodes);
                    shortest = true;
                }
                None => break,
            }
        }
        if shortest {
            // The mate's value is `len` exactly: find the longest resistance.
            let line = self.line_within_budget(&root, len, true, stop);
            log::debug!("mate: line {:?} plies after {} nodes", line.as_ref().map(|l| l.len()), self.nodes);
            if let Some(line) = line {
                self.shortest = line.len() as u32 == len;
                best = Some(line);
            }
        }
        match best {
            Some(line) => MateResult::Mate(line),
            None => MateResult::Unknown,
        }
    }
}

#[cfg(test)]
mod tests;
