//! The readable start of a broken game. When a game cannot be read (an illegal or unreadable move
//! late on), the text before the error — up to its column, else up to its line — is read again;
//! if that gives at least one move, the error carries it ([`super::RecordError::partial`]) with
//! the error as a comment and, unless it had already ended before the error, an unfinished
//! (`中断`) result. `hisha convert --keep-partial` writes it.

use super::error::{RecordError, RecordErrorKind};
use super::{GameRecord, text};
use crate::position::{GameResult, ResultReason, Winner};

/// The byte offsets in `game` where line `index` (0-based) starts and where its `column`
/// (1-based, in characters) is.
fn offsets(game: &str, index: usize, column: usize) -> Option<(usize, usize)> {
    let mut lines = text::lines(game);
    let mut span = None;
    for _ in 0..=index {
        span = lines.next_span();
    }
    let (start, end, _) = span?;
    let line = &game[start..end];
    let at = line.char_indices().nth(column.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    Some((start, start + at))
}

/// Adds the readable start of `game` (its first line is line `first_line` of the file) to `e`,
/// read with `parse`.
pub(super) fn attach(
    mut e: RecordError,
    game: &str,
    first_line: usize,
    parse: impl Fn(&str) -> Result<GameRecord, RecordError>,
) -> RecordError {
    if matches!(e.kind, RecordErrorKind::Io(_)) || e.line < first_line {
        return e;
    }
    let Some((line_start, at)) = offsets(game, e.line - first_line, e.column) else { return e };
    // Cut at the column (formats with several moves on a line); if what is left of the line
    // does not read on its own (a move number without its move), cut before the line.
    let read = parse(&game[..at]).or_else(|_| parse(&game[..line_start]));
    if let Ok(mut rec) = read {
        // A variation cut before its first move is no variation (only the last can be).
        if rec.variations.last().is_some_and(|v| v.moves.is_empty()) {
            rec.variations.pop();
        }
        if !rec.moves.is_empty() {
            let comment = format!("hisha: the record breaks off here, the rest is unreadable ({e})");
            if rec.result.is_none() && rec.variations.is_empty() {
                if let Some(last) = rec.moves.last_mut() {
                    last.comments.push(comment);
                }
                rec.result = Some(GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt });
            } else {
                rec.summary.push(comment);
            }
            e.partial = Some(Box::new(rec));
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_columns_in_characters() {
        let game = "先手：a\n   1 ７六歩(77)\n";
        assert_eq!(offsets(game, 1, 6), Some((11, 16)));
        assert_eq!(offsets(game, 1, 7), Some((11, 19)), "after the full-width ７");
        assert_eq!(offsets(game, 1, 99), Some((11, game.len() - 1)), "past the end: the line's end");
        assert_eq!(offsets(game, 5, 1), None);
    }
}
