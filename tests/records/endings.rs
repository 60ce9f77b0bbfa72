//! What readers never invent: a file cut mid-game (a crashed match, a partial download) reads
//! with no result and a warning, in every format, and every writer then writes no ending; a
//! construct left open (a PSN `{` or `(`, a KIF board diagram, a CSA position without its turn
//! line) is an error at its place, the moves before it kept as the readable start, and the games
//! after it still read.

use crate::support::records::{usi_moves, written};
use crate::support::{play, temp_dir};
use hisha::position::{GameResult, ResultReason, Winner};
use hisha::record::{Format, GameReader, GameRecord, RecordErrorKind, RecordWarningKind, Start, read_games};
use hisha::{Color, Position};
use std::io::Cursor;

/// Forty moves from the even start (a quiet opening, every move legal), Black winning by
/// resignation: what a match writes.
fn finished_game() -> GameRecord {
    let usi = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b3c \
               3d3f 8f8d 3f2f P*2c 3i3h 5a5b 5i6h 7a6b 3g3f 6c6d 3h3g 6b6c 3g4f 6c5d 4i5h 7c7d \
               9g9f 9c9d 1g1f 1c1d 4f5e 5d5e 5g5f 5e6f";
    let moves = play(&mut Position::startpos(), &usi.split_whitespace().collect::<Vec<_>>());
    let mut rec = GameRecord::new(Start::default(), moves);
    rec.set_tag("Black", "a");
    rec.set_tag("White", "b");
    rec.result = Some(GameResult::loss(Color::White, ResultReason::Resign));
    rec
}

/// The formats that write an ending (USI lines write none).
const WITH_ENDINGS: [Format; 7] =
    [Format::Psn, Format::Psn2, Format::Kif, Format::Kifu, Format::Ki2, Format::Ki2u, Format::Csa];

/// Every game `bytes` holds in `f`, each with the reader's warnings.
fn read_with_warnings(bytes: &[u8], f: Format) -> Vec<(Result<GameRecord, String>, Vec<RecordWarningKind>)> {
    let mut reader = GameReader::new(Cursor::new(bytes), f);
    let mut out = Vec::new();
    while let Some(game) = reader.next() {
        let warnings = reader.warnings().iter().map(|w| w.kind.clone()).collect();
        out.push((game.map_err(|e| e.to_string()), warnings));
    }
    out
}

/// The text of `rec` written in `f` (Shift_JIS formats decoded).
fn text_of(rec: &GameRecord, f: Format) -> String {
    hisha::record::decode_text(&written([rec], f)).into_owned()
}

/// True when the text of a game in `f` writes an ending: a terminal word, a result or a note.
fn writes_an_ending(text: &str, f: Format) -> bool {
    match f {
        Format::Psn | Format::Psn2 => {
            ["[Result", "Resigns", "Interrupt", "hisha-result"].iter().any(|w| text.contains(w))
        }
        Format::Kif | Format::Kifu | Format::Ki2 | Format::Ki2u => {
            ["まで", "中断", "投了", "hisha-result"].iter().any(|w| text.contains(w))
        }
        Format::Csa => text.lines().any(|l| l.starts_with('%')) || text.contains("hisha-result"),
        Format::Usi => false,
    }
}

#[test]
fn a_game_cut_mid_way_reads_without_a_result_and_with_a_warning_in_every_format() {
    let game = finished_game();
    for f in WITH_ENDINGS {
        let text = text_of(&game, f);
        assert!(writes_an_ending(&text, f), "{f}: the whole game ends\n{text}");
        // Cut at a line end half way: the ending and the moves after the cut are lost.
        let lines: Vec<&str> = text.lines().collect();
        let cut: String = lines[..lines.len() / 2].iter().map(|l| format!("{l}\n")).collect();
        let games = read_with_warnings(cut.as_bytes(), f);
        assert_eq!(games.len(), 1, "{f}\n{cut}");
        let (rec, warnings) = &games[0];
        let rec = rec.as_ref().unwrap_or_else(|e| panic!("{f}: {e}\n{cut}"));
        let (got, whole) = (usi_moves(rec), usi_moves(&game));
        assert!(!got.is_empty() && got.len() < whole.len() && whole.starts_with(&got), "{f}: {got:?}");
        assert_eq!(rec.result, None, "{f}: no result is invented\n{cut}");
        // hisha's PSN names the result in a header too: that claim is not taken, and said so.
        let claimed = (f == Format::Psn).then(|| "1-0".to_string());
        assert_eq!(warnings, &[RecordWarningKind::NoEnding { claimed }], "{f}");
        // Every format then writes the game with no ending at all.
        for to in WITH_ENDINGS {
            let out = text_of(rec, to);
            assert!(!writes_an_ending(&out, to), "{f} -> {to}: an ending was written\n{out}");
            let back = read_games(&written([rec], to), to).remove(0).expect("reads back");
            assert_eq!((usi_moves(&back), back.result), (got.clone(), None), "{f} -> {to}");
        }
    }
}

#[test]
fn a_whole_game_has_no_warning_and_usi_lines_never_warn() {
    let game = finished_game();
    for f in WITH_ENDINGS {
        let games = read_with_warnings(&written([&game], f), f);
        assert_eq!(games.len(), 1);
        assert!(games[0].1.is_empty(), "{f}: {:?}", games[0].1);
        assert_eq!(games[0].0.as_ref().map(|r| r.result), Ok(game.result), "{f}");
    }
    let games = read_with_warnings(&written([&game], Format::Usi), Format::Usi);
    assert!(games[0].1.is_empty(), "USI lines write no result, so none is missing");
}

#[test]
fn a_usi_line_cut_inside_a_move_is_an_error_not_a_shorter_game() {
    // USI lines carry no result to invent; a line cut inside a word loses a move, which is said.
    for (text, column) in [("startpos moves 7g7f 3c3d 2g", 26), ("startpos moves 7g7f 3c", 21)] {
        let games = read_with_warnings(format!("{text}\n").as_bytes(), Format::Usi);
        let e = games[0].0.as_ref().expect_err("a cut move");
        assert!(e.starts_with(&format!("line 1, column {column}: ")), "{e}");
    }
}

#[test]
fn draft_1_and_psn_1998_results_are_their_result_headers() {
    // psn.md §2: Draft 1 gives the result as a property only (its sample ends with a move); a
    // game without [SFEN] and move times is read as it says.
    let davis = "[Sente \"Joe\"]\n[Gote \"Mary\"]\n[Result \"0-1\"]\n\n1.P7g-7f 2.P3c-3d\n";
    let games = read_with_warnings(davis.as_bytes(), Format::Psn);
    let rec = games[0].0.as_ref().expect("reads");
    assert_eq!(rec.result.map(|r| r.winner), Some(Winner::White));
    assert!(games[0].1.is_empty());
    // The same header over moves with times (the GUI dialect) is not enough.
    let gui = "[Sente \"Joe\"]\n[Result \"0-1\"]\n1.P7g-7f (00:01 / 00:00:01)\n";
    let games = read_with_warnings(gui.as_bytes(), Format::Psn);
    assert_eq!(games[0].0.as_ref().map(|r| r.result), Ok(None));
    assert_eq!(games[0].1, [RecordWarningKind::NoEnding { claimed: Some("0-1".into()) }]);
}

/// A PSN or PSN2 file of two games, the first with `open` after its second move.
fn two_games(f: Format, open: &str) -> String {
    let (header, m1, m2, m3, end) = match f {
        Format::Psn2 => ("[Black \"a\"]\n[White \"b\"]\n", "7g7f", "3c3d", "2g2f", "Resigns"),
        _ => ("[Sente \"a\"]\n[Gote \"b\"]\n", "P7g-7f", "P3c-3d", "P2g-2f", "Resigns"),
    };
    let line = |n: usize, m: &str| format!("{n}.{m}            (00:00:01 / 00:00:01)\n");
    format!(
        "{header}{}{}{open}{}{}\n{header}{}{}",
        line(1, m1),
        line(2, m2),
        line(3, m3),
        line(4, end),
        line(1, m1),
        line(2, end)
    )
}

#[test]
fn an_unclosed_psn_comment_is_an_error_at_its_brace_and_swallows_nothing() {
    for f in [Format::Psn, Format::Psn2] {
        for (open, column) in [("{a comment never closed\n", 1), ("(00:00:01 / 00:0\n", 1)] {
            let text = two_games(f, open);
            let games = read_games(text.as_bytes(), f);
            assert_eq!(games.len(), 2, "{f}: the second game is not swallowed\n{text}");
            let e = games[0].as_ref().expect_err("the open construct is an error");
            assert_eq!((e.line, e.column), (5, column), "{f}: {e}");
            assert!(e.to_string().contains("unclosed"), "{e}");
            // The moves before it are the game's readable start.
            let start = e.partial.as_deref().expect("readable start");
            assert_eq!(usi_moves(start), ["7g7f", "3c3d"], "{f}");
            let second = games[1].as_ref().expect("the next game reads");
            assert_eq!((second.moves.len(), second.result.map(|r| r.winner)), (1, Some(Winner::Black)), "{f}");
        }
    }
    // A comment over several lines, closed, is still one comment.
    let closed = two_games(Format::Psn, "{one\n[not a header]\ntwo}\n");
    let games = read_games(closed.as_bytes(), Format::Psn);
    let first = games[0].as_ref().expect("reads");
    assert_eq!((first.moves.len(), first.moves[1].comments.clone()), (3, vec!["one\n[not a header]\ntwo".to_string()]));
}

#[test]
fn a_kif_board_diagram_cut_short_is_an_error_not_empty_rows() {
    let whole = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
|v香v桂v銀v金v玉v金v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n| 香 桂 銀 金 玉 金 銀 桂 香|九\n\
+---------------------------+\n先手の持駒：なし\n";
    let rec = read_games(whole.as_bytes(), Format::Kifu).remove(0).expect("the whole diagram reads");
    assert_eq!(rec.start, Start::default());
    for (f, text) in [(Format::Kifu, whole.to_string()), (Format::Ki2u, format!("{whole}▲７六歩\n"))] {
        // Cut after the row 二: the rows 三 to 九 would read as empty.
        let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
        let e = read_games(cut.as_bytes(), f).remove(0).expect_err("a cut diagram");
        assert!(
            matches!(&e.kind, RecordErrorKind::BadPosition(s) if s.contains("lacks its rows 三, 四, 五, 六, 七, 八, 九")),
            "{f}: {e}"
        );
    }
}

#[test]
fn a_csa_position_without_its_turn_line_is_an_error_not_the_even_start() {
    let position = "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n";
    for (text, line) in [(position.to_string(), 3), (format!("{position}+7776FU\n"), 4), ("PI\n".into(), 1)] {
        let e = read_games(text.as_bytes(), Format::Csa).remove(0).expect_err("no turn line");
        assert_eq!(e.line, line, "{e}");
        assert!(matches!(&e.kind, RecordErrorKind::BadPosition(s) if s.contains("no turn line")), "{e}");
    }
    let rec = read_games(format!("{position}-\n").as_bytes(), Format::Csa).remove(0).expect("with its turn line");
    assert!(rec.start.sfen().ends_with(" w - 1"), "{}", rec.start.sfen());
}

#[test]
fn convert_reports_the_unclosed_comment_and_the_cut_game() {
    let dir = temp_dir("endings-convert");
    // The two files: an unclosed comment after two moves, and a match record cut at 20
    // moves whose header says Black won.
    let unclosed = dir.join("unclosed.psn");
    let text = "[Sente \"a\"]\n[Gote \"b\"]\n\n1.P7g-7f (00:01 / 00:00:01)\n2.P3c-3d (00:01 / 00:00:01)\n\
{an unclosed comment\n3.P2g-2f (00:01 / 00:00:01)\n4.Resigns\n";
    std::fs::write(&unclosed, text).expect("write");
    let (code, stdout, stderr) = crate::support::hisha_with_stdin(
        &["convert", unclosed.to_str().expect("utf-8"), "--to", "kifu", "--keep-partial"],
        b"",
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("game 1: line 6, column 1: unclosed comment"), "{stderr}");
    assert!(stderr.contains("(cut: kept its first 2 moves)"), "{stderr}");
    assert_eq!(read_games(&stdout, Format::Kifu).remove(0).expect("reads").moves.len(), 2);

    let game = finished_game();
    let psn = text_of(&game, Format::Psn);
    let cut = &psn[..psn.find("\n21.").expect("a 21st move") + 1];
    let cut_path = dir.join("cut.psn");
    std::fs::write(&cut_path, cut).expect("write");
    let (code, stdout, stderr) =
        crate::support::hisha_with_stdin(&["convert", cut_path.to_str().expect("utf-8"), "--to", "kifu"], b"");
    assert_eq!(code, Some(0), "a warning is no failure: {stderr}");
    let kif = String::from_utf8(stdout).expect("utf-8");
    assert!(kif.contains("  20 ") && !kif.contains("まで") && !kif.contains("中断"), "{kif}");
    let last_line = cut.lines().count();
    let warning = format!("cut.psn: game 1: line {last_line}: the game stops without an ending");
    assert!(stderr.contains(&warning), "{stderr}");
    assert!(stderr.contains("its [Result \"1-0\"] header is not taken"), "{stderr}");
    assert!(stderr.contains("read 1 game (1 without an ending), wrote 1 as kifu, skipped 0"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}
