//! The USI protocol (usi.md): `hisha` with no arguments reads commands on stdin and answers on
//! stdout. A reader thread turns input into lines (CR/LF and NUL tolerant), the protocol loop
//! selects over those lines and the search thread's events, and is the only writer of stdout: one
//! protocol line at a time, flushed. End of input is `quit` once the search in progress has
//! answered (the engine's `end_of_input`): `printf 'position startpos\ngo depth 6\n' | hisha`
//! prints the search's `info` lines and one `bestmove`. `quit` stops a search in progress, which
//! still answers with its `bestmove` before the engine exits. `RUST_LOG=debug` traces every line
//! in (`<`) and out (`>`) on stderr.

pub mod command;
mod options;
pub mod position_spec;
mod reply;
pub mod response;
mod session;

use crate::engine::SearchEvent;
use crossbeam_channel::{Receiver, select, unbounded};
use session::{Flow, Session};
use std::io::{BufRead, Write};

/// The one line `hisha` started without arguments prints on stderr when its input is a terminal
/// (a person, not a GUI or a script): what it is, how to leave, where the tools are. Nothing for
/// piped input, and never anything on stdout, which belongs to the protocol.
pub fn terminal_notice(stdin_is_terminal: bool) -> Option<String> {
    stdin_is_terminal.then(|| {
        format!(
            "{}: this is the USI engine, reading USI commands (`usi`, `position startpos`, `go depth 8` …); \
             `quit` or end of input (Ctrl-D) leaves; `hisha --help` lists the tools.",
            engine_name()
        )
    })
}

/// The engine's name as printed after `id name`.
fn engine_name() -> String {
    format!("hisha {}", env!("CARGO_PKG_VERSION"))
}

/// Reads lines from `input` on a thread until end of input. Invalid UTF-8 is replaced, NUL bytes
/// and line-end characters are removed.
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> std::io::Result<crossbeam_channel::Receiver<String>> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line: String = String::from_utf8_lossy(&buf)
                        .chars()
                        .filter(|&c| c != '\0' && c != '\r' && c != '\n')
                        .collect();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    Ok(rx)
}

/// Hands the search's events over until it has answered (its `bestmove`), before the engine exits.
fn finish_search(session: &mut Session, events: &Receiver<SearchEvent>, out: &mut dyn FnMut(response::UsiResponse)) {
    while session.searching() {
        let Ok(ev) = events.recv() else { break };
        session.handle_event(ev, out);
    }
}

/// Whether a session offers the search's tunable constants ([`crate::search::params`]) as USI
/// options besides the engine's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tunables {
    /// Only the engine's options, as a GUI expects (`hisha` with no arguments).
    #[default]
    Hidden,
    /// Each constant also as a `spin` option, listed after `usi` and set by `setoption`, for a
    /// tuner (`hisha usi --tunable`).
    Offered,
}

/// Runs the engine on `input`/`output` until `quit` or end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> std::io::Result<()> {
    run_with(input, output, Tunables::Hidden)
}

/// [`run`], offering the search's tunable constants as options where `tunables` says so.
pub fn run_with<R: BufRead + Send + 'static, W: Write>(
    input: R,
    mut output: W,
    tunables: Tunables,
) -> std::io::Result<()> {
    let mut session = Session::new(tunables)?;
    let lines = spawn_reader(input)?;
    let events = session.events();
    let mut write_error = None;
    let mut out = |r: response::UsiResponse| {
        let text = r.to_string();
        log::debug!("> {text}");
        if let Err(e) = writeln!(output, "{text}").and_then(|_| output.flush()) {
            write_error.get_or_insert(e);
        }
    };
    loop {
        select! {
            recv(lines) -> line => {
                let Ok(line) = line else {
                    session.end_of_input(&mut out);
                    finish_search(&mut session, &events, &mut out);
                    break;
                };
                log::debug!("< {line}");
                if session.handle_line(&line, &mut out) == Flow::Quit {
                    finish_search(&mut session, &events, &mut out);
                    break;
                }
            }
            recv(events) -> ev => {
                if let Ok(ev) = ev {
                    session.handle_event(ev, &mut out);
                }
            }
        }
    }
    drop(session);
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_notice_is_one_line_for_terminals_only() {
        assert_eq!(terminal_notice(false), None);
        let notice = terminal_notice(true).expect("a notice on a terminal");
        assert!(!notice.contains('\n'), "{notice}");
        for part in ["USI engine", "quit", "hisha --help"] {
            assert!(notice.contains(part), "{part}: {notice}");
        }
    }
}
