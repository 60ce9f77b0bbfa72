//! Opening-book text on any bytes (as `BookFile` reads it): no panic; an error names a line and
//! column; a book read writes text that reads back the same book, and choosing a move in any of
//! its positions, by any rule, does not panic.
#![no_main]

use hisha::Position;
use hisha::book::{Book, Pick};
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let book = match Book::parse(&text) {
        Ok(b) => b,
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count(), "{e}");
            assert!(e.column >= 1, "{e}");
            assert!(e.to_string().starts_with(&format!("book line {}, column {}: ", e.line, e.column)), "{e}");
            return;
        }
    };
    let mut written = Vec::new();
    book.write(&mut written).expect("writing to memory");
    let written = String::from_utf8(written).expect("the writer writes UTF-8");
    let again = Book::parse(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert!(again == book, "the book written reads back the same:\n{written}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for line in written.lines().filter_map(|l| l.strip_prefix("sfen ")) {
        let Ok(pos) = Position::from_sfen(line) else { continue };
        for pick in [Pick::Best, Pick::Weighted, Pick::Random { margin: 0 }, Pick::Random { margin: 10_000 }] {
            if let Some(m) = book.choose(&pos, pick, &mut rng) {
                assert!(pos.is_legal(m.mv), "{line}: {}", m.mv);
            }
        }
    }
});
