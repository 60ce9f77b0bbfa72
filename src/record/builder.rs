//! Building a [`GameRecord`] while reading: the current line (main line or a variation), the
//! position along it, where comments and times go, and the result. Shared by every reader.

use super::{GameRecord, MoveRecord, Start, Variation};
use crate::position::{GameResult, Position};
use crate::types::{Move, Square};

/// A record under construction.
pub(super) struct Builder {
    pub record: GameRecord,
    pos: Position,
    /// `None` while on the main line, `Some(i)` inside variation `i`.
    current: Option<usize>,
}

impl Builder {
    /// Starts a record at `start`.
    pub fn new(start: Start) -> Result<Builder, String> {
        let pos = start.position().map_err(|e| e.to_string())?;
        Ok(Builder { record: GameRecord { start, ..GameRecord::default() }, pos, current: None })
    }

    /// Replaces the start position (only before the first move).
    pub fn set_start(&mut self, start: Start) -> Result<(), String> {
        self.pos = start.position().map_err(|e| e.to_string())?;
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

    /// Plays a legal move on the current line.
    pub fn push(&mut self, m: Move) {
        self.pos.do_move(m);
        self.line_mut().push(MoveRecord::new(m));
    }

    /// The last move of the current line, if any.
    pub fn last_move_mut(&mut self) -> Option<&mut MoveRecord> {
        self.line_mut().last_mut()
    }

    /// Attaches a comment to the last move, or to the summary before the first move.
    pub fn comment(&mut self, text: String) {
        match (self.current, self.last_move_mut()) {
            (_, Some(m)) => m.comments.push(text),
            (None, None) => self.record.summary.push(text),
            (Some(_), None) => {}
        }
    }

    /// Starts a variation whose first move is ply `ply`, branching from the most recent line
    /// that reaches ply `ply - 1`.
    pub fn start_variation(&mut self, ply: usize) -> Result<(), String> {
        if ply == 0 {
            return Err("a variation starts at ply 1 or later".into());
        }
        let reaches = |len: usize| len + 1 >= ply;
        let n = self.record.variations.len();
        let parent = (0..n)
            .rev()
            .find(|&i| {
                let v = &self.record.variations[i];
                reaches(v.ply - 1 + v.moves.len()) && v.ply <= ply
            })
            .or_else(|| if reaches(self.record.moves.len()) { None } else { Some(usize::MAX) });
        if parent == Some(usize::MAX) {
            return Err(format!("no line reaches ply {} to branch from", ply - 1));
        }
        self.record.variations.push(Variation { ply, parent, moves: Vec::new() });
        let line = self.record.variation_line(n);
        let mut pos = self.record.start.position().map_err(|e| e.to_string())?;
        for m in line {
            pos.do_move(m);
        }
        self.pos = pos;
        self.current = Some(n);
        Ok(())
    }

    /// Records how the game ended (only the main line's end counts).
    pub fn set_result(&mut self, r: GameResult) {
        if self.current.is_none() {
            self.record.result = Some(r);
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
