//! PSN reader and writer tests: the seed documents' examples, the GUI dialect, round trips.

use super::write;
use crate::Color;
use crate::position::{GameResult, Handicap, ResultReason, Winner};
use crate::record::{Format, GameRecord, RecordError, RecordErrorKind, Start, read_games};

fn read_all(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    read_games(text.as_bytes(), Format::Psn)
}

#[test]
fn davis_sample_reads_to_ply_102_and_reports_ply_103_illegal() {
    // shared/seeds/002 (T. Gene Davis, PSN Draft 1): plies 1-102 legal; ply 103 S3h-4i ignores
    // the check given by 102.B*8e (psn.md §4).
    let text = include_str!("../../../tests/data/records/davis_sample.psn");
    let games = read_all(text);
    assert_eq!(games.len(), 1);
    let err = games[0].as_ref().expect_err("ply 103 is illegal");
    assert!(
        matches!(&err.kind, RecordErrorKind::IllegalMove { ply: 103, text, rule: Some(crate::position::IllegalMoveKind::LeavesKingInCheck) } if text == "S3h-4i"),
        "{err}"
    );
    // `103.S3h-4i` is on line 20 (the file's last move line), after `102.B*8e `.
    let line = text.lines().nth(err.line - 1).expect("line exists");
    assert!(line[line.char_indices().nth(err.column - 1).map_or(0, |(i, _)| i)..].starts_with("103.S3h-4i"), "{err}");
    // Without the last two plies the game reads, and the position matches psn.md §4.
    let cut = text.replace("103.S3h-4i", "").replace("104.B8ex5h+", "");
    let rec = read_all(&cut).remove(0).expect("plies 1-102 are legal");
    assert_eq!(rec.moves.len(), 102);
    assert_eq!(
        rec.final_position().expect("valid").to_sfen(),
        "l1g2k3/7r1/n1sp1gp1s/Ppp1pp1PP/1bP3P+RN/ll1PPP3/1P6L/3NK1S1N/+s1gB2G2 b 2Pp 103"
    );
    assert_eq!(rec.tag("Black"), Some("Joe"));
    assert_eq!(rec.tag("White"), Some("Mary"));
    assert_eq!(rec.summary.len(), 1);
    assert_eq!(rec.moves[0].comments, vec!["Off to a not too interesting start.".to_string()]);
    assert_eq!(rec.result.map(|r| r.winner), Some(Winner::White));
}

#[test]
fn psn_1998_fen_header_converts_to_sfen() {
    // Example from the 1998 PSN page (seed 000); expected SFEN from psn.md §1.
    let rec = read_all("[FEN \"5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1\"]\nN*3e\n").remove(0).expect("reads");
    assert_eq!(rec.start, Start::Sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1".into()));
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn psn_1998_moves_handicap_and_per_turn_numbers() {
    let text = "[Sente \"A\"]\n[Handicap \"rook and lance\"]\n1... P3d 2. P7f P8d 3. P2f P8e 1-0\n";
    let rec = read_all(text).remove(0).expect("reads");
    assert_eq!(rec.start, Start::Handicap(Handicap::RookLance));
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(usi, ["3c3d", "7g7f", "8c8d", "2g2f", "8d8e"]);
    assert_eq!(rec.result.map(|r| r.winner), Some(Winner::Black));
}

#[test]
fn gui_dialect_example_with_times_terminal_and_variation() {
    // psn.md §5 example.
    let text = "[Sente \"Alice\"]\n[Gote \"Bob\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n\
1.P7g-7f          (00:03 / 00:00:03)\n2.P3c-3d          (00:02 / 00:00:02)\n3.B8hx2b+         (00:05 / 00:00:08)\n\
4.S3ax2b          (00:04 / 00:00:06)\n5.B*4e            (00:10 / 00:00:18)\n6.Resigns         (00:07 / 00:00:13)\n\nVariation:2\n\
2.P8c-8d          (00:01 / 00:00:01)\n";
    let rec = read_all(text).remove(0).expect("reads");
    assert_eq!(rec.moves.len(), 5);
    assert_eq!(rec.moves[2].time_ms, Some(5_000));
    assert_eq!(rec.moves[2].total_ms, Some(8_000));
    assert_eq!(rec.result, Some(GameResult::loss(Color::White, ResultReason::Resign)));
    assert_eq!(rec.variations.len(), 1);
    assert_eq!((rec.variations[0].ply, rec.variations[0].parent), (2, None));
    assert_eq!(rec.variations[0].moves[0].mv.to_string(), "8c8d");
    // Written back, it reads the same.
    let mut out = Vec::new();
    write(&mut out, &rec).expect("writes");
    let text2 = String::from_utf8(out).expect("utf-8");
    assert!(text2.contains("1.P7g-7f          (00:03 / 00:00:03)\n"), "{text2}");
    assert!(text2.contains("6.Resigns"), "{text2}");
    assert_eq!(read_all(&text2).remove(0).expect("reads"), rec);
}

#[test]
fn several_games_and_a_broken_one_in_between() {
    let text = "[Sente \"a\"]\n1.P7f\n\n[Sente \"b\"]\n1.P7e\n\n[Sente \"c\"]\n1.P2f 2.P3d\n";
    let games = read_all(text);
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let e = games[1].as_ref().expect_err("P7e is not a legal first move");
    assert_eq!((e.line, e.column), (5, 1));
}
