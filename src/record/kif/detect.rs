//! How KIF and KI2 text is recognised, and where their games start: at a header line after the
//! moves of the previous game.

use super::ki2;
use super::parse::{is_header, is_move_line};
use crate::record::Format;
use crate::record::boundary::{Cut, GameBoundaries, Sample};

/// KI2 when a line starts with a move mark (`▲`, `△`, `☗`, `☖`); KIF when the text has a KIF
/// header (`手合割`, `手数----`, `先手：`, `後手：`) or a first move line such as `1 ７六歩(77)`.
pub(crate) fn sniff(sample: &Sample) -> Option<Format> {
    let text = sample.text();
    let kif_like =
        text.contains("手合割") || text.contains("手数----") || text.contains("先手：") || text.contains("後手：");
    if text.lines().any(ki2::is_move_line) {
        Some(Format::Ki2)
    } else if kif_like || text.lines().any(|l| l.trim_start().starts_with('1') && l.contains('(') && l.contains('歩'))
    {
        Some(Format::Kif)
    } else {
        None
    }
}

/// The game boundaries of KIF and KIFU.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KifBoundaries {
    /// The current game has a move line.
    seen_move: bool,
}

impl GameBoundaries for KifBoundaries {
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        // Some writers put 終了日時 (end time) after the moves; it belongs to that game.
        let starts = self.seen_move && is_header(line) && !line.starts_with("まで") && !line.starts_with("終了日時");
        if starts {
            self.seen_move = false;
        }
        self.seen_move |= is_move_line(line);
        (if starts { Cut::Starts } else { Cut::Line }, !line.trim().is_empty())
    }
}

/// The game boundaries of KI2 and KI2U.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ki2Boundaries {
    /// The current game has a move line.
    seen_move: bool,
}

impl GameBoundaries for Ki2Boundaries {
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        let is_move = ki2::is_move_line(line);
        let starts = self.seen_move && !is_move && is_header(line);
        if starts {
            self.seen_move = false;
        }
        self.seen_move |= is_move;
        (if starts { Cut::Starts } else { Cut::Line }, !line.trim().is_empty())
    }
}
