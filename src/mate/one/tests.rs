//! The bitboard mate in one against the reference that plays every check
//! ([`mate_in_one_by_playing`]): rule cases built by hand, then many positions of random and
//! aggressive walks (where mates are common) compared move by move.

use super::{mate_in_one, mate_in_one_by_contact};
use crate::attacks;
use crate::mate::mate_in_one_by_playing;
use crate::position::{Handicap, Position};
use crate::types::Move;
use crate::types::PieceKind;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// True if `m` is a legal check in `pos` after which the opponent has no legal move.
fn mates(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.is_legal(m) && p.gives_check(m) && {
        p.do_move(m);
        !p.has_legal_move()
    }
}

/// The fast answer, checked: a legal mate when it answers one, and one whenever the reference
/// finds one. Returns whether there is a mate.
fn agree(pos: &Position) -> bool {
    let fast = mate_in_one(pos);
    if let Some(m) = fast {
        assert!(mates(pos, m), "{m} is no mate in {}", pos.to_sfen());
    }
    let reference = mate_in_one_by_playing(&mut pos.clone());
    assert_eq!(fast.is_some(), reference.is_some(), "{} : fast {fast:?}, reference {reference:?}", pos.to_sfen());
    fast.is_some()
}

fn mate_of(sfen: &str) -> Option<Move> {
    let pos = Position::from_sfen(sfen).expect("valid");
    agree(&pos);
    mate_in_one(&pos)
}

#[test]
fn a_pawn_drop_never_mates_but_a_pawn_push_may() {
    // P*1b would mate: uchifuzume, illegal; the gold's checks are taken by the king.
    assert_eq!(mate_of("7nk/9/7G1/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1"), None);
    // The pawn on 1c may push to 1b, promoted or not (guarded by the gold on 2c, which also
    // covers 2b); the promotion is tried first.
    let push = mate_of("7nk/9/7GP/9/9/9/9/9/9 b 2r2b3g4s3n4l17p 1");
    assert_eq!(push.map(|m| m.to_string()), Some("1c1b+".to_string()));
}

#[test]
fn a_distant_check_is_refuted_by_an_interposition_the_rules_allow() {
    // The king on 1a, boxed in by its lance and pawn: a rook dropped two squares or more down
    // file 1 mates unless White can interpose.
    assert!(mate_of("7lk/7p1/9/9/9/9/9/9/9 b R 1").is_some());
    assert_eq!(mate_of("7lk/7p1/9/9/9/9/9/9/9 b Rg 1"), None);
    assert_eq!(mate_of("7lk/7p1/9/9/9/9/9/9/9 b Rp 1"), None);
    // With a White pawn already on file 1 (1h), the pawn in hand may not be dropped (nifu).
    assert!(mate_of("7lk/7p1/9/9/9/9/9/8p/9 b Rp 1").is_some());
    // The king on 9i, 8h and 9h covered by the golds: a rook dropped on rank i mates when White
    // holds only pieces that may not be dropped on its last rank, not when it holds a silver.
    assert!(mate_of("9/9/9/9/9/9/GG7/9/k8 b Rpln 1").is_some());
    assert_eq!(mate_of("9/9/9/9/9/9/GG7/9/k8 b Rs 1"), None);
    // The interposing piece may come from the board (a White gold beside the line).
    assert_eq!(mate_of("9/9/9/9/9/9/GG7/2g6/k8 b R 1"), None);
}

#[test]
fn a_pinned_defender_may_not_take_the_checker() {
    // G*5b, guarded by the pawn on 5c: the gold on 4a would take it but is pinned by the rook
    // on 1a; without the rook it takes.
    assert_eq!(mate_of("3lkg2R/3p1p3/4P4/9/9/9/9/9/9 b G 1").map(|m| m.to_string()), Some("G*5b".to_string()));
    assert_eq!(mate_of("3lkg3/3p1p3/4P4/9/9/9/9/9/9 b G 1"), None);
}

#[test]
fn a_piece_leaving_its_line_may_mate_by_discovery() {
    // The gold on 5e shields the king on 5a from the lance on 5i; stepping off file 5 mates
    // (nothing of White's reaches file 5), stepping along it does not check.
    let m = mate_of("3lkl3/3p1p3/9/9/4G4/9/9/9/4L4 b - 1").expect("a mate");
    assert_eq!(m.from().map(|s| s.to_string()), Some("5e".to_string()));
    assert_ne!(m.to().file(), m.from().expect("a board move").file());
}

#[test]
fn our_own_check_and_pins_bound_our_moves() {
    // Black is in check from the lance on 9a and the gold drop at 5b would mate; Black must first
    // answer the check, so there is no mate in one.
    assert_eq!(mate_of("l3k4/9/4P4/9/9/9/9/9/K8 b G 1"), None);
    // The gold on 6c mates on 5b (guarded by Black's king) unless the rook on 9c pins it to
    // that king; its moves along rank c do not check.
    assert_eq!(mate_of("4k4/9/3GK4/9/9/9/9/9/9 b - 1").map(|m| m.to_string()), Some("6c5b".to_string()));
    assert_eq!(mate_of("4k4/9/r2GK4/9/9/9/9/9/9 b - 1"), None);
}

/// A walk that prefers checks and captures, so that kings get exposed and hands fill: from each
/// start, `plies` positions (fewer if the game ends).
fn aggressive_walks(starts: &[Position], plies: usize, rng: &mut StdRng) -> Vec<Position> {
    let mut out = Vec::new();
    for start in starts {
        let mut pos = start.clone();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let checks: Vec<Move> = moves.iter().copied().filter(|&m| pos.gives_check(m)).collect();
            let captures: Vec<Move> =
                moves.iter().copied().filter(|&m| m.from().is_some() && pos.piece_on(m.to()).is_some()).collect();
            let m = if !checks.is_empty() && rng.random_bool(0.5) {
                checks[rng.random_range(0..checks.len())]
            } else if !captures.is_empty() && rng.random_bool(0.7) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.do_move(m);
        }
    }
    out
}

fn starts() -> Vec<Position> {
    let bench = crate::bench::POSITIONS.iter().map(|s| Position::from_sfen(s).expect("valid"));
    let suite = crate::mate::suite::parse(include_str!("../../../tests/data/tsume.txt")).expect("suite");
    let tsume = suite.iter().map(|p| Position::from_sfen(&p.sfen).expect("valid"));
    bench.chain(Handicap::ALL.into_iter().map(Position::handicap)).chain(tsume).collect()
}

/// Positions of walks from [`starts`] with `seed`: random walks of `random_plies`, then `rounds`
/// rounds of aggressive walks of 160 plies.
fn walk_positions(seed: u64, random_plies: usize, rounds: usize) -> Vec<Position> {
    let starts = starts();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = crate::bench::random_walks(starts.iter().cloned(), random_plies, &mut rng);
    for _ in 0..rounds {
        positions.extend(aggressive_walks(&starts, 160, &mut rng));
    }
    positions
}

#[test]
fn the_fast_mate_agrees_with_the_reference_on_walks() {
    let positions = walk_positions(27, 40, 12);
    let mates = positions.iter().filter(|p| agree(p)).count();
    eprintln!("{} positions, {mates} with a mate in one", positions.len());
    // Seed 27 gives 123,371 positions and 4,571 mates (see the line above); the bounds are far
    // below what any walk seed gives and far above none.
    assert!(positions.len() > 50_000 && mates > 1_000, "{} positions, {mates} mates", positions.len());
}

/// Whether `pos` has a mate by a move that ends next to the enemy king or is a knight's (the
/// moves [`mate_in_one_by_contact`] looks at), found by playing every legal move.
fn contact_mate_by_playing(pos: &Position) -> bool {
    let Some(ek) = pos.king_square(!pos.side_to_move()) else { return false };
    let knight = attacks::piece(!pos.side_to_move(), PieceKind::Knight, ek, pos.occupied());
    let contact = attacks::king(ek) | knight;
    pos.legal_moves().iter().any(|&m| contact.has(m.to()) && mates(pos, m))
}

#[test]
fn the_contact_mate_finds_every_contact_mate_and_nothing_else() {
    let positions = walk_positions(28, 20, 4);
    let (mut contact_mates, mut all_mates) = (0, 0);
    for pos in &positions {
        let fast = mate_in_one_by_contact(pos);
        if let Some(m) = fast {
            assert!(mates(pos, m), "{m} is no mate in {}", pos.to_sfen());
        }
        assert_eq!(fast.is_some(), contact_mate_by_playing(pos), "{}: {fast:?}", pos.to_sfen());
        contact_mates += fast.is_some() as usize;
        all_mates += mate_in_one(pos).is_some() as usize;
    }
    eprintln!("{} positions: {contact_mates} contact mates of {all_mates} mates in one", positions.len());
    // Most mates in one are contact mates (the line above: seed 28 gives 1,461 of 1,494); some are not.
    assert!(contact_mates > all_mates / 2 && contact_mates < all_mates, "{contact_mates} of {all_mates}");
}
