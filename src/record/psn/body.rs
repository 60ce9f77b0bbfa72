//! The game text after the headers, read the same way by PSN and PSN2: comments (engine data,
//! hisha's result note), times, `Variation:N`, move numbers, terminal words and moves. What the
//! two dialects spell differently (their moves and terminal words, PSN's points results) is asked
//! of a [`Dialect`].

use super::tokens::{self as gui_lines, Token};
use crate::position::{GameResult, Position};
use crate::record::builder::Builder;
use crate::record::error::{RecordError, RecordErrorKind};
use crate::types::Move;

/// What PSN and PSN2 read differently in a game's text.
pub(super) trait Dialect {
    /// True for a word (its move number removed) that is neither a move nor a terminal word and
    /// is skipped (an empty word; PSN: a handicap placeholder `...`, a result such as `1-0`).
    fn skips(&mut self, word: &str) -> bool;
    /// The result a terminal word gives at the final position `pos`.
    fn terminal(&self, word: &str, pos: &Position) -> Option<GameResult>;
    /// The move `word` is in `b`'s position, the `ply`th of the game.
    fn read_move(&self, b: &Builder, word: &str, ply: usize) -> Result<Move, RecordErrorKind>;
    /// A comment after the game's end on the main line (not attached to any move).
    fn comment_after_end(&mut self, _b: &mut Builder, _text: &str) {}
}

/// What the body says beyond its moves.
pub(super) struct Body {
    /// The result of hisha's result note, if there is one.
    pub note: Option<GameResult>,
    /// A move line has a `(time / total)`: the GUI dialect, whose writers end a game with a
    /// terminal word (psn.md §5).
    pub timed: bool,
}

/// Reads the body lines into `b`.
pub(super) fn read(b: &mut Builder, body: &[(usize, &str)], dialect: &mut impl Dialect) -> Result<Body, RecordError> {
    let mut note = None;
    let mut timed = false;
    let mut ended = false;
    let mut just_ended = false;
    for tok in &gui_lines::tokens(body)? {
        let was_end = std::mem::replace(&mut just_ended, false);
        timed |= matches!(tok.token, Token::Time(_));
        match &tok.token {
            Token::Comment(text) => match crate::record::result_words::parse_note_with_time(text) {
                Some((r, time)) => {
                    note = Some(r);
                    if time.is_some() {
                        b.set_end_time(time);
                    }
                }
                None if !ended || !b.on_main_line() => gui_lines::attach_comment(b, text),
                None => dialect.comment_after_end(b, text),
            },
            Token::Time(t) if was_end => {
                if let Some((used, _)) = gui_lines::parse_times(t) {
                    b.set_end_time(Some(used));
                }
            }
            Token::Time(t) if !ended => gui_lines::attach_time(b, t),
            Token::Time(_) => {}
            Token::Variation(n) => {
                ended = false;
                b.start_variation(*n).map_err(|e| RecordError::syntax(tok.line, tok.column(), e))?;
            }
            Token::Word(word) => {
                let (number, word) = gui_lines::split_move_number(word);
                if dialect.skips(word) {
                    continue;
                }
                if let Some(r) = dialect.terminal(word, b.position()) {
                    b.set_result(r, None);
                    ended = true;
                    just_ended = true;
                    continue;
                }
                if ended && b.on_main_line() {
                    let what = format!("move {word:?} after the end of the game");
                    return Err(RecordError::syntax(tok.line, tok.column(), what));
                }
                let m = dialect
                    .read_move(b, word, b.ply() + 1)
                    .map_err(|kind| RecordError::new(tok.line, tok.column(), kind))?;
                if let Some(n) = number {
                    b.move_number(n);
                }
                b.push(m);
            }
        }
    }
    Ok(Body { note, timed })
}
