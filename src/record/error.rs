//! Errors of record readers: what went wrong, at which line and column (1-based); and their
//! warnings about games they could read.

use super::GameRecord;
use crate::position::IllegalMoveKind;
use crate::types::Move;
use std::fmt;

/// What is wrong in a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// Text that does not follow the format.
    Syntax(String),
    /// A start position that is not legal.
    BadPosition(String),
    /// A move that is not legal in its position.
    IllegalMove {
        /// 1-based ply of the move in the game.
        ply: usize,
        /// The move as written.
        text: String,
        /// The rule it breaks (when the move could be identified).
        rule: Option<IllegalMoveKind>,
    },
    /// A move that matches several legal moves.
    Ambiguous {
        /// 1-based ply of the move in the game.
        ply: usize,
        /// The move as written.
        text: String,
        /// The legal moves it could mean (USI text).
        candidates: Vec<String>,
    },
    /// The input could not be read.
    Io(String),
}

impl RecordErrorKind {
    /// The move a notation names when `found` holds the legal moves that match it (the
    /// `ply`th, written `text`): exactly one is the move, none is `illegal()`, several are
    /// ambiguous.
    pub(crate) fn one_move(
        found: &[Move],
        ply: usize,
        text: &str,
        illegal: impl FnOnce() -> RecordErrorKind,
    ) -> Result<Move, RecordErrorKind> {
        match found {
            [m] => Ok(*m),
            [] => Err(illegal()),
            many => Err(RecordErrorKind::Ambiguous {
                ply,
                text: text.to_string(),
                candidates: many.iter().map(|m| m.to_string()).collect(),
            }),
        }
    }
}

/// A record that could not be read, with its place in the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
    /// The readable start of the game, when it has a move: the moves before the error, the error
    /// as a comment, and an unfinished result unless the game had ended before the error.
    pub partial: Option<Box<GameRecord>>,
}

impl RecordError {
    /// An error at `line`, `column`.
    pub fn new(line: usize, column: usize, kind: RecordErrorKind) -> RecordError {
        RecordError { line, column, kind, partial: None }
    }

    /// A syntax error at `line`, `column`.
    pub fn syntax(line: usize, column: usize, what: impl fmt::Display) -> RecordError {
        RecordError::new(line, column, RecordErrorKind::Syntax(what.to_string()))
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            RecordErrorKind::Syntax(s) => f.write_str(s),
            RecordErrorKind::BadPosition(s) => write!(f, "bad start position: {s}"),
            RecordErrorKind::IllegalMove { ply, text, rule: Some(r) } => {
                write!(f, "ply {ply}: illegal move {text}: {r}")
            }
            RecordErrorKind::IllegalMove { ply, text, rule: None } => {
                write!(f, "ply {ply}: illegal move {text}: no legal move matches")
            }
            RecordErrorKind::Ambiguous { ply, text, candidates } => {
                write!(f, "ply {ply}: ambiguous move {text}: could be {}", candidates.join(", "))
            }
            RecordErrorKind::Io(e) => write!(f, "cannot read: {e}"),
        }
    }
}

/// Something a reader says about a game it read whole: what the text leaves unknown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct RecordWarning {
    /// The 1-based line it is about.
    pub line: usize,
    /// What.
    pub kind: RecordWarningKind,
}

/// What a [`RecordWarning`] says.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordWarningKind {
    /// The game's text stops without an ending (no terminal move, result word or `まで` line):
    /// the game was unfinished when written, or the file was cut (a crashed match, a partial
    /// download). Its result is left unknown; `claimed` is a result the text states elsewhere
    /// but that its moves do not bear out (a GUI-dialect PSN `[Result]` header), not taken.
    #[error(
        "the game stops without an ending (no terminal move or result line): its result is left unknown \
         (unfinished, or the file was cut){}",
        claimed.as_ref().map_or(String::new(), |c| format!("; its [Result \"{c}\"] header is not taken \
         (PSN with [SFEN] or move times writes the ending after the moves)"))
    )]
    NoEnding {
        /// The result the text claims without an ending to bear it out.
        claimed: Option<String>,
    },
}
