//! PSN in every variant and PSN2, against the seed documents and psn.md: MyShogi's PSN2 byte for
//! byte, the GUI dialect's example, Draft 1's properties, quotes, handicap spellings, `...` and
//! abbreviations (every abbreviation of every move of the Davis sample), ambiguity errors, the
//! PSN-1998 forms, Shift_JIS input, and the terminal words whose meaning depends on the position.

use crate::support::records::{usi_moves as usi, written};
use hisha::position::{GameResult, ResultReason, Winner};
use hisha::record::{Format, GameRecord, RecordErrorKind, Start, notation, read_games};
use hisha::{Color, Handicap, Position};

fn read_one(text: &str, f: Format) -> GameRecord {
    crate::support::records::read_one(text.as_bytes(), f)
}

// psn.md §6, the two PSN2 examples (MyShogi/docs/PSN2format.md).
const PSN2_EVEN: &str = "[Black \"Alice\"]\n[White \"Bob\"]\n[BlackTimeSetting \"0,10,0,1,30,0,0,0,0\"]\n\
[WhiteTimeSetting \"0,10,0,1,30,0,0,0,0\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n\
1.7g7f            (00:00:03 / 00:00:03)\n2.3c3d            (00:00:02 / 00:00:02)\n\
3.8h2b+           (00:00:05 / 00:00:08)\n4.3a2b            (00:00:04 / 00:00:06)\n\
5.B*4e            (00:00:10 / 00:00:18)\n6.Resigns         (00:00:07 / 00:00:13)\n\nVariation:2\n\
2.8c8d            (00:00:01 / 00:00:01)\n";
const PSN2_HANDICAP: &str = "[Black \"Shitate\"]\n[White \"Uwate\"]\n[BlackTimeSetting \"0,15,0,1,0,0,0,0,0\"]\n\
[WhiteTimeSetting \"0,15,0,1,0,0,0,0,0\"]\n[SFEN \"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\"]\n\
1.6c6d            (00:00:02 / 00:00:02)\n2.7g7f            (00:00:01 / 00:00:01)\n\
3.5a4b            (00:00:03 / 00:00:05)\n4.Interrupt       (00:00:00 / 00:00:01)\n";

#[test]
fn psn2_is_written_exactly_as_myshogi_writes_it() {
    for text in [PSN2_EVEN, PSN2_HANDICAP] {
        let mut file = b"\xEF\xBB\xBF".to_vec();
        file.extend_from_slice(text.as_bytes());
        let rec = read_games(&file, Format::Psn2).remove(0).expect("reads");
        assert_eq!(written([&rec], Format::Psn2), file, "{text}");
    }
    let even = read_one(PSN2_EVEN, Format::Psn2);
    assert_eq!(usi(&even), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(even.result, Some(GameResult::loss(Color::White, ResultReason::Resign)));
    assert_eq!((even.end_time_ms, even.moves[4].total_ms), (Some(7_000), Some(18_000)));
    assert_eq!(even.tag("BlackTimeSetting"), Some("0,10,0,1,30,0,0,0,0"));
    let h = read_one(PSN2_HANDICAP, Format::Psn2);
    assert_eq!(h.start, Start::Handicap(Handicap::TwoPiece));
    assert_eq!(h.result.map(|r| r.winner), Some(Winner::Unfinished));
}

#[test]
fn the_gui_dialect_example_reads_and_writes_back() {
    // psn.md §5 (MyShogi's psn.cs): the writer adds only a `[Result]` header, which MyShogi's
    // reader skips like any `[Key "Value"]` line.
    let example = "[Sente \"Alice\"]\n[Gote \"Bob\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n\
1.P7g-7f          (00:03 / 00:00:03)\n2.P3c-3d          (00:02 / 00:00:02)\n3.B8hx2b+         (00:05 / 00:00:08)\n\
4.S3ax2b          (00:04 / 00:00:06)\n5.B*4e            (00:10 / 00:00:18)\n6.Resigns         (00:07 / 00:00:13)\n\n\
Variation:2\n2.P8c-8d          (00:01 / 00:00:01)\n";
    let rec = read_one(example, Format::Psn);
    let text = String::from_utf8(written([&rec], Format::Psn)).expect("utf-8");
    let expected = example.replace("b - 1\"]\n", "b - 1\"]\n[Result \"1-0\"]\n") + "\n";
    assert_eq!(text, expected);
    // Shogidokoro writes Shift_JIS: the same game with a Japanese name reads the same.
    let sjis = encoding_rs::SHIFT_JIS.encode(&example.replace("Alice", "先手太郎")).0.into_owned();
    let back = read_games(&sjis, Format::Psn).remove(0).expect("reads");
    assert_eq!((back.tag("Black"), back.moves.len()), (Some("先手太郎"), 5));
}

#[test]
fn draft_1_properties_aliases_quotes_and_per_turn_numbering() {
    let text = "[SENTE “Joe”]\n[gote \"Mary\"]\n[SenteGrade “3 dan”]\n[WhiteRank \"2 kyu\"]\n[joseki \"Yagura\"]\n\
[Event \"club\"]\n[Round \"4\"]\n[Site \"Tokyo\"]\n[Date \"2009/08/01\"]\n[Result “Resigns”]\n{The summary.}\n\
1.P7g-7f P3c-3d {a comment} 2.P2g-2f P8c-8d\n3.P2f-2e\n";
    let rec = read_one(text, Format::Psn);
    let tags: Vec<(&str, &str)> = rec.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Black", "Joe"),
            ("White", "Mary"),
            ("BlackRank", "3 dan"),
            ("WhiteRank", "2 kyu"),
            ("Opening", "Yagura"),
            ("Event", "club"),
            ("Round", "4"),
            ("Site", "Tokyo"),
            ("Date", "2009/08/01"),
        ]
    );
    assert_eq!(rec.summary, ["The summary."]);
    assert_eq!(usi(&rec), ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"]);
    assert_eq!(rec.moves[1].comments, ["a comment"]);
    // `Resigns`: the side to move at the end (White) resigned.
    assert_eq!(rec.result, Some(GameResult::loss(Color::White, ResultReason::Resign)));
}

#[test]
fn every_handicap_spelling_of_both_psn_specs() {
    let spellings: [(&str, Handicap); 32] = [
        ("Even", Handicap::Even),
        ("Sente", Handicap::Even), // UNCONFIRMED in Draft 1: read as the even start
        ("Gote", Handicap::Even),
        ("Lance", Handicap::Lance),
        ("Bishop", Handicap::Bishop),
        ("Rook", Handicap::Rook),
        ("Rook and Lance", Handicap::RookLance),
        ("Rook & Lance", Handicap::RookLance),
        ("Rook+Lance", Handicap::RookLance),
        ("Rook + Lance", Handicap::RookLance),
        ("Two Pieces", Handicap::TwoPiece),
        ("Two Piece", Handicap::TwoPiece),
        ("Rook and Bishop", Handicap::TwoPiece),
        ("Rook+Bishop", Handicap::TwoPiece),
        ("Rook + Bishop", Handicap::TwoPiece),
        ("Four Pieces", Handicap::FourPiece),
        ("Four Piece", Handicap::FourPiece),
        ("Six Pieces", Handicap::SixPiece),
        ("Six Piece", Handicap::SixPiece),
        ("Eight Pieces", Handicap::EightPiece),
        ("Eight Piece", Handicap::EightPiece),
        // PSN-1998
        ("8 piece", Handicap::EightPiece),
        ("7 piece", Handicap::RightSevenPiece), // UNCONFIRMED: see position/handicap.rs
        ("6 piece", Handicap::SixPiece),
        ("5 piece", Handicap::FivePiece),
        ("4 piece", Handicap::FourPiece),
        ("3 piece", Handicap::ThreePiece),
        ("2 piece", Handicap::TwoPiece),
        ("rook and lance", Handicap::RookLance),
        ("right lance", Handicap::RightLance),
        ("lance", Handicap::Lance),
        ("ROOK AND LANCE", Handicap::RookLance),
    ];
    for (name, h) in spellings {
        // Draft 1 writes Black's skipped first move of a handicap game as `...`, numbered per ply.
        let moves = if h == Handicap::Even { "1.P7g-7f 2.P3c-3d" } else { "1.... 2.P3c-3d 3.P7g-7f" };
        let rec = read_one(&format!("[Handicap \"{name}\"]\n{moves}\n"), Format::Psn);
        assert_eq!(rec.start, Start::Handicap(h), "{name}");
        assert_eq!(rec.moves.len(), 2, "{name}");
    }
}

#[test]
fn psn_1998_moves_drops_promotions_and_the_fen_header() {
    // No separators, from-squares only where needed, `'` drops, `+`/`=` suffixes, `1...` for the
    // handicap giver's first move, a fraction-slash result.
    let text = "[Sente \"A\"]\n[Gote \"B\"]\n[Handicap \"bishop\"]\n1... P3d 2. P7f P8d 3. P2f S6b 4. P2e P8e\n\
5. P2d P2d 6. R2d P'2c 7. R2f {a comment} 7... P8f 8. P8f R8f 9. P'8g R8d 1⁄2-1⁄2\n";
    let rec = read_one(text, Format::Psn);
    assert_eq!(
        usi(&rec),
        [
            "3c3d", "7g7f", "8c8d", "2g2f", "7a6b", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d", "P*2c", "2d2f", "8e8f",
            "8g8f", "8b8f", "P*8g", "8f8d"
        ]
    );
    assert_eq!(rec.result.map(|r| r.winner), Some(Winner::Draw));
    // The FEN example of the 1998 page, then a knight drop written with `'`.
    let fen = read_one("[FEN \"5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1\"]\n1. N'3e\n", Format::Psn);
    assert_eq!(fen.start.sfen(), "5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1");
    assert_eq!(usi(&fen), ["N*3e"]);
}

#[test]
fn ambiguous_and_illegal_moves_name_line_column_ply_and_candidates() {
    let games = read_games(b"[Sente \"a\"]\n1.P7g-7f 2.P3c-3d\n3.G5h\n", Format::Psn);
    let e = games[0].as_ref().expect_err("two golds reach 5h");
    assert_eq!((e.line, e.column), (3, 1));
    match &e.kind {
        RecordErrorKind::Ambiguous { ply, text, candidates } => {
            assert_eq!((ply, text.as_str()), (&3, "G5h"));
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, ["4i5h", "6i5h"]);
        }
        k => panic!("{k:?}"),
    }
    assert!(e.to_string().starts_with("line 3, column 1: ply 3: ambiguous move G5h: could be "), "{e}");
    let games = read_games(b"[Sente \"a\"]\n1.P7g-7f   2.R2h-2c+\n", Format::Psn);
    let e = games[0].as_ref().expect_err("illegal");
    assert_eq!((e.line, e.column, e.to_string().contains("ply 2: illegal move R2h-2c+")), (2, 12, true), "{e}");
}

/// The abbreviations Draft 1 allows for a move written in full (`+B3gx3f`, `N*6g`): the sign of
/// a promoted piece, the separator, each part of the origin and of the destination, the `=`.
fn abbreviations(full: &str) -> Vec<String> {
    let (plus, rest) = match full.strip_prefix('+') {
        Some(r) => ("+", r),
        None => ("", full),
    };
    let (piece, rest) = rest.split_at(1);
    let mut out = Vec::new();
    if let Some(to) = rest.strip_prefix('*') {
        out.push(format!("{piece}{to}"));
        out.push(format!("{piece}'{to}"));
        return out;
    }
    let (from, sep, to_and_suffix) = (&rest[..2], &rest[2..3], &rest[3..]);
    let (to, suffix) = to_and_suffix.split_at(2);
    let (ff, fr, tf, tr) = (&from[..1], &from[1..], &to[..1], &to[1..]);
    // Without a separator the destination must be whole, or origin and destination run together.
    let whole = [(from, to), ("", to), (ff, to), (fr, to)];
    let partial = [(from, tf), (from, tr), ("", tr), (fr, tr), (ff, tf)];
    for p in [plus, ""] {
        for s in [sep, ""] {
            for suf in [suffix, suffix.trim_end_matches('=')] {
                for (o, d) in whole.iter().chain(if s.is_empty() { &[][..] } else { &partial[..] }) {
                    out.push(format!("{p}{piece}{o}{s}{d}{suf}"));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_abbreviation_of_every_davis_move_reads_as_that_move_or_is_ambiguous() {
    // The Davis sample (shared/seeds/002) is written in full extended notation; plies 1-102 are
    // legal (psn.md §4). Each abbreviation must give the same move, or be reported as ambiguous
    // with that move among the candidates, never another move.
    let text = include_str!("../data/records/davis_sample.psn");
    let cut = text.replace("103.S3h-4i", "").replace("104.B8ex5h+", "");
    let rec = read_one(&cut, Format::Psn);
    assert_eq!(rec.moves.len(), 102);
    let written: Vec<&str> = cut
        .split_whitespace()
        .filter_map(|w| w.split_once('.'))
        .filter(|(n, m)| n.bytes().all(|b| b.is_ascii_digit()) && !m.is_empty())
        .map(|(_, m)| m)
        .collect();
    assert_eq!(written.len(), 102);
    let mut pos = Position::startpos();
    let (mut exact, mut ambiguous) = (0, 0);
    for (i, (full, m)) in written.iter().zip(&rec.moves).enumerate() {
        for a in abbreviations(full) {
            match notation::read(&pos, &a, pos.last_move().map(|l| l.to()), i + 1) {
                Ok(x) => {
                    assert_eq!(x, m.mv, "ply {}: {a} (from {full})", i + 1);
                    exact += 1;
                }
                Err(RecordErrorKind::Ambiguous { candidates, .. }) => {
                    assert!(candidates.contains(&m.mv.to_string()), "ply {}: {a}: {candidates:?}", i + 1);
                    ambiguous += 1;
                }
                Err(e) => panic!("ply {}: {a} (from {full}): {e:?}", i + 1),
            }
        }
        // `Gx`: the piece that takes on the square just moved to.
        if pos.last_move().is_some_and(|l| l.to() == m.mv.to()) && pos.piece_on(m.mv.to()).is_some() {
            let kind = pos.moved_piece(m.mv).expect("a piece").kind();
            let letter =
                if kind.is_promoted() { format!("+{}", kind.base_letter()) } else { kind.base_letter().to_string() };
            let suffix = if m.mv.is_promotion() { "+" } else { "" };
            for a in [format!("{letter}x{suffix}"), format!("x{letter}{suffix}")] {
                match notation::read(&pos, &a, pos.last_move().map(|l| l.to()), i + 1) {
                    Ok(x) => assert_eq!(x, m.mv, "ply {}: {a}", i + 1),
                    Err(RecordErrorKind::Ambiguous { candidates, .. }) => {
                        assert!(candidates.contains(&m.mv.to_string()), "ply {}: {a}", i + 1)
                    }
                    Err(e) => panic!("ply {}: {a}: {e:?}", i + 1),
                }
            }
        }
        pos.do_move(m.mv);
    }
    assert!(exact > 4 * ambiguous, "most abbreviations are unique: {exact} exact, {ambiguous} ambiguous");
}

#[test]
fn sennichite_and_jishogi_are_decided_by_the_position() {
    // Black checks with the rook from 9a and 9b; White's king steps between 5a and 5b. After
    // twelve plies the position has occurred four times with every Black move a check:
    // perpetual check by Black, so White (to move) wins.
    let start = "4k4/R8/9/9/9/9/9/9/4K4 b - 1";
    let cycle = ["9b9a", "5a5b", "9a9b", "5b5a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let mut pos = Position::from_sfen(start).expect("valid");
    let mut psn = format!("[SFEN \"{start}\"]\n");
    for (i, m) in moves.iter().enumerate() {
        let mv = pos.parse_usi_move(m).expect("legal");
        psn.push_str(&format!("{}.{}\n", i + 1, notation::write(&pos, mv)));
        pos.do_move(mv);
    }
    let rec = read_one(&format!("{psn}13.Sennichite\n"), Format::Psn);
    assert_eq!(rec.result, Some(GameResult::loss(Color::Black, ResultReason::PerpetualCheck)));
    // Without the checks it is a draw.
    let quiet = read_one("1.P7g-7f 2.P3c-3d 3.Sennichite\n", Format::Psn);
    assert_eq!(quiet.result, Some(GameResult::draw(ResultReason::Repetition)));
    // `Jishogi` where the side to move cannot declare: a draw by the move limit.
    let limit = read_one("1.P7g-7f 2.P3c-3d 3.Jishogi\n", Format::Psn);
    assert_eq!(limit.result, Some(GameResult::draw(ResultReason::MaxMoves)));
    // Shogidokoro's declaration: `Jishogi` with 入玉宣言により勝ち。 in the comment after it.
    let declared =
        read_one("1.P7g-7f 2.P3c-3d 3.Jishogi (00:02 / 00:00:05)\n{\n入玉宣言により勝ち。\n}\n", Format::Psn);
    assert_eq!(declared.result, Some(GameResult::win(Color::Black, ResultReason::Declaration)));
    assert_eq!(declared.end_time_ms, Some(2_000));
    // A position where Black can declare (king in the zone, 15 pieces there, 29 points).
    let zone = "K1+R+B+BGGG1/SSSS5/PPPPP4/9/9/9/9/ppppp4/k1r3g2 b 2P 1";
    let can = read_one(&format!("[SFEN \"{zone}\"]\n1.Jishogi\n"), Format::Psn);
    assert_eq!(can.result, Some(GameResult::win(Color::Black, ResultReason::Declaration)));
}

#[test]
fn a_psn_file_may_open_with_a_comment() {
    // book/lines.psn does: the comment is no game, and detection looks past it.
    let text = "{Some lines.\nTwo of them.}\n\n[Opening \"A\"]\n7g7f 3c3d\n\n[Opening \"B\"]\n2g2f\n";
    assert_eq!(hisha::record::detect_format(text, None), Some(Format::Psn));
    let games = read_games(text.as_bytes(), Format::Psn);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].as_ref().map(|g| g.tag("Opening")).ok().flatten(), Some("B"));
}

#[test]
fn an_empty_game_written_as_psn_or_psn2_reads_back_as_its_own_game() {
    // A game with no moves and no result (a `startpos` USI line, a match game that never began)
    // used to be written as headers only, and read back merged with the next game's headers.
    let mut empty = GameRecord::new(Start::default(), []);
    empty.tags = vec![("Black".into(), "A".into()), ("White".into(), "B".into())];
    let pos = Position::startpos();
    let mut normal = GameRecord::new(Start::default(), [pos.parse_usi_move("7g7f").expect("legal")]);
    normal.tags = vec![("Black".into(), "C".into()), ("White".into(), "D".into())];
    (normal.moves[0].time_ms, normal.moves[0].total_ms) = (Some(3_000), Some(3_000));
    normal.result = Some(GameResult::win(Color::White, ResultReason::Resign));
    for f in [Format::Psn, Format::Psn2] {
        let bytes = written([&empty, &normal, &empty], f);
        let text = String::from_utf8_lossy(&bytes);
        let read: Vec<GameRecord> =
            read_games(&bytes, f).into_iter().map(|g| g.unwrap_or_else(|e| panic!("{f:?}: {e}\n{text}"))).collect();
        assert_eq!(read, [empty.clone(), normal.clone(), empty.clone()], "{f:?}\n{text}");
        let streamed: Vec<GameRecord> = hisha::record::GameReader::new(&bytes[..], f)
            .map(|g| g.unwrap_or_else(|e| panic!("{f:?}: {e}\n{text}")))
            .collect();
        assert_eq!(streamed, read, "{f:?}: streaming gives what reading the whole text gives");
    }
}
