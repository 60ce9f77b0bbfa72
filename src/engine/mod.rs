//! The engine, free of any protocol: it holds the position to think about (with its game
//! history), its [`Settings`], the opening book and the search thread, and answers with typed
//! [`EngineEvent`]s. The USI session (the `usi` module) turns commands into calls here and events into
//! protocol lines; nothing here knows USI.
//!
//! A search started by [`Engine::go`] runs on the search thread; the caller selects over
//! [`Engine::events`] and hands each event back to [`Engine::handle_event`], which emits
//! [`EngineEvent::Info`] per iteration and one [`EngineEvent::BestMove`] at the end. A search that
//! only `stop` ends (infinite analysis, pondering) holds its result until [`Engine::stop`] or
//! [`Engine::ponderhit`]; [`Engine::abandon`] drops it (the game is over).

mod book;
mod eval_file;
mod settings;
#[cfg(test)]
mod tests;

pub(crate) use crate::book::{BookMove, Pick as BookPick};
pub(crate) use crate::mate::MateResult;
pub(crate) use crate::search::thread::{Event as SearchEvent, MateStats, TableSizes};
pub(crate) use crate::search::{BestMove, Clock, Iteration, Limits, ScoreBound};
pub(crate) use eval_file::EvalNotLoaded;
pub use eval_file::{EvalFileError, EvalSource};
pub(crate) use settings::{BookSettings, BookSource, Settings};

use crate::book::BookLoadError;
use crate::position::Position;
use crate::search::Outcome;
use crate::search::thread::{Event, Job, SearchThread};
pub(crate) use book::BookChoice;
use book::EngineBook;
use std::time::{Duration, Instant, SystemTime};

/// What the engine reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineEvent {
    /// An iteration (or one MultiPV line of it) finished.
    Info(Iteration),
    /// The search's answer.
    BestMove(BestMove),
    /// A move from the book, played without a search, with the position's other book moves (each
    /// ponder move is legal after its move).
    BookMove(BookChoice),
    /// The answer of a mate search, with what it used.
    Mate(MateResult, MateStats),
}

/// Why a search ([`Engine::go`], [`Engine::go_mate`]) could not start. (The match runner's
/// `client::process::EngineError` is another thing: an engine process that failed.)
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GoError {
    /// A search is running.
    #[error("a search is already running (send stop first)")]
    Busy,
    /// The search thread ended.
    #[error("the search thread is not running")]
    ThreadGone,
}

/// What [`Engine::prepare`] could not do as the settings asked; the engine plays on.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PrepareWarning {
    /// The book could not be loaded: no book is used.
    #[error("book not used: {0}")]
    Book(BookLoadError),
    /// The system refused the memory of the table size asked for.
    #[error(
        "not enough memory for a {} MiB hash table: it has {} MiB (the mate table {} MiB)",
        .0.wanted_mib, .0.hash_mib, .0.mate_mib
    )]
    Memory(TableSizes),
}

/// A search in progress.
struct Running {
    /// Started as infinite analysis or pondering: the answer waits for `stop`/`ponderhit`.
    waits_for_stop: bool,
    /// `stop` (or `ponderhit`) arrived.
    released: bool,
    /// Only `stop` ends it (infinite, ponder, no limit at all): end of input stops it.
    endless: bool,
    /// The game is over: the result is not wanted.
    discard: bool,
    /// A finished result held back until `stop`/`ponderhit`.
    pending: Option<Outcome>,
}

impl Running {
    fn new(waits_for_stop: bool, endless: bool) -> Running {
        Running { waits_for_stop, released: false, endless, discard: false, pending: None }
    }
}

/// The engine.
pub(crate) struct Engine {
    position: Position,
    settings: Settings,
    thread: SearchThread,
    /// The size of the table now (it is resized to the settings' when prepared).
    table_mib: usize,
    /// The search threads running now (the settings' number once set or prepared).
    threads: usize,
    running: Option<Running>,
    book: EngineBook,
    /// The evaluation the search thread uses now (the settings' once loaded).
    eval: EvalSource,
    /// The modification time of the net's file when it was loaded ([`EvalSource::modified`]).
    eval_modified: Option<SystemTime>,
    /// Jobs sent to the search thread without waiting (clearing the tables), whose answers are
    /// still to come.
    unanswered: usize,
}

impl Engine {
    /// A new engine at the start position. The table is small until [`Engine::prepare`] sizes it.
    pub(crate) fn new(settings: Settings) -> std::io::Result<Engine> {
        let mut engine = Engine {
            position: Position::startpos(),
            settings,
            thread: SearchThread::spawn(1)?,
            table_mib: 1,
            threads: 1,
            running: None,
            book: EngineBook::new(),
            eval: EvalSource::Builtin,
            eval_modified: None,
            unanswered: 0,
        };
        if let Some(net) = crate::eval::nnue::builtin() {
            engine.wait_ready(Job::Network(Some(net)));
        }
        Ok(engine)
    }

    /// The search thread's events, to select over; each goes back to [`Engine::handle_event`].
    pub(crate) fn events(&self) -> crossbeam_channel::Receiver<Event> {
        self.thread.events().clone()
    }

    /// True while a search runs.
    pub(crate) fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// The position the next search starts from.
    pub(crate) fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position the next search starts from (its history counts for repetitions).
    pub(crate) fn set_position(&mut self, pos: Position) {
        self.position = pos;
    }

    /// Replaces the settings. Search settings and the book settings apply from the next `go`; the
    /// threads now (or, while a search runs, when the engine is next prepared); the table size and
    /// the book source when the engine is next prepared.
    pub(crate) fn set_settings(&mut self, settings: Settings) {
        self.settings = settings;
        self.set_threads(self.settings.threads);
    }

    /// Gets ready to play (USI `isready`): sizes the table and loads the book of the settings.
    /// What could not be done as asked is returned (a book that cannot be loaded: the engine plays
    /// without one; a table the system has no memory for: the engine plays with a smaller one).
    /// Nothing is done while a search runs.
    pub(crate) fn prepare(&mut self) -> Vec<PrepareWarning> {
        if self.searching() {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        warnings.extend(self.set_hash(self.settings.hash_mib).map(PrepareWarning::Memory));
        self.set_threads(self.settings.threads);
        warnings.extend(self.book.load(&self.settings.book.source).err().map(PrepareWarning::Book));
        warnings
    }

    /// Loads the evaluation of the settings (USI `isready`) unless it is the one in use, its file
    /// unchanged, or a search runs. A file that cannot be used is the error (its text says which
    /// evaluation stays), and the engine goes on with the evaluation it had; the next call tries
    /// the file again.
    pub(crate) fn load_evaluation(&mut self) -> Result<(), EvalNotLoaded> {
        let modified = self.settings.eval.modified();
        if self.searching() || (self.settings.eval == self.eval && modified == self.eval_modified) {
            return Ok(());
        }
        let net = self.settings.eval.load().map_err(|error| EvalNotLoaded { error, keeping: self.eval.describe() })?;
        self.wait_ready(Job::Network(net));
        self.eval = self.settings.eval.clone();
        self.eval_modified = modified;
        Ok(())
    }

    /// A new game starts: the table takes the settings' size and forgets what it learnt. The
    /// tables are cleared on the search thread without waiting (see [`Engine::clear`]).
    pub(crate) fn new_game(&mut self) {
        if !self.searching() {
            if let Some(sizes) = self.set_hash(self.settings.hash_mib) {
                log::warn!("{}", PrepareWarning::Memory(sizes));
            }
            self.clear();
        }
    }

    /// Resizes the table to `mib` MiB (and the mate table with it) unless it has that size or a
    /// search runs. The sizes the tables got when the system refused the memory of `mib` MiB.
    pub(crate) fn set_hash(&mut self, mib: usize) -> Option<TableSizes> {
        if mib == self.table_mib || self.searching() {
            return None;
        }
        self.table_mib = mib;
        match self.wait_ready(Job::Resize(mib)) {
            Some(Event::Resized(sizes)) if sizes.hash_mib < sizes.wanted_mib => Some(sizes),
            _ => None,
        }
    }

    /// Searches with `n` threads from now on (they are started now), unless that many run or a
    /// search runs.
    pub(crate) fn set_threads(&mut self, n: usize) {
        if n != self.threads && !self.searching() {
            self.wait_ready(Job::Threads(n));
            self.threads = n;
        }
    }

    /// Empties the tables, unless a search runs. The search thread does it without the caller
    /// waiting, so that a `go` that follows (`usinewgame`, then `go` at once, as GUIs send them)
    /// is read, and its clock started, at once; the search begins when the tables are empty.
    pub(crate) fn clear(&mut self) {
        if !self.searching() && self.thread.send(Job::Clear) {
            self.unanswered += 1;
        }
    }

    /// Sends `job` and waits for its answer (after those of the jobs sent without waiting).
    fn wait_ready(&mut self, job: Job) -> Option<Event> {
        if !self.thread.send(job) {
            return None;
        }
        for ev in self.thread.events().iter() {
            if matches!(ev, Event::Ready | Event::Resized(_)) {
                if self.unanswered == 0 {
                    return Some(ev);
                }
                self.unanswered -= 1;
            }
        }
        None
    }

    /// Starts a search of the position within `limits` (bounded further by the settings' depth
    /// and node limits), or answers at once with a book move when the book has one and the search
    /// is not analysis, pondering or restricted to some moves.
    pub(crate) fn go(&mut self, limits: Limits, emit: &mut dyn FnMut(EngineEvent)) -> Result<(), GoError> {
        if self.searching() {
            return Err(GoError::Busy);
        }
        if !limits.waits_for_stop() && limits.searchmoves.is_empty() {
            if let Some(m) = self.book.choose(&self.position, &self.settings.book) {
                emit(EngineEvent::BookMove(m));
                return Ok(());
            }
        }
        let limits = Limits {
            depth: lower(limits.depth, self.settings.depth_limit),
            nodes: lower(limits.nodes, self.settings.nodes_limit),
            ..limits
        };
        let unbounded =
            limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() && limits.clock.is_none();
        let opts = self.settings.search_options(limits.clock.is_some_and(|c| c.byoyomi > 0));
        self.thread.control().reset(limits.ponder);
        self.running = Some(Running::new(limits.waits_for_stop(), limits.waits_for_stop() || unbounded));
        let job = Job::Search { pos: Box::new(self.position.clone()), limits, opts };
        self.send(job)
    }

    /// Starts a mate search (tsume) of the position, for `time` or (`None`) until [`Engine::stop`].
    pub(crate) fn go_mate(&mut self, time: Option<Duration>) -> Result<(), GoError> {
        if self.searching() {
            return Err(GoError::Busy);
        }
        let deadline = time.map(|t| Instant::now() + t);
        self.thread.control().reset(false);
        self.running = Some(Running::new(false, false));
        self.send(Job::Mate { pos: Box::new(self.position.clone()), deadline })
    }

    fn send(&mut self, job: Job) -> Result<(), GoError> {
        if self.thread.send(job) {
            return Ok(());
        }
        self.running = None;
        Err(GoError::ThreadGone)
    }

    /// Stops the search; its answer follows (at once if it was held back).
    pub(crate) fn stop(&mut self, emit: &mut dyn FnMut(EngineEvent)) {
        if let Some(r) = &mut self.running {
            r.released = true;
            self.thread.control().stop();
            self.flush_pending(emit);
        }
    }

    /// The opponent played the move pondered on: the ponder search goes on as a timed search.
    pub(crate) fn ponderhit(&mut self, emit: &mut dyn FnMut(EngineEvent)) {
        if let Some(r) = &mut self.running {
            if self.thread.control().pondering() {
                self.thread.control().ponderhit();
                r.released = true;
                self.flush_pending(emit);
            }
        }
    }

    /// The game is over: the running search is stopped and its answer dropped.
    pub(crate) fn abandon(&mut self) {
        if let Some(r) = &mut self.running {
            r.discard = true;
            r.released = true;
            self.thread.control().stop();
        }
    }

    /// End of input (the GUI or a script closed stdin), as Stockfish and YaneuraOu treat it: a
    /// search that only `stop` would end (infinite, ponder, no limit) is stopped now; a bounded
    /// one and a mate search (which ends with a proof, a disproof or its time limit) run on. The
    /// caller then hands over events until [`Engine::searching`] is false, so that the answer is
    /// given before the engine exits.
    pub(crate) fn end_of_input(&mut self, emit: &mut dyn FnMut(EngineEvent)) {
        if self.running.as_ref().is_some_and(|r| r.endless) {
            self.stop(emit);
        }
    }

    /// Handles an event from the search thread.
    pub(crate) fn handle_event(&mut self, ev: Event, emit: &mut dyn FnMut(EngineEvent)) {
        if matches!(ev, Event::Ready | Event::Resized(_)) {
            // The answer to a job sent without waiting.
            self.unanswered = self.unanswered.saturating_sub(1);
            return;
        }
        let Some(r) = &mut self.running else { return };
        match ev {
            Event::Info(it) => {
                if !r.discard {
                    emit(EngineEvent::Info(it));
                }
            }
            Event::Done(o) => {
                r.pending = Some(o);
                if !r.waits_for_stop || r.released || r.discard {
                    self.flush_pending(emit);
                }
            }
            Event::MateDone(result, stats) => {
                let discard = r.discard;
                self.running = None;
                if !discard {
                    emit(EngineEvent::Mate(result, stats));
                }
            }
            Event::Ready | Event::Resized(_) => {}
        }
    }

    fn flush_pending(&mut self, emit: &mut dyn FnMut(EngineEvent)) {
        let Some(r) = &mut self.running else { return };
        let Some(o) = r.pending.take() else { return };
        let discard = r.discard;
        self.running = None;
        if !discard {
            emit(EngineEvent::BestMove(o.best));
        }
    }
}

/// The lower of two optional limits (`None` = no limit).
fn lower<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
