//! The search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search (`alphabeta.rs`), with a transposition table, quiescence search, move
//! ordering, null-move pruning, late-move reductions, check extensions, mate-distance scores,
//! repetition and entering-king rules. Every static evaluation goes through the thread's
//! evaluator (`evaluator.rs`): the linear evaluation, or an NNUE net with incrementally kept accumulators.
//!
//! The searcher does no I/O: it reports each finished iteration through a callback and reads a
//! [`SearchControl`] (stop and ponder flags) that the protocol thread sets.

mod alphabeta;
mod correction;
mod evaluator;
mod history;
pub(crate) mod limits;
mod node;
mod ordering;
pub mod params;
mod pruning;
mod qsearch;
mod rewards;
mod root;
mod root_mate;
mod root_moves;
mod rules;
mod see;
mod smp;
pub(crate) mod thread;
pub(crate) mod time;
pub(crate) mod tt;

pub use limits::{Clock, Limits};
pub use root::{BestMove, Iteration, Outcome, ScoreBound};
pub(crate) use see::see_ge;
pub(crate) use time::Deadlines;
pub use time::TimeOptions;
pub(crate) use tt::TranspositionTable;

use crate::eval::Value;
use crate::eval::nnue::Network;
use crate::mate::MateProbe;
use crate::position::EnteringKingRule;
use crate::types::Move;
use evaluator::Evaluator;
use history::{ContKey, History};
pub(crate) use smp::Helpers;
use smp::NodeCounters;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches.
pub(crate) const MAX_PLY: usize = 128;

/// Flags the protocol thread uses to steer a running search, and when the search was asked for.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Milliseconds from the start of the search to `ponderhit` (0 when not pondering).
    ponderhit_ms: AtomicU64,
    /// When [`SearchControl::reset`] was called: the search's clock starts there (the `go` was
    /// read), not when the search thread takes the search up after the work queued before it.
    asked_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    /// Resets the flags for a new search (`ponder` = the search starts as a ponder search) and
    /// starts its clock: call it when the search is asked for.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        self.ponderhit_ms.store(0, Ordering::SeqCst);
        *self.asked_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// When the search was asked for (the last [`SearchControl::reset`]), if it was.
    fn asked_at(&self) -> Option<Instant> {
        *self.asked_at.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the search to stop as soon as possible.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The stop flag itself (for searches that take a plain flag, like the mate solver).
    pub(crate) fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// True once [`SearchControl::stop`] was called.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Turns a ponder search into a timed one, whose deadlines then count from now.
    pub(crate) fn ponderhit(&self) {
        let elapsed = self.asked_at().map_or(0, |t| t.elapsed().as_millis() as u64);
        self.ponderhit_ms.store(elapsed, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// True while pondering (no deadline applies).
    pub(crate) fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn ponderhit_at(&self) -> u64 {
        self.ponderhit_ms.load(Ordering::Relaxed)
    }
}

/// Engine settings the search obeys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report (1 = normal play).
    pub multipv: usize,
    /// Score of a draw for the side that started the search (negative = avoid draws).
    pub draw_value: Value,
    /// Entering-king rule in force (declarations in the tree and at the root).
    pub entering_king_rule: EnteringKingRule,
    /// Game length (plies) at which the game is a draw; 0 = no limit.
    pub max_moves_to_draw: u32,
    /// Resign when the best score is at or below minus this (0 = never resign unless mated).
    pub resign_value: Value,
    /// Time management settings.
    pub time: TimeOptions,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multipv: 1,
            draw_value: 0,
            entering_king_rule: EnteringKingRule::Point27,
            max_moves_to_draw: 0,
            resign_value: 0,
            time: TimeOptions::default(),
        }
    }
}

/// What the search keeps per ply of the current line.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Continuation key of the move played from this ply (`None` for a null move).
    key: Option<ContKey>,
    /// Static evaluation here (`-INFINITE` in check).
    eval: Value,
    /// The move a singular-extension search leaves out here.
    excluded: Option<Move>,
}

/// MiB of the root mate probe's table.
const ROOT_MATE_MIB: usize = 16;

/// How long a resize (USI `isready`) waits for the system to provide the tables' pages: 64 MiB
/// is 32 pages of 2 MiB, about 85 ms at the 2.7 ms a page seen on the 2-core virtual machine
/// where the stalls were found (estimated from a profile, not timed); a table of gigabytes would
/// keep the GUI waiting for `readyok` too long, and gets the rest in the background.
const POPULATE_WAIT: Duration = Duration::from_secs(2);

/// The search state that survives between searches (transposition table, history).
pub struct Searcher {
    stack: Box<[Frame; MAX_PLY + 2]>,
    tt: Arc<TranspositionTable>,
    history: History,
    /// The static evaluation's learnt errors.
    correction: correction::Correction,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    pv: Box<[[Option<Move>; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    start: Instant,
    deadlines: Deadlines,
    node_limit: u64,
    opts: SearchOptions,
    root_side: crate::types::Color,
    /// The root mate probe and its table (facts are path-independent: kept between moves).
    mate: MateProbe,
    /// True once a search wrote to the table since it was made or cleared.
    table_used: bool,
    /// 0 for the main searcher, 1 and up for Lazy SMP helpers.
    id: usize,
    /// Where this searcher publishes its node count for the team.
    counters: Arc<NodeCounters>,
    /// The static evaluation (linear, or a net with this thread's accumulators).
    eval: Evaluator,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            stack: Box::new([Frame::default(); MAX_PLY + 2]),
            tt: Arc::new(TranspositionTable::new(hash_mib)),
            history: History::new(),
            correction: correction::Correction::new(),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            pv: Box::new([[None; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            deadlines: Deadlines::NONE,
            node_limit: u64::MAX,
            opts: SearchOptions::default(),
            root_side: crate::types::Color::Black,
            mate: MateProbe::new(ROOT_MATE_MIB),
            table_used: false,
            id: 0,
            counters: Arc::new(NodeCounters::new(1)),
            eval: Evaluator::default(),
        }
    }

    /// Lazy SMP helper `id` (≥ 1) searching over `tt` and publishing its nodes in `counters`.
    /// Helpers do not run the root mate probe: its table stays minimal.
    pub(crate) fn helper(id: usize, tt: Arc<TranspositionTable>, counters: Arc<NodeCounters>) -> Searcher {
        Searcher { tt, id, counters, mate: MateProbe::new(1), ..Searcher::new(1) }
    }

    /// Makes this searcher number `id` of the team whose nodes `counters` count.
    pub(crate) fn join_team(&mut self, id: usize, counters: Arc<NodeCounters>) {
        self.id = id;
        self.counters = counters;
    }

    /// The transposition table, to share with helpers.
    pub(crate) fn table(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// Searches over `tt` from now on.
    pub(crate) fn share_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// Evaluates with `net` from now on (`None`: the linear evaluation, which a new searcher uses
    /// until it is given a net; the engine and `hisha bench` give it the built-in net unless
    /// `EvalFile`/`--evalfile` say otherwise). The table's stored evaluations are the old
    /// evaluation's: clear it when this changes.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.eval.set_network(net);
    }

    /// The net this searcher evaluates with, if any.
    pub(crate) fn network(&self) -> Option<&Arc<Network>> {
        self.eval.network()
    }

    /// Publishes this searcher's node count for the team.
    pub(crate) fn publish_nodes(&self) {
        self.counters.publish(self.id, self.nodes);
    }

    /// Nodes searched by the whole team in the current or last search (this searcher's own count
    /// plus what the others last published).
    fn team_nodes(&self) -> u64 {
        self.nodes + self.counters.others(self.id)
    }

    /// Rebuilds the transposition table with `hash_mib` MiB (contents are lost), or with less when
    /// the system refuses that much memory; returns the MiB it got. The engine's tables (this
    /// one and the root mate probe's) then have their pages provided ahead of use (`populate`),
    /// so that no search waits for them; this waits for that up to [`POPULATE_WAIT`] (a table
    /// of many gigabytes goes on getting its pages in the background).
    pub(crate) fn resize(&mut self, hash_mib: usize) -> usize {
        if self.tt.size_mib() != TranspositionTable::wanted_mib(hash_mib) {
            self.replace_table(|| TranspositionTable::new(hash_mib));
            self.table_used = false;
        }
        let deadline = Instant::now() + POPULATE_WAIT;
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.populate();
        }
        self.mate.populate();
        if !(self.tt.wait_populated(deadline) && self.mate.wait_populated(deadline)) {
            log::debug!("the table's pages are still being provided after {POPULATE_WAIT:?}");
        }
        self.tt.size_mib()
    }

    /// Replaces the table with `make`'s, released first so that two large tables never coexist
    /// (Lazy SMP helpers must have let go of it too: see `Helpers::release_table`).
    fn replace_table(&mut self, make: impl FnOnce() -> TranspositionTable) {
        self.tt = Arc::new(TranspositionTable::placeholder());
        self.tt = Arc::new(make());
    }

    /// Forgets everything learnt (new game): table, history, killers. A table the search wrote to
    /// is zeroed in place, keeping its pages (the helpers must have let go of it: see
    /// `Helpers::release_table`; a table still shared is replaced by a new one instead).
    pub fn clear(&mut self) {
        if self.table_used {
            match Arc::get_mut(&mut self.tt) {
                Some(tt) => tt.clear(),
                None => {
                    let buckets = self.tt.buckets();
                    self.replace_table(|| TranspositionTable::with_buckets(buckets));
                }
            }
            self.table_used = false;
        }
        self.mate.clear();
        self.clear_history();
    }

    /// Forgets the history, the evaluation's corrections and the killers (the table stays).
    pub(crate) fn clear_history(&mut self) {
        self.history.clear();
        self.correction.clear();
        *self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// Nodes searched by the current or last search.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Counts a node entered, unless the search has already stopped (a stopped search's calls
    /// that still come are not nodes searched: `go nodes N` reports N), then checks the node
    /// limit, and every 1024 nodes the stop flag, the team's node count and the hard deadline.
    #[inline]
    fn count_node_and_check_stop(&mut self, control: &SearchControl) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            self.publish_nodes();
            // `go nodes` counts every thread's nodes (only one thread: the test above, exactly).
            if control.stopped() || self.team_nodes() >= self.node_limit {
                self.stopped = true;
            } else if !control.pondering() {
                if let Some(hard) = self.deadlines.hard {
                    if self.elapsed_ms() >= control.ponderhit_at() + hard {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }
}
