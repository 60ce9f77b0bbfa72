//! The engine session: what `hisha` does with each USI command. It owns the current position
//! (with its game history), the options and the search thread, and turns search events into
//! replies. Bad input never changes state: each gets one `info string error: …` and the previous
//! valid position and settings are kept (usi.md §1, §9).

use crate::book::{BUILTIN, Book};
use crate::mate::MateResult;
use crate::position::Position;
use crate::search::thread::{Event, Job, SearchThread};
use crate::search::{BestMove, Clock, Iteration, Limits, Outcome, ScoreBound};
use crate::usi::book_reply;
use crate::usi::command::{GoParams, MateLimit, UsiCommand};
use crate::usi::options::{OPTIONS, OptionEffect, Options};
use crate::usi::position_spec;
use crate::usi::response::{Checkmate, Info, InfoBound, InfoScore, UsiResponse};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::Instant;

/// A search in progress.
struct Running {
    /// The search was started with `go infinite` or `go ponder`: `bestmove` waits for
    /// `stop`/`ponderhit`.
    waits_for_stop: bool,
    /// `stop` (or `ponderhit`) arrived.
    released: bool,
    /// Only `stop` ends it (`go infinite`, `go ponder`, a bare `go`): end of input stops it.
    endless: bool,
    /// `gameover` arrived: the result is not wanted.
    discard: bool,
    /// A finished result held back until `stop`/`ponderhit`.
    pending: Option<Outcome>,
    started: Instant,
}

/// What the protocol loop should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` (or end of input): stop and exit.
    Quit,
}

/// The USI engine.
pub struct Engine {
    position: Position,
    options: Options,
    thread: SearchThread,
    table_mib: usize,
    running: Option<Running>,
    /// The opening book and the `BookFile` value it was loaded from.
    book: Option<Book>,
    book_source: Option<(String, Option<std::time::SystemTime>)>,
    rng: StdRng,
}

/// The engine's name as printed after `id name`.
pub fn engine_name() -> String {
    format!("hisha {}", env!("CARGO_PKG_VERSION"))
}

impl Engine {
    /// A new engine with default options. The table is small until `isready` sizes it.
    pub fn new() -> std::io::Result<Engine> {
        Ok(Engine {
            position: Position::startpos(),
            options: Options::default(),
            thread: SearchThread::spawn(1)?,
            table_mib: 1,
            running: None,
            book: None,
            book_source: None,
            rng: StdRng::from_rng(&mut rand::rng()),
        })
    }

    /// The search events channel (the protocol loop selects over it).
    pub fn events(&self) -> crossbeam_channel::Receiver<Event> {
        self.thread.events().clone()
    }

    /// True while a search runs.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Handles one input line, sending replies to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut dyn FnMut(UsiResponse)) -> Flow {
        match line.parse::<UsiCommand>() {
            Ok(cmd) => self.handle(cmd, out),
            Err(crate::usi::command::UsiError::Empty) => Flow::Continue,
            Err(e) => {
                out(error(e));
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: UsiCommand, out: &mut dyn FnMut(UsiResponse)) -> Flow {
        match cmd {
            UsiCommand::Usi => {
                out(UsiResponse::IdName(engine_name()));
                out(UsiResponse::IdAuthor("the hisha developers".into()));
                for d in OPTIONS {
                    out(d.usi_line().parse().unwrap_or_else(|e| match e {}));
                }
                out(UsiResponse::UsiOk);
            }
            UsiCommand::IsReady => {
                if !self.searching() {
                    self.apply_table_size();
                    self.load_book(out);
                }
                out(UsiResponse::ReadyOk);
            }
            UsiCommand::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Ok(OptionEffect::ClearHash) if !self.searching() => self.wait_ready(Job::Clear),
                Ok(_) => {}
                Err(e) => out(error(e)),
            },
            UsiCommand::UsiNewGame => {
                if !self.searching() {
                    self.apply_table_size();
                    self.wait_ready(Job::Clear);
                }
            }
            UsiCommand::Position { start, moves } => match position_spec::build(&start, &moves) {
                Ok(p) => self.position = p,
                Err(e) => out(error(format!("position: {e}"))),
            },
            UsiCommand::Go(g) => self.go(&g, out),
            UsiCommand::Stop => {
                if let Some(r) = &mut self.running {
                    r.released = true;
                    self.thread.control().stop();
                    self.flush_pending(out);
                }
            }
            UsiCommand::PonderHit => {
                if let Some(r) = &mut self.running {
                    if self.thread.control().pondering() {
                        let elapsed = r.started.elapsed().as_millis() as u64;
                        self.thread.control().ponderhit(elapsed);
                        r.released = true;
                        self.flush_pending(out);
                    }
                }
            }
            UsiCommand::GameOver(_) => {
                if let Some(r) = &mut self.running {
                    r.discard = true;
                    r.released = true;
                    self.thread.control().stop();
                }
            }
            UsiCommand::Quit => {
                self.thread.control().stop();
                return Flow::Quit;
            }
            UsiCommand::Debug => {}
        }
        Flow::Continue
    }

    /// End of input (the GUI or a script closed stdin), as Stockfish and YaneuraOu treat it: a
    /// search that only `stop` would end (`go infinite`, `go ponder`, a bare `go`) is stopped now;
    /// a bounded one (depth, nodes, movetime, clocks) and `go mate` (which ends with a proof, a
    /// disproof or its time limit) run on. The caller then hands over search events until
    /// [`Engine::searching`] is false, so that the `bestmove` or `checkmate` answer is printed
    /// before the engine exits.
    pub fn end_of_input(&mut self, out: &mut dyn FnMut(UsiResponse)) {
        if self.running.as_ref().is_some_and(|r| r.endless) {
            self.handle(UsiCommand::Stop, out);
        }
    }

    /// Handles an event from the search thread.
    pub fn handle_event(&mut self, ev: Event, out: &mut dyn FnMut(UsiResponse)) {
        let Some(r) = &mut self.running else { return };
        match ev {
            Event::Info(it) => {
                if !r.discard {
                    out(UsiResponse::Info(info_of(&it)));
                }
            }
            Event::Done(o) => {
                r.pending = Some(o);
                if !r.waits_for_stop || r.released || r.discard {
                    self.flush_pending(out);
                }
            }
            Event::MateDone(result, stats) => {
                let discard = r.discard;
                self.running = None;
                if !discard {
                    // Why the solve ended, then its numbers (usi.md §7: info lines may precede `checkmate`).
                    out(UsiResponse::Info(Info { string: Some(stats.report.to_string()), ..Info::default() }));
                    out(UsiResponse::Info(Info {
                        nodes: Some(stats.nodes),
                        time: Some(stats.time_ms),
                        nps: Some(stats.nodes * 1000 / stats.time_ms.max(1)),
                        hashfull: Some(stats.hashfull),
                        ..Info::default()
                    }));
                    out(UsiResponse::Checkmate(checkmate_reply(&result)));
                }
            }
            Event::Ready => {}
        }
    }

    fn flush_pending(&mut self, out: &mut dyn FnMut(UsiResponse)) {
        let Some(r) = &mut self.running else { return };
        let Some(o) = r.pending.take() else { return };
        let discard = r.discard;
        self.running = None;
        if !discard {
            out(bestmove(&o));
        }
    }

    fn wait_ready(&mut self, job: Job) {
        if self.thread.send(job) {
            for ev in self.thread.events().iter() {
                if matches!(ev, Event::Ready) {
                    break;
                }
            }
        }
    }

    fn apply_table_size(&mut self) {
        let mib = self.options.hash_mib();
        if mib != self.table_mib {
            self.wait_ready(Job::Resize(mib));
            self.table_mib = mib;
        }
    }

    /// Loads the book named by `BookFile` if it changed; a missing or broken book is one warning
    /// and the engine plays on without it.
    fn load_book(&mut self, out: &mut dyn FnMut(UsiResponse)) {
        let source = self.options.book_file().to_string();
        // Reload when the option or the file's modification time changed.
        let modified = std::fs::metadata(&source).and_then(|m| m.modified()).ok();
        let key = (source.clone(), modified);
        if self.book_source.as_ref() == Some(&key) {
            return;
        }
        self.book_source = Some(key);
        self.book = match source.as_str() {
            "" => None,
            "builtin" => Book::parse(BUILTIN).ok(),
            path => match Book::load(std::path::Path::new(path)) {
                Ok(b) => Some(b),
                Err(e) => {
                    out(UsiResponse::Info(Info {
                        string: Some(format!("warning: book not used: {e}")),
                        ..Info::default()
                    }));
                    None
                }
            },
        };
    }

    /// A book move for the current position, if the book applies.
    fn book_move(&mut self, g: &GoParams) -> Option<crate::book::BookMove> {
        if !self.options.use_book() || g.infinite || g.ponder || self.position.move_number() > self.options.book_moves()
        {
            return None;
        }
        if self.rng.random_range(0..100) < self.options.book_ignore_rate() {
            return None;
        }
        let pick = self.options.book_pick();
        self.book.as_ref()?.choose(&self.position, pick, &mut self.rng)
    }

    /// The legal moves of `go searchmoves …`; each word that is not one is reported and left out.
    fn searchmoves(&self, words: &[String], out: &mut dyn FnMut(UsiResponse)) -> Vec<crate::types::Move> {
        let parsed = words.iter().map(|w| self.position.parse_usi_move(w));
        parsed.filter_map(|m| m.map_err(|e| out(error(format!("go: searchmoves: {e} (ignored)")))).ok()).collect()
    }

    fn go(&mut self, g: &GoParams, out: &mut dyn FnMut(UsiResponse)) {
        if self.searching() {
            out(error("go: a search is already running (send stop first)"));
            return;
        }
        if let Some(limit) = g.mate {
            let deadline = match limit {
                MateLimit::Millis(ms) => Some(Instant::now() + std::time::Duration::from_millis(ms)),
                MateLimit::Infinite => None,
            };
            self.thread.control().reset(false);
            self.running = Some(Running {
                waits_for_stop: false,
                endless: false,
                released: false,
                discard: false,
                pending: None,
                started: Instant::now(),
            });
            if !self.thread.send(Job::Mate { pos: Box::new(self.position.clone()), deadline }) {
                self.running = None;
                out(error("go: the search thread is not running"));
            }
            return;
        }
        if let Some(m) = self.book_move(g) {
            book_reply::replies(&self.position, &m).into_iter().for_each(out);
            return;
        }
        let clock = [g.btime, g.wtime, g.byoyomi, g.binc, g.winc].iter().any(Option::is_some).then(|| Clock {
            time: [g.btime.unwrap_or(0), g.wtime.unwrap_or(0)],
            inc: [g.binc.unwrap_or(0), g.winc.unwrap_or(0)],
            byoyomi: g.byoyomi.unwrap_or(0),
        });
        let depth = match (g.depth, self.options.depth_limit()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let nodes = match (g.nodes, self.options.nodes_limit()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let searchmoves = self.searchmoves(&g.searchmoves, out);
        let limits =
            Limits { depth, nodes, movetime: g.movetime, infinite: g.infinite, ponder: g.ponder, clock, searchmoves };
        let on_byoyomi = clock.is_some_and(|c| c.byoyomi > 0);
        let opts = self.options.search_options(on_byoyomi);
        self.thread.control().reset(g.ponder);
        self.running = Some(Running {
            waits_for_stop: limits.waits_for_stop(),
            endless: limits.waits_for_stop() || limits.is_unbounded(),
            released: false,
            discard: false,
            pending: None,
            started: Instant::now(),
        });
        if !self.thread.send(Job::Search { pos: Box::new(self.position.clone()), limits, opts }) {
            self.running = None;
            out(error("go: the search thread is not running"));
        }
    }
}

/// An `info string error: …` line.
fn error(e: impl std::fmt::Display) -> UsiResponse {
    UsiResponse::Info(Info { string: Some(format!("error: {e}")), ..Info::default() })
}

fn info_of(it: &Iteration) -> Info {
    let score = InfoScore::of_value(it.score);
    Info {
        depth: Some(it.depth),
        seldepth: Some(it.seldepth),
        multipv: Some(it.multipv as u32),
        score: Some(score),
        bound: match it.bound {
            ScoreBound::Exact => None,
            ScoreBound::Lower => Some(InfoBound::Lower),
            ScoreBound::Upper => Some(InfoBound::Upper),
        },
        nodes: Some(it.nodes),
        nps: Some(it.nodes * 1000 / it.time_ms.max(1)),
        hashfull: Some(it.hashfull),
        time: Some(it.time_ms),
        pv: it.pv.iter().map(|m| m.to_string()).collect(),
        ..Info::default()
    }
}

/// The `checkmate …` answer. A search stopped (or out of time) before a proof is `timeout`, as
/// ShogiHome's state machine expects (usi.md §7; UNCONFIRMED for Shogidokoro); stopped while it
/// looked for a shorter mate, it answers with the mate it has.
fn checkmate_reply(r: &MateResult) -> Checkmate {
    match r {
        MateResult::Mate(line) => Checkmate::Mate(line.iter().map(|m| m.to_string()).collect()),
        MateResult::NoMate => Checkmate::NoMate,
        MateResult::Unknown => Checkmate::Timeout,
    }
}

fn bestmove(o: &Outcome) -> UsiResponse {
    match o.best {
        BestMove::Move { best, ponder } => {
            UsiResponse::BestMove { mv: best.to_string(), ponder: ponder.map(|p| p.to_string()) }
        }
        BestMove::Resign => UsiResponse::BestMove { mv: "resign".into(), ponder: None },
        BestMove::Win => UsiResponse::BestMove { mv: "win".into(), ponder: None },
    }
}
