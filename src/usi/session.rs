//! One USI session: each command line is parsed ([`UsiCommand`]), turned into calls on the
//! [`Engine`] (the option values into its settings, `go` parameters into search limits), and the
//! engine's events into protocol lines ([`reply`]). Bad input never changes state: each gets one
//! `info string error: …` and the previous valid position and settings are kept (usi.md §1, §9).

use super::Tunables;
use super::command::{GoParams, MateLimit, UsiCommand, UsiError};
use super::options::{OPTIONS, OptionEffect, Options};
use super::position_spec;
use super::reply::{self, error, info_string};
use super::response::UsiResponse;
use crate::engine::{Clock, Engine, EngineEvent, GoError, Limits, SearchEvent};
use crate::search::params;
use crate::types::Move;
use std::time::Duration;

/// What the protocol loop should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep reading.
    Continue,
    /// `quit`: stop and exit.
    Quit,
}

/// The engine and the option values the GUI set.
pub(crate) struct Session {
    engine: Engine,
    options: Options,
    tunables: Tunables,
}

impl Session {
    /// A session with the default options, offering the search's tunable constants as options
    /// where `tunables` says so.
    pub(crate) fn new(tunables: Tunables) -> std::io::Result<Session> {
        let options = Options::default();
        Ok(Session { engine: Engine::new(options.settings())?, options, tunables })
    }

    /// The search events to select over; each goes back to [`Session::handle_event`].
    pub(crate) fn events(&self) -> crossbeam_channel::Receiver<SearchEvent> {
        self.engine.events()
    }

    /// True while a search runs.
    pub(crate) fn searching(&self) -> bool {
        self.engine.searching()
    }

    /// Handles one input line, sending replies to `out`.
    pub(crate) fn handle_line(&mut self, line: &str, out: &mut dyn FnMut(UsiResponse)) -> Flow {
        match line.parse::<UsiCommand>() {
            Ok(cmd) => self.handle(cmd, out),
            Err(UsiError::Empty) => Flow::Continue,
            Err(e) => {
                out(error(e));
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    fn handle(&mut self, cmd: UsiCommand, out: &mut dyn FnMut(UsiResponse)) -> Flow {
        let mut emit = |ev: EngineEvent| reply::replies(&ev).into_iter().for_each(&mut *out);
        match cmd {
            UsiCommand::Usi => {
                emit_identity(out, self.tunables);
            }
            UsiCommand::IsReady => {
                if let Err(e) = self.engine.load_evaluation() {
                    out(error(e));
                }
                for warning in self.engine.prepare() {
                    out(info_string(format!("warning: {warning}")));
                }
                out(UsiResponse::ReadyOk);
            }
            UsiCommand::SetOption { name, value }
                if self.tunables == Tunables::Offered && params::find(&name).is_some() =>
            {
                if let Err(e) = set_tunable(&name, value.as_deref()) {
                    out(error(e));
                }
            }
            UsiCommand::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Ok(effect) => {
                    self.engine.set_settings(self.options.settings());
                    if effect == OptionEffect::ClearHash {
                        self.engine.clear();
                    }
                }
                Err(e) => out(error(e)),
            },
            UsiCommand::UsiNewGame => self.engine.new_game(),
            UsiCommand::Position { start, moves } => match position_spec::build(&start, &moves) {
                Ok(p) => self.engine.set_position(p),
                Err(e) => out(error(format!("position: {e}"))),
            },
            UsiCommand::Go(g) => self.go(&g, out),
            UsiCommand::Stop => self.engine.stop(&mut emit),
            UsiCommand::PonderHit => self.engine.ponderhit(&mut emit),
            UsiCommand::GameOver(_) => self.engine.abandon(),
            UsiCommand::Quit => {
                // As Stockfish does: a search in progress stops and still answers with its
                // `bestmove` (the caller hands over its events) before the engine exits.
                self.engine.stop(&mut emit);
                return Flow::Quit;
            }
            UsiCommand::Debug => {}
        }
        Flow::Continue
    }

    /// End of input: see [`Engine::end_of_input`].
    pub(crate) fn end_of_input(&mut self, out: &mut dyn FnMut(UsiResponse)) {
        self.engine.end_of_input(&mut |ev| reply::replies(&ev).into_iter().for_each(&mut *out));
    }

    /// Handles an event from the search thread.
    pub(crate) fn handle_event(&mut self, ev: SearchEvent, out: &mut dyn FnMut(UsiResponse)) {
        self.engine.handle_event(ev, &mut |ev| reply::replies(&ev).into_iter().for_each(&mut *out));
    }

    fn go(&mut self, g: &GoParams, out: &mut dyn FnMut(UsiResponse)) {
        if self.engine.searching() {
            // Refused before its words are read: one error line, as for any `go` while searching.
            out(error(format!("go: {}", GoError::Busy)));
            return;
        }
        let started = match g.mate {
            Some(MateLimit::Millis(ms)) => self.engine.go_mate(Some(Duration::from_millis(ms))),
            Some(MateLimit::Infinite) => self.engine.go_mate(None),
            None => {
                let limits = limits_of(g, self.searchmoves(&g.searchmoves, out));
                self.engine.go(limits, &mut |ev| reply::replies(&ev).into_iter().for_each(&mut *out))
            }
        };
        if let Err(e) = started {
            out(error(format!("go: {e}")));
        }
    }

    /// The legal moves of `go searchmoves …`; each word that is not one is reported and left out.
    fn searchmoves(&self, words: &[String], out: &mut dyn FnMut(UsiResponse)) -> Vec<Move> {
        let parsed = words.iter().map(|w| self.engine.position().parse_usi_move(w));
        parsed.filter_map(|m| m.map_err(|e| out(error(format!("go: searchmoves: {e} (ignored)")))).ok()).collect()
    }
}

/// The answer to `usi`: name, author, the options (and the tunable constants where offered),
/// `usiok`.
fn emit_identity(out: &mut dyn FnMut(UsiResponse), tunables: Tunables) {
    out(UsiResponse::IdName(super::engine_name()));
    out(UsiResponse::IdAuthor("the hisha developers".into()));
    for d in OPTIONS {
        out(d.usi_line().parse().unwrap_or_else(|e| match e {}));
    }
    if tunables == Tunables::Offered {
        for p in params::PARAMS {
            let line = format!("option name {} type spin default {} min {} max {}", p.name, p.default, p.min, p.max);
            out(line.parse().unwrap_or_else(|e| match e {}));
        }
    }
    out(UsiResponse::UsiOk);
}

/// `setoption` of a tunable search constant: an integer within its range.
fn set_tunable(name: &str, value: Option<&str>) -> Result<(), String> {
    let text = value.map(str::trim).unwrap_or("");
    let v: i32 = text.parse().map_err(|_| format!("option {name}: {text:?} is not a number"))?;
    params::set(name, v).map_err(|e| format!("option {e}"))
}

/// The search limits of a `go` (not `go mate`): clocks only when any was sent.
fn limits_of(g: &GoParams, searchmoves: Vec<Move>) -> Limits {
    let clock = [g.btime, g.wtime, g.byoyomi, g.binc, g.winc].iter().any(Option::is_some).then(|| Clock {
        time: [g.btime.unwrap_or(0), g.wtime.unwrap_or(0)],
        inc: [g.binc.unwrap_or(0), g.winc.unwrap_or(0)],
        byoyomi: g.byoyomi.unwrap_or(0),
    });
    Limits {
        depth: g.depth,
        nodes: g.nodes,
        movetime: g.movetime,
        infinite: g.infinite,
        ponder: g.ponder,
        clock,
        searchmoves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_sent_only_when_a_time_was_given() {
        let go = |line: &str| match line.parse::<UsiCommand>() {
            Ok(UsiCommand::Go(g)) => limits_of(&g, Vec::new()),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(go("go depth 3"), Limits { depth: Some(3), ..Limits::default() });
        let timed = go("go btime 1000 wtime 2000 byoyomi 300 winc 5");
        assert_eq!(timed.clock, Some(Clock { time: [1000, 2000], inc: [0, 5], byoyomi: 300 }));
        let ponder = go("go ponder infinite nodes 7 movetime 9");
        assert_eq!((ponder.ponder, ponder.infinite, ponder.nodes, ponder.movetime), (true, true, Some(7), Some(9)));
        assert_eq!(ponder.clock, None);
    }
}
