//! The move picker hands out every legal move once, in its stages' order.

use super::*;
use crate::search::history::{NO_PREVIOUS, PreviousKeys};
use crate::types::Move;
use std::cmp::Reverse;

/// Every legal move (but useless non-promotions) comes out exactly once, whatever the killers.
fn picks_every_move_once(sfen: &str) {
    let pos = Position::from_sfen(sfen).expect("valid");
    let history = History::new();
    let legal: Vec<Move> = pos.legal_moves().iter().copied().filter(|&m| !is_useless_non_promotion(&pos, m)).collect();
    let tt = legal.last().copied();
    let ctx = Context { history: &history, killers: [legal.first().copied(), tt], previous: NO_PREVIOUS };
    let mut picker = MovePicker::new(&pos, tt, 5);
    let mut seen = Vec::new();
    while let Some(m) = picker.next(&pos, &ctx) {
        seen.push(m);
    }
    let mut a = seen.clone();
    a.sort_by_key(|m| m.bits());
    a.dedup();
    assert_eq!(a.len(), seen.len(), "a move came out twice in {sfen}");
    let mut b = legal.clone();
    b.sort_by_key(|m| m.bits());
    assert_eq!(a, b, "{sfen}");
    assert_eq!(seen.first().copied(), tt, "the TT move comes first");
}

#[test]
fn every_legal_move_exactly_once() {
    picks_every_move_once("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    picks_every_move_once("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    picks_every_move_once("ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62");
    // In check (evasions).
    picks_every_move_once("4k4/9/4P4/9/9/9/9/9/4K4 w G2r2b3g4s4n4l17p 1");
}

#[test]
fn a_table_move_of_any_bits_comes_out_only_if_legal() {
    // A table entry may hold any 16 bits (another position's move, a key collision): the
    // picker hands out the first move only if it is legal here.
    let pos =
        Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").expect("valid");
    let history = History::new();
    let ctx = Context { history: &history, killers: [None, None], previous: NO_PREVIOUS };
    for m in (0..=u16::MAX).filter_map(Move::from_bits) {
        let first = MovePicker::new(&pos, Some(m), 5).next(&pos, &ctx).expect("moves");
        assert!(pos.is_legal(first), "{m:?} gave {first:?}");
        let first = MovePicker::new_quiescence(&pos, Some(m)).next(&pos, &ctx);
        assert!(first.is_none_or(|f| pos.is_legal(f)), "{m:?} gave {first:?}");
    }
}

#[test]
fn good_captures_come_before_quiets_and_losing_captures_last() {
    // Black's rook can take an undefended silver (good) or a pawn defended by a gold (bad).
    let pos = Position::from_sfen("4k4/9/9/3gp4/9/9/9/2s1R4/4K4 b - 1").expect("valid");
    let history = History::new();
    let ctx = Context { history: &history, killers: [None, None], previous: NO_PREVIOUS };
    let mut picker = MovePicker::new(&pos, None, 5);
    let first = picker.next(&pos, &ctx).expect("moves");
    assert_eq!(first.to_string(), "5h7h");
    let mut last = None;
    while let Some(m) = picker.next(&pos, &ctx) {
        last = Some((m, picker.last_was_bad_capture()));
    }
    let (m, bad) = last.expect("more moves");
    assert!(bad && is_capture(&pos, m), "{m} last");
}

#[test]
fn quiet_moves_come_out_by_history() {
    // Reward a few quiet moves of the start position by different amounts: they come out
    // best first, and every move still comes out once.
    let pos = Position::startpos();
    let mut history = History::new();
    let us = pos.side_to_move();
    let rewarded = ["1g1f", "7g7f", "2g2f", "5i4h"];
    for (i, text) in rewarded.iter().enumerate() {
        let m = pos.parse_usi_move(text).expect("legal");
        let key = ContKey::of(&pos, m).expect("a piece moves");
        history.update(us, m, key, &NO_PREVIOUS, 1_000 * (i as i32 + 1));
    }
    let ctx = Context { history: &history, killers: [None, None], previous: NO_PREVIOUS };
    let mut picker = MovePicker::new(&pos, None, 3);
    let mut order = Vec::new();
    while let Some(m) = picker.next(&pos, &ctx) {
        order.push(m.to_string());
    }
    assert_eq!(order[..4], ["5i4h", "2g2f", "7g7f", "1g1f"]);
    assert_eq!(order.len(), pos.legal_moves().len());
}

/// White has four kinds of pieces to drop: hundreds of quiet moves, many of them checks.
const MANY_DROPS: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// A history that gives each quiet move of `pos` its own score, in an order unrelated to
/// generation order (7919 is invertible modulo the prime 10007), some under depth 1's limit.
fn scattered_history(pos: &Position) -> History {
    let mut generated = MoveList::new();
    generate(pos, Gen::Quiets, &mut generated);
    let mut history = History::new();
    for (i, &m) in generated.iter().enumerate() {
        let key = ContKey::of(pos, m).expect("a piece moves");
        history.update(pos.side_to_move(), m, key, &NO_PREVIOUS, (i as i32 * 7_919) % 10_007 - 5_003);
    }
    history
}

#[test]
fn hundreds_of_quiet_moves_come_out_best_first_as_far_as_they_reach_the_limit() {
    let pos = Position::from_sfen(MANY_DROPS).expect("valid");
    let us = pos.side_to_move();
    let history = scattered_history(&pos);
    let mut generated = MoveList::new();
    generate(&pos, Gen::Quiets, &mut generated);
    // The picker's score of each quiet move: history, then generation order (see `generate_quiets`).
    let mut quiets = Vec::new();
    for (i, &m) in generated.iter().enumerate() {
        let key = ContKey::of(&pos, m).expect("a piece moves");
        if !is_useless_non_promotion(&pos, m) {
            quiets.push((history.score(us, m, key, &NO_PREVIOUS) * TIE_SLOTS - i as i32, m));
        }
    }
    // The order of a full sort, as far as the moves reach depth 1's limit (the rest in any order).
    quiets.sort_by_key(|&(s, _)| Reverse(s));
    let good = quiets.iter().filter(|&&(s, _)| s >= -3_000 * TIE_SLOTS).count();
    assert!(good > 100 && good < quiets.len(), "{good} of {}", quiets.len());

    let ctx = Context { history: &history, killers: [None, None], previous: NO_PREVIOUS };
    let mut picker = MovePicker::new(&pos, None, 1);
    let mut picked = Vec::new();
    while let Some(m) = picker.next(&pos, &ctx) {
        if !is_capture(&pos, m) && !m.is_promotion() {
            picked.push(m);
        }
    }
    let sorted: Vec<Move> = quiets.iter().map(|&(_, m)| m).collect();
    assert_eq!(picked[..good], sorted[..good]);
    picked[good..].sort_by_key(|m| m.bits());
    let mut rest = sorted[good..].to_vec();
    rest.sort_by_key(|m| m.bits());
    assert_eq!(picked[good..], rest);
}

/// Every move `picker` hands out in `pos`, in USI.
fn picked(pos: &Position, mut picker: MovePicker) -> Vec<String> {
    let history = History::new();
    let ctx = Context { history: &history, killers: [None, None], previous: NO_PREVIOUS };
    let mut all = Vec::new();
    while let Some(m) = picker.next(pos, &ctx) {
        all.push(m.to_string());
    }
    all
}

#[test]
fn quiescence_hands_out_only_good_captures() {
    let pos = Position::from_sfen("4k4/9/9/3gp4/9/9/9/2s1R4/4K4 b - 1").expect("valid");
    assert_eq!(picked(&pos, MovePicker::new_quiescence(&pos, None)), ["5h7h"]);
}

#[test]
fn quiescence_in_check_hands_out_every_evasion_captures_or_not() {
    // The rook on 9i checks the king on 5i; the evasions are king moves, none a capture.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/r3K4 b - 1").expect("valid");
    let mut evasions = picked(&pos, MovePicker::new_quiescence(&pos, None));
    evasions.sort();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    assert!(!legal.is_empty());
    assert_eq!(evasions, legal);
}

#[test]
fn quiescence_promotes_pawns_but_not_other_pieces_without_a_capture() {
    // Black's pawn on 3d and silver on 7d can each move into the zone and promote; only the
    // pawn's promotion is a quiescence move (the silver's is positional).
    let pos = Position::from_sfen("4k4/9/9/2S3P2/9/9/9/9/4K4 b - 1").expect("valid");
    assert_eq!(picked(&pos, MovePicker::new_quiescence(&pos, None)), ["3d3c+"]);
    // The main search's picker still hands out the silver's promotions.
    let mut promotions = picked(&pos, MovePicker::new(&pos, None, 1));
    promotions.retain(|m| m.ends_with('+'));
    promotions.sort();
    assert_eq!(promotions, ["3d3c+", "7d6c+", "7d7c+", "7d8c+"]);
}

/// Draws `switch_after` quiet moves from a picker at `depth`, then asks for quiet checks only
/// (below history `below` if given, else all; all if asked before the quiet moves), and returns
/// what it handed out and the unswitched order less the quiet moves so excluded, with the
/// number of moves dropped.
fn switched_and_expected(
    pos: &Position,
    history: &History,
    depth: i32,
    switch_after: usize,
    below: Option<i32>,
) -> (Vec<Move>, Vec<Move>, usize, usize) {
    let ctx = Context { history, killers: [None, None], previous: NO_PREVIOUS };
    let all: Vec<Move> = {
        let mut picker = MovePicker::new(pos, None, depth);
        std::iter::from_fn(|| picker.next(pos, &ctx)).collect()
    };
    let is_quiet = |m: Move| !is_capture(pos, m) && !m.is_promotion();
    let score = |m: Move| history.score(pos.side_to_move(), m, ContKey::of(pos, m).expect("a piece"), &NO_PREVIOUS);
    let switch = all.iter().position(|&m| is_quiet(m)).expect("quiet moves") + switch_after;
    // Told before the quiet moves are generated (no killers: before the first quiet move), the
    // picker leaves out every quiet non-check, those above the history bound too.
    let exempt = |m: Move| below.is_some_and(|b| score(m) >= b) && switch_after > 0;
    let mut picker = MovePicker::new(pos, None, depth);
    let mut got: Vec<Move> = (0..switch).map(|_| picker.next(pos, &ctx).expect("a move")).collect();
    match below {
        Some(b) => picker.quiet_checks_below(b, &pos.check_squares()),
        None => picker.quiet_checks_only(&pos.check_squares()),
    }
    got.extend(std::iter::from_fn(|| picker.next(pos, &ctx)));
    let expected: Vec<Move> = all
        .iter()
        .enumerate()
        .filter(|&(i, &m)| i < switch || !is_quiet(m) || exempt(m) || pos.gives_check(m))
        .map(|(_, &m)| m)
        .collect();
    let dropped = all.len() - expected.len();
    (got, expected, switch, dropped)
}

/// After a switch to quiet checks only, what follows is exactly the quiet checks not yet handed
/// out, in the same order as without the switch, then the losing captures.
fn quiet_checks_only_keeps_the_order(pos: &Position, history: &History, depth: i32, switch_after: usize) {
    let (got, expected, switch, dropped) = switched_and_expected(pos, history, depth, switch_after, None);
    let is_quiet = |m: Move| !is_capture(pos, m) && !m.is_promotion();
    let checks = expected[switch..].iter().filter(|&&m| is_quiet(m)).count();
    assert!(dropped > 20 && checks >= 2, "{dropped} quiet moves skipped, {checks} quiet checks kept");
    assert_eq!(got, expected);
}

#[test]
fn once_told_quiet_checks_only_the_picker_hands_out_no_other_quiet_move() {
    // A middle-game position with checking drops and board moves among the quiet moves.
    let pos = Position::from_sfen("ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62")
        .expect("valid");
    quiet_checks_only_keeps_the_order(&pos, &History::new(), 5, 3);
}

#[test]
fn quiet_checks_come_in_history_order_before_and_after_the_first_sorted_moves() {
    // The position with hundreds of drops, with a scattered history: the switch comes before,
    // at and after the end of the moves the picker sorts first, so the checks among the rest
    // are sorted on their own.
    let pos = Position::from_sfen(MANY_DROPS).expect("valid");
    let history = scattered_history(&pos);
    for depth in [1, 5] {
        for switch_after in [1, FIRST_SORTED, FIRST_SORTED + 5] {
            quiet_checks_only_keeps_the_order(&pos, &history, depth, switch_after);
        }
    }
}

/// After a switch to quiet checks only below history `below`, what follows is the unswitched
/// order less the quiet moves below it that do not check.
fn quiet_checks_below_keeps_the_order(pos: &Position, history: &History, depth: i32, switch_after: usize, below: i32) {
    let (got, expected, _, dropped) = switched_and_expected(pos, history, depth, switch_after, Some(below));
    assert!(dropped > 5, "{dropped} quiet moves skipped below {below}");
    assert_eq!(got, expected, "depth {depth}, switch after {switch_after}, below {below}");
}

#[test]
fn told_a_history_bound_the_picker_hands_out_only_checks_below_it() {
    // The position with hundreds of drops and a scattered history (from −5,003 to 5,003): the
    // bound falls among the first sorted moves, among the rest, and below depth 1's limit.
    let pos = Position::from_sfen(MANY_DROPS).expect("valid");
    let history = scattered_history(&pos);
    for depth in [1, 3] {
        for switch_after in [0, 1, FIRST_SORTED + 5] {
            for below in [4_000, 0, -2_500, -4_000] {
                quiet_checks_below_keeps_the_order(&pos, &history, depth, switch_after, below);
            }
        }
    }
}

/// The quiet moves scored as they are generated get the scores worked out move by move from
/// the board: history (butterfly and every continuation row) × `TIE_SLOTS` less the index, and
/// `SKIP` for the moves handed out before and the useless non-promotions; the same moves in the
/// same order; where only checks are wanted, the checks alone with the same scores. Over random
/// walks from the start and from a position rich in drops, with a history learnt under random
/// previous moves.
#[test]
fn quiet_moves_scored_as_generated_score_as_move_by_move() {
    use rand::{Rng, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(7);
    let (mut skipped, mut quiet_checks) = (0, 0);
    for start in ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", MANY_DROPS] {
        let mut pos = Position::from_sfen(start).expect("valid");
        for _ in 0..150 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut any = || Some(legal[rng.random_range(0..legal.len())]);
            let previous: PreviousKeys = std::array::from_fn(|_| any().and_then(|m| ContKey::of(&pos, m)));
            let handed_out = [any(), any(), None, any()];
            let mut history = History::new();
            for _ in 0..200 {
                let m = legal[rng.random_range(0..legal.len())];
                let key = ContKey::of(&pos, m).expect("a piece moves");
                history.update(pos.side_to_move(), m, key, &previous, rng.random_range(-9_000..9_000));
            }
            let us = pos.side_to_move();
            let mut generated = MoveList::new();
            generate(&pos, Gen::Quiets, &mut generated);
            let expected: Vec<(Move, i32)> = generated
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    if handed_out.contains(&Some(m)) || is_useless_non_promotion(&pos, m) {
                        (m, SKIP)
                    } else {
                        let key = ContKey::of(&pos, m).expect("a piece moves");
                        (m, history.score(us, m, key, &previous) * TIE_SLOTS - i as i32)
                    }
                })
                .collect();
            skipped += expected.iter().filter(|&&(_, s)| s == SKIP).count();
            // All quiet moves, then only the checks, each with its score in the whole list.
            let checks = pos.check_squares();
            for filter in [None, Some(checks)] {
                let (mut moves, mut scores) = (MoveList::new(), FixedList::new());
                let scorer = history.quiet_scorer(us, &previous);
                let mut sink = QuietSink::new(&pos, &mut moves, &mut scores, scorer, handed_out, filter);
                generate_to(&pos, Gen::Quiets, &mut sink);
                let got: Vec<(Move, i32)> = moves.iter().copied().zip(scores.iter().copied()).collect();
                let wanted: Vec<(Move, i32)> =
                    expected.iter().copied().filter(|&(m, _)| filter.is_none() || pos.gives_check(m)).collect();
                assert_eq!(got, wanted, "{} checks only: {}", pos.to_sfen(), filter.is_some());
                quiet_checks += filter.map_or(0, |_| got.len());
            }
            pos.do_move(legal[rng.random_range(0..legal.len())]);
        }
    }
    assert!(skipped > 50, "moves skipped: {skipped}");
    assert!(quiet_checks > 100, "quiet checks: {quiet_checks}");
}
