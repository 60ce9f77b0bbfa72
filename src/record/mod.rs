//! Game records independent of notation (psn.md, kif-csa.md): the [`GameRecord`] model, and
//! readers and writers for PSN (1998, Draft 1 and the GUI dialect), PSN2, KIF/KIFU, KI2, CSA and
//! plain USI lines.
//!
//! Readers stream: each yields one `Result<GameRecord, RecordError>` per game, reports a broken
//! game with its line and column and goes on with the next. Writers append one game at a time to
//! any `Write` and flush, so a crash loses at most the game in progress.
//!
//! Times are kept in milliseconds; the text formats store whole seconds, so a round trip keeps
//! times exactly when they are whole seconds (as match clocks report them after rounding).

mod builder;
pub mod csa;
mod detect;
mod error;
mod gui_lines;
mod kanji;
pub mod ki2;
pub mod kif;
mod kif_board;
mod kif_move;
pub mod notation;
pub mod psn;
pub mod psn2;
mod result_words;
mod text;
pub mod usi_line;

pub use detect::{Format, ParseFormatError, RecordWriter, detect_format, read_games};
pub use error::{RecordError, RecordErrorKind};
pub use result_words::{reason_from_id, reason_id};
pub use text::decode_text;

use crate::position::sfen::SfenError;
use crate::position::{GameResult, Handicap, Position};
use crate::types::Move;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// One of the sixteen standard starts (even or a handicap).
    Handicap(Handicap),
    /// Any other position, as canonical USI SFEN.
    Sfen(String),
}

impl Start {
    /// The start for an SFEN: a named start when it is one of the sixteen.
    pub fn from_sfen(sfen: &str) -> Result<Start, SfenError> {
        let pos = Position::from_sfen(sfen)?;
        let canonical = pos.to_sfen();
        Ok(match Handicap::from_start_sfen(&canonical) {
            Some(h) if canonical.ends_with(" 1") => Start::Handicap(h),
            _ => Start::Sfen(canonical),
        })
    }

    /// The start position.
    pub fn position(&self) -> Result<Position, SfenError> {
        match self {
            Start::Handicap(h) => Ok(Position::handicap(*h)),
            Start::Sfen(s) => Position::from_sfen(s),
        }
    }

    /// The start as canonical SFEN.
    pub fn sfen(&self) -> String {
        match self {
            Start::Handicap(h) => h.sfen().to_string(),
            Start::Sfen(s) => s.clone(),
        }
    }
}

impl Default for Start {
    fn default() -> Start {
        Start::Handicap(Handicap::Even)
    }
}

/// A score reported by an engine with its move, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many plies (negative: being mated).
    Mate(i32),
}

/// What an engine said about the move it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// Score from the mover's point of view.
    pub score: Option<Score>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Expected continuation (starting with the move played).
    pub pv: Vec<Move>,
}

impl EngineInfo {
    /// True if nothing is known.
    pub fn is_empty(&self) -> bool {
        self.score.is_none() && self.depth.is_none() && self.nodes.is_none() && self.pv.is_empty()
    }
}

/// One move of a game with what is known about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// Time used on this move in ms.
    pub time_ms: Option<u64>,
    /// The mover's total time used so far in ms (including this move).
    pub total_ms: Option<u64>,
    /// Engine data, if an engine played it.
    pub engine: EngineInfo,
    /// Comments about the move.
    pub comments: Vec<String>,
}

impl MoveRecord {
    /// A bare move.
    pub fn new(mv: Move) -> MoveRecord {
        MoveRecord { mv, time_ms: None, total_ms: None, engine: EngineInfo::default(), comments: Vec::new() }
    }
}

/// An alternative line: it replaces the moves of its parent line from `ply` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// 1-based ply of the variation's first move (counted from the game's first move).
    pub ply: usize,
    /// The line it branches from: `None` = the main line, `Some(i)` = variation `i` (earlier in
    /// the list).
    pub parent: Option<usize>,
    /// The moves.
    pub moves: Vec<MoveRecord>,
}

/// A game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Header tags in order, with the names hisha uses: `Event`, `Site`, `Date`, `Round`,
    /// `Black`, `White`, `BlackRank`, `WhiteRank`, `Opening`, `TimeControl`, `BlackTimeControl`,
    /// `WhiteTimeControl`, and any others as found.
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Start,
    /// Comments before the first move (the record summary).
    pub summary: Vec<String>,
    /// The main line.
    pub moves: Vec<MoveRecord>,
    /// Alternative lines.
    pub variations: Vec<Variation>,
    /// How the game ended, if it did.
    pub result: Option<GameResult>,
}

impl GameRecord {
    /// A record from a start and a list of moves.
    pub fn new(start: Start, moves: impl IntoIterator<Item = Move>) -> GameRecord {
        GameRecord { start, moves: moves.into_iter().map(MoveRecord::new).collect(), ..GameRecord::default() }
    }

    /// The value of tag `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The position after the main line (moves are assumed legal, as readers guarantee).
    pub fn final_position(&self) -> Result<Position, SfenError> {
        let mut pos = self.start.position()?;
        for m in &self.moves {
            pos.do_move(m.mv);
        }
        Ok(pos)
    }

    /// The moves of variation `i` preceded by the moves of the line it branches from.
    pub fn variation_line(&self, i: usize) -> Vec<Move> {
        let Some(v) = self.variations.get(i) else {
            return Vec::new();
        };
        let mut line = match v.parent {
            None => self.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            Some(p) if p < i => self.variation_line(p),
            Some(_) => Vec::new(),
        };
        line.truncate(v.ply.saturating_sub(1));
        line.extend(v.moves.iter().map(|m| m.mv));
        line
    }
}
