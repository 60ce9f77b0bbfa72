//! The openings file of `hisha match --openings` (bare SFEN lines, USI lines, or any record
//! format, detected from the text and the file's name) on any bytes: no panic; an opening that
//! cannot be read is named by its number and an error whose line and column lie in the file; the
//! openings read have a legal start, legal moves and at most the plies asked for, and are the
//! same openings, cut shorter, as with no limit.
//!
//! Input: the first byte picks the file's name (its extension) and the plies kept; the rest is
//! the file.
#![no_main]

use hisha::arena::OpeningsError;
use hisha::arena::openings::parse;
use hisha_fuzz::check_error_position;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const NAMES: [&str; 9] =
    ["openings.sfen", "openings.txt", "openings.psn", "openings.psn2", "o.kif", "o.ki2", "o.csa", "o.usi", "openings"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let name = NAMES[usize::from(selector) % NAMES.len()];
    let plies = usize::from(selector) / NAMES.len() % 12;
    let path = Path::new(name);
    let openings = match parse(bytes, path, plies) {
        Ok(o) => o,
        Err(OpeningsError::Game { path: p, number, source }) => {
            assert_eq!(p, path);
            assert!(number >= 1);
            check_error_position(&source, bytes);
            return;
        }
        Err(OpeningsError::Empty(p)) => {
            assert_eq!(p, path);
            return;
        }
        Err(e) => panic!("no file is read: {e}"),
    };
    assert!(!openings.is_empty(), "an empty list is an error");
    let whole = parse(bytes, path, usize::MAX).expect("the same file reads without a limit");
    assert_eq!(whole.len(), openings.len());
    for (o, w) in openings.iter().zip(&whole) {
        assert!(o.moves.len() <= plies, "{} moves kept of {plies}", o.moves.len());
        assert_eq!(o.moves[..], w.moves[..o.moves.len()], "{}", o.name);
        assert_eq!((&o.start, &o.name), (&w.start, &w.name));
        assert!(!o.name.trim().is_empty(), "a blank name tag names nothing");
        let mut pos = o.start.position().unwrap_or_else(|e| panic!("{}: start {}: {e}", o.name, o.start.sfen()));
        for &m in &w.moves {
            assert!(pos.is_legal(m), "{}: {m} in {}", o.name, pos.to_sfen());
            pos.do_move(m);
        }
    }
});
