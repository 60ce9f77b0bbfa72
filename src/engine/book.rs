//! The engine's opening book: loaded when the engine is prepared (reloaded only when its source or
//! the file's modification time changed), and asked for a move before each search.

use super::settings::{BookSettings, BookSource};
use crate::book::{BUILTIN, Book, BookLoadError, BookMove};
use crate::position::Position;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::SystemTime;

/// A move from the book, with the position's other book moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BookChoice {
    /// The move to play.
    pub(crate) chosen: BookMove,
    /// Every legal book move of the position, as the book lists them (best first), the chosen one
    /// among them.
    pub(crate) candidates: Vec<BookMove>,
}

/// The book in use and where it was loaded from.
pub(crate) struct EngineBook {
    book: Option<Book>,
    /// The source last loaded, with the file's modification time then.
    loaded: Option<(BookSource, Option<SystemTime>)>,
    rng: StdRng,
}

impl EngineBook {
    /// No book yet, with a randomly seeded choice.
    pub(crate) fn new() -> EngineBook {
        EngineBook { book: None, loaded: None, rng: StdRng::from_rng(&mut rand::rng()) }
    }

    /// Loads the book of `source` unless it is the one loaded and unchanged. A book that cannot
    /// be read is an error, and the engine plays on without one (the error is given once per
    /// change of source or file).
    pub(crate) fn load(&mut self, source: &BookSource) -> Result<(), BookLoadError> {
        let modified = match source {
            BookSource::File(path) => std::fs::metadata(path).and_then(|m| m.modified()).ok(),
            BookSource::None | BookSource::Builtin => None,
        };
        let key = (source.clone(), modified);
        if self.loaded.as_ref() == Some(&key) {
            return Ok(());
        }
        self.loaded = Some(key);
        self.book = None;
        self.book = match source {
            BookSource::None => None,
            BookSource::Builtin => Book::parse(BUILTIN).ok(),
            BookSource::File(path) => Some(Book::load(path)?),
        };
        Ok(())
    }

    /// A book move for `pos` if the settings let the book answer: the move chosen by the settings'
    /// pick and the position's other legal book moves, each ponder move kept only if it is legal
    /// after its move.
    pub(crate) fn choose(&mut self, pos: &Position, settings: &BookSettings) -> Option<BookChoice> {
        if !settings.enabled || pos.move_number() > settings.last_move_number {
            return None;
        }
        if self.rng.random_range(0..100) < settings.ignore_percent {
            return None;
        }
        let book = self.book.as_ref()?;
        let chosen = legal_ponder(pos, book.choose(pos, settings.pick, &mut self.rng)?);
        let candidates = book.probe(pos).iter().filter(|m| pos.is_legal(m.mv)).map(|&m| legal_ponder(pos, m)).collect();
        Some(BookChoice { chosen, candidates })
    }
}

/// `m` with its ponder move only if that is legal after it.
fn legal_ponder(pos: &Position, mut m: BookMove) -> BookMove {
    m.ponder = m.ponder.filter(|&p| {
        let mut next = pos.clone();
        next.do_move(m.mv);
        next.is_legal(p)
    });
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Pick;

    const START: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    fn settings() -> BookSettings {
        BookSettings {
            source: BookSource::None,
            enabled: true,
            last_move_number: 32,
            pick: Pick::Best,
            ignore_percent: 0,
        }
    }

    fn book_file(name: &str, moves: &str) -> BookSource {
        let path = std::env::temp_dir().join(format!("hisha-engine-book-{name}-{}.db", std::process::id()));
        std::fs::write(&path, format!("#YANEURAOU-DB2016 1.00\n{START}\n{moves}\n")).expect("write");
        BookSource::File(path)
    }

    fn remove(sources: &[BookSource]) {
        for s in sources {
            if let BookSource::File(path) = s {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    #[test]
    fn an_illegal_ponder_move_is_dropped() {
        // 2b9i is no White move after 7g7f (no White piece on 2b reaches 9i); 3c3d is one.
        let mut b = EngineBook::new();
        let source = book_file("ponder-illegal", "7g7f 2b9i 10 5 1");
        b.load(&source).expect("loads");
        let m = b.choose(&Position::startpos(), &settings()).expect("a book move").chosen;
        assert_eq!((m.mv.to_string(), m.ponder), ("7g7f".to_string(), None));
        let other = book_file("ponder-legal", "7g7f 3c3d 10 5 1");
        b.load(&other).expect("another file is loaded");
        let m = b.choose(&Position::startpos(), &settings()).expect("a book move").chosen;
        assert_eq!(m.ponder.map(|p| p.to_string()), Some("3c3d".to_string()));
        remove(&[source, other]);
    }

    #[test]
    fn the_candidates_are_the_legal_book_moves_in_the_books_order() {
        // Three moves for the start position; 2b9i is no legal move (as above).
        let mut b = EngineBook::new();
        let source = book_file("candidates", "2g2f 8c8d 40 20 3\n7g7f none 30 18 9\n2b9i none 99 1 1");
        b.load(&source).expect("loads");
        let choice = b.choose(&Position::startpos(), &settings()).expect("a book move");
        let moves: Vec<String> = choice.candidates.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["2g2f", "7g7f"]);
        assert_eq!(choice.chosen, choice.candidates[0], "Pick::Best takes the first");
        assert_eq!(choice.candidates[0].ponder.map(|p| p.to_string()).as_deref(), Some("8c8d"));
        remove(&[source]);
    }

    #[test]
    fn the_book_answers_only_when_enabled_and_within_its_move_number() {
        let mut b = EngineBook::new();
        b.load(&BookSource::Builtin).expect("the built-in book loads");
        let start = Position::startpos();
        assert!(b.choose(&start, &settings()).is_some());
        assert_eq!(b.choose(&start, &BookSettings { enabled: false, ..settings() }), None);
        assert_eq!(b.choose(&start, &BookSettings { last_move_number: 0, ..settings() }), None);
        assert_eq!(b.choose(&start, &BookSettings { ignore_percent: 100, ..settings() }), None);
        b.load(&BookSource::None).expect("no book");
        assert_eq!(b.choose(&start, &settings()), None);
    }

    #[test]
    fn a_broken_book_is_an_error_once_and_no_book_is_used() {
        let mut b = EngineBook::new();
        b.load(&BookSource::Builtin).expect("the built-in book loads");
        let broken = book_file("broken", "7g7f none x");
        let e = b.load(&broken).expect_err("broken");
        assert!(e.to_string().ends_with("book line 3, column 11: bad number \"x\""), "{e}");
        assert_eq!(b.choose(&Position::startpos(), &settings()), None, "the earlier book is gone too");
        assert!(b.load(&broken).is_ok(), "the same unchanged file is not read again");
        remove(&[broken]);
    }
}
