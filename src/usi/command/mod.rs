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

/// A line that is not a valid command; the column (1-based, in characters) is where the fault is:
/// the bad word, or one past the end of the line for a missing one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiError {
    /// An empty line.
    #[error("empty line")]
    Empty,
    /// The first word is not a command.
    #[error("column {column}: unknown command {word:?}")]
    Unknown {
        /// The word (at most 40 characters of it).
        word: String,
        /// Its column.
        column: usize,
    },
    /// A command with wrong or missing arguments.
    #[error("column {column}: {command}: {reason}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: String,
        /// Where.
        column: usize,
    },
}

impl UsiError {
    /// Where the fault is (`None` for an empty line).
    pub fn column(&self) -> Option<usize> {
        match self {
            UsiError::Empty => None,
            UsiError::Unknown { column, .. } | UsiError::Malformed { column, .. } => Some(*column),
        }
    }
}

/// A command line, to say where its words are.
#[derive(Clone, Copy)]
struct Line<'a>(&'a str);

impl<'a> Line<'a> {
    /// The byte offset of `word`, a word split from this line; `None` (a missing word) is the end.
    fn offset(self, word: Option<&str>) -> usize {
        word.and_then(|w| (w.as_ptr() as usize).checked_sub(self.0.as_ptr() as usize))
            .filter(|&at| at <= self.0.len())
            .unwrap_or(self.0.len())
    }

    /// The column of `word`, a word split from this line; `None` (a missing word) is one past the end.
    fn column(self, word: Option<&str>) -> usize {
        self.0.get(..self.offset(word)).unwrap_or(self.0).chars().count() + 1
    }

    /// The line as written from `word` (a word split from it; `None`: nothing) to its end, without
    /// the blanks at the end.
    fn text_from(self, word: Option<&str>) -> &'a str {
        self.0.get(self.offset(word)..).unwrap_or("").trim_end()
    }

    /// An error about `word` (`None`: missing at the end) in `command`.
    fn malformed(self, command: &'static str, word: Option<&str>, reason: impl Into<String>) -> UsiError {
        UsiError::Malformed { command, reason: reason.into(), column: self.column(word) }
    }

    /// The number `value` after `key`.
    fn number<T: FromStr>(self, command: &'static str, key: &str, value: Option<&str>) -> Result<T, UsiError> {
        let v = value.ok_or_else(|| self.malformed(command, None, format!("{key} needs a number")))?;
        v.parse().map_err(|_| self.malformed(command, Some(v), format!("{key}: {v:?} is not a number")))
    }
}

fn parse_setoption(line: Line, rest: &[&str]) -> Result<UsiCommand, UsiError> {
    if rest.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) {
        return Err(line.malformed("setoption", rest.first().copied(), "expected `setoption name <id> [value <x>]`"));
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    // The value is the rest of the line as written: a `filename` keeps its runs of blanks and its
    // full-width spaces (U+3000, common in Japanese folder names), which splitting into words
    // would turn into single ASCII spaces.
    let (name_words, value) = match value_at {
        Some(i) => (&rest[..i], Some(line.text_from(rest.get(i + 1).copied()).to_string())),
        None => (rest, None),
    };
    if name_words.is_empty() {
        return Err(line.malformed("setoption", value_at.map(|i| rest[i]), "missing option name"));
    }
    Ok(UsiCommand::SetOption { name: name_words.join(" "), value })
}

fn parse_position(line: Line, rest: &[&str]) -> Result<UsiCommand, UsiError> {
    let moves_at = rest.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let start = match head {
        ["startpos"] => StartPosition::Startpos,
        ["sfen", fields @ ..] if (3..=4).contains(&fields.len()) => StartPosition::Sfen(fields.join(" ")),
        [sfen @ "sfen", fields @ ..] => {
            let reason = format!("sfen needs 3 or 4 fields, got {}", fields.len());
            return Err(line.malformed("position", Some(sfen), reason));
        }
        [] => return Err(line.malformed("position", rest.first().copied(), "expected `startpos` or `sfen …`")),
        [w, ..] => {
            return Err(line.malformed("position", Some(w), format!("expected `startpos` or `sfen`, got {w:?}")));
        }
    };
    Ok(UsiCommand::Position { start, moves })
}

fn parse_go(line: Line, rest: &[&str]) -> Result<UsiCommand, UsiError> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let arg = rest.get(i + 1).copied();
        let mut used = 2;
        match key {
            "ponder" => (g.ponder, used) = (true, 1),
            "infinite" => (g.infinite, used) = (true, 1),
            "btime" => g.btime = Some(line.number("go", key, arg)?),
            "wtime" => g.wtime = Some(line.number("go", key, arg)?),
            "byoyomi" => g.byoyomi = Some(line.number("go", key, arg)?),
            "binc" => g.binc = Some(line.number("go", key, arg)?),
            "winc" => g.winc = Some(line.number("go", key, arg)?),
            "nodes" => g.nodes = Some(line.number("go", key, arg)?),
            "depth" => g.depth = Some(line.number("go", key, arg)?),
            "movetime" => g.movetime = Some(line.number("go", key, arg)?),
            "movestogo" => {
                let _: u64 = line.number("go", key, arg)?;
            }
            "mate" => match arg {
                None => (g.mate, used) = (Some(MateLimit::Infinite), 1),
                Some("infinite") => g.mate = Some(MateLimit::Infinite),
                Some(_) => g.mate = Some(MateLimit::Millis(line.number("go", key, arg)?)),
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
            "setoption" => parse_setoption(Line(line), rest),
            "usinewgame" => Ok(UsiCommand::UsiNewGame),
            "position" => parse_position(Line(line), rest),
            "go" => parse_go(Line(line), rest),
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
            _ => Err(UsiError::Unknown { word: cmd.chars().take(40).collect(), column: Line(line).column(Some(cmd)) }),
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
mod tests;
