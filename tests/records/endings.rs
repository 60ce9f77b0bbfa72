//! What readers never invent: a construct left open (a PSN `{` or `(`, a KIF board diagram, a
//! CSA position without its turn line) is an error at its place, the moves before it kept as the
//! readable start, and the games after it still read.

use crate::support::records::usi_moves;
use hisha::position::Winner;
use hisha::record::{Format, RecordErrorKind, Start, read_games};

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
