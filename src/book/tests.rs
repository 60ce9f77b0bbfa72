//! Book format round trip, lookups against a brute-force scan, picking, corrupt files.

use super::*;
use crate::book_tools::build::{BookBuilder, BuildOptions};
use crate::record::{GameRecord, Start};
use crate::testing::{after, play};
use rand::{SeedableRng, rngs::StdRng};

/// A book built from `records` as `hisha book build` builds one, a game at a time.
fn from_records(records: &[GameRecord], opts: BuildOptions) -> Book {
    let mut b = BookBuilder::new(opts);
    for r in records {
        b.add(r);
    }
    b.finish()
}

#[test]
fn parses_the_yaneuraou_format_and_round_trips() {
    let text = "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3d 10 16 5\n2g2f none 20 16 3\nsfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n2g2f 8c8d 0 12 1\n";
    let book = Book::parse(text).expect("valid");
    assert_eq!(book.len(), 2);
    let start = book.probe(&Position::startpos());
    assert_eq!(start.len(), 2);
    assert_eq!(start[0].mv.to_string(), "2g2f", "best value first");
    assert_eq!(start[1].ponder.map(|m| m.to_string()), Some("3c3d".into()));
    // The move number does not matter: the position after 7g7f 3c3d is found.
    assert_eq!(book.probe(&after(&["7g7f", "3c3d"])).len(), 1);
    let mut out = Vec::new();
    book.write(&mut out).expect("writes");
    let again = Book::parse(&String::from_utf8(out).expect("utf-8")).expect("valid");
    assert_eq!(again, book);
}

#[test]
fn lookups_agree_with_a_brute_force_scan() {
    // A book built from random games; every position of those games is looked up both ways.
    let mut rng = StdRng::seed_from_u64(3);
    let mut records = Vec::new();
    for _ in 0..60 {
        let mut p = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..20 {
            let legal = p.legal_moves();
            let m = legal[rng.random_range(0..legal.len())];
            p.do_move(m);
            moves.push(m);
        }
        records.push(GameRecord::new(Start::default(), moves));
    }
    let book = from_records(&records, BuildOptions { max_ply: 12, min_count: 1 });
    let mut text = Vec::new();
    book.write(&mut text).expect("writes");
    let text = String::from_utf8(text).expect("utf-8");
    for rec in &records {
        let mut p = Position::startpos();
        for m in &rec.moves {
            let sfen = p.to_sfen();
            let board = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(b, _)| b).to_string();
            // Scan: the move lines after the matching `sfen` line.
            let mut scanned = Vec::new();
            let mut inside = false;
            for l in text.lines() {
                if let Some(s) = l.strip_prefix("sfen ") {
                    inside = s.starts_with(&format!("{board} "));
                } else if inside {
                    scanned.push(l.split_whitespace().next().unwrap_or("").to_string());
                }
            }
            let mut probed: Vec<String> = book.probe(&p).iter().map(|b| b.mv.to_string()).collect();
            scanned.sort();
            probed.sort();
            assert_eq!(probed, scanned, "{sfen}");
            p.do_move(m.mv);
        }
    }
}

#[test]
fn picking_strategies() {
    let text = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 50 0 1\n2g2f none 40 0 99\n5g5f none -300 0 1\n1a1b none 999 0 50\n";
    let book = Book::parse(text).expect("valid");
    let pos = Position::startpos();
    let mut rng = StdRng::seed_from_u64(1);
    // 1a1b is not legal and is never chosen.
    assert_eq!(book.choose(&pos, Pick::Best, &mut rng).map(|m| m.mv.to_string()), Some("7g7f".into()));
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..400 {
        let m = book.choose(&pos, Pick::Random { margin: 20 }, &mut rng).expect("a move");
        *seen.entry(m.mv.to_string()).or_insert(0) += 1;
    }
    assert_eq!(seen.keys().cloned().collect::<Vec<_>>(), ["2g2f", "7g7f"], "5g5f is 350 cp worse");
    let weighted = (0..400)
        .filter(|_| book.choose(&pos, Pick::Weighted, &mut rng).is_some_and(|m| m.mv.to_string() == "2g2f"))
        .count();
    assert!(weighted > 330, "2g2f has 99 of 101 counts: {weighted}");
}

#[test]
fn corrupt_books_are_reported_with_the_line() {
    assert_eq!(Book::parse("sfen nonsense\n").map_err(|e| e.line), Err(1));
    assert_eq!(Book::parse("7g7f none 0 0 1\n").map_err(|e| e.line), Err(1));
    let e = Book::parse("#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none x 0 1\n").map_err(|e| e.line);
    assert_eq!(e, Err(3));
}

#[test]
fn a_repeated_position_keeps_its_moves_best_first() {
    // Found by the book property test (tests/parser_props.rs): the moves of a position listed
    // twice were merged in file order, so `Pick::Best` took the worse move and the book written
    // read back different.
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let text = format!("{start}\n2g2f none -20 16 3\n{start}\n7g7f 3c3d 10 16 5\n2g2f 8c8d 0 12 1\n");
    let book = Book::parse(&text).expect("valid");
    let moves: Vec<(String, i32, u64)> =
        book.probe(&Position::startpos()).iter().map(|m| (m.mv.to_string(), m.value, m.count)).collect();
    assert_eq!(moves, [("7g7f".to_string(), 10, 5), ("2g2f".to_string(), -20, 4)]);
    let best = book.choose(&Position::startpos(), Pick::Best, &mut StdRng::seed_from_u64(1));
    assert_eq!(best.map(|m| m.mv.to_string()), Some("7g7f".to_string()));
    let mut out = Vec::new();
    book.write(&mut out).expect("writes");
    assert_eq!(Book::parse(&String::from_utf8(out).expect("utf-8")).expect("valid"), book);
}

#[test]
fn extreme_values_and_counts_choose_a_move_by_every_rule() {
    // Found by reading the book fuzz target's code path: `best.value - margin` overflowed for a
    // value near i32::MIN (a panic with overflow checks, and without them an empty choice that
    // made `random_range` panic), and counts near i64::MAX overflowed their sum and their merge.
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let big = i64::MAX;
    let text = format!(
        "{start}\n7g7f none -2147483648 0 {big}\n2g2f none -2147483648 0 {big}\n{start}\n7g7f none 0 0 {big}\n\
         5g5f none -2147483648 0 {big}\n{start}\n7g7f none 0 0 {big}\n"
    );
    let book = Book::parse(&text).expect("valid");
    let pos = Position::startpos();
    assert_eq!(book.probe(&pos)[0].count, u64::MAX, "counts add up to the most a count holds");
    let mut rng = StdRng::seed_from_u64(5);
    for pick in [Pick::Best, Pick::Weighted, Pick::Random { margin: 0 }, Pick::Random { margin: 10_000 }] {
        for _ in 0..20 {
            let m = book.choose(&pos, pick, &mut rng).expect("a move");
            assert!(pos.is_legal(m.mv), "{pick:?}");
        }
    }
}

#[test]
fn corrupt_books_are_reported_with_line_and_column() {
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    let at = |text: &str| Book::parse(text).map_err(|e| (e.line, e.column, e.to_string()));
    let place = |text: &str| at(text).map_err(|(l, c, _)| (l, c));
    assert_eq!(place(&format!("{start}7g7f none 0 x 1\n")), Err((2, 13)), "the bad number");
    assert_eq!(place(&format!("{start}  7g7f 9z9z\n")), Err((2, 8)), "the bad ponder move");
    assert_eq!(place(&format!("{start}七七 none\n")), Err((2, 1)), "columns count characters");
    assert_eq!(place(&format!("{start}7g7f\n")), Err((2, 1)), "a short line: its start");
    assert_eq!(place("\n\t7g7f none 0 0 1\n"), Err((2, 2)), "a move before any sfen");
    // The SFEN's own offset is added to where the SFEN starts: `x` is at byte 8 of it.
    assert_eq!(place("sfen  lnsgkgsx/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"), Err((1, 14)));
    let shown = at(&format!("{start}7g7f none 0 x 1\n")).expect_err("bad number").2;
    assert_eq!(shown, "book line 2, column 13: bad number \"x\"");
}

#[test]
fn builds_counts_and_ponder_from_records() {
    let line = |moves: &[&str]| GameRecord::new(Start::default(), play(&mut Position::startpos(), moves));
    let recs = [line(&["7g7f", "3c3d"]), line(&["7g7f", "3c3d"]), line(&["7g7f", "8c8d"]), line(&["2g2f", "8c8d"])];
    let book = from_records(&recs, BuildOptions { max_ply: 8, min_count: 1 });
    let start = book.probe(&Position::startpos());
    let f = start.iter().find(|m| m.mv.to_string() == "7g7f").expect("in book");
    assert_eq!((f.count, f.ponder.map(|m| m.to_string())), (3, Some("3c3d".into())));
    let min2 = from_records(&recs, BuildOptions { max_ply: 8, min_count: 2 });
    assert_eq!(min2.probe(&Position::startpos()).len(), 1, "2g2f was played once");
}
