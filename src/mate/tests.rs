//! Solver unit tests on small problems and rule cases (the suite is tests/data/tsume.txt). Every
//! expected answer was checked with cshogi 0.9 (`DfPn`, `OslDfPn` and `Board.mate_move`).

use super::*;
use line::verify;

fn solve_with(sfen: &str, limits: MateLimits) -> MateResult {
    let pos = Position::from_sfen(sfen).expect("valid");
    MateSolver::new(16).solve(&pos, &limits, &AtomicBool::new(false))
}

fn solve(sfen: &str) -> MateResult {
    solve_with(sfen, MateLimits { nodes: Some(2_000_000), ..MateLimits::default() })
}

fn usi(r: &MateResult) -> Vec<String> {
    match r {
        MateResult::Mate(l) => l.iter().map(|m| m.to_string()).collect(),
        other => panic!("no mate: {other:?}"),
    }
}

fn mate_len(sfen: &str) -> usize {
    let r = solve(sfen);
    let line = usi(&r);
    let MateResult::Mate(moves) = &r else { unreachable!() };
    assert!(verify(&Position::from_sfen(sfen).expect("valid"), moves), "{line:?}");
    line.len()
}

#[test]
fn mate_in_one_with_a_gold_drop() {
    assert_eq!(usi(&solve("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")), ["G*5b"]);
    let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("valid");
    assert_eq!(mate_in_one(&p).map(|m| m.to_string()), Some("G*5b".into()));
}

#[test]
fn a_mating_pawn_drop_is_not_a_mate_but_a_pawn_push_is() {
    // The pawn drop P*1b would mate, which makes it illegal (uchifuzume); the gold's checks are
    // taken by the king. cshogi: DfPn and OslDfPn find no mate.
    let drop = "7nk/9/7G1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
    assert_eq!(solve(drop), MateResult::NoMate);
    assert_eq!(mate_in_one(&Position::from_sfen(drop).expect("valid")), None);
    // The same pawn already on the board may push to mate (tsukifuzume is legal).
    let push = "7nk/9/7GP/9/9/9/9/9/9 b 2r2b3g4s3n4l17p 1";
    assert_eq!(mate_len(push), 1);
    // shared/data/perft_public.tsv uchifuzume_85: no mate either.
    assert_eq!(solve("7lk/9/8S/9/9/9/9/7L1/8K b P 1"), MateResult::NoMate);
}

#[test]
fn an_interposing_drop_refutes_a_distant_check() {
    // The rook drop mates when the defender has nothing to interpose ...
    assert_eq!(usi(&solve("7lk/7p1/9/9/9/9/9/9/9 b R 1")).len(), 1);
    // ... and not when it holds a gold, or every remaining piece.
    assert_eq!(solve("7lk/7p1/9/9/9/9/9/9/9 b Rg 1"), MateResult::NoMate);
    assert_eq!(solve("7lk/7p1/9/9/9/9/9/9/9 b Rr2b4g4s4n3l17p 1"), MateResult::NoMate);
}

#[test]
fn a_useless_interposition_counts_in_the_length() {
    // nsolver's 無駄合い判定: S*1c 2b1c 2c2e+ mates but for the interposition P*2c (taken by the
    // dragon), which the full-width length counts: 5 plies (cshogi mate_move: 5).
    assert_eq!(mate_len("8l/7sk/7R1/6B2/9/8b/9/9/9 b Sr4g2s4n3l18p 1"), 5);
}

#[test]
fn perpetual_check_is_not_a_mate() {
    // akicho8/shogi-extend's position for perpetual check (連続王手の千日手): checks forever, no mate.
    assert_eq!(solve("9/9/8l/8k/6KR1/8p/9/9/9 b - 1"), MateResult::NoMate);
}

#[test]
fn no_checks_no_mate() {
    assert_eq!(solve("4k4/9/9/9/9/9/9/9/4K4 b - 1"), MateResult::NoMate);
    assert_eq!(solve("4k4/9/9/9/9/9/9/9/9 b Gr2b3g4s4n4l18p 1"), MateResult::NoMate);
}

#[test]
fn shortest_mate_and_longest_resistance() {
    // yumei 0224 (待宵 第5番): published 7 plies; the defender's useless interposition at the end
    // makes 9 full width (cshogi mate_move: no mate in 7, mate in 9).
    assert_eq!(mate_len("7nl/5+R3/7k1/6p1p/9/6P1P/9/9/9 b 2GSr2b2g3s3n3l14p 1"), 9);
    // yumei 0227 (象戯馬法并作物 第28番): published 13, full width 15 (mate_move: 15).
    assert_eq!(mate_len("7nl/5k3/3BPpppp/9/9/6P2/9/9/9 b GSN2rb3g3s2n3l12p 1"), 15);
}

#[test]
fn the_attacker_may_start_in_check_and_the_defender_may_check_back() {
    // yumei2 0233: Black starts in check from the knight and answers with a king move that
    // discovers check (cshogi DfPn: 7 plies full width).
    assert_eq!(mate_len("3Bl4/4l4/6SS1/5+R2s/4n2k1/5+R3/5K2S/5+p3/3B5 b 4g3n2l17p 1"), 7);
    // yumei2 0229: the defender's interposition checks Black's king (mate_move: 11).
    assert_eq!(mate_len("3l5/S8/lp1+r5/k8/l8/2K6/b1p6/9/1L3+B3 b R4g3s4n16p 1"), 11);
}

#[test]
fn a_ply_limit_bounds_the_search() {
    let sfen = "6Gnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b2gs3n3l16p 1"; // yumei 0415: 7 plies
    assert_eq!(solve_with(sfen, MateLimits { max_ply: Some(5), ..MateLimits::default() }), MateResult::NoMate);
    let r = solve_with(sfen, MateLimits { max_ply: Some(7), ..MateLimits::default() });
    assert_eq!(usi(&r).len(), 7);
}

#[test]
fn stop_flag_and_node_limit_give_unknown() {
    let pos = Position::from_sfen("8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1").expect("valid");
    let r = MateSolver::new(16).solve(&pos, &MateLimits::default(), &AtomicBool::new(true));
    assert_eq!(r, MateResult::Unknown);
    let r = MateSolver::new(16).solve(
        &pos,
        &MateLimits { nodes: Some(100), ..MateLimits::default() },
        &AtomicBool::new(false),
    );
    assert_eq!(r, MateResult::Unknown);
}

#[test]
fn the_shortest_flag_tells_whether_the_length_is_proven() {
    let pos = Position::from_sfen("6Gnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b2gs3n3l16p 1").expect("valid");
    let mut s = MateSolver::new(16);
    assert!(matches!(s.solve(&pos, &MateLimits::default(), &AtomicBool::new(false)), MateResult::Mate(_)));
    assert!(s.shortest());
    assert!(s.nodes() > 0);
}

#[test]
fn a_solver_keeps_its_table_between_solves() {
    // Solving again with what the first solve learnt gives the same answer with fewer nodes.
    // Bounded, so that no pass cuts repetitions (a solve clears the facts of such passes before
    // its bounded ones).
    let pos = Position::from_sfen("9/9/3BLk3/9/9/2NSp+pR2/9/9/9 b 2N3Prb4g3sn3l13p 1").expect("valid");
    let mut s = MateSolver::new(16);
    let limits = MateLimits { max_ply: Some(31), ..MateLimits::default() };
    let first = s.solve(&pos, &limits, &AtomicBool::new(false));
    let n1 = s.nodes();
    let second = s.solve(&pos, &limits, &AtomicBool::new(false));
    assert_eq!(first, second);
    assert_eq!(usi(&first).len(), 17); // yumei 0252 (二上, 柏川悦夫): 17 plies
    assert!(s.nodes() < n1 / 10, "{} then {}", n1, s.nodes());
    s.clear();
    s.solve(&pos, &limits, &AtomicBool::new(false));
    assert_eq!(s.nodes(), n1);
}

#[test]
fn a_table_too_small_is_garbage_collected_and_the_problem_still_solved() {
    // yumei 0295: 11 plies (cshogi mate_move) in about 200 000 nodes, six times what 1 MiB holds.
    let pos = Position::from_sfen("4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1").expect("valid");
    let mut s = MateSolver::new(1);
    let r = s.solve(&pos, &MateLimits::default(), &AtomicBool::new(false));
    assert_eq!(usi(&r).len(), 11);
    assert!(s.shortest());
    let report = s.report();
    assert!(report.gc_runs > 0, "{report}");
    assert_eq!((report.end, report.mate, report.table_mib), (MateEnd::Solved, Some(11), 1));
}

#[test]
fn overflowing_numbers_are_started_afresh_and_the_search_goes_on() {
    // yumei 0216 (5 plies), with every check's disproof number in the table at "infinite" (what
    // sums reach when they overflow): the root's numbers are reset and the mate found.
    let mut pos = Position::from_sfen("7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1").expect("valid");
    let mut s = MateSolver::new(1);
    let limits = MateLimits::default();
    s.prepare(&pos, &limits);
    let mut checks = crate::movegen::MoveList::new();
    crate::movegen::generate(&pos, crate::movegen::Gen::Checks, &mut checks);
    for &m in checks.iter() {
        pos.do_move(m);
        s.table.put_open(s.board_of(&pos), pos.hand(Color::Black), 1, table::INF, 1);
        pos.undo_move();
    }
    assert_eq!(usi(&s.solve(&pos, &limits, &AtomicBool::new(false))).len(), 5);
    assert_eq!(s.report().number_resets, 1);
}

#[test]
fn a_fact_that_runs_out_of_nodes_is_searched_again_with_more() {
    // yumei 0252: 17 plies. With the table emptied and a fact budget of 16 nodes, the line's facts
    // run out of nodes until the budget has been doubled enough.
    let pos = Position::from_sfen("9/9/3BLk3/9/9/2NSp+pR2/9/9/9 b 2N3Prb4g3sn3l13p 1").expect("valid");
    let mut s = MateSolver::new(16);
    let stop = AtomicBool::new(false);
    assert_eq!(usi(&s.solve(&pos, &MateLimits::default(), &stop)).len(), 17);
    s.table.clear();
    s.fact_budget = 16;
    let line = s.line_within_budget(&pos, 17, true, &stop).expect("a line");
    assert_eq!(line.len(), 17);
    assert!(verify(&pos, &line));
    assert!(s.fact_budget > 16, "{}", s.fact_budget);
}

#[test]
fn every_early_stop_is_named() {
    let hard = Position::from_sfen("9/9/3R5/5k3/2B6/3r1B3/9/9/9 b 4g4s4n4l18p 1").expect("valid"); // 45 plies
    let mut s = MateSolver::new(1);
    let mut end = |limits: MateLimits, stop: bool| {
        assert_eq!(s.solve(&hard, &limits, &AtomicBool::new(stop)), MateResult::Unknown);
        s.report().end
    };
    assert_eq!(end(MateLimits::default(), true), MateEnd::Stopped);
    assert_eq!(end(MateLimits { nodes: Some(5_000), ..MateLimits::default() }, false), MateEnd::NodeLimit);
    let now = Some(std::time::Instant::now());
    assert_eq!(end(MateLimits { deadline: now, ..MateLimits::default() }, false), MateEnd::Deadline);
    // A mate found, then the node limit while shorter ones are looked for: yumei 0252 proves a
    // mate of 19 plies first.
    let pos = Position::from_sfen("9/9/3BLk3/9/9/2NSp+pR2/9/9/9 b 2N3Prb4g3sn3l13p 1").expect("valid");
    let mut s = MateSolver::new(16);
    let r = s.solve(&pos, &MateLimits { nodes: Some(30_000), ..MateLimits::default() }, &AtomicBool::new(false));
    let report = s.report();
    assert!(matches!(r, MateResult::Mate(_)) && !s.shortest(), "{r:?}");
    assert_eq!(report.end, MateEnd::NodeLimit);
    assert!(report.to_string().contains("not proven shortest"), "{report}");
}

#[test]
fn a_long_problem_uses_its_whole_time_budget() {
    // Asuka (明日香, 703 plies): it stopped after 136 000 nodes (0.3 s) when 32-bit proof numbers
    // overflowed. Now it searches until the deadline (wall clock, so robust under load).
    let pos = Position::from_sfen(
        "s1+P2+p+plG/1P+B+p1+PP2/g1+pn4+L/+P1sr+p3G/1+p1+P1+p2l/5pn1k/2p1+B4/+Pp+RNgs1L1/1+P2N1S2 b - 1",
    )
    .expect("valid");
    let budget = std::time::Duration::from_millis(2_000);
    let start = std::time::Instant::now();
    let limits = MateLimits { deadline: Some(start + budget), ..MateLimits::default() };
    let mut s = MateSolver::new(16);
    assert_eq!(s.solve(&pos, &limits, &AtomicBool::new(false)), MateResult::Unknown);
    let used = start.elapsed();
    assert!(used >= budget * 9 / 10, "stopped after {used:?}: {}", s.report());
    assert!(used < budget + std::time::Duration::from_secs(5), "{used:?}");
    assert_eq!(s.report().end, MateEnd::Deadline);
}

#[test]
fn verify_rejects_bad_lines() {
    let root = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").expect("valid");
    let m = |s: &str| root.parse_usi_move(s).expect("legal");
    assert!(verify(&root, &[m("G*5b")]));
    assert!(!verify(&root, &[m("G*4b")]), "not mate");
    assert!(!verify(&root, &[m("G*6a")]), "not check");
    assert!(!verify(&root, &[]), "empty");
}

#[test]
fn probes() {
    let mut probe = MateProbe::new(4);
    // yumei 0216: 5 plies.
    let mut pos = Position::from_sfen("7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1").expect("valid");
    let before = pos.clone();
    let (m, len) = probe.probe(&mut pos, 7, 10_000).expect("mate within 7");
    assert_eq!((m.to_string(), len), ("S*2c".to_string(), 5));
    assert_eq!(pos, before);
    assert_eq!(pos.game_ply(), before.game_ply());
    // Not within 3 plies, and not with too few nodes.
    assert_eq!(probe.probe(&mut pos, 3, 10_000), None);
    let mut fresh = MateProbe::new(4);
    assert_eq!(fresh.probe(&mut pos, 7, 3), None);
    // Uchifuzume: no mate in one.
    let mut p = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1").expect("valid");
    assert_eq!(probe.probe(&mut p, 5, 10_000), None);
}

#[test]
#[ignore = "about 10 million nodes (30-60 s); run with --ignored"]
fn passes_that_cut_repetitions_do_not_mislead_the_bounded_ones() {
    // yumei 0278: a solve with a 25-ply bound finds a mate within 25 plies, so the unbounded solve
    // must not prove "no mate within 25" (it did when the bounded passes read the facts of the
    // first pass, which cuts repetitions, and answered a 27-ply line). Both prove 23 plies, and
    // answer a line of 23 (the line builder once searched the facts after an evasion as the
    // defender's and answered the 25-ply line of an earlier pass).
    let sfen = "4r4/3rkB3/4B4/9/9/9/9/9/9 b G3g4s4n4l18p 1";
    let limits = MateLimits { max_ply: Some(25), nodes: Some(50_000_000), ..MateLimits::default() };
    let bounded = solve_with(sfen, limits);
    let unbounded = solve_with(sfen, MateLimits { max_ply: None, ..limits });
    let (b, u) = (usi(&bounded).len(), usi(&unbounded).len());
    assert_eq!((b, u), (23, 23));
}
