//! Record inputs as `convert`, `analyze` and `book` read them: a file or standard input (`-`),
//! its format detected, the games read one at a time; an input that gives no game says why
//! ([`NoGames`]), and counts are worded in the singular or the plural ([`counted`]).

use hisha::output_file;
use hisha::record::{Format, GameReader};
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// How an input is named in messages.
pub(super) fn shown(input: &str) -> &str {
    if input == "-" { "standard input" } else { input }
}

/// `n` and the noun counted: `1 game`, `2 games`, `0 games`.
pub(super) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Opens `input` (`-`: standard input) for reading; a folder is refused.
pub(super) fn open(input: &str) -> io::Result<Box<dyn BufRead>> {
    if input == "-" {
        return Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())));
    }
    if std::fs::metadata(input)?.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a folder"));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, std::fs::File::open(input)?)))
}

/// True when writing `path` would overwrite one of the inputs.
pub(super) fn is_an_input(path: &Path, inputs: &[String]) -> bool {
    inputs
        .iter()
        .any(|i| if i == "-" { output_file::stdin_is(path) } else { output_file::same_file(Path::new(i), path) })
}

/// Why an input gives no games, told before any game is read.
#[derive(Debug, thiserror::Error)]
pub(super) enum NoGames {
    /// It cannot be opened.
    #[error("{0}")]
    NotOpened(io::Error),
    /// It holds nothing but blank lines.
    #[error("empty, no games")]
    Empty,
    /// Reading it failed before its format could be told.
    #[error("cannot read: {0}")]
    ReadFailed(String),
    /// Its format is none hisha reads.
    #[error("not a record format hisha knows")]
    UnknownFormat,
}

impl NoGames {
    /// The reason in a summary's count (`1 empty input`).
    pub(super) fn reason(&self) -> &'static str {
        match self {
            NoGames::NotOpened(_) | NoGames::ReadFailed(_) => "file not readable",
            NoGames::Empty => "empty input",
            NoGames::UnknownFormat => "unknown format",
        }
    }
}

/// The games of `input` in `from`, or in the format detected from its content and name.
pub(super) fn games(input: &str, from: Option<Format>) -> Result<GameReader<Box<dyn BufRead>>, NoGames> {
    let reader = open(input).map_err(NoGames::NotOpened)?;
    let games = match from {
        Some(f) => GameReader::new(reader, f),
        None => GameReader::detect(reader, (input != "-").then_some(input)),
    };
    if games.is_blank() {
        Err(NoGames::Empty)
    } else if games.format().is_some() {
        // A read error after the format was told comes with the games before it.
        Ok(games)
    } else if let Some(e) = games.read_error() {
        Err(NoGames::ReadFailed(e.to_string()))
    } else {
        Err(NoGames::UnknownFormat)
    }
}
