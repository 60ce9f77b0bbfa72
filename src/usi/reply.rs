//! The engine's events as USI lines (usi.md §4): `info` per iteration, `bestmove`, `checkmate`
//! after the mate search's two `info` lines, and the lines of a book move.
//!
//! A book move is announced with `info string book <move> (count …, value …)`, then, as
//! YaneuraOu does (book.cpp), a full `info` line for each legal book move of the position as a
//! MultiPV line: `info depth <d> seldepth 0 multipv <i> score cp <value> nodes 0 nps 0 hashfull 0
//! time 0 pv <move> [<ponder>]` (a file without value or depth gives 0 for both, as YaneuraOu
//! reads it). When the move chosen is not the first, its line follows again as `multipv 1`, so
//! that the last `multipv 1` line is the move played (YaneuraOu's final line after a book move,
//! yaneuraou-search.cpp). Then `bestmove`.

use crate::engine::{BestMove, BookChoice, BookMove, EngineEvent, Iteration, MateResult, MateStats, ScoreBound};
use crate::usi::response::{Checkmate, Info, InfoBound, InfoScore, UsiResponse};

/// The lines that announce `event`.
pub(crate) fn replies(event: &EngineEvent) -> Vec<UsiResponse> {
    match event {
        EngineEvent::Info(it) => vec![UsiResponse::Info(info_of(it))],
        EngineEvent::BestMove(best) => vec![bestmove(best)],
        EngineEvent::BookMove(choice) => book_replies(choice),
        EngineEvent::Mate(result, stats) => mate_replies(result, stats).into(),
    }
}

/// An `info string <text>` line.
pub(crate) fn info_string(text: String) -> UsiResponse {
    UsiResponse::Info(Info { string: Some(text), ..Info::default() })
}

/// An `info string error: …` line.
pub(crate) fn error(e: impl std::fmt::Display) -> UsiResponse {
    info_string(format!("error: {e}"))
}

fn info_of(it: &Iteration) -> Info {
    Info {
        depth: Some(it.depth),
        seldepth: Some(it.seldepth),
        multipv: Some(it.multipv as u32),
        score: Some(InfoScore::of_value(it.score)),
        bound: match it.bound {
            ScoreBound::Exact => None,
            ScoreBound::Lower => Some(InfoBound::Lower),
            ScoreBound::Upper => Some(InfoBound::Upper),
        },
        nodes: Some(it.nodes),
        nps: Some(it.nodes * 1000 / it.time_ms.max(1)),
        hashfull: Some(it.hashfull),
        time: Some(it.time_ms),
        pv: it.pv.iter().map(|m| m.to_string()).collect(),
        ..Info::default()
    }
}

fn bestmove(best: &BestMove) -> UsiResponse {
    match best {
        BestMove::Move { best, ponder } => {
            UsiResponse::BestMove { mv: best.to_string(), ponder: ponder.map(|p| p.to_string()) }
        }
        BestMove::Resign => UsiResponse::BestMove { mv: "resign".into(), ponder: None },
        BestMove::Win => UsiResponse::BestMove { mv: "win".into(), ponder: None },
    }
}

/// Why the solve ended, its numbers (usi.md §7: info lines may precede `checkmate`), then the
/// answer. A search stopped (or out of time) before a proof is `timeout`, as ShogiHome's state
/// machine expects (usi.md §7; UNCONFIRMED for Shogidokoro); stopped while it looked for a
/// shorter mate, it answers with the mate it has.
fn mate_replies(result: &MateResult, stats: &MateStats) -> [UsiResponse; 3] {
    let checkmate = match result {
        MateResult::Mate(line) => Checkmate::Mate(line.iter().map(|m| m.to_string()).collect()),
        MateResult::NoMate => Checkmate::NoMate,
        MateResult::Unknown => Checkmate::Timeout,
    };
    [
        info_string(stats.report.to_string()),
        UsiResponse::Info(Info {
            nodes: Some(stats.nodes),
            time: Some(stats.time_ms),
            nps: Some(stats.nodes * 1000 / stats.time_ms.max(1)),
            hashfull: Some(stats.hashfull),
            ..Info::default()
        }),
        UsiResponse::Checkmate(checkmate),
    ]
}

/// The replies announcing the book's choice, `bestmove` last.
fn book_replies(choice: &BookChoice) -> Vec<UsiResponse> {
    let m = &choice.chosen;
    let mut replies = vec![info_string(format!("book {} (count {}, value {})", m.mv, m.count, m.value))];
    replies.extend(choice.candidates.iter().enumerate().map(|(i, c)| book_line(c, i + 1)));
    if choice.candidates.first() != Some(m) {
        replies.push(book_line(m, 1));
    }
    replies.push(UsiResponse::BestMove { mv: m.mv.to_string(), ponder: m.ponder.map(|p| p.to_string()) });
    replies
}

/// The `info` line of book move `m` as MultiPV line `multipv`: its value and depth, no search.
fn book_line(m: &BookMove, multipv: usize) -> UsiResponse {
    UsiResponse::Info(Info {
        depth: Some(m.depth.max(0) as u32),
        seldepth: Some(0),
        multipv: Some(multipv as u32),
        score: Some(InfoScore::of_value(m.value)),
        nodes: Some(0),
        nps: Some(0),
        hashfull: Some(0),
        time: Some(0),
        pv: std::iter::once(m.mv.to_string()).chain(m.ponder.map(|p| p.to_string())).collect(),
        ..Info::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn book_move(mv: &str, ponder: Option<&str>, value: i32, depth: i32) -> BookMove {
        let pos = Position::startpos();
        let parse = |p: &Position, s: &str| p.parse_usi_move(s).expect("legal");
        let mut next = pos.clone();
        let mv = parse(&pos, mv);
        next.do_move(mv);
        BookMove { mv, ponder: ponder.map(|p| parse(&next, p)), value, depth, count: 7 }
    }

    /// The lines announcing `m`, the only book move of the position.
    fn lines(m: &BookMove) -> Vec<String> {
        choice_lines(m, &[*m])
    }

    fn choice_lines(chosen: &BookMove, candidates: &[BookMove]) -> Vec<String> {
        let choice = BookChoice { chosen: *chosen, candidates: candidates.to_vec() };
        replies(&EngineEvent::BookMove(choice)).iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn a_book_move_is_announced_with_its_value_depth_and_line() {
        assert_eq!(
            lines(&book_move("7g7f", Some("3c3d"), 45, 22)),
            [
                "info string book 7g7f (count 7, value 45)",
                "info depth 22 seldepth 0 multipv 1 score cp 45 nodes 0 nps 0 hashfull 0 time 0 pv 7g7f 3c3d",
                "bestmove 7g7f ponder 3c3d",
            ]
        );
    }

    #[test]
    fn every_book_candidate_is_a_multipv_line_and_the_move_chosen_comes_last_as_line_1() {
        let (a, b) = (book_move("2g2f", Some("8c8d"), 40, 20), book_move("7g7f", None, 30, 18));
        assert_eq!(
            choice_lines(&b, &[a, b]),
            [
                "info string book 7g7f (count 7, value 30)",
                "info depth 20 seldepth 0 multipv 1 score cp 40 nodes 0 nps 0 hashfull 0 time 0 pv 2g2f 8c8d",
                "info depth 18 seldepth 0 multipv 2 score cp 30 nodes 0 nps 0 hashfull 0 time 0 pv 7g7f",
                "info depth 18 seldepth 0 multipv 1 score cp 30 nodes 0 nps 0 hashfull 0 time 0 pv 7g7f",
                "bestmove 7g7f",
            ]
        );
        assert_eq!(choice_lines(&a, &[a, b]).len(), 4, "the first is chosen: no line again");
    }

    #[test]
    fn a_book_move_without_value_or_depth_says_cp_0_depth_0() {
        assert_eq!(
            lines(&book_move("2g2f", None, 0, 0))[1..],
            ["info depth 0 seldepth 0 multipv 1 score cp 0 nodes 0 nps 0 hashfull 0 time 0 pv 2g2f", "bestmove 2g2f"]
        );
    }

    #[test]
    fn a_mate_value_is_announced_as_a_mate_score() {
        let line = |value| lines(&book_move("7g7f", None, value, 30))[1].clone();
        assert!(line(crate::eval::MATE - 9).contains(" multipv 1 score mate 9 nodes 0 "));
        assert!(line(-crate::eval::MATE + 4).contains(" multipv 1 score mate -4 nodes 0 "));
    }

    #[test]
    fn a_search_answer_is_a_bestmove_line() {
        let line = |b: BestMove| replies(&EngineEvent::BestMove(b))[0].to_string();
        let m = book_move("7g7f", Some("3c3d"), 0, 0);
        assert_eq!(line(BestMove::Move { best: m.mv, ponder: m.ponder }), "bestmove 7g7f ponder 3c3d");
        assert_eq!(line(BestMove::Move { best: m.mv, ponder: None }), "bestmove 7g7f");
        assert_eq!(line(BestMove::Resign), "bestmove resign");
        assert_eq!(line(BestMove::Win), "bestmove win");
    }

    #[test]
    fn an_iteration_is_an_info_line_with_its_bound() {
        let m = book_move("7g7f", Some("3c3d"), 0, 0);
        let it = Iteration {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score: 42,
            bound: ScoreBound::Lower,
            nodes: 3000,
            time_ms: 2,
            hashfull: 1,
            pv: vec![m.mv],
        };
        assert_eq!(
            replies(&EngineEvent::Info(it))[0].to_string(),
            "info depth 5 seldepth 7 multipv 1 score cp 42 lowerbound nodes 3000 nps 1500000 hashfull 1 time 2 pv 7g7f"
        );
    }
}
