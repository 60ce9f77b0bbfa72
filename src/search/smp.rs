//! Lazy SMP: helper threads that search the same position as the main search thread over the
//! shared transposition table, each with its own history, killers and stack, at depths staggered
//! by Stockfish's skip pattern (Stockfish 7, `search.cpp`) so that they do not all search the same
//! iteration. The main thread's search decides the move and the time; when it ends the helpers are
//! stopped. The helpers are started once (`Threads`) and wait for work between searches.

use super::{Iteration, Limits, Outcome, SearchControl, SearchOptions, Searcher, TranspositionTable};
use crate::eval::nnue::Network;
use crate::position::Position;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread::JoinHandle;

/// The node counters of a team of searchers: each searcher publishes its own every 1024 nodes,
/// the main searcher sums them for `info nodes` and `nps`.
#[derive(Debug)]
pub(crate) struct NodeCounters(Box<[AtomicU64]>);

impl NodeCounters {
    /// Counters for `n` searchers, all zero.
    pub(crate) fn new(n: usize) -> NodeCounters {
        NodeCounters((0..n.max(1)).map(|_| AtomicU64::new(0)).collect())
    }

    /// Searcher `id` has searched `nodes` nodes in this search.
    #[inline]
    pub(crate) fn publish(&self, id: usize, nodes: u64) {
        if let Some(c) = self.0.get(id) {
            c.store(nodes, Relaxed);
        }
    }

    /// The nodes published by every searcher but `id`.
    pub(crate) fn others(&self, id: usize) -> u64 {
        self.0.iter().enumerate().filter(|&(i, _)| i != id).map(|(_, c)| c.load(Relaxed)).sum()
    }

    fn reset(&self) {
        self.0.iter().for_each(|c| c.store(0, Relaxed));
    }
}

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True if helper `id` (≥ 1) leaves out iteration `depth` at game ply `ply`: half the helpers
/// search the odd depths, half the even ones, in runs of 1 to 4 depths.
pub(crate) fn skips_depth(id: usize, depth: u32, ply: u32) -> bool {
    if id == 0 {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    (depth + ply + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

enum HelperJob {
    /// A search with the main searcher's evaluation (`net`).
    Search {
        pos: Box<Position>,
        limits: Limits,
        opts: SearchOptions,
        net: Option<Arc<Network>>,
    },
    Table(Arc<TranspositionTable>),
    Clear,
}

struct Helper {
    jobs: Option<Sender<HelperJob>>,
    handle: Option<JoinHandle<()>>,
}

/// The helper threads of the main search thread (none with `Threads 1`).
pub(crate) struct Helpers {
    helpers: Vec<Helper>,
    /// The helpers' stop flag: set when the main search ends.
    control: Arc<SearchControl>,
    counters: Arc<NodeCounters>,
    done_tx: Sender<()>,
    done: Receiver<()>,
}

impl Default for Helpers {
    fn default() -> Helpers {
        let (done_tx, done) = unbounded();
        Helpers {
            helpers: Vec::new(),
            control: Arc::new(SearchControl::default()),
            counters: Arc::new(NodeCounters::new(1)),
            done_tx,
            done,
        }
    }
}

impl Helpers {
    /// Makes `threads` searchers in all: `main` and `threads - 1` helpers (started now, parked
    /// until a search). Returns the number of threads that run; fewer if threads cannot be made.
    pub(crate) fn set_threads(&mut self, threads: usize, main: &mut Searcher) -> usize {
        let threads = threads.max(1);
        if self.helpers.len() + 1 != threads {
            self.shut_down();
            self.counters = Arc::new(NodeCounters::new(threads));
            for id in 1..threads {
                match self.spawn(id, main.table()) {
                    Ok(h) => self.helpers.push(h),
                    Err(e) => {
                        log::error!("search helper {id} could not start: {e}");
                        break;
                    }
                }
            }
        }
        main.join_team(0, Arc::clone(&self.counters));
        self.helpers.len() + 1
    }

    fn spawn(&self, id: usize, tt: Arc<TranspositionTable>) -> std::io::Result<Helper> {
        let (jobs, rx) = unbounded::<HelperJob>();
        let (control, counters, done) = (Arc::clone(&self.control), Arc::clone(&self.counters), self.done_tx.clone());
        let handle = std::thread::Builder::new()
            .name(format!("search helper {id}"))
            .stack_size(64 * 1024 * 1024)
            .spawn(move || helper(Searcher::helper(id, tt, counters), &rx, &done, &control))?;
        Ok(Helper { jobs: Some(jobs), handle: Some(handle) })
    }

    /// Forgets what the helpers learnt (their history and killers; the table is the main's).
    pub(crate) fn clear(&mut self) {
        let n = self.send_all(|| HelperJob::Clear);
        self.wait(n);
    }

    /// The helpers let go of the table (for a placeholder), so that it is freed when the main
    /// searcher lets go of it too, before a new one is made.
    pub(crate) fn release_table(&mut self) {
        self.share_table(Arc::new(TranspositionTable::placeholder()));
    }

    /// The helpers search over `tt` from now on (the main searcher's, after a resize).
    pub(crate) fn share_table(&mut self, tt: Arc<TranspositionTable>) {
        let n = self.send_all(|| HelperJob::Table(Arc::clone(&tt)));
        self.wait(n);
    }

    /// Searches `pos` with `main` and the helpers; the main search's result is the answer, with
    /// the nodes of all threads. Without helpers this is `main.search` exactly.
    pub(crate) fn search(
        &mut self,
        main: &mut Searcher,
        pos: &mut Position,
        limits: &Limits,
        opts: &SearchOptions,
        control: &SearchControl,
        report: &mut dyn FnMut(&Iteration),
    ) -> Outcome {
        if self.helpers.is_empty() {
            return main.search(pos, limits, opts, control, report);
        }
        self.counters.reset();
        self.control.reset(false);
        // The helpers search until stopped, one line each (the main thread reports MultiPV).
        let helper_limits = Limits { infinite: true, searchmoves: limits.searchmoves.clone(), ..Limits::default() };
        let helper_opts = SearchOptions { multipv: 1, ..*opts };
        let started = self.send_all(|| HelperJob::Search {
            pos: Box::new(pos.clone()),
            limits: helper_limits.clone(),
            opts: helper_opts,
            net: main.network().cloned(),
        });
        let mut outcome = main.search(pos, limits, opts, control, report);
        self.control.stop();
        self.wait(started);
        outcome.nodes = main.nodes() + self.counters.others(0);
        outcome
    }

    /// Sends a job to every helper and returns how many took it.
    fn send_all(&mut self, job: impl Fn() -> HelperJob) -> usize {
        let sent = self.helpers.iter().filter(|h| h.jobs.as_ref().is_some_and(|j| j.send(job()).is_ok())).count();
        if sent < self.helpers.len() {
            log::error!("{} search helpers are gone", self.helpers.len() - sent);
        }
        sent
    }

    /// Waits until `n` helpers finished their job.
    fn wait(&self, n: usize) {
        for _ in 0..n {
            if self.done.recv().is_err() {
                return;
            }
        }
    }

    fn shut_down(&mut self) {
        self.control.stop();
        for h in &mut self.helpers {
            h.jobs = None; // closes the channel: the helper's loop ends
        }
        for h in &mut self.helpers {
            if h.handle.take().is_some_and(|t| t.join().is_err()) {
                log::error!("a search helper panicked");
            }
        }
        self.helpers.clear();
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn helper(mut searcher: Searcher, jobs: &Receiver<HelperJob>, done: &Sender<()>, control: &SearchControl) {
    for job in jobs.iter() {
        match job {
            HelperJob::Search { mut pos, limits, opts, net } => {
                searcher.set_network(net);
                searcher.search(&mut pos, &limits, &opts, control, &mut |_| {});
                searcher.publish_nodes();
            }
            HelperJob::Table(tt) => searcher.share_table(tt),
            HelperJob::Clear => searcher.clear_history(),
        }
        if done.send(()).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::BestMove;

    #[test]
    fn a_team_search_plays_the_main_threads_legal_move_and_counts_every_threads_nodes() {
        let mut main = Searcher::new(4);
        let mut helpers = Helpers::default();
        assert_eq!(helpers.set_threads(3, &mut main), 3);
        let mut pos = Position::startpos();
        let limits = Limits { depth: Some(7), ..Limits::default() };
        let (control, opts) = (SearchControl::default(), SearchOptions::default());
        let mut reported = Vec::new();
        let out = helpers.search(&mut main, &mut pos, &limits, &opts, &control, &mut |it| reported.push(it.clone()));
        let BestMove::Move { best, .. } = out.best else { panic!("{out:?}") };
        assert!(Position::startpos().is_legal(best));
        assert_eq!(out.depth, 7);
        // A helper searches at least 1024 nodes before it looks at its stop flag.
        assert!(out.nodes >= main.nodes() + 2 * 1024, "{} vs the main thread's {}", out.nodes, main.nodes());
        let last = reported.last().expect("iterations reported");
        assert!(last.nodes >= main.nodes() - 1024 && last.nodes <= out.nodes, "{last:?}");
        // Back to one thread: the main search alone, as before.
        assert_eq!(helpers.set_threads(1, &mut main), 1);
        let out = helpers.search(&mut main, &mut pos, &limits, &opts, &control, &mut |_| {});
        assert_eq!(out.nodes, main.nodes());
    }

    #[test]
    fn go_nodes_limits_the_nodes_of_all_threads_together() {
        // A helper has published 50 000 nodes: the main thread stops at the first check (every
        // 1024 nodes) where its own nodes bring the team to the limit of 60 000.
        let mut main = Searcher::new(4);
        let counters = Arc::new(NodeCounters::new(2));
        main.join_team(0, Arc::clone(&counters));
        counters.publish(1, 50_000);
        let limits = Limits { nodes: Some(60_000), ..Limits::default() };
        let (control, opts) = (SearchControl::default(), SearchOptions::default());
        main.search(&mut Position::startpos(), &limits, &opts, &control, &mut |_| {});
        assert!((10_000..10_000 + 1024).contains(&main.nodes()), "{}", main.nodes());
    }

    #[test]
    fn helpers_skip_depths_in_staggered_runs_and_the_main_thread_none() {
        assert!((1..40).all(|d| !skips_depth(0, d, 0)));
        // Helper 1 (size 1, phase 0) searches every other depth, helper 2 the others.
        let searched = |id| (1..9).filter(|&d| !skips_depth(id, d, 0)).collect::<Vec<_>>();
        assert_eq!(searched(1), [2, 4, 6, 8]);
        assert_eq!(searched(2), [1, 3, 5, 7]);
        // Helper 3 (size 2, phase 0): runs of two.
        assert_eq!(searched(3), [1, 4, 5, 8]);
    }
}
