//! Solver unit tests on small problems (the suite is tests/data/tsume.txt).

use super::*;

fn solve(sfen: &str) -> MateResult {
    let pos = Position::from_sfen(sfen).expect("valid");
    MateSolver::new(16).solve(
        &pos,
        &MateLimits { nodes: Some(2_000_000), ..MateLimits::default() },
        &AtomicBool::new(false),
    )
}

fn usi(r: &MateResult) -> Vec<String> {
    match r {
        MateResult::Mate(l) => l.iter().map(|m| m.to_string()).collect(),
        other => panic!("no mate: {other:?}"),
    }
}

#[test]
fn mate_in_one_with_a_gold_drop() {
    assert_eq!(usi(&solve("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")), ["G*5b"]);
    let mut p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("valid");
    assert_eq!(mate_in_one(&mut p).map(|m| m.to_string()), Some("G*5b".into()));
}

#[test]
fn pawn_drop_mate_is_not_a_mate() {
    // shared/data/perft_public.tsv uchifuzume_85: P*1b would mate but is illegal; the lance
    // and silver cannot mate either, and Black has nothing else.
    let r = solve("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert_ne!(r, MateResult::Mate(vec![Move::drop(crate::PieceKind::Pawn, "1b".parse().expect("square"))]));
    if let MateResult::Mate(line) = &r {
        assert!(!line.iter().any(|m| m.to_string() == "P*1b"));
    }
}

#[test]
fn no_checks_no_mate() {
    assert_eq!(solve("4k4/9/9/9/9/9/9/9/4K4 b - 1"), MateResult::NoMate);
}

#[test]
fn stop_flag_gives_unknown() {
    let pos = Position::from_sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1").expect("valid");
    let r = MateSolver::new(16).solve(&pos, &MateLimits::default(), &AtomicBool::new(true));
    assert_eq!(r, MateResult::Unknown);
}
