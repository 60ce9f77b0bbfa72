//! The search's accumulator stack against fresh computations, and the linear path against
//! `eval::evaluate`.

use super::*;
use crate::eval::nnue::{Architecture, FeatureSet, Spread};
use crate::testing::MoveKinds;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Starting points: the even start, a handicap and the bench positions (drops, promotions and
/// exposed kings come quickly from the middlegames).
fn starts() -> Vec<Position> {
    let mut v = vec![Position::startpos(), Position::handicap(crate::Handicap::TwoPiece)];
    v.extend(crate::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()));
    v
}

/// Which steps the walks went through.
#[derive(Default, Debug)]
struct Seen {
    moves: MoveKinds,
    null_moves: usize,
    undos: usize,
    evaluations: usize,
}

/// Random walks through the evaluator as the search drives it: `push` or `push_null` before each
/// move, `played` after half of them (the rest left to the lazy update, which then walks back
/// over several plies), going back a ply on undo, and evaluating only at some plies. At every evaluation the stack's accumulator must equal a
/// fresh refresh of the position and its score the net's score from scratch.
fn walk(net: &Arc<Network>, seed: u64) -> Seen {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    let mut evaluator = Evaluator::default();
    evaluator.set_network(Some(Arc::clone(net)));
    let l1 = net.architecture().l1;
    for mut pos in starts() {
        evaluator.start(&pos);
        let mut ply = 0;
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if ply > 0 && (moves.is_empty() || rng.random_bool(0.2)) {
                pos.undo_move();
                ply -= 1;
                seen.undos += 1;
            } else if moves.is_empty() {
                break;
            } else if !pos.in_check() && rng.random_bool(0.1) {
                evaluator.push_null(ply + 1);
                pos.do_null_move();
                ply += 1;
                if rng.random_bool(0.5) {
                    evaluator.played(&pos, ply);
                }
                seen.null_moves += 1;
            } else {
                let m = moves[rng.random_range(0..moves.len())];
                seen.moves.count(&pos, m);
                evaluator.push(&pos, m, ply + 1);
                pos.do_move(m);
                ply += 1;
                if rng.random_bool(0.5) {
                    evaluator.played(&pos, ply);
                }
            }
            if rng.random_bool(0.4) {
                let score = evaluator.evaluate(&pos, ply);
                assert_eq!(score, net.evaluate_position(&pos), "{}", pos.to_sfen());
                let mut fresh = Accumulator::default();
                net.refresh(&pos, &mut fresh);
                let acc = evaluator.accumulator(&pos, ply).expect("a net is set");
                for c in Color::ALL {
                    assert_eq!(acc.half(c, l1), fresh.half(c, l1), "{c} half at ply {ply} of {}", pos.to_sfen());
                }
                seen.evaluations += 1;
            }
        }
        while ply > 0 {
            pos.undo_move();
            ply -= 1;
        }
    }
    seen
}

#[test]
fn the_search_accumulator_stack_equals_a_fresh_refresh_after_any_walk() {
    for (i, features) in [FeatureSet::HalfKP, FeatureSet::KP].into_iter().enumerate() {
        let arch = Architecture { features, l1: 64, l2: 32, l3: 32 };
        let net = Arc::new(Network::random(arch, 31 + i as u64, Spread::Typical));
        for seed in 0..3 {
            let seen = walk(&net, seed);
            // The walks must have gone through every kind of step.
            assert!(
                seen.moves.drops >= 20 && seen.moves.captures >= 20 && seen.moves.promotions >= 5,
                "{features:?} {seen:?}"
            );
            assert!(seen.moves.king_moves >= 20 && seen.null_moves >= 20 && seen.undos >= 50, "{features:?} {seen:?}");
            assert!(seen.evaluations >= 200, "{features:?} {seen:?}");
        }
    }
}

#[test]
fn without_a_net_the_evaluator_is_the_linear_evaluation() {
    let mut evaluator = Evaluator::default();
    assert!(evaluator.network().is_none());
    for sfen in crate::bench::POSITIONS {
        let pos = Position::from_sfen(sfen).expect("valid");
        evaluator.start(&pos);
        assert_eq!(evaluator.evaluate(&pos, 0), eval::evaluate(&pos), "{sfen}");
    }
}

#[test]
fn setting_another_net_or_none_switches_the_evaluation() {
    let arch = Architecture { features: FeatureSet::KP, l1: 32, l2: 8, l3: 8 };
    let net = Arc::new(Network::random(arch, 5, Spread::Typical));
    let pos = Position::from_sfen(crate::bench::POSITIONS[2]).expect("valid");
    let mut evaluator = Evaluator::default();
    evaluator.set_network(Some(Arc::clone(&net)));
    evaluator.start(&pos);
    assert_eq!(evaluator.evaluate(&pos, 0), net.evaluate_position(&pos));
    assert_ne!(net.evaluate_position(&pos), eval::evaluate(&pos), "the test needs a net that differs");
    evaluator.set_network(None);
    evaluator.start(&pos);
    assert_eq!(evaluator.evaluate(&pos, 0), eval::evaluate(&pos));
}
