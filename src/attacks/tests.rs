//! Slider and table attacks checked against naive ray walking on random occupancies.

use super::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

fn walk(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            out = out.with(next);
            if occ.has(next) {
                break;
            }
            cur = next;
        }
    }
    out
}

const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

#[test]
fn sliders_match_ray_walking() {
    let mut rng = StdRng::seed_from_u64(7);
    for i in 0..4000 {
        // Mix sparse and dense boards.
        let density = [0.05, 0.2, 0.5, 0.8][i % 4];
        let mut occ = Bitboard::EMPTY;
        for sq in Square::all() {
            if rng.random_bool(density) {
                occ = occ.with(sq);
            }
        }
        for sq in Square::all() {
            assert_eq!(bishop(sq, occ), walk(sq, occ, &DIAG), "bishop {sq} {occ:?}");
            assert_eq!(rook(sq, occ), walk(sq, occ, &ORTHO), "rook {sq} {occ:?}");
            assert_eq!(lance(Color::Black, sq, occ), walk(sq, occ, &[(0, -1)]), "black lance {sq}");
            assert_eq!(lance(Color::White, sq, occ), walk(sq, occ, &[(0, 1)]), "white lance {sq}");
        }
    }
}

#[test]
fn step_tables_match_offsets() {
    let sq: Square = "5e".parse().expect("square");
    let names = |b: Bitboard| b.map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
    assert_eq!(names(pawn(Color::Black, sq)), "5d");
    assert_eq!(names(pawn(Color::White, sq)), "5f");
    assert_eq!(names(knight(Color::Black, sq)), "4c 6c");
    assert_eq!(names(knight(Color::White, sq)), "4g 6g");
    assert_eq!(names(silver(Color::Black, sq)), "4d 4f 5d 6d 6f");
    assert_eq!(names(gold(Color::Black, sq)), "4d 4e 5d 5f 6d 6e");
    assert_eq!(names(gold(Color::White, sq)), "4e 4f 5d 5f 6e 6f");
    assert_eq!(king(sq).count(), 8);
    let corner: Square = "1a".parse().expect("square");
    assert_eq!(names(knight(Color::Black, corner)), "");
    assert_eq!(names(king(corner)), "1b 2a 2b");
}

#[test]
fn between_and_line_agree_with_walks() {
    for a in Square::all() {
        for b in Square::all() {
            let bt = between(a, b);
            let ln = line(a, b);
            if a == b || ln.is_empty() {
                assert!(bt.is_empty());
                continue;
            }
            assert!(ln.has(a) && ln.has(b));
            assert!((bt - ln).is_empty());
            // Walk from `a` one step at a time in the direction of `b`.
            let df = (b.file().index() as i8 - a.file().index() as i8).signum();
            let dr = (b.rank().index() as i8 - a.rank().index() as i8).signum();
            let mut walked = Bitboard::EMPTY;
            let mut cur = a.offset(df, dr);
            while let Some(sq) = cur.filter(|&s| s != b) {
                walked = walked.with(sq);
                cur = sq.offset(df, dr);
            }
            assert_eq!(bt, walked, "{a} {b}");
        }
    }
    let a: Square = "5e".parse().expect("square");
    assert_eq!(line(a, "5a".parse().expect("square")), Bitboard::file(4));
    assert_eq!(line(a, "1e".parse().expect("square")), Bitboard::rank(4));
    assert_eq!(line(a, "1a".parse().expect("square")).count(), 9);
    assert!(line(a, "4c".parse().expect("square")).is_empty());
}

#[test]
fn empty_board_tables_match_sliders_on_an_empty_board() {
    for sq in Square::all() {
        assert_eq!(bishop_pseudo(sq), bishop(sq, Bitboard::EMPTY), "{sq}");
        assert_eq!(rook_pseudo(sq), rook(sq, Bitboard::EMPTY), "{sq}");
        for c in Color::ALL {
            assert_eq!(lance_pseudo(c, sq), walk(sq, Bitboard::EMPTY, &[(0, if c == Color::Black { -1 } else { 1 })]));
        }
    }
}
