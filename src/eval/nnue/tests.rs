//! Behaviour of the whole inference: incremental accumulators against fresh ones, the two
//! kernels against each other, the forward pass against hand-computed integers, symmetry.

use super::*;
use crate::position::Position;
use crate::testing::MoveKinds;
use crate::types::{Color, Piece, Square};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Small shapes keep the tests fast; the 256-wide ones are in the file tests and the bench.
fn small(features: FeatureSet) -> Architecture {
    Architecture { features, l1: 64, l2: 32, l3: 32 }
}

/// Starting points: the even start, a handicap, and the bench's middlegames and endgames.
fn starts() -> Vec<Position> {
    let mut v = vec![Position::startpos(), Position::handicap(crate::Handicap::TwoPiece)];
    v.extend(crate::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()));
    v
}

/// Positions along seeded random playouts from every start (for comparisons per position).
fn sample_positions(seed: u64, plies: usize) -> Vec<Position> {
    crate::bench::random_walks(starts(), plies, &mut StdRng::seed_from_u64(seed))
}

/// Which kinds of move a playout went through.
#[derive(Default, Debug)]
struct Seen {
    moves: MoveKinds,
    undos: usize,
}

/// Random playouts that also step back (undo = pop the accumulator stack), checking after every
/// step that the incrementally kept accumulator equals a fresh refresh and gives its score.
fn check_incremental(net: &Network, seed: u64) -> Seen {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    for start in starts() {
        let mut pos = start;
        let mut stack = vec![Accumulator::default()];
        net.refresh(&pos, &mut stack[0]);
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() || (stack.len() > 1 && rng.random_bool(0.15)) {
                if stack.len() == 1 {
                    break;
                }
                pos.undo_move();
                stack.pop();
                seen.undos += 1;
            } else {
                let m = moves[rng.random_range(0..moves.len())];
                seen.moves.count(&pos, m);
                let dirty = DirtyPieces::of_move(&pos, m);
                pos.do_move(m);
                let mut next = Accumulator::default();
                let prev = stack.last().expect("never empty");
                net.update(prev, &dirty, &pos, &mut next);
                stack.push(next);
            }
            let mut fresh = Accumulator::default();
            net.refresh(&pos, &mut fresh);
            let top = stack.last().expect("never empty");
            let l1 = net.architecture().l1;
            for c in Color::ALL {
                assert_eq!(
                    top.half(c, l1),
                    fresh.half(c, l1),
                    "{c} half after {} in {}",
                    pos.game_ply(),
                    pos.to_sfen()
                );
            }
            assert_eq!(net.evaluate(top, pos.side_to_move()), net.evaluate_position(&pos));
        }
    }
    seen
}

#[test]
fn accumulator_after_any_do_undo_sequence_equals_a_fresh_refresh() {
    for (i, features) in [FeatureSet::HalfKP, FeatureSet::KP].into_iter().enumerate() {
        let mut net = Network::random(small(features), 11 + i as u64, Spread::Typical);
        for kernel in [Some(Kernel::Scalar), Kernel::avx2()].into_iter().flatten() {
            net.set_kernel(kernel);
            let seen = check_incremental(&net, 5);
            // The playouts must have gone through every kind of change.
            assert!(seen.moves.drops >= 50 && seen.moves.captures >= 50 && seen.moves.promotions >= 10, "{seen:?}");
            assert!(seen.moves.king_moves >= 50 && seen.undos >= 50, "{seen:?}");
        }
    }
}

#[test]
fn a_king_move_refreshes_only_its_own_half_under_halfkp() {
    let pos = Position::startpos();
    let m = crate::types::Move::normal(sq("5i"), sq("4h"), false);
    let dirty = DirtyPieces::of_move(&pos, m);
    assert_eq!(dirty.king_moved(), Some(Color::Black));
    let mut acc = Accumulator::default();
    let mut next = Accumulator::default();
    for (features, black_updates) in [(FeatureSet::HalfKP, false), (FeatureSet::KP, true)] {
        let net = Network::random(small(features), 3, Spread::Typical);
        net.refresh(&pos, &mut acc);
        assert_eq!(net.update_perspective(&acc, &dirty, Color::Black, &mut next), black_updates);
        assert!(net.update_perspective(&acc, &dirty, Color::White, &mut next));
    }
}

#[test]
fn both_kernels_give_the_same_outputs() {
    let Some(avx2) = Kernel::avx2() else {
        println!("skipped: this CPU has no AVX2");
        return;
    };
    let positions = sample_positions(21, 60);
    let shapes = [
        small(FeatureSet::HalfKP),
        Architecture { features: FeatureSet::KP, l1: 256, l2: 32, l3: 32 },
        // Hidden widths that are not multiples of 32 take the kernels' remainder paths.
        Architecture { features: FeatureSet::KP, l1: 160, l2: 40, l3: 8 },
        Architecture { features: FeatureSet::HalfKP, l1: 32, l2: 8, l3: 72 },
        // 48 = 32 + 16 and 24 = 16 + 8: the clipped ReLU's group of 16, with and without more.
        Architecture { features: FeatureSet::KP, l1: 64, l2: 48, l3: 24 },
        // 224 = 128 + 64 + 32: the accumulator's three tile widths in one half.
        Architecture { features: FeatureSet::KP, l1: 224, l2: 16, l3: 16 },
    ];
    for (i, arch) in shapes.into_iter().enumerate() {
        for spread in [Spread::Typical, Spread::Full] {
            let mut net = Network::random(arch, 100 + i as u64, spread);
            let (mut a, mut b) = (Accumulator::default(), Accumulator::default());
            for pos in &positions {
                net.set_kernel(Kernel::Scalar);
                net.refresh(pos, &mut a);
                let scalar = net.propagate(&a, pos.side_to_move());
                net.set_kernel(avx2);
                net.refresh(pos, &mut b);
                assert_eq!(a, b, "{arch:?} {spread:?} accumulators of {}", pos.to_sfen());
                assert_eq!(net.propagate(&b, pos.side_to_move()), scalar, "{arch:?} {spread:?} {}", pos.to_sfen());
            }
        }
    }
}

#[test]
fn accumulate_takes_the_last_row_and_refuses_any_past_it() {
    // The row check guards the AVX2 kernel's unchecked loads.
    let (l1, rows) = (32, 3);
    let weights: Vec<i16> = (0..(rows * l1) as i16).collect();
    let src = vec![1i16; l1];
    for kernel in std::iter::once(Kernel::Scalar).chain(Kernel::avx2()) {
        let mut dst = vec![0i16; l1];
        kernel.accumulate(&mut dst, &src, &weights, l1, &[0], &[2]);
        let expected: Vec<i16> = (0..l1).map(|i| 1 - weights[i] + weights[2 * l1 + i]).collect();
        assert_eq!(dst, expected, "{}", kernel.name());
        for past in [3, u32::MAX] {
            let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                kernel.accumulate(&mut dst, &src, &weights, l1, &[], &[past]);
            }));
            assert!(refused.is_err(), "{}: row {past} of {rows} taken", kernel.name());
        }
    }
}

#[test]
fn weights_changed_after_an_evaluation_are_used_by_both_kernels() {
    // The AVX2 kernel keeps a regrouped copy of a layer's weights: a change must reach it.
    let Some(avx2) = Kernel::avx2() else {
        println!("skipped: this CPU has no AVX2");
        return;
    };
    let mut net = Network::random(Architecture { features: FeatureSet::KP, l1: 64, l2: 16, l3: 16 }, 7, Spread::Full);
    let pos = Position::startpos();
    let mut acc = Accumulator::default();
    net.refresh(&pos, &mut acc);
    net.set_kernel(avx2);
    let before = net.propagate(&acc, pos.side_to_move());
    for layer in &mut net.layers_mut()[..2] {
        layer.weights_mut().iter_mut().for_each(|w| *w = w.wrapping_neg());
    }
    let after = net.propagate(&acc, pos.side_to_move());
    net.set_kernel(Kernel::Scalar);
    assert_eq!(after, net.propagate(&acc, pos.side_to_move()));
    assert_ne!(after, before, "negated hidden weights change this net's output");
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

/// A zero net with only the weights a test sets.
fn hand_made(l1: usize) -> Network {
    Network::zeroed(Architecture { features: FeatureSet::KP, l1, l2: 32, l3: 32 })
}

#[test]
fn the_forward_pass_follows_yaneuraous_integer_steps() {
    // Transformer biases: 200 clamps to 127, -5 to 0, 64 stays; both halves alike (zero weights).
    let mut net = hand_made(32);
    let (biases, _) = net.transformer_mut();
    biases[..3].copy_from_slice(&[200, -5, 64]);
    let [first, second, output] = net.layers_mut();
    // 127 * 1 + 0 * 9 + 64 * 2 + (other half's first input) 127 * 1 = 382; 382 >> 6 = 5.
    let n = first.padded_inputs;
    first.weights_mut()[..3].copy_from_slice(&[1, 9, 2]);
    first.weights_mut()[32] = 1;
    first.weights_mut()[n + 1] = 50; // row 1 sees only the clamped 0: 0 + bias -1 >> 6 = -1 -> 0
    first.biases[1] = -1;
    // 5 * 3 + 640 = 655; 655 >> 6 = 10.
    second.weights_mut()[0] = 3;
    second.biases[0] = 640;
    let stride = second.padded_inputs;
    second.weights_mut()[stride + 1] = 100; // row 1 reads hidden 1 = 0
    // 10 * 5 + 14 = 64; 64 / 16 = 4.
    output.weights_mut()[..2].copy_from_slice(&[5, 127]);
    output.biases[0] = 14;
    let pos = Position::startpos();
    assert_eq!(net.evaluate_position(&pos), 4);
    // -50 + 14 = -36; C++ division truncates: -36 / 16 = -2 (not -3).
    net.layers_mut()[2].weights_mut()[0] = -5;
    assert_eq!(net.evaluate_position(&pos), -2);
}

#[test]
fn the_side_to_move_half_comes_first() {
    // Row 1 is "the friend's first pawn in hand": only the half of the side holding it sees it.
    let mut net = hand_made(32);
    let (_, weights) = net.transformer_mut();
    weights[32] = 100;
    let [first, second, output] = net.layers_mut();
    first.weights_mut()[0] = 64; // 100 * 64 >> 6 = 100
    second.weights_mut()[0] = 64; // 100 * 64 >> 6 = 100
    output.weights_mut()[0] = 16; // 100 * 16 / 16 = 100
    let black = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").expect("valid");
    let white = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").expect("valid");
    assert_eq!(net.evaluate_position(&black), 100);
    assert_eq!(net.evaluate_position(&white), 0);
}

/// `pos` turned 180° with colours, hands and the side to move swapped.
fn colour_flipped(pos: &Position) -> Position {
    let setup = pos.to_setup();
    let mut flipped = setup.clone();
    for s in Square::all() {
        flipped.board[s.rotate().index()] = setup.board[s.index()].map(|p| Piece::new(!p.color(), p.kind()));
    }
    flipped.hands = [setup.hands[1], setup.hands[0]];
    flipped.side_to_move = !setup.side_to_move;
    Position::from_setup(&flipped).expect("a flipped legal position is legal")
}

#[test]
fn the_colour_flipped_position_has_the_same_features_and_score() {
    let nets = [FeatureSet::HalfKP, FeatureSet::KP].map(|f| Network::random(small(f), 9, Spread::Typical));
    for pos in sample_positions(4, 40) {
        let flipped = colour_flipped(&pos);
        for net in &nets {
            let set = net.architecture().features;
            for c in Color::ALL {
                let mut a = features::active(set, &pos, c).as_slice().to_vec();
                let mut b = features::active(set, &flipped, !c).as_slice().to_vec();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{set:?} {c} of {}", pos.to_sfen());
            }
            assert_eq!(net.evaluate_position(&pos), net.evaluate_position(&flipped), "{}", pos.to_sfen());
        }
    }
}

#[test]
fn a_position_without_a_black_king_still_evaluates() {
    // Tsume setups may leave out Black's king; it is taken to stand on 5i.
    let tsume = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").expect("valid");
    let home = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1").expect("valid");
    let net = Network::random(small(FeatureSet::HalfKP), 2, Spread::Typical);
    assert_eq!(net.evaluate_position(&tsume), net.evaluate_position(&home));
}

#[test]
fn weights_give_back_the_same_network_and_file() {
    for arch in [small(FeatureSet::KP), Architecture { features: FeatureSet::HalfKP, l1: 32, l2: 8, l3: 16 }] {
        let net = Network::random(arch, 5, Spread::Full);
        let w = net.weights();
        // Unpadded rows: the first layer has 2 * l1 inputs, the output layer l3 (padded to 32).
        let [first, _, output] = &w.layers;
        assert_eq!((first.inputs, first.weights.len()), (2 * arch.l1, arch.l2 * 2 * arch.l1));
        assert_eq!((output.inputs, output.weights.len()), (arch.l3, arch.l3));
        let again = Network::from_weights(&w).expect("a network's own weights fit it");
        assert_eq!(again, net);
        assert_eq!(again.to_bytes(), net.to_bytes(), "the same nn.bin bytes");
    }
}

#[test]
fn weights_of_the_wrong_size_are_refused() {
    let arch = small(FeatureSet::KP);
    let mut w = NetworkWeights::zeroed(arch);
    assert_eq!(Network::from_weights(&w).map(|n| n.weights()), Ok(w.clone()));
    w.layers[1].weights.pop();
    let err = Network::from_weights(&w).expect_err("one weight short");
    assert_eq!(err, WeightsError::WrongSize { part: "second layer's weights", expected: 32 * 32, found: 32 * 32 - 1 });
    let bad = Architecture { l2: 12, ..arch };
    assert_eq!(Network::from_weights(&NetworkWeights { arch: bad, ..w }).err(), Some(WeightsError::Unsupported(bad)));
}
