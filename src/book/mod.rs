//! Opening books in the YaneuraOu text format (`#YANEURAOU-DB2016 1.00`): `sfen …` lines, each
//! followed by `move ponder value depth count` lines. Reading builds an index from the position's
//! key (its canonical SFEN without the move number, hashed; see `key.rs`) to the moves, so lookups
//! are a hash probe however large the book. This is the run-time book the engine reads; building
//! books from records and generating match openings are offline tools ([`crate::book_tools`]).

mod key;

use crate::position::Position;
use crate::types::{Move, UsiMove};
use rand::Rng;
use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The header line of the format.
pub(crate) const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The book hisha uses out of the box (`BookFile` = `builtin`), built by `hisha book build` from
/// `book/lines.psn` (see `book/README.md`).
pub const BUILTIN: &str = include_str!("../../book/standard.db");

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply, if any.
    pub ponder: Option<Move>,
    /// Evaluation in centipawns for the side to move.
    pub value: i32,
    /// Search depth of the evaluation.
    pub depth: i32,
    /// How often it was played (the weight).
    pub count: u64,
}

/// A position of the book with its moves (as written back).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    sfen: String,
    moves: Range<usize>,
}

/// A book in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    index: HashMap<u64, usize, key::Keys>,
    entries: Vec<Entry>,
    moves: Vec<BookMove>,
}

/// A book file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("book line {line}, column {column}: {reason}")]
pub struct BookError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) where the fault is.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// A book file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BookLoadError {
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a book.
    #[error("{}: {error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        error: BookError,
    },
}

/// How to choose among the moves of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The best value (then the most played).
    Best,
    /// At random, weighted by count.
    Weighted,
    /// Uniformly among the moves within `margin` centipawns of the best value.
    Random {
        /// Centipawns below the best still acceptable.
        margin: i32,
    },
}

fn parse_move(s: &str) -> Option<Move> {
    s.parse::<UsiMove>().ok().map(UsiMove::to_move)
}

impl PartialEq for Book {
    /// The same positions with the same moves (in any order of positions).
    fn eq(&self, o: &Book) -> bool {
        self.len() == o.len()
            && self.index.iter().all(|(k, &e)| {
                o.index
                    .get(k)
                    .is_some_and(|&f| self.moves[self.entries[e].moves.clone()] == o.moves[o.entries[f].moves.clone()])
            })
    }
}

impl Eq for Book {}

impl Book {
    /// Parses book text. A broken line is an error naming it (the engine then plays without the
    /// book and says so).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut b = Book::default();
        let mut current: Option<(String, u64)> = None;
        let mut pending: Vec<BookMove> = Vec::new();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            // The column of byte `at` of `raw`; `line` and its words are slices of `raw`.
            let column_at = |at: usize| raw.get(..at).map_or(1, |s| s.chars().count() + 1);
            let column_of = |word: &str| column_at((word.as_ptr() as usize).saturating_sub(raw.as_ptr() as usize));
            let err_at = |word: &str, reason: String| BookError { line: i + 1, column: column_of(word), reason };
            let err = |reason: String| err_at(line, reason);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(sfen) = line.strip_prefix("sfen ") {
                if let Some((s, k)) = current.take() {
                    b.push(s, k, std::mem::take(&mut pending));
                }
                let (k, s) = key::of_sfen(sfen).map_err(|(at, reason)| {
                    let at = (sfen.as_ptr() as usize - raw.as_ptr() as usize) + at;
                    BookError { line: i + 1, column: column_at(at), reason }
                })?;
                current = Some((s, k));
                continue;
            }
            if current.is_none() {
                return Err(err("a move line before any sfen line".into()));
            }
            let mut f = line.split_whitespace();
            let (Some(mv_text), Some(ponder)) = (f.next(), f.next()) else {
                return Err(err(format!("expected `move ponder value depth count`, got {line:?}")));
            };
            let mv = parse_move(mv_text).ok_or_else(|| err_at(mv_text, format!("bad move {mv_text:?}")))?;
            let ponder = if matches!(ponder, "none" | "None") {
                None
            } else {
                Some(parse_move(ponder).ok_or_else(|| err_at(ponder, format!("bad move {ponder:?}")))?)
            };
            let mut num = || -> Result<i64, BookError> {
                f.next().map_or(Ok(0), |s| s.parse::<i64>().map_err(|_| err_at(s, format!("bad number {s:?}"))))
            };
            let (value, depth, count) = (num()?, num()?, num()?);
            pending.push(BookMove {
                mv,
                ponder,
                value: value.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                depth: depth.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                count: count.max(0) as u64,
            });
        }
        if let Some((s, k)) = current.take() {
            b.push(s, k, pending);
        }
        Ok(b)
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> Result<Book, BookLoadError> {
        let path_buf = || path.to_path_buf();
        let text = std::fs::read_to_string(path).map_err(|source| BookLoadError::Read { path: path_buf(), source })?;
        Book::parse(&text).map_err(|error| BookLoadError::Parse { path: path_buf(), error })
    }

    fn push(&mut self, sfen: String, key: u64, mut moves: Vec<BookMove>) {
        let best_first = |a: &BookMove, b: &BookMove| b.value.cmp(&a.value).then(b.count.cmp(&a.count));
        moves.sort_by(best_first);
        match self.index.get(&key) {
            // A repeated position: its moves are merged (counts add up), best first again.
            Some(&e) => {
                let range = self.entries[e].moves.clone();
                let mut merged: Vec<BookMove> = self.moves[range].to_vec();
                for m in moves {
                    match merged.iter_mut().find(|x| x.mv == m.mv) {
                        Some(x) => x.count = x.count.saturating_add(m.count),
                        None => merged.push(m),
                    }
                }
                merged.sort_by(best_first);
                let start = self.moves.len();
                self.moves.extend(merged);
                self.entries[e].moves = start..self.moves.len();
            }
            None => {
                let start = self.moves.len();
                self.moves.extend(moves);
                self.index.insert(key, self.entries.len());
                self.entries.push(Entry { sfen, moves: start..self.moves.len() });
            }
        }
    }

    /// Adds the position of a canonical SFEN with its moves (the builder's way in).
    pub(crate) fn insert_sfen(&mut self, sfen: &str, moves: Vec<BookMove>) {
        if let Ok((k, s)) = key::of_sfen(sfen) {
            self.push(s, k, moves);
        }
    }

    /// Adds a position (canonical SFEN) with its moves.
    pub fn insert(&mut self, pos: &Position, moves: Vec<BookMove>) {
        self.push(pos.to_sfen(), key::of_position(pos), moves);
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The moves stored for `pos` (best first), legal or not.
    pub fn probe(&self, pos: &Position) -> &[BookMove] {
        match self.index.get(&key::of_position(pos)) {
            Some(&e) => &self.moves[self.entries[e].moves.clone()],
            None => &[],
        }
    }

    /// A legal book move for `pos` chosen by `pick`.
    pub fn choose(&self, pos: &Position, pick: Pick, rng: &mut impl Rng) -> Option<BookMove> {
        let moves: Vec<BookMove> = self.probe(pos).iter().copied().filter(|m| pos.is_legal(m.mv)).collect();
        let best = *moves.first()?;
        match pick {
            Pick::Best => Some(best),
            Pick::Weighted => {
                let total = moves.iter().fold(0u64, |sum, m| sum.saturating_add(m.count.max(1)));
                let mut r = rng.random_range(0..total);
                moves.into_iter().find(|m| {
                    let w = m.count.max(1);
                    if r < w {
                        return true;
                    }
                    r -= w;
                    false
                })
            }
            Pick::Random { margin } => {
                let ok: Vec<BookMove> =
                    moves.into_iter().filter(|m| m.value >= best.value.saturating_sub(margin)).collect();
                ok.get(rng.random_range(0..ok.len())).copied()
            }
        }
    }

    /// Writes the book (positions sorted by SFEN, as YaneuraOu writes it) and flushes.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{HEADER}")?;
        let mut order: Vec<&Entry> = self.entries.iter().collect();
        order.sort_by(|a, b| a.sfen.cmp(&b.sfen));
        for e in order {
            writeln!(out, "sfen {}", e.sfen)?;
            for m in &self.moves[e.moves.clone()] {
                let ponder = m.ponder.map_or("none".to_string(), |p| p.to_string());
                writeln!(out, "{} {ponder} {} {} {}", m.mv, m.value, m.depth, m.count)?;
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests;
