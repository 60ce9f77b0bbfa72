//! No input makes a record reader panic: random bytes, and real records with random edits, are
//! fed to every reader and format detection.

use crate::support::records::written;
use hisha::record::{Format, GameReader, GameRecord, Start, detect_format, read_games};
use hisha::{Handicap, Position};
use proptest::prelude::*;

/// A few real records in every format to mutate.
fn seeds() -> Vec<(Format, Vec<u8>)> {
    let mut pos = Position::handicap(Handicap::Bishop);
    let mut moves = Vec::new();
    for usi in ["5a4b", "7g7f", "3c3d", "8h2b", "3a2b", "B*4e", "B*6e"] {
        let Ok(m) = pos.parse_usi_move(usi) else {
            break;
        };
        pos.do_move(m);
        moves.push(m);
    }
    let mut rec = GameRecord::new(Start::Handicap(Handicap::Bishop), moves);
    rec.set_tag("Black", "a");
    rec.summary.push("summary".into());
    Format::ALL.into_iter().map(|f| (f, written([&rec], f))).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        for f in Format::ALL {
            let whole = read_games(&bytes, f);
            // Streaming reads the same games.
            prop_assert_eq!(GameReader::new(std::io::Cursor::new(&bytes), f).collect::<Vec<_>>(), whole);
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = detect_format(&text, Some("x.kif"));
        let _ = GameReader::detect(std::io::Cursor::new(&bytes), None).count();
    }

    #[test]
    fn edited_records_never_panic(which in 0usize..7, edits in prop::collection::vec((0usize..4000, 0u8..3, any::<u8>()), 1..8)) {
        let seeds = seeds();
        let (_, original) = &seeds[which % seeds.len()];
        let mut bytes = original.clone();
        for (at, op, b) in edits {
            let at = at % (bytes.len() + 1);
            match op {
                0 if at < bytes.len() => bytes[at] = b,
                1 => bytes.insert(at, b),
                _ if at < bytes.len() => { bytes.remove(at); }
                _ => {}
            }
        }
        for f in Format::ALL {
            // Whatever reads must be a legal game.
            for rec in read_games(&bytes, f).into_iter().flatten() {
                prop_assert!(rec.final_position().is_ok());
            }
        }
    }
}
