//! GUI → engine commands (usi.md §3): parsed from a line and printed back, so that the engine
//! reads them and the match runner writes them with the same type.
//!
//! Parsing is tolerant where the GUIs differ (CR/LF, runs of blanks, `position startpos` with or
//! without `moves`, bare `gameover`) and strict where a wrong guess would corrupt state (a
//! non-number where a number belongs is an error naming the token).

use std::fmt;
use std::str::FromStr;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`.
    Startpos,
    /// `sfen <board> <side> <hand> [<ply>]` (the four fields as given).
    Sfen(String),
}

/// The result word of `gameover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOverResult {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw`.
    Draw,
}

/// The time limit of `go mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    /// `go mate <ms>`.
    Millis(u64),
    /// `go mate infinite` (or a bare `go mate`).
    Infinite,
}

/// The parameters of `go` (usi.md §3.1); times in ms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `ponder`.
    pub ponder: bool,
    /// `btime`.
    pub btime: Option<u64>,
    /// `wtime`.
    pub wtime: Option<u64>,
    /// `byoyomi`.
    pub byoyomi: Option<u64>,
    /// `binc`.
    pub binc: Option<u64>,
    /// `winc`.
    pub winc: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `mate <ms>|infinite`: a tsume search instead of a game search.
    pub mate: Option<MateLimit>,
    /// `searchmoves …` (USI moves, syntax unchecked).
    pub searchmoves: Vec<String>,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiCommand {
    /// `usi`.
    Usi,
    /// `isready`.
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// Option name (may contain spaces when another engine declared it so).
        name: String,
        /// Value text, absent for buttons.
        value: Option<String>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position … [moves …]`.
    Position {
        /// The start.
        start: StartPosition,
        /// The moves as written (legality is the engine's business).
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `gameover [win|lose|draw]` (cshogi sends a bare `gameover`).
    GameOver(Option<GameOverResult>),
    /// `quit`.
    Quit,
    /// `debug [on|off]` (draft only; accepted and ignored).
    Debug,
}

/// A line that is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiError {
    /// An empty line.
    #[error("empty line")]
    Empty,
    /// The first word is not a command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// A command with wrong or missing arguments.
    #[error("{command}: {reason}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn malformed(command: &'static str, reason: impl Into<String>) -> UsiError {
    UsiError::Malformed { command, reason: reason.into() }
}

fn number<T: FromStr>(command: &'static str, key: &str, value: Option<&str>) -> Result<T, UsiError> {
    let v = value.ok_or_else(|| malformed(command, format!("{key} needs a number")))?;
    v.parse().map_err(|_| malformed(command, format!("{key}: {v:?} is not a number")))
}

fn parse_setoption(rest: &[&str]) -> Result<UsiCommand, UsiError> {
    if rest.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) {
        return Err(malformed("setoption", "expected `setoption name <id> [value <x>]`"));
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name_words, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name_words.is_empty() {
        return Err(malformed("setoption", "missing option name"));
    }
    Ok(UsiCommand::SetOption { name: name_words.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<UsiCommand, UsiError> {
    let moves_at = rest.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let start = match head {
        ["startpos"] => StartPosition::Startpos,
        ["sfen", fields @ ..] if (3..=4).contains(&fields.len()) => StartPosition::Sfen(fields.join(" ")),
        ["sfen", fields @ ..] => {
            return Err(malformed("position", format!("sfen needs 3 or 4 fields, got {}", fields.len())));
        }
        [] => return Err(malformed("position", "expected `startpos` or `sfen …`")),
        [w, ..] => {
            return Err(malformed("position", format!("expected `startpos` or `sfen`, got {w:?}")));
        }
    };
    Ok(UsiCommand::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<UsiCommand, UsiError> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let arg = rest.get(i + 1).copied();
        let mut used = 2;
        match key {
            "ponder" => (g.ponder, used) = (true, 1),
            "infinite" => (g.infinite, used) = (true, 1),
            "btime" => g.btime = Some(number("go", key, arg)?),
            "wtime" => g.wtime = Some(number("go", key, arg)?),
            "byoyomi" => g.byoyomi = Some(number("go", key, arg)?),
            "binc" => g.binc = Some(number("go", key, arg)?),
            "winc" => g.winc = Some(number("go", key, arg)?),
            "nodes" => g.nodes = Some(number("go", key, arg)?),
            "depth" => g.depth = Some(number("go", key, arg)?),
            "movetime" => g.movetime = Some(number("go", key, arg)?),
            "movestogo" => {
                let _: u64 = number("go", key, arg)?;
            }
            "mate" => match arg {
                None => (g.mate, used) = (Some(MateLimit::Infinite), 1),
                Some("infinite") => g.mate = Some(MateLimit::Infinite),
                Some(_) => g.mate = Some(MateLimit::Millis(number("go", key, arg)?)),
            },
            "searchmoves" => {
                g.searchmoves = rest[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            // usi.md §1: skip an unknown token and go on.
            _ => used = 1,
        }
        i += used;
    }
    Ok(UsiCommand::Go(g))
}

impl FromStr for UsiCommand {
    type Err = UsiError;
    fn from_str(line: &str) -> Result<UsiCommand, UsiError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Err(UsiError::Empty);
        };
        match cmd {
            "usi" => Ok(UsiCommand::Usi),
            "isready" => Ok(UsiCommand::IsReady),
            "setoption" => parse_setoption(rest),
            "usinewgame" => Ok(UsiCommand::UsiNewGame),
            "position" => parse_position(rest),
            "go" => parse_go(rest),
            "stop" => Ok(UsiCommand::Stop),
            "ponderhit" => Ok(UsiCommand::PonderHit),
            "gameover" => Ok(UsiCommand::GameOver(match rest.first().copied() {
                Some("win") => Some(GameOverResult::Win),
                Some("lose") => Some(GameOverResult::Lose),
                Some("draw") => Some(GameOverResult::Draw),
                _ => None,
            })),
            "quit" => Ok(UsiCommand::Quit),
            "debug" => Ok(UsiCommand::Debug),
            _ => Err(UsiError::Unknown(cmd.chars().take(40).collect())),
        }
    }
}

impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if let Some(m) = self.mate {
            return match m {
                MateLimit::Millis(ms) => write!(f, " mate {ms}"),
                MateLimit::Infinite => f.write_str(" mate infinite"),
            };
        }
        let fields = [
            ("btime", self.btime),
            ("wtime", self.wtime),
            ("byoyomi", self.byoyomi),
            ("binc", self.binc),
            ("winc", self.winc),
            ("nodes", self.nodes),
            ("depth", self.depth.map(u64::from)),
            ("movetime", self.movetime),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for UsiCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiCommand::Usi => f.write_str("usi"),
            UsiCommand::IsReady => f.write_str("isready"),
            UsiCommand::SetOption { name, value: Some(v) } => write!(f, "setoption name {name} value {v}"),
            UsiCommand::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            UsiCommand::UsiNewGame => f.write_str("usinewgame"),
            UsiCommand::Position { start, moves } => {
                match start {
                    StartPosition::Startpos => f.write_str("position startpos")?,
                    StartPosition::Sfen(s) => write!(f, "position sfen {s}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            UsiCommand::Go(g) => g.fmt(f),
            UsiCommand::Stop => f.write_str("stop"),
            UsiCommand::PonderHit => f.write_str("ponderhit"),
            UsiCommand::GameOver(None) => f.write_str("gameover"),
            UsiCommand::GameOver(Some(r)) => write!(
                f,
                "gameover {}",
                match r {
                    GameOverResult::Win => "win",
                    GameOverResult::Lose => "lose",
                    GameOverResult::Draw => "draw",
                }
            ),
            UsiCommand::Quit => f.write_str("quit"),
            UsiCommand::Debug => f.write_str("debug"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<UsiCommand, UsiError> {
        s.parse()
    }

    #[test]
    fn round_trips() {
        for line in [
            "usi",
            "isready",
            "setoption name USI_Hash value 256",
            "setoption name Skill Level value 20",
            "setoption name ClearHash",
            "usinewgame",
            "position startpos",
            "position startpos moves 7g7f 3c3d",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
            "go btime 600000 wtime 600000 byoyomi 10000",
            "go ponder btime 1000 wtime 2000 binc 500 winc 500",
            "go infinite",
            "go mate 60000",
            "go mate infinite",
            "go nodes 10000",
            "go depth 7",
            "go movetime 500",
            "stop",
            "ponderhit",
            "gameover win",
            "gameover",
            "quit",
        ] {
            let c = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(c.to_string(), line);
        }
    }

    #[test]
    fn tolerant_forms() {
        assert_eq!(parse("position startpos moves"), parse("position startpos"));
        assert_eq!(parse("  position   startpos\tmoves 7g7f\r"), parse("position startpos moves 7g7f"));
        assert_eq!(
            parse("go mate"),
            Ok(UsiCommand::Go(GoParams { mate: Some(MateLimit::Infinite), ..GoParams::default() }))
        );
        assert_eq!(
            parse("go btime 0 wtime 0 frobnicate byoyomi 1000").map(|c| c.to_string()),
            Ok("go btime 0 wtime 0 byoyomi 1000".into())
        );
        assert_eq!(parse("gameover abort"), Ok(UsiCommand::GameOver(None)));
        assert_eq!(
            parse("position sfen 4k4/9/9/9/9/9/9/9/4K4 b -").map(|c| c.to_string()),
            Ok("position sfen 4k4/9/9/9/9/9/9/9/4K4 b -".into())
        );
        assert!(matches!(parse("SetOption name x"), Err(UsiError::Unknown(_))), "commands are case-sensitive");
        assert_eq!(
            parse("setoption NAME usi_hash VALUE 16"),
            Ok(UsiCommand::SetOption { name: "usi_hash".into(), value: Some("16".into()) })
        );
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(parse(""), Err(UsiError::Empty));
        assert_eq!(parse("hello world"), Err(UsiError::Unknown("hello".into())));
        assert_eq!(parse("go btime ten").map_err(|e| e.to_string()), Err("go: btime: \"ten\" is not a number".into()));
        assert!(parse("go depth").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position sfen 4k4/9/9 b").is_err());
        assert!(parse("position fen x").is_err());
        assert!(parse("setoption value 3").is_err());
    }
}
