//! Move generation checked against itself and the rules: staged generators against filtering
//! the legal list, `check_move` against generation, and one test per illegal-move rule.

use super::*;
use crate::position::{Handicap, IllegalMoveKind, MoveError};
use crate::types::{MoveKind, UsiMove};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::collections::BTreeSet;

fn set(list: &MoveList) -> BTreeSet<u16> {
    list.iter().map(|m| m.bits()).collect()
}

fn generated(pos: &Position, kind: Gen) -> MoveList {
    let mut l = MoveList::new();
    generate(pos, kind, &mut l);
    l
}

/// The moves of `legal` that leave the opponent in check, found by playing each one.
fn checking_moves(pos: &mut Position, legal: &MoveList) -> BTreeSet<u16> {
    let mut checks = BTreeSet::new();
    for &m in legal.iter() {
        pos.do_move(m);
        if pos.in_check() {
            checks.insert(m.bits());
        }
        pos.undo_move();
    }
    checks
}

/// Visits positions of seeded random games from several starts, biased toward captures and
/// checks so that hands, drops and evasions are common.
fn visit_random_positions(seed: u64, games: usize, mut f: impl FnMut(&mut Position)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for g in 0..games {
        let mut pos = Position::handicap(Handicap::ALL[g % 16]);
        for _ in 0..220 {
            f(&mut pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.piece_on(m.to()).is_some()).collect();
            let m = if !captures.is_empty() && rng.random_bool(0.5) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.do_move(m);
        }
    }
}

#[test]
fn staged_generators_partition_the_legal_moves() {
    let mut positions = 0;
    visit_random_positions(21, 60, |pos| {
        positions += 1;
        let legal = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), legal.len() as u64);
        assert_eq!(set(&legal).len(), legal.len(), "duplicates in {}", pos.to_sfen());
        let caps = generated(pos, Gen::Captures);
        let quiets = generated(pos, Gen::Quiets);
        let expected_caps: BTreeSet<u16> =
            legal.iter().filter(|m| m.is_promotion() || pos.piece_on(m.to()).is_some()).map(|m| m.bits()).collect();
        assert_eq!(set(&caps), expected_caps, "captures in {}", pos.to_sfen());
        let expected_quiets: BTreeSet<u16> = set(&legal).difference(&expected_caps).copied().collect();
        assert_eq!(set(&quiets), expected_quiets, "quiets in {}", pos.to_sfen());
        assert_eq!(caps.len() + quiets.len(), legal.len());
        // Quiescence's moves: the captures, and the pawns' promotions that capture nothing, in
        // the order of the captures generator (the search's order depends on it).
        let quiescence = generated(pos, Gen::QuiescenceCaptures);
        let pawn = |m: &Move| pos.moved_piece(*m).is_some_and(|p| p.kind() == PieceKind::Pawn);
        let expected: Vec<Move> =
            caps.iter().copied().filter(|m| pos.piece_on(m.to()).is_some() || (m.is_promotion() && pawn(m))).collect();
        assert_eq!(quiescence.iter().copied().collect::<Vec<_>>(), expected, "quiescence in {}", pos.to_sfen());
        let checks = generated(pos, Gen::Checks);
        assert_eq!(set(&checks), checking_moves(pos, &legal), "checks in {}", pos.to_sfen());
    });
    assert!(positions > 5000);
}

#[test]
fn checks_generator_covers_discovered_promoting_and_dropped_checks() {
    // Counts worked out by hand (comments) and checked against making every legal move.
    let cases = [
        // The silver on 5e shields White's king on 5a from the rook on 5i: its four moves off the
        // file (4d, 6d, 4f, 6f) uncover check; 5d does not.
        ("4k4/9/9/9/4S4/9/9/9/4R3K b - 1", 4),
        // The knight on 1g shields the king on 1a from the lance on 1i: 1g2e uncovers check.
        ("8k/9/9/9/9/9/8N/9/4K3L b - 1", 1),
        // Pawn 5c-5b with and without promotion; silver 4c to 4b or 5b, each promoted or not.
        ("4k4/9/4PS3/9/9/9/9/9/4K4 b - 1", 6),
        // Drops against a bare king on 5a: rook 15 (file 5 and rank a), bishop 8, gold 5, silver 3,
        // knight 2 (4c, 6c), lance 7 (5b-5h).
        ("4k4/9/9/9/9/9/9/9/4K4 b RBGSNL 1", 40),
        // White to move with no Black king: nothing can give check.
        ("4k4/9/9/9/9/9/9/4r4/4S4 w - 1", 0),
    ];
    for (sfen, count) in cases {
        let mut pos = Position::from_sfen(sfen).expect("valid test position");
        let legal = pos.legal_moves();
        let expected = checking_moves(&mut pos, &legal);
        let got = generated(&pos, Gen::Checks);
        assert_eq!(set(&got), expected, "{sfen}");
        assert_eq!(got.len(), count, "{sfen}: {got:?}");
    }
}

/// Every move that could be written: all origin/destination pairs with both promotion flags and
/// all drops.
fn every_conceivable_move() -> Vec<Move> {
    let mut v = Vec::new();
    for from in crate::types::Square::all() {
        for to in crate::types::Square::all() {
            if from != to {
                v.push(Move::normal(from, to, false));
                v.push(Move::normal(from, to, true));
            }
        }
    }
    for to in crate::types::Square::all() {
        for k in PieceKind::HAND {
            v.push(Move::drop(k, to));
        }
    }
    v
}

#[test]
fn check_move_accepts_exactly_the_generated_moves() {
    let all = every_conceivable_move();
    let mut n = 0;
    visit_random_positions(22, 16, |pos| {
        n += 1;
        if n % 7 != 0 {
            return;
        }
        let legal = set(&pos.legal_moves());
        for &m in &all {
            assert_eq!(pos.is_legal(m), legal.contains(&m.bits()), "{m} in {}", pos.to_sfen());
        }
    });
}

fn rule(sfen: &str, mv: &str) -> Result<(), IllegalMoveKind> {
    let pos = Position::from_sfen(sfen).expect("valid test position");
    let m: UsiMove = mv.parse().expect("valid syntax");
    let r = pos.check_move(m.to_move());
    // The generator must agree with the verdict.
    assert_eq!(pos.legal_moves().iter().any(|x| x.to_usi() == m), r.is_ok(), "{mv} in {sfen}");
    r
}

const START: &str = crate::position::sfen::STARTPOS;

#[test]
fn nifu() {
    assert_eq!(rule("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"), Err(IllegalMoveKind::Nifu));
    assert_eq!(rule("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e"), Ok(()), "a tokin does not count");
    assert_eq!(rule("4k4/9/4p4/9/9/9/9/9/4K4 b P 1", "P*5e"), Ok(()), "the enemy pawn does not count");
}

#[test]
fn uchifuzume() {
    // The pawn on 1b would mate the king on 1a: its escapes are covered by the silver and lance.
    // Position from shared/data/perft_public.tsv (uchifuzume_85).
    assert_eq!(rule("7lk/9/8S/9/9/9/9/7L1/8K b P 1", "P*1b"), Err(IllegalMoveKind::Uchifuzume));
    // A pawn-drop check that is not mate is legal: without the silver the king takes the pawn.
    assert_eq!(rule("7lk/9/9/9/9/9/9/7L1/8K b P 1", "P*1b"), Ok(()));
    // Pushing a pawn to mate (tsukifuzume) is legal.
    assert_eq!(rule("7lk/9/8P/9/9/9/9/7L1/8K b S 1", "1c1b"), Ok(()));
}

#[test]
fn uchifuzume_when_a_defender_unpinned_by_the_pawn_can_capture() {
    // White king 1a, White gold 1c pinned on the file by Black's lance 1e; 2a/2b are covered by
    // the rook on 2i. Dropping P*1b shields the gold from the lance, so the gold may take the pawn:
    // not mate, the drop is legal.
    assert_eq!(rule("8k/9/8g/9/8L/9/9/9/K6R1 b P 1", "P*1b"), Ok(()));
    // A gold on 2b pinned on the diagonal by the bishop on 5e stays pinned after P*1b (the silver
    // on 2c guards 1b, the knight on 1c covers 2a): mate by pawn drop, illegal.
    assert_eq!(rule("8k/7g1/7SN/9/4B4/9/9/9/K8 b P 1", "P*1b"), Err(IllegalMoveKind::Uchifuzume));
}

#[test]
fn dead_piece() {
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*1a"), Err(IllegalMoveKind::DeadPiece));
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b L 1", "L*1a"), Err(IllegalMoveKind::DeadPiece));
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*5b"), Err(IllegalMoveKind::DeadPiece));
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 w n 1", "N*5h"), Err(IllegalMoveKind::DeadPiece));
    // Moving without promotion onto the last rank(s) is also a dead piece.
    assert_eq!(rule("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a"), Err(IllegalMoveKind::DeadPiece));
    assert_eq!(rule("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a+"), Ok(()));
    assert_eq!(rule("4k4/9/9/N8/9/9/9/9/4K4 b - 1", "9d8b"), Err(IllegalMoveKind::DeadPiece));
    assert_eq!(rule("4k4/9/9/N8/9/9/9/9/4K4 b - 1", "9d8b+"), Ok(()));
    // Optional non-promotions stay legal.
    assert_eq!(rule("4k4/9/9/N8/9/9/9/9/4K4 b - 1", "9d8b+"), Ok(()));
    assert_eq!(rule("4k4/9/P8/9/9/9/9/9/4K4 b - 1", "9c9b"), Ok(()));
}

#[test]
fn leaves_king_in_check() {
    // The silver on 5h is pinned by the rook on 5a against the king on 5i.
    assert_eq!(rule("3kr4/9/9/9/9/9/9/4S4/4K4 b - 1", "5h4g"), Err(IllegalMoveKind::LeavesKingInCheck));
    // Ignoring a check.
    assert_eq!(rule("4k4/9/9/9/4r4/9/9/9/4K3P b - 1", "1i1h"), Err(IllegalMoveKind::LeavesKingInCheck));
    // Walking into an attacked square.
    assert_eq!(rule("4k4/9/9/9/3r5/9/9/9/4K4 b - 1", "5i6i"), Err(IllegalMoveKind::LeavesKingInCheck));
    // A drop that does not block the check.
    assert_eq!(rule("4k4/9/9/9/4r4/9/9/9/4K4 b G 1", "G*1a"), Err(IllegalMoveKind::LeavesKingInCheck));
    assert_eq!(rule("4k4/9/9/9/4r4/9/9/9/4K4 b G 1", "G*5h"), Ok(()));
}

#[test]
fn no_piece_on_the_origin() {
    assert_eq!(rule(START, "5e5d"), Err(IllegalMoveKind::NoPiece));
}

#[test]
fn not_your_piece() {
    assert_eq!(rule(START, "3c3d"), Err(IllegalMoveKind::NotYourPiece));
}

#[test]
fn cannot_reach() {
    assert_eq!(rule(START, "7g7e"), Err(IllegalMoveKind::CannotReach));
    assert_eq!(rule(START, "8h2b"), Err(IllegalMoveKind::CannotReach), "blocked by the pawn on 7g");
    assert_eq!(rule(START, "9i9f"), Err(IllegalMoveKind::CannotReach), "the lance is blocked by its own pawn");
}

#[test]
fn capture_own_piece() {
    assert_eq!(rule(START, "2h2g"), Err(IllegalMoveKind::CaptureOwnPiece));
}

#[test]
fn drop_on_occupied_square() {
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5i"), Err(IllegalMoveKind::DropOnOccupied));
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5a"), Err(IllegalMoveKind::DropOnOccupied));
}

#[test]
fn not_in_hand() {
    assert_eq!(rule(START, "P*5e"), Err(IllegalMoveKind::NotInHand));
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K4 b G 1", "S*5e"), Err(IllegalMoveKind::NotInHand));
}

#[test]
fn cannot_promote() {
    assert_eq!(rule(START, "7g7f+"), Err(IllegalMoveKind::CannotPromote), "outside the zone");
    assert_eq!(rule("4k4/9/9/9/9/9/9/9/4K1G2 b - 1", "3i3h+"), Err(IllegalMoveKind::CannotPromote), "a gold");
    assert_eq!(
        rule("4k4/9/4G4/9/9/9/9/9/4K4 b - 1", "5c5b+"),
        Err(IllegalMoveKind::CannotPromote),
        "a gold in the zone"
    );
}

#[test]
fn promotion_when_moving_out_of_the_zone() {
    // A silver leaving the zone may promote (rules.md §2).
    assert_eq!(rule("4k4/9/S8/9/9/9/9/9/4K4 b - 1", "9c8d+"), Ok(()));
    assert_eq!(rule("4k4/9/S8/9/9/9/9/9/4K4 b - 1", "9c8d"), Ok(()));
}

#[test]
fn double_check_allows_only_king_moves() {
    // From shared/data/perft_public.tsv (double_check): 2 legal moves, both by the king.
    let pos = Position::from_sfen("ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76")
        .expect("valid");
    assert!(pos.checkers().has_more_than_one());
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 2);
    let ksq = pos.king_square(pos.side_to_move());
    assert!(moves.iter().all(|m| matches!(m.kind(), MoveKind::Normal { from, .. } if Some(from) == ksq)));
}

#[test]
fn parse_usi_move_reports_syntax_and_rules() {
    let pos = Position::startpos();
    assert!(matches!(pos.parse_usi_move("7g7f"), Ok(m) if m.to_string() == "7g7f"));
    assert!(matches!(pos.parse_usi_move("hello"), Err(MoveError::Syntax(_))));
    assert!(matches!(pos.parse_usi_move("5e5d"), Err(MoveError::Illegal { kind: IllegalMoveKind::NoPiece, .. })));
}

#[test]
fn the_593_move_position_fits_the_list() {
    // shared/data/perft_public.tsv (max_legal_moves): 593 legal moves.
    let pos = Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").expect("valid");
    assert_eq!(pos.legal_moves().len(), 593);
    assert_eq!(pos.count_legal_moves(), 593);
}
