//! Building a [`GameRecord`] while reading: the current line (main line or a variation), the
//! position along it, where comments and times go, the numbering of the file's move lines, and
//! the result. Shared by every reader.

use super::{GameRecord, MoveRecord, Start, Variation};
use crate::position::sfen::SfenError;
use crate::position::{GameResult, Position};
use crate::types::{Move, Square};

/// A record under construction.
pub(super) struct Builder {
    pub record: GameRecord,
    pos: Position,
    /// `None` while on the main line, `Some(i)` inside variation `i`.
    current: Option<usize>,
    /// The number the file writes on the game's first move, minus one (`Some` once seen). GUIs
    /// number moves from the start SFEN's move number, and variation numbers follow suit.
    number_offset: Option<usize>,
    /// The last thing read was a comment line, which the next one continues.
    comment_open: bool,
    /// Where the move before the last one went (what `同` in the last move's PV refers to).
    before_last_to: Option<Square>,
}

/// Why a record cannot be built as the reader asks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BuildError {
    /// The start position is no valid position.
    #[error("{0}")]
    BadStart(#[from] SfenError),
    /// A start position given after moves were read from the old one.
    #[error("a start position after the first move")]
    StartAfterMoves,
    /// A variation numbered before the game's first move.
    #[error("variation {0} starts before the game's first move")]
    VariationBeforeFirstMove(usize),
    /// A variation whose previous move no line reaches.
    #[error("no line reaches move {0} to branch from")]
    NoLineToBranchFrom(usize),
}

impl Builder {
    /// Starts a record at `start`.
    pub fn new(start: Start) -> Result<Builder, BuildError> {
        let pos = start.position()?;
        Ok(Builder {
            record: GameRecord { start, ..GameRecord::default() },
            pos,
            current: None,
            number_offset: None,
            comment_open: false,
            before_last_to: None,
        })
    }

    /// Replaces the start position; after the first move that is an error (the moves read were
    /// played from the old start).
    pub fn set_start(&mut self, start: Start) -> Result<(), BuildError> {
        if !self.record.moves.is_empty() || !self.record.variations.is_empty() {
            return Err(BuildError::StartAfterMoves);
        }
        self.pos = start.position()?;
        self.record.start = start;
        Ok(())
    }

    /// The position before the next move of the current line.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The number of moves played on the current line (so the next move is ply `ply() + 1`).
    pub fn ply(&self) -> usize {
        match self.current {
            None => self.record.moves.len(),
            Some(i) => self.record.variations[i].ply - 1 + self.record.variations[i].moves.len(),
        }
    }

    /// True while reading the main line.
    pub fn on_main_line(&self) -> bool {
        self.current.is_none()
    }

    /// Where the previous move went.
    pub fn last_to(&self) -> Option<Square> {
        self.pos.last_move().map(|m| m.to())
    }

    fn line_mut(&mut self) -> &mut Vec<MoveRecord> {
        match self.current {
            None => &mut self.record.moves,
            Some(i) => &mut self.record.variations[i].moves,
        }
    }

    /// Notes the number a file writes on the next move (before [`Builder::push`]); the first
    /// main-line number fixes how variation numbers are read.
    pub fn move_number(&mut self, written: usize) {
        if self.current.is_none() && self.record.moves.is_empty() && self.number_offset.is_none() {
            self.number_offset = Some(written.saturating_sub(1));
        }
    }

    /// Plays a legal move on the current line.
    pub fn push(&mut self, m: Move) {
        self.comment_open = false;
        self.before_last_to = self.last_to();
        self.pos.do_move(m);
        self.line_mut().push(MoveRecord::new(m));
    }

    /// The last move of the current line, if any.
    pub fn last_move_mut(&mut self) -> Option<&mut MoveRecord> {
        self.line_mut().last_mut()
    }

    /// Where the move before the last one went, and the last move's record (if the line has one).
    pub fn last_move_with_previous_to(&mut self) -> (Option<Square>, Option<&mut MoveRecord>) {
        let to = self.before_last_to;
        (to, self.last_move_mut())
    }

    /// The position after the last move (to be put back as it was) and that move's record.
    pub fn position_and_last_move(&mut self) -> (&mut Position, Option<&mut MoveRecord>) {
        let line = match self.current {
            None => &mut self.record.moves,
            Some(i) => &mut self.record.variations[i].moves,
        };
        (&mut self.pos, line.last_mut())
    }

    /// The comments of the last move, or the summary before the first move.
    fn comments_mut(&mut self) -> Option<&mut Vec<String>> {
        match self.current {
            None if self.record.moves.is_empty() => Some(&mut self.record.summary),
            _ => self.last_move_mut().map(|m| &mut m.comments),
        }
    }

    /// Attaches a comment to the last move, or to the summary before the first move.
    pub fn comment(&mut self, text: String) {
        self.comment_open = false;
        if let Some(c) = self.comments_mut() {
            c.push(text);
        }
    }

    /// Adds one line of a comment written a line at a time (KIF `*`, CSA `'*`): consecutive lines
    /// make one comment.
    pub fn comment_line(&mut self, text: &str) {
        let open = std::mem::replace(&mut self.comment_open, true);
        if let Some(c) = self.comments_mut() {
            match c.last_mut() {
                Some(last) if open => {
                    last.push('\n');
                    last.push_str(text);
                }
                _ => c.push(text.to_string()),
            }
        }
    }

    /// Starts a variation at the move the file numbers `written` (ply `written` minus the
    /// numbering offset), branching as [`GameRecord::branch_parent`] says.
    pub fn start_variation(&mut self, written: usize) -> Result<(), BuildError> {
        let ply = written
            .checked_sub(self.number_offset.unwrap_or(0))
            .filter(|&p| p >= 1)
            .ok_or(BuildError::VariationBeforeFirstMove(written))?;
        let n = self.record.variations.len();
        let parent = self.record.branch_parent(self.current, ply).ok_or(BuildError::NoLineToBranchFrom(written - 1))?;
        self.record.variations.push(Variation { ply, parent, moves: Vec::new() });
        let mut pos = self.record.start.position()?;
        for m in self.record.variation_line(n) {
            pos.do_move(m);
        }
        self.pos = pos;
        self.current = Some(n);
        self.comment_open = false;
        Ok(())
    }

    /// Records how the game ended (only the main line's end counts), with the time the side to
    /// move used before it, if the format says.
    pub fn set_result(&mut self, r: GameResult, time_ms: Option<u64>) {
        if self.current.is_none() {
            self.record.result = Some(r);
            self.set_end_time(time_ms);
        }
    }

    /// Records the time the side to move used before the end (main line only). Terminal lines
    /// always carry a time, so a time of 0 is taken as unknown.
    pub fn set_end_time(&mut self, time_ms: Option<u64>) {
        if self.current.is_none() {
            self.record.end_time_ms = time_ms.filter(|&t| t > 0);
        }
    }

    /// Sets a header tag.
    pub fn tag(&mut self, key: &str, value: &str) {
        self.record.set_tag(key, value);
    }

    /// The finished record.
    pub fn finish(self) -> GameRecord {
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::Builder;
    use crate::position::{Handicap, Position};
    use crate::record::{Format, RecordErrorKind, Start, read_games};

    fn first_error(text: &str, f: Format) -> Option<(usize, usize, RecordErrorKind)> {
        read_games(text.as_bytes(), f).into_iter().find_map(|g| g.err()).map(|e| (e.line, e.column, e.kind))
    }

    #[test]
    fn a_start_position_after_the_first_move_is_an_error() {
        // Found by fuzzing (fuzz/README.md): in CSA the moves before the `PI` and `+` lines were
        // kept and the start replaced under them, so the record's moves were illegal from its
        // start and `final_position` panicked.
        let csa = "+7776FU\nN+Joe\nPI\n+\n+6766FU\n";
        let (line, column, kind) = first_error(csa, Format::Csa).expect("an error");
        assert_eq!((line, column), (4, 1), "{kind:?}");
        assert_eq!(kind, RecordErrorKind::BadPosition("a start position after the first move".into()));
        let mut b = Builder::new(Start::default()).expect("the even start");
        let mut after = Position::startpos();
        let m = after.parse_usi_move("7g7f").expect("legal");
        after.do_move(m);
        b.push(m);
        assert!(b.set_start(Start::Handicap(Handicap::Lance)).is_err());
        assert_eq!((b.position(), &b.record.start), (&after, &Start::default()), "nothing changed");
    }
}
