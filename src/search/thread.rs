//! The search thread: one long-lived worker that owns the [`Searcher`] (and with it the
//! transposition table) and its Lazy SMP helpers, takes jobs over a channel and reports events over
//! another. The protocol thread steers a running search through the shared [`SearchControl`]; the
//! helpers stop when the worker's own search ends.

use super::{Helpers, Iteration, Limits, Outcome, SearchControl, SearchOptions, Searcher, TranspositionTable};
use crate::eval::nnue::Network;
use crate::mate::{MateLimits, MateReport, MateResult, MateSolver};
use crate::position::Position;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Work for the search thread.
pub enum Job {
    /// Search a position.
    Search {
        /// The position (with its game history, for repetitions).
        pos: Box<Position>,
        /// Limits of the `go`.
        limits: Limits,
        /// Engine settings.
        opts: SearchOptions,
    },
    /// Solve a tsume problem (`go mate`) until the deadline or `stop`.
    Mate {
        /// The position (the side to move attacks).
        pos: Box<Position>,
        /// Time limit (`None`: until `stop`).
        deadline: Option<std::time::Instant>,
    },
    /// Rebuild the transposition table (and the mate table) with this many MiB, or less where the
    /// system refuses the memory; answered with [`Event::Resized`].
    Resize(usize),
    /// Forget everything learnt (new game, ClearHash); answered with [`Event::Ready`].
    Clear,
    /// Evaluate with this net from now on (`None`: the linear evaluation); the tables are
    /// cleared (their stored evaluations are the old evaluation's). Answered with [`Event::Ready`].
    Network(Option<Arc<Network>>),
    /// Search with this many threads from now on (started now, parked between searches);
    /// answered with [`Event::Ready`].
    Threads(usize),
}

/// What the search thread reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// An iteration finished.
    Info(Iteration),
    /// The search finished.
    Done(Outcome),
    /// The mate search finished: the result and its statistics.
    MateDone(MateResult, MateStats),
    /// A [`Job::Clear`], [`Job::Network`] or [`Job::Threads`] is done.
    Ready,
    /// A [`Job::Resize`] is done: the sizes the tables got.
    Resized(TableSizes),
}

/// The sizes of the tables after a [`Job::Resize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSizes {
    /// MiB the transposition table was to have: the MiB asked for, rounded down to a power of two
    /// of buckets.
    pub wanted_mib: usize,
    /// MiB it has: less than `wanted_mib` when the system refused that much memory.
    pub hash_mib: usize,
    /// MiB the mate table (`go mate`) has.
    pub mate_mib: usize,
}

/// Statistics of a mate search (for the `info` line before `checkmate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateStats {
    /// Nodes searched.
    pub nodes: u64,
    /// Time used in ms.
    pub time_ms: u64,
    /// Per mille of the mate table in use.
    pub hashfull: u32,
    /// Why the solve ended and what it used (for an `info string`).
    pub report: MateReport,
}

/// Handle to the search thread. Dropping it ends the thread.
pub struct SearchThread {
    jobs: Option<Sender<Job>>,
    events: Receiver<Event>,
    control: Arc<SearchControl>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the thread with a table of `hash_mib` MiB.
    pub fn spawn(hash_mib: usize) -> std::io::Result<SearchThread> {
        let (job_tx, job_rx) = unbounded::<Job>();
        let (event_tx, event_rx) = unbounded::<Event>();
        let control = Arc::new(SearchControl::default());
        let ctl = Arc::clone(&control);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || worker(hash_mib, &job_rx, &event_tx, &ctl))?;
        Ok(SearchThread { jobs: Some(job_tx), events: event_rx, control, handle: Some(handle) })
    }

    /// Sends a job. Returns false if the thread is gone.
    pub fn send(&self, job: Job) -> bool {
        self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok())
    }

    /// The event channel.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// The flags of the running search.
    pub fn control(&self) -> &SearchControl {
        &self.control
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.control.stop();
        self.jobs = None; // closes the channel: the worker's loop ends
        if let Some(h) = self.handle.take() {
            if h.join().is_err() {
                log::error!("search thread panicked");
            }
        }
    }
}

/// Forgets what the searchers learnt: a new table (the old one released by all first), history.
fn clear(searcher: &mut Searcher, helpers: &mut Helpers) {
    helpers.release_table();
    searcher.clear();
    helpers.share_table(searcher.table());
    helpers.clear();
}

fn worker(hash_mib: usize, jobs: &Receiver<Job>, events: &Sender<Event>, control: &SearchControl) {
    let mut searcher = Searcher::new(hash_mib);
    let mut helpers = Helpers::default();
    // The mate table has USI_Hash MiB too; its pages are only touched by `go mate`.
    let mut solver = MateSolver::new(hash_mib);
    for job in jobs.iter() {
        let sent = match job {
            Job::Search { mut pos, limits, opts } => {
                let out = helpers.search(&mut searcher, &mut pos, &limits, &opts, control, &mut |it| {
                    let _ = events.send(Event::Info(it.clone()));
                });
                events.send(Event::Done(out))
            }
            Job::Mate { pos, deadline } => {
                solver.clear();
                let start = std::time::Instant::now();
                let limits = MateLimits { deadline, ..MateLimits::default() };
                let result = solver.solve(&pos, &limits, control.stop_flag());
                let stats = MateStats {
                    nodes: solver.nodes(),
                    time_ms: start.elapsed().as_millis() as u64,
                    hashfull: solver.hashfull(),
                    report: solver.report(),
                };
                events.send(Event::MateDone(result, stats))
            }
            Job::Resize(mib) => {
                // Each old table is released before its new one is made: two never coexist.
                helpers.release_table();
                let hash_mib = searcher.resize(mib);
                helpers.share_table(searcher.table());
                let mate_mib = solver.resize(mib);
                let wanted_mib = TranspositionTable::wanted_mib(mib);
                events.send(Event::Resized(TableSizes { wanted_mib, hash_mib, mate_mib }))
            }
            Job::Clear => {
                clear(&mut searcher, &mut helpers);
                solver.clear();
                events.send(Event::Ready)
            }
            Job::Network(net) => {
                searcher.set_network(net);
                clear(&mut searcher, &mut helpers);
                events.send(Event::Ready)
            }
            Job::Threads(n) => {
                let running = helpers.set_threads(n, &mut searcher);
                if running != n {
                    log::warn!("searching with {running} threads instead of {n}");
                }
                events.send(Event::Ready)
            }
        };
        if sent.is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_search_counts_its_time_from_when_it_was_asked_for() {
        // The `go` is read (the control reset), then the thread is busy for 50 ms with work sent
        // before it (a clear after `usinewgame`): the search's clock started with the `go`, as
        // the GUI's did.
        let thread = SearchThread::spawn(1).expect("starts");
        thread.control().reset(false);
        std::thread::sleep(Duration::from_millis(50));
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let job = Job::Search { pos: Box::new(Position::startpos()), limits, opts: SearchOptions::default() };
        assert!(thread.send(job));
        let mut times = Vec::new();
        for ev in thread.events().iter() {
            match ev {
                Event::Info(it) => times.push(it.time_ms),
                Event::Done(_) => break,
                _ => {}
            }
        }
        assert!(!times.is_empty() && times.iter().all(|&t| t >= 50), "{times:?}");
    }

    #[test]
    fn a_new_game_empties_the_table_in_place_keeping_its_memory() {
        // Replacing the table with a fresh allocation made the system provide (and zero) its pages
        // again inside the next game's first searches, which then overran a 100 ms byoyomi.
        let mut searcher = Searcher::new(4);
        let mut helpers = Helpers::default();
        helpers.set_threads(2, &mut searcher);
        helpers.share_table(searcher.table());
        let mut pos = Position::startpos();
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let mut search = |searcher: &mut Searcher, helpers: &mut Helpers| {
            let control = SearchControl::default();
            helpers.search(searcher, &mut pos, &limits, &SearchOptions::default(), &control, &mut |_| {})
        };
        search(&mut searcher, &mut helpers);
        assert!(searcher.table().entries() > 100, "{}", searcher.table().entries());
        let table = Arc::as_ptr(&searcher.table());
        clear(&mut searcher, &mut helpers);
        assert_eq!(Arc::as_ptr(&searcher.table()), table, "the same table");
        assert_eq!(searcher.table().entries(), 0, "emptied");
        // The team searches over it again.
        search(&mut searcher, &mut helpers);
        assert!(searcher.table().entries() > 100);
    }
}
