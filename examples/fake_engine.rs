//! A misbehaving USI engine for the `hisha match` tests (`tests/arena.rs`, `tests/arena_match.rs`),
//! built by `cargo test` (the tests build it themselves when run alone), so that the match tests
//! need nothing outside cargo.
//!
//! ```text
//! fake_engine MODE [PLIES] [SIDE] [SECONDS] [SCORE]
//! ```
//!
//! Plays the first legal move of hisha's move generator until it has made PLIES moves in the
//! current game (default 4), then, if it is playing SIDE (`black`, `white` or `any`; default
//! `any`), misbehaves:
//!
//! | MODE       | what it does                                                            |
//! |------------|-------------------------------------------------------------------------|
//! | `good`     | keeps playing legal moves                                               |
//! | `crash`    | exits (status 3)                                                        |
//! | `hang`     | sleeps an hour, reading nothing (not even `quit`)                       |
//! | `late`     | answers after SECONDS (default 3)                                       |
//! | `illegal`  | plays an illegal move                                                   |
//! | `garbage`  | prints junk, then an unparsable move                                    |
//! | `falsewin` | claims an entering-king win                                             |
//! | `nousiok`  | never answers `usi`                                                     |
//! | `nostart`  | writes 8 lines to stderr and exits (status 1) when it receives `usi`   |
//!
//! Every move reports `score cp SCORE` (default 0; SCORE `none`: no score at all); `usinewgame` writes `fake: new game` to
//! stderr. With `FAKE_PID_DIR` set, it writes its process id to a file there (to check that it was
//! killed). Bad arguments or a `position` it cannot set up: a message on stderr and exit status 2.

use hisha::usi::command::{StartPosition, UsiCommand};
use hisha::{Color, Position};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: fake_engine good|crash|hang|late|illegal|garbage|falsewin|nousiok|nostart \
                     [PLIES] [black|white|any] [SECONDS] [SCORE]";

/// How the engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Good,
    Crash,
    Hang,
    Late,
    Illegal,
    Garbage,
    FalseWin,
    NoUsiOk,
    NoStart,
}

/// The command-line settings.
#[derive(Clone, Copy, Debug)]
struct Settings {
    mode: Mode,
    /// Moves played normally in each game before misbehaving.
    plies: usize,
    /// The side that misbehaves; `None` for both.
    side: Option<Color>,
    /// The delay of `late`.
    seconds: f64,
    /// The score reported with every move (`None`: no score).
    score: Option<i32>,
}

fn parse_args(args: &[String]) -> Result<Settings, String> {
    let mode = match args.first().map(String::as_str) {
        Some("good") => Mode::Good,
        Some("crash") => Mode::Crash,
        Some("hang") => Mode::Hang,
        Some("late") => Mode::Late,
        Some("illegal") => Mode::Illegal,
        Some("garbage") => Mode::Garbage,
        Some("falsewin") => Mode::FalseWin,
        Some("nousiok") => Mode::NoUsiOk,
        Some("nostart") => Mode::NoStart,
        Some(other) => return Err(format!("unknown mode {other:?}")),
        None => return Err("no mode".into()),
    };
    let side = match args.get(2).map(String::as_str) {
        None | Some("any") => None,
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some(other) => return Err(format!("unknown side {other:?}")),
    };
    Ok(Settings {
        mode,
        plies: number(args, 1, "PLIES", 4)?,
        side,
        seconds: number(args, 3, "SECONDS", 3.0)?,
        score: match args.get(4).map(String::as_str) {
            Some("none") => None,
            _ => Some(number(args, 4, "SCORE", 0)?),
        },
    })
}

/// Argument `i` as a number, or `default` when it is absent.
fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str, default: T) -> Result<T, String> {
    match args.get(i) {
        Some(s) => s.parse().map_err(|_| format!("bad {what} {s:?}")),
        None => Ok(default),
    }
}

/// Writes one line to stdout and flushes it; false when stdout is gone.
fn out(line: &str) -> bool {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}").and_then(|_| stdout.flush()).is_ok()
}

/// Writes one line to stderr.
fn note(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}").and_then(|_| stderr.flush());
}

/// The position of a `position` command.
fn set_up(start: &StartPosition, moves: &[String]) -> Result<Position, String> {
    let mut pos = match start {
        StartPosition::Startpos => Position::startpos(),
        StartPosition::Sfen(s) => Position::from_sfen(s).map_err(|e| e.to_string())?,
    };
    for text in moves {
        let m = pos.parse_usi_move(text).map_err(|e| e.to_string())?;
        pos.do_move(m);
    }
    Ok(pos)
}

/// The engine state of one game.
struct Game {
    pos: Position,
    /// Moves this engine made in the current game.
    made: usize,
}

impl Game {
    fn misbehaving(&self, s: &Settings) -> bool {
        self.made >= s.plies && s.mode != Mode::Good && s.side.is_none_or(|c| c == self.pos.side_to_move())
    }

    /// Answers `go`; false when stdout is gone.
    fn go(&mut self, s: &Settings) -> bool {
        if self.misbehaving(s) {
            match s.mode {
                Mode::Crash => std::process::exit(3),
                // Stuck: reads nothing more, not even `quit`.
                Mode::Hang => std::thread::sleep(Duration::from_secs(3600)),
                Mode::Late => std::thread::sleep(Duration::from_secs_f64(s.seconds.max(0.0))),
                Mode::Illegal => return out("bestmove 1a5e"),
                Mode::Garbage => {
                    let mut stdout = std::io::stdout().lock();
                    let junk = stdout.write_all(b"this is not USI at all \x01\xff\xfe\n").and_then(|_| stdout.flush());
                    drop(stdout);
                    return junk.is_ok() && out("bestmove xyzzy");
                }
                Mode::FalseWin => return out("bestmove win"),
                Mode::Good | Mode::NoUsiOk | Mode::NoStart => {}
            }
        }
        let Some(&m) = self.pos.legal_moves().first() else {
            return out("bestmove resign");
        };
        self.made += 1;
        let info = match s.score {
            Some(cp) => format!("info depth 1 score cp {cp} pv {m}"),
            None => format!("info depth 1 pv {m}"),
        };
        out(&info) && out(&format!("bestmove {m}"))
    }
}

/// The USI loop; the exit status.
fn play(s: &Settings) -> ExitCode {
    let mut game = Game { pos: Position::startpos(), made: 0 };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(cmd) = line.parse::<UsiCommand>() else { continue };
        let alive = match cmd {
            UsiCommand::Usi if s.mode == Mode::NoStart => {
                for i in 1..=8 {
                    note(&format!("fake: startup line {i}"));
                }
                return ExitCode::from(1);
            }
            UsiCommand::Usi if s.mode == Mode::NoUsiOk => true,
            UsiCommand::Usi => out(&format!("id name fake-{:?}", s.mode).to_lowercase()) && out("usiok"),
            UsiCommand::IsReady => out("readyok"),
            UsiCommand::UsiNewGame => {
                game.made = 0;
                note("fake: new game");
                true
            }
            UsiCommand::Position { start, moves } => match set_up(&start, &moves) {
                Ok(pos) => {
                    game.pos = pos;
                    true
                }
                Err(e) => {
                    note(&format!("fake: bad position: {e}"));
                    return ExitCode::from(2);
                }
            },
            UsiCommand::Go(_) => game.go(s),
            UsiCommand::Quit => break,
            _ => true,
        };
        if !alive {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let settings = match parse_args(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fake_engine: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = std::env::var_os("FAKE_PID_DIR") {
        let path = std::path::Path::new(&dir).join(std::process::id().to_string());
        if let Err(e) = std::fs::write(&path, format!("{:?}", settings.mode)) {
            eprintln!("fake_engine: {}: {e}", path.display());
        }
    }
    play(&settings)
}
