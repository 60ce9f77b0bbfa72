//! Perft suite driver: every position and count in `tests/data/perft.txt` (each count carries its
//! source there). Counts above `HISHA_PERFT_MAX_NODES` (default 250 million) are left to the
//! ignored `perft_suite_deep` test, run with `cargo test --release -- --ignored`.

use hisha::Position;
use hisha::perft::{divide, perft};

struct Case {
    id: String,
    sfen: String,
    depth: u32,
    count: u64,
}

fn suite() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut cases = Vec::new();
    let (mut id, mut sfen) = (String::new(), String::new());
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("sfen ") {
            sfen = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace().map(|x| x.parse::<u64>().expect("number"));
            let (depth, count) = (it.next().expect("depth"), it.next().expect("count"));
            cases.push(Case { id: id.clone(), sfen: sfen.clone(), depth: depth as u32, count });
        }
    }
    cases
}

fn budget() -> u64 {
    std::env::var("HISHA_PERFT_MAX_NODES").ok().and_then(|v| v.parse().ok()).unwrap_or(250_000_000)
}

fn run(filter: impl Fn(&Case) -> bool) -> usize {
    let mut ran = 0;
    for case in suite().iter().filter(|c| filter(c)) {
        let mut pos = Position::from_sfen(&case.sfen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(perft(&mut pos, case.depth), case.count, "{} depth {}", case.id, case.depth);
        assert_eq!(pos.to_sfen(), Position::from_sfen(&case.sfen).expect("valid").to_sfen(), "perft must undo");
        ran += 1;
    }
    ran
}

#[test]
fn perft_suite_within_budget() {
    let b = budget();
    let ran = run(|c| c.count <= b);
    assert!(ran >= 60, "only {ran} cases ran");
}

#[test]
#[ignore = "minutes of work: startpos depth 6-7, matsuri depth 4, the 593-move position depth 4"]
fn perft_suite_deep() {
    let b = budget();
    run(|c| c.count > b);
}

#[test]
fn startpos_to_depth_5() {
    // Q (ak11's Qiita perft summary), agreed by YaneuraOu, cshogi, rsshogi and others.
    let mut pos = Position::startpos();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(counts, [30, 900, 25_470, 719_731, 19_861_490]);
}

#[test]
fn every_handicap_start_is_in_the_suite_to_depth_4() {
    let suite = suite();
    for h in hisha::Handicap::ALL {
        let pos = Position::handicap(h);
        assert!(
            suite.iter().any(|c| c.depth >= 4 && Position::from_sfen(&c.sfen).is_ok_and(|p| p == pos)),
            "{h:?} has no depth-4 count"
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut pos =
        Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").expect("matsuri");
    let parts = divide(&mut pos, 2);
    assert_eq!(parts.len(), 207);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 28_684);
}
