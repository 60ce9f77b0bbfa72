//! How the engine answers `go` with a book move: `info string book <move> (count …, value …)`,
//! then an `info depth <d> multipv 1 score cp <value> pv <move> [<ponder>]` line so that a GUI shows
//! a score and a line for it, as YaneuraOu does (it prints `info multipv i score cp <value> depth
//! <depth> pv …` for each book candidate, book.cpp; a file without value or depth gives 0 for
//! both, as YaneuraOu reads it), then `bestmove`. The ponder move is kept only if it is legal
//! after the book move.

use crate::book::BookMove;
use crate::position::Position;
use crate::usi::response::{Info, InfoScore, UsiResponse};

/// The replies announcing book move `m` in `pos`, `bestmove` last.
pub fn replies(pos: &Position, m: &BookMove) -> [UsiResponse; 3] {
    let ponder = m.ponder.filter(|&p| {
        let mut next = pos.clone();
        next.do_move(m.mv);
        next.is_legal(p)
    });
    let mv = m.mv.to_string();
    let ponder = ponder.map(|p| p.to_string());
    [
        UsiResponse::Info(Info {
            string: Some(format!("book {mv} (count {}, value {})", m.count, m.value)),
            ..Info::default()
        }),
        UsiResponse::Info(Info {
            depth: Some(m.depth.max(0) as u32),
            multipv: Some(1),
            score: Some(InfoScore::of_value(m.value)),
            pv: std::iter::once(mv.clone()).chain(ponder.clone()).collect(),
            ..Info::default()
        }),
        UsiResponse::BestMove { mv, ponder },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_move(pos: &Position, mv: &str, ponder: Option<&str>, value: i32, depth: i32) -> BookMove {
        let parse = |p: &Position, s: &str| p.parse_usi_move(s).expect("legal");
        let mut next = pos.clone();
        let mv = parse(pos, mv);
        next.do_move(mv);
        BookMove { mv, ponder: ponder.map(|p| parse(&next, p)), value, depth, count: 7 }
    }

    fn lines(pos: &Position, m: &BookMove) -> Vec<String> {
        replies(pos, m).iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn a_book_move_is_announced_with_its_value_depth_and_line() {
        let pos = Position::startpos();
        assert_eq!(
            lines(&pos, &book_move(&pos, "7g7f", Some("3c3d"), 45, 22)),
            [
                "info string book 7g7f (count 7, value 45)",
                "info depth 22 multipv 1 score cp 45 pv 7g7f 3c3d",
                "bestmove 7g7f ponder 3c3d",
            ]
        );
    }

    #[test]
    fn a_book_move_without_value_or_depth_says_cp_0_depth_0() {
        let pos = Position::startpos();
        assert_eq!(
            lines(&pos, &book_move(&pos, "2g2f", None, 0, 0))[1..],
            ["info depth 0 multipv 1 score cp 0 pv 2g2f", "bestmove 2g2f"]
        );
    }

    #[test]
    fn an_illegal_ponder_move_is_left_out_of_the_line_and_bestmove() {
        let pos = Position::startpos();
        let mut m = book_move(&pos, "7g7f", None, -30, 5);
        // A White move that is not legal after 7g7f (no White piece on 2b can reach 9i).
        m.ponder = Some("2b9i".parse::<crate::types::UsiMove>().expect("syntax").to_move());
        assert_eq!(lines(&pos, &m)[1..], ["info depth 5 multipv 1 score cp -30 pv 7g7f", "bestmove 7g7f"]);
    }

    #[test]
    fn a_mate_value_is_announced_as_a_mate_score() {
        let pos = Position::startpos();
        let m = book_move(&pos, "7g7f", None, crate::eval::MATE - 9, 30);
        assert_eq!(lines(&pos, &m)[1], "info depth 30 multipv 1 score mate 9 pv 7g7f");
        let m = book_move(&pos, "7g7f", None, -crate::eval::MATE + 4, 30);
        assert_eq!(lines(&pos, &m)[1], "info depth 30 multipv 1 score mate -4 pv 7g7f");
    }
}
