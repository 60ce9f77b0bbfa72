//! The edges of the USI engine (issue 11, part 4): end of input during a search, book moves
//! announced with an `info` line, nothing printed before `usi` on piped input, and `position`
//! errors that name the move.

mod support;

use hisha::Position;
use std::time::Duration;
use support::usi::{Engine, Piped, bestmove_of, nodes_of, run_piped};

/// Generous: the machine running the tests may be loaded; none of these measures speed.
const EXIT: Duration = Duration::from_secs(60);

/// Runs the engine on `input` (stdin then closed) and checks that it exited with 0.
fn usi(input: &str) -> Piped {
    let run = run_piped(&[], input, EXIT);
    assert_eq!(run.code, Some(0), "{input:?}: {:?}\n{}", run.stdout, run.stderr);
    run
}

/// Checks that `lines` hold exactly one `bestmove`, as the last line, with a legal move of `pos`;
/// returns the move.
fn one_legal_bestmove(lines: &[String], pos: &Position) -> String {
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_eq!(lines.last(), Some(best[0]), "bestmove comes last: {lines:?}");
    let mv = bestmove_of(best[0]);
    assert!(pos.parse_usi_move(&mv).is_ok(), "illegal {mv}: {lines:?}");
    mv
}

#[test]
fn end_of_input_lets_a_bounded_search_finish_and_print_its_bestmove() {
    let run = usi("position startpos\ngo depth 6\n");
    one_legal_bestmove(&run.stdout, &Position::startpos());
    // The search ran to its depth: end of input did not cut it short.
    assert!(run.stdout.iter().any(|l| l.starts_with("info depth 6 ")), "{:?}", run.stdout);
    let after =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").expect("valid");
    for go in ["go nodes 5000", "go movetime 200", "go btime 0 wtime 0 byoyomi 200", "go btime 500 wtime 500 binc 100"]
    {
        let run = usi(&format!("position startpos moves 7g7f\n{go}\n"));
        one_legal_bestmove(&run.stdout, &after);
    }
}

#[test]
fn end_of_input_stops_a_search_only_stop_would_end() {
    for go in ["go infinite", "go ponder btime 0 wtime 0 byoyomi 1000", "go"] {
        let run = usi(&format!("position startpos\n{go}\n"));
        one_legal_bestmove(&run.stdout, &Position::startpos());
    }
}

#[test]
fn end_of_input_during_go_mate_answers_checkmate_then_exits() {
    // yumei 0216 (将棋月報 1927): 5 plies (as in tests/usi.rs). `go mate infinite` runs to its
    // proof even after end of input.
    let sfen = "7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1";
    let run = usi(&format!("position sfen {sfen}\ngo mate infinite\n"));
    let last = run.stdout.last().expect("a line");
    assert!(last.starts_with("checkmate "), "{:?}", run.stdout);
    let mut pos = Position::from_sfen(sfen).expect("valid");
    for m in last.split_whitespace().skip(1) {
        let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{last}: {e}"));
        pos.do_move(mv);
    }
    assert!(pos.is_checkmate(), "{last}");
    // A problem hisha does not solve in seconds (tests/usi.rs HARD): the time limit answers.
    let hard = "position sfen 9/9/3R5/5k3/2B6/3r1B3/9/9/9 b 4g4s4n4l18p 1";
    let run = usi(&format!("{hard}\ngo mate 300\n"));
    assert_eq!(run.stdout.last().map(String::as_str), Some("checkmate timeout"), "{:?}", run.stdout);
    assert_eq!(run.stdout.iter().filter(|l| l.starts_with("checkmate")).count(), 1);
}

#[test]
fn piped_input_prints_nothing_before_usi() {
    let run = usi("");
    assert!(run.stdout.is_empty(), "{:?}", run.stdout);
    assert_eq!(run.stderr, "", "the terminal notice is for terminals only");
    let run = usi("usi\n");
    assert!(run.stdout[0].starts_with("id name hisha"), "{:?}", run.stdout);
    assert_eq!(run.stderr, "");
}

#[test]
fn a_bad_position_names_the_move_its_number_and_the_rule() {
    let run = usi("position startpos moves 7g7f 3c3d 8h2b 2b2a\nposition startpos moves 7g7f x9\n");
    assert_eq!(
        run.stdout,
        [
            "info string error: position: move 4 (2b2a) is illegal: the piece on the origin square is not yours",
            "info string error: position: move 2: not a USI move: \"x9\" (too short)",
        ]
    );
}

#[test]
fn a_book_move_is_announced_with_an_info_line_before_bestmove() {
    let dir = support::temp_dir("usi-edges-book");
    let book = dir.join("b.db");
    // One position, one move: value 35, depth 16, count 4 (YaneuraOu's `move ponder value depth count`).
    std::fs::write(
        &book,
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f 1c1d 35 16 4\n",
    )
    .expect("write");
    let run = usi(&format!(
        "setoption name BookFile value {}\nisready\nposition startpos\ngo btime 0 wtime 0 byoyomi 1000\n",
        book.display()
    ));
    let _ = std::fs::remove_dir_all(dir);
    let n = run.stdout.len();
    assert!(n >= 4, "{:?}", run.stdout);
    assert_eq!(
        run.stdout[n - 3..],
        [
            "info string book 9g9f (count 4, value 35)",
            "info depth 16 seldepth 0 multipv 1 score cp 35 nodes 0 nps 0 hashfull 0 time 0 pv 9g9f 1c1d",
            "bestmove 9g9f ponder 1c1d",
        ]
    );
}

/// The first move of every `pv` in `lines`.
fn pv_heads(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1))
        .filter_map(|pv| pv.split(' ').next())
        .map(String::from)
        .collect()
}

#[test]
fn go_searchmoves_searches_only_the_moves_named() {
    // Unrestricted, depth 4 from the start plays 2g2f (the search's own choice, with the book off);
    // restricted to the edge pawn, it must play and analyse 1g1f only.
    let off = "setoption name UseBook value false\nposition startpos\n";
    let free = usi(&format!("{off}go depth 4\n"));
    assert_ne!(one_legal_bestmove(&free.stdout, &Position::startpos()), "1g1f", "{:?}", free.stdout);
    let run = usi(&format!("{off}go depth 4 searchmoves 1g1f\n"));
    assert_eq!(one_legal_bestmove(&run.stdout, &Position::startpos()), "1g1f");
    let heads = pv_heads(&run.stdout);
    assert!(!heads.is_empty() && heads.iter().all(|m| m == "1g1f"), "{:?}", run.stdout);
    // Two moves: the answer is one of them.
    let run = usi(&format!("{off}go depth 4 searchmoves 9g9f 1g1f\n"));
    let best = one_legal_bestmove(&run.stdout, &Position::startpos());
    assert!(best == "9g9f" || best == "1g1f", "{:?}", run.stdout);
}

#[test]
fn go_searchmoves_reports_a_move_that_is_not_legal_and_searches_the_rest() {
    let run = usi("setoption name UseBook value false\nposition startpos\ngo depth 3 searchmoves 5e5d 1g1f\n");
    assert_eq!(
        run.stdout[0],
        "info string error: go: searchmoves: illegal move 5e5d: there is no piece on the origin square (ignored)"
    );
    assert_eq!(one_legal_bestmove(&run.stdout, &Position::startpos()), "1g1f");
}

#[test]
fn go_searchmoves_passes_over_a_mate_it_was_not_asked_about() {
    // G*5b mates at once; asked about G*1a only, the root mate probe must not answer G*5b.
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    let run = usi(&format!("position sfen {sfen}\ngo depth 3 searchmoves G*1a\n"));
    assert_eq!(one_legal_bestmove(&run.stdout, &Position::from_sfen(sfen).expect("valid")), "G*1a");
    assert!(pv_heads(&run.stdout).iter().all(|m| m == "G*1a"), "{:?}", run.stdout);
}

#[test]
fn go_searchmoves_is_not_answered_from_the_book() {
    // The built-in book (on by default) knows the start position; the moves asked about come first.
    let run = usi("position startpos\ngo depth 2 searchmoves 1g1f\n");
    assert!(!run.stdout.iter().any(|l| l.starts_with("info string book")), "{:?}", run.stdout);
    assert_eq!(one_legal_bestmove(&run.stdout, &Position::startpos()), "1g1f");
}

#[test]
fn a_go_while_searching_is_refused_with_one_error_line() {
    // The second go is refused before its words are read: no searchmoves complaint as well.
    let run = usi("position startpos\ngo infinite\ngo depth 2 searchmoves zz\nstop\n");
    let errors: Vec<&String> = run.stdout.iter().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors, ["info string error: go: a search is already running (send stop first)"], "{:?}", run.stdout);
    one_legal_bestmove(&run.stdout, &Position::startpos());
}

#[test]
fn a_hash_the_system_cannot_give_is_cut_to_what_it_grants_and_said() {
    // USI_Hash's maximum: 65536 MiB. Where the system refuses it (a machine with less memory, no
    // swap), hisha used to abort with "memory allocation of … bytes failed" and no `readyok`; it
    // now takes the largest power of two that the system grants and says so. The table's pages
    // are zeroed lazily, so this touches only what the search uses.
    let run =
        usi("setoption name USI_Hash value 65536\nisready\nusinewgame\nposition startpos moves 7g7f\ngo depth 3\n");
    assert!(run.stdout.iter().any(|l| l == "readyok"), "{:?}\n{}", run.stdout, run.stderr);
    for warning in run.stdout.iter().filter(|l| l.starts_with("info string warning")) {
        let has: usize = warning
            .split("it has ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no size in {warning:?}"));
        assert!(has < 65536 && has.is_power_of_two(), "{warning}");
    }
    let after =
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").expect("valid");
    one_legal_bestmove(&run.stdout, &after);
}

/// The nodes of the depth-4 iteration's `info` line, and every `info string` line. (The `quit`
/// right after `go` stops the search at its first look at the input, after 1,024 nodes, where
/// the last `info` gives the whole search's nodes: the same count for any tree; depth 4 is done
/// in fewer.)
fn nodes_and_notes(p: &Piped) -> (Option<u64>, Vec<&str>) {
    let nodes = p.stdout.iter().filter(|l| l.starts_with("info depth 4 ")).find_map(|l| nodes_of(l));
    (nodes, p.stdout.iter().filter(|l| l.starts_with("info string")).map(String::as_str).collect())
}

#[test]
fn tunable_search_constants_are_offered_only_by_usi_tunable_and_change_the_search() {
    let script = |setting: &str| {
        format!("usi\n{setting}\nsetoption name UseBook value false\nisready\nposition startpos\ngo depth 7\nquit\n")
    };
    let limit = Duration::from_secs(60);
    let plain = run_piped(&[], &script("setoption name lmr_divisor value 120"), limit);
    let listed = |p: &Piped| p.stdout.iter().any(|l| l.starts_with("option name lmr_divisor "));
    assert!(!listed(&plain), "a GUI sees only the engine's options");
    let (_, notes) = nodes_and_notes(&plain);
    assert!(notes.iter().any(|l| l.contains("unknown option") && l.contains("lmr_divisor")), "{notes:?}");

    let default = run_piped(&["usi", "--tunable"], &script(""), limit);
    let offered = "option name lmr_divisor type spin default 176 min 100 max 400";
    assert!(default.stdout.iter().any(|l| l == offered), "{:?}", default.stdout);
    let tuned = run_piped(&["usi", "--tunable"], &script("setoption name LMR_DIVISOR value 120"), limit);
    let refused = run_piped(&["usi", "--tunable"], &script("setoption name lmr_divisor value 99"), limit);
    let ((d, _), (t, t_notes), (r, r_notes)) =
        (nodes_and_notes(&default), nodes_and_notes(&tuned), nodes_and_notes(&refused));
    assert!(d.is_some() && t.is_some(), "{:?}", default.stdout);
    assert!(t_notes.iter().all(|l| !l.contains("error")), "{t_notes:?}");
    assert_ne!(t, d, "more reductions search another tree");
    assert!(r_notes.iter().any(|l| l.contains("lmr_divisor must lie in 100..=400, not 99")), "{r_notes:?}");
    assert_eq!(r, d, "a refused value leaves the default in force");
    // The plain engine searched with the defaults too.
    assert_eq!(nodes_and_notes(&plain).0, d);
}

/// The nodes of a `go depth 8` after 7g7f 3c3d 2g2f by `hisha usi --tunable`, searched to the
/// end (`bestmove` read before `quit`), with `setting` sent first; no `info string` may say error.
fn depth8_nodes(setting: &str) -> u64 {
    let mut engine = Engine::start(&["usi", "--tunable"]);
    for line in ["usi", setting, "setoption name UseBook value false", "isready"] {
        engine.send(line);
    }
    engine.until("readyok", EXIT);
    engine.send("position startpos moves 7g7f 3c3d 2g2f");
    engine.send("go depth 8");
    let lines = engine.until("bestmove", EXIT);
    engine.send("quit");
    assert!(lines.iter().all(|l| !(l.starts_with("info string") && l.contains("error"))), "{setting}: {lines:?}");
    let last = lines.iter().rev().find(|l| l.starts_with("info depth 8 ")).unwrap_or_else(|| panic!("{lines:?}"));
    nodes_of(last).unwrap_or_else(|| panic!("{last}"))
}

#[test]
fn each_yaneuraou_style_reduction_term_is_off_by_default_and_changes_the_search_when_set() {
    let default = depth8_nodes("");
    // Setting each to 0 is the default: the same tree.
    for name in ["lmr_not_improving_scale", "lmr_move_count", "lmr_all_node_scale"] {
        assert_eq!(depth8_nodes(&format!("setoption name {name} value 0")), default, "{name} 0");
    }
    // YaneuraOu's values: each term reduces the late moves otherwise, so the tree changes.
    for (name, value) in [("lmr_not_improving_scale", 206), ("lmr_move_count", 65), ("lmr_all_node_scale", 273)] {
        assert_ne!(depth8_nodes(&format!("setoption name {name} value {value}")), default, "{name} {value}");
    }
}
