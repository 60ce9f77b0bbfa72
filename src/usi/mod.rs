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
use crate::record::decode_text;
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

/// Reads lines from `input` on a thread until end of input, each decoded by [`decode_line`].
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> std::io::Result<crossbeam_channel::Receiver<String>> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(decode_line(&buf)).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    Ok(rx)
}

/// One input line as text. The USI draft says ASCII, but a `filename` option's value is a path
/// that may hold Japanese: Shogidokoro and ShogiGUI on Japanese Windows write the system code
/// page (Shift_JIS, CP932), ShogiHome writes UTF-8. So a line is read as record files are
/// ([`decode_text`]): UTF-8 when it is valid UTF-8, Shift_JIS otherwise, a leading UTF-8
/// byte-order mark (some UTF-8 writers start their stream with one) dropped; bytes that are
/// neither become U+FFFD. NUL bytes and line-end
/// characters are removed.
fn decode_line(bytes: &[u8]) -> String {
    decode_text(bytes).chars().filter(|&c| c != '\0' && c != '\r' && c != '\n').collect()
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
    fn input_lines_are_utf8_or_else_shift_jis() {
        let path = "setoption name BookFile value C:\\将棋 エンジン\\book.db";
        assert_eq!(decode_line(format!("{path}\r\n").as_bytes()), path, "UTF-8 (ShogiHome)");
        let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(path);
        assert!(!unmappable && std::str::from_utf8(&sjis).is_err(), "a Shift_JIS line that is not UTF-8");
        assert_eq!(decode_line(&[&sjis[..], b"\r\n"].concat()), path, "Shift_JIS (Shogidokoro, ShogiGUI)");
        // A UTF-8 writer may start its stream with a byte-order mark: `usi` is still `usi`.
        assert_eq!(decode_line(b"\xEF\xBB\xBFusi\n"), "usi");
        assert_eq!(decode_line(b"is\0ready\r\n"), "isready");
    }

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
