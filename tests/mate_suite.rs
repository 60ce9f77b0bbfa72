//! The tsume suite (tests/data/tsume.txt, read by `hisha::mate::suite`): every problem's answer
//! from the df-pn solver, each mating line replayed and checked here with the rules of the game.
//! Then long problems through `go mate` and `hisha mate`: the whole time budget used, and why
//! the solve ended said.
//!
//! The problems marked `slow` run with `cargo test --release --test mate_suite -- --ignored`.

mod support;

use hisha::Position;
use hisha::mate::suite::{Answer, Problem, parse};
use hisha::mate::{MateLimits, MateResult, MateSolver};
use hisha::types::{MoveKind, PieceKind};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use support::usi::Engine;

const SUITE: &str = include_str!("data/tsume.txt");

/// Nodes a problem may use: ample for every problem of the suite (the slowest needs a few million),
/// so that a regression fails instead of running for ever.
const NODE_LIMIT: u64 = 100_000_000;

/// Checks that `line` is a mate from `sfen`: every move legal, the attacker's moves checks, the
/// defender's moves evasions, the last position checkmate and not reached by a pawn drop.
fn check_mating_line(sfen: &str, line: &[String]) -> Result<(), String> {
    let mut pos = Position::from_sfen(sfen).map_err(|e| e.to_string())?;
    if line.len() % 2 == 0 {
        return Err(format!("even length {}", line.len()));
    }
    let mut last = None;
    for (i, text) in line.iter().enumerate() {
        let m = pos.parse_usi_move(text).map_err(|e| format!("ply {}: {e}", i + 1))?;
        pos.do_move(m);
        if i % 2 == 0 && !pos.in_check() {
            return Err(format!("ply {}: {text} is not a check", i + 1));
        }
        last = Some(m);
    }
    if !pos.is_checkmate() {
        return Err("the line does not end in checkmate".to_string());
    }
    // Checked apart from the legality above: a pawn drop never mates (uchifuzume).
    if let Some(m) = last.filter(|m| matches!(m.kind(), MoveKind::Drop { kind: PieceKind::Pawn, .. })) {
        return Err(format!("mate by a pawn drop {m}"));
    }
    Ok(())
}

/// Solves one problem with a fresh table and returns what went wrong, if anything.
fn run(solver: &mut MateSolver, p: &Problem) -> Option<String> {
    solver.clear();
    let pos = match Position::from_sfen(&p.sfen) {
        Ok(pos) => pos,
        Err(e) => return Some(format!("line {}: {e}", p.line)),
    };
    let limits = MateLimits { nodes: Some(NODE_LIMIT), ..MateLimits::default() };
    let result = solver.solve(&pos, &limits, &AtomicBool::new(false));
    let fail = |what: String| Some(format!("line {} ({}): {what}", p.line, p.source));
    match (&result, p.answer) {
        (MateResult::NoMate, Answer::NoMate) => None,
        (MateResult::Mate(line), Answer::Mate(n)) => {
            let line: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            if line.len() as u32 != n {
                return fail(format!("mate in {} instead of {n}: {}", line.len(), line.join(" ")));
            }
            if !solver.shortest() {
                return fail("the length is not proven the shortest".to_string());
            }
            check_mating_line(&p.sfen, &line).err().and_then(|e| fail(format!("{e}: {}", line.join(" "))))
        }
        (r, a) => fail(format!("expected {a}, got {r:?}")),
    }
}

fn run_suite(slow: bool) {
    let problems = parse(SUITE).expect("the suite parses");
    let mut solver = MateSolver::new(64);
    let mut failures = Vec::new();
    let mut count = 0;
    for p in problems.iter().filter(|p| p.slow == slow) {
        count += 1;
        failures.extend(run(&mut solver, p));
    }
    assert!(count > 0);
    assert!(failures.is_empty(), "{} of {count} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn tsume_suite_fast_problems() {
    run_suite(false);
}

#[test]
#[ignore = "minutes: the suite's long problems (run with --ignored)"]
fn tsume_suite_slow_problems() {
    run_suite(true);
}

#[test]
fn the_suite_covers_short_and_long_mates_and_no_mates() {
    let problems = parse(SUITE).expect("the suite parses");
    let fast: Vec<&Problem> = problems.iter().filter(|p| !p.slow).collect();
    for n in (1..=15).step_by(2) {
        assert!(fast.iter().any(|p| p.answer == Answer::Mate(n)), "no fast mate in {n}");
    }
    assert!(fast.iter().any(|p| matches!(p.answer, Answer::Mate(n) if n > 15)));
    assert!(fast.iter().filter(|p| p.answer == Answer::NoMate).count() >= 5);
    assert!(problems.iter().all(|p| !p.source.is_empty()), "every problem names its source");
}

#[test]
fn the_line_checker_rejects_non_mates() {
    // yumei 0216's solution, then spoilt: cut short, a quiet first move, an illegal move.
    let sfen = "7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1";
    let line = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert_eq!(check_mating_line(sfen, &line("S*2c 2b1c 2c1b+ 1c1b G*2c")), Ok(()));
    assert!(check_mating_line(sfen, &line("S*2c 2b1c 2c1b+")).is_err());
    assert!(check_mating_line(sfen, &line("G*5e 2b1c 2c1b+ 1c1b G*2c")).is_err());
    assert!(check_mating_line(sfen, &line("S*2c 2b2b 2c1b+ 1c1b G*2c")).is_err());
    // A pawn drop that would mate is illegal, so the checker refuses it.
    let trap = "7nk/9/7G1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
    assert!(check_mating_line(trap, &line("P*1b")).is_err());
}

/// Asuka (明日香, 703 plies): the SFEN of issue 11, also among the test positions of a public mate
/// solver. Far beyond a few seconds of search.
const ASUKA: &str = "s1+P2+p+plG/1P+B+p1+PP2/g1+pn4+L/+P1sr+p3G/1+p1+P1+p2l/5pn1k/2p1+B4/+Pp+RNgs1L1/1+P2N1S2 b - 1";

#[test]
fn go_mate_on_a_long_problem_runs_to_its_deadline_and_says_why_it_stopped() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send(&format!("position sfen {ASUKA}"));
    let start = Instant::now();
    e.send("go mate 1500");
    let lines = e.until("checkmate", Duration::from_secs(30));
    let used = start.elapsed();
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"), "{lines:?}");
    // It stopped after 0.3 s when its proof numbers overflowed; the wall clock is what counts.
    assert!(used >= Duration::from_millis(1_350), "answered after {used:?}: {lines:?}");
    let why = lines.iter().find(|l| l.starts_with("info string mate: "));
    assert!(why.is_some_and(|l| l.contains("time limit reached before a proof")), "{lines:?}");
}

#[test]
fn hisha_mate_says_on_stderr_why_it_stopped() {
    let out = support::hisha(&["mate", ASUKA, "--time", "1000", "--hash", "16"]);
    assert!(out.status.success());
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().next(), Some("unknown"), "{stdout}");
    assert!(stderr.starts_with("mate: time limit reached before a proof or disproof; "), "{stderr}");
    assert!(stderr.contains("table 16 MiB"), "{stderr}");
}
