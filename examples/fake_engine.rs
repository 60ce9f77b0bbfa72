//! A misbehaving USI engine for the `hisha match` tests (`tests/arena.rs`, `tests/arena_match.rs`),
//! and a tunable one for the `hisha tune` test (`tests/tune.rs`), built by `cargo test` (the tests
//! build it themselves when run alone), so that those tests need nothing outside cargo.
//!
//! ```text
//! fake_engine MODE [PLIES] [SIDE] [SECONDS] [SCORE]
//! fake_engine tunable OPTIMUM…
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
//! | `tunable`  | plays well or randomly by its options (below); takes no other argument  |
//!
//! `tunable` declares one `spin` option per OPTIMUM (up to 4), `P1`, `P2` … (0 to 100, default
//! 50), whose secret best values are the OPTIMUMs. With d the distance of the options from them
//! divided by 100 (Euclidean), each move is a random legal move with probability min(1, d), else
//! the best move at one ply (a mate if there is one, else the best by hisha's linear evaluation);
//! it resigns when that move leaves it [`RESIGN_CP`] behind. Its coin is a hash of the position
//! and the options, so that a game between two fixed settings repeats.
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
                     [PLIES] [black|white|any] [SECONDS] [SCORE]\n       fake_engine tunable OPTIMUM...";

/// The most options of `tunable`.
const MAX_TUNABLE: usize = 4;

/// `tunable` resigns when its best move leaves it this far behind (centipawns).
const RESIGN_CP: i32 = 2500;

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
    Tunable,
}

/// The command-line settings.
#[derive(Clone, Debug)]
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
    /// `tunable`: the best value of each option.
    optimum: Vec<i64>,
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
        Some("tunable") => return tunable_args(&args[1..]),
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
        optimum: Vec::new(),
    })
}

/// The settings of `tunable OPTIMUM…`.
fn tunable_args(optimum: &[String]) -> Result<Settings, String> {
    if optimum.is_empty() || optimum.len() > MAX_TUNABLE {
        return Err(format!("tunable takes 1 to {MAX_TUNABLE} optimums"));
    }
    let optimum = (0..optimum.len())
        .map(|i| {
            number(optimum, i, "OPTIMUM", 0).and_then(|v| {
                if (0..=100).contains(&v) { Ok(v) } else { Err(format!("OPTIMUM {v} is outside 0..100")) }
            })
        })
        .collect::<Result<Vec<i64>, String>>()?;
    Ok(Settings { mode: Mode::Tunable, plies: 0, side: None, seconds: 0.0, score: None, optimum })
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
    /// `tunable`: the values of its options `P1`, `P2` ….
    options: Vec<i64>,
}

/// SplitMix64: a well-mixed 64-bit hash of `x`.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Game {
    fn misbehaving(&self, s: &Settings) -> bool {
        self.made >= s.plies && s.mode != Mode::Good && s.side.is_none_or(|c| c == self.pos.side_to_move())
    }

    /// The chance of a random move with the options as they are: their distance from the
    /// optimum over 100, at most 1.
    fn random_chance(&self, s: &Settings) -> f64 {
        let squares: i64 = self.options.iter().zip(&s.optimum).map(|(v, o)| (v - o) * (v - o)).sum();
        ((squares as f64).sqrt() / 100.0).min(1.0)
    }

    /// The best move at one ply and its score for the side to move: a mate, else the best by
    /// the linear evaluation.
    fn best_move(&mut self) -> Option<(hisha::Move, i32)> {
        let moves = self.pos.legal_moves();
        let mut best: Option<(hisha::Move, i32)> = None;
        for &m in moves.iter() {
            self.pos.do_move(m);
            let score = if self.pos.has_legal_move() { -hisha::eval::evaluate(&self.pos) } else { 30_000 };
            self.pos.undo_move();
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((m, score));
            }
        }
        best
    }

    /// Answers `go` in `tunable` mode; false when stdout is gone.
    fn go_tunable(&mut self, s: &Settings) -> bool {
        let Some((good, score)) = self.best_move() else {
            return out("bestmove resign");
        };
        if score <= -RESIGN_CP {
            return out("bestmove resign");
        }
        let seed = self.options.iter().fold(self.pos.key(), |h, &v| mix(h ^ v as u64));
        let coin = mix(seed) as f64 / u64::MAX as f64;
        let moves = self.pos.legal_moves();
        let m = if coin < self.random_chance(s) { moves[(mix(seed ^ 1) % moves.len() as u64) as usize] } else { good };
        out(&format!("info depth 1 score cp {score} pv {m}")) && out(&format!("bestmove {m}"))
    }

    /// Answers `go`; false when stdout is gone.
    fn go(&mut self, s: &Settings) -> bool {
        if s.mode == Mode::Tunable {
            return self.go_tunable(s);
        }
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
                Mode::Good | Mode::NoUsiOk | Mode::NoStart | Mode::Tunable => {}
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
    let mut game = Game { pos: Position::startpos(), made: 0, options: vec![50; s.optimum.len()] };
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
            UsiCommand::Usi => {
                out(&format!("id name fake-{:?}", s.mode).to_lowercase())
                    && (1..=s.optimum.len())
                        .all(|i| out(&format!("option name P{i} type spin default 50 min 0 max 100")))
                    && out("usiok")
            }
            UsiCommand::SetOption { name, value } if s.mode == Mode::Tunable => {
                let slot = name.strip_prefix('P').and_then(|i| i.parse::<usize>().ok()).and_then(|i| i.checked_sub(1));
                match (slot.and_then(|i| game.options.get_mut(i)), value.and_then(|v| v.trim().parse().ok())) {
                    (Some(o), Some(v)) => *o = i64::clamp(v, 0, 100),
                    _ => note(&format!("fake: no option {name} of that value")),
                }
                true
            }
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
