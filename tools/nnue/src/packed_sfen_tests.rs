//! The packed formats against bytes written by cshogi and YaneuraOu, and round trips.

use super::*;
use hisha::Handicap;
use rand::{Rng, SeedableRng, rngs::StdRng};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).expect("valid SFEN")
}

#[test]
fn packing_gives_the_bytes_cshogi_and_yaneuraou_give() {
    // The first four: YaneuraOu's unit test (`source/position.cpp`, section "PackedSfen",
    // "packed by cshogi"), handicaps with pieces in the box. The last two: cshogi 1.1.0
    // (`Board().to_psfen`) for the start position and after 7g7f 3c3d 8h2b+ 3a2b B*5e.
    let cases: [(&str, [u8; 32]); 6] = [
        (
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            [
                89, 164, 81, 34, 12, 171, 68, 252, 44, 167, 68, 56, 94, 137, 240, 72, 132, 87, 34, 60, 167, 68, 56, 86,
                137, 248, 88, 70, 137, 48, 188, 126,
            ],
        ),
        (
            "lns1kgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            [
                89, 164, 81, 34, 12, 171, 68, 252, 44, 167, 68, 56, 94, 137, 240, 72, 4, 18, 225, 57, 37, 194, 177, 74,
                196, 199, 50, 74, 132, 97, 191, 126,
            ],
        ),
        (
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK4 w - 1",
            [
                89, 164, 81, 34, 88, 37, 226, 199, 41, 17, 188, 18, 129, 68, 120, 37, 194, 115, 74, 132, 99, 149, 136,
                143, 101, 148, 8, 67, 106, 107, 191, 126,
            ],
        ),
        (
            "lnsgk4/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGK4 w GBRgbr 1",
            [
                89, 36, 18, 1, 137, 128, 68, 64, 34, 144, 8, 175, 68, 120, 78, 137, 112, 172, 18, 97, 25, 37, 194, 112,
                30, 159, 251, 252, 166, 212, 218, 90,
            ],
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            [
                88, 164, 81, 34, 12, 235, 103, 34, 126, 150, 83, 34, 28, 175, 68, 120, 36, 194, 43, 17, 158, 83, 34,
                28, 235, 111, 34, 62, 150, 81, 34, 12,
            ],
        ),
        (
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6",
            [
                89, 164, 81, 34, 12, 235, 153, 136, 159, 5, 73, 56, 94, 137, 240, 72, 31, 194, 43, 17, 158, 83, 18, 28,
                235, 111, 34, 44, 163, 68, 24, 158,
            ],
        ),
    ];
    for (sfen, bytes) in cases {
        let p = pos(sfen);
        assert_eq!(PackedSfen::pack(&p).expect("packable").0, bytes, "{sfen}");
        assert_eq!(PackedSfen(bytes).unpack().expect("valid"), p, "{sfen}");
    }
}

#[test]
fn moves_take_yaneuraou_move16_numbers() {
    // cshogi 1.1.0: `move16_to_psv(move16(board.move_from_usi(..)))` along 7g7f 3c3d 8h2b+ 3a2b B*5e.
    let mut p = Position::startpos();
    for (usi, expected) in [("7g7f", 7739), ("3c3d", 2581), ("8h2b+", 41738), ("3a2b", 2314), ("B*5e", 17064)] {
        let m = p.legal_moves().iter().copied().find(|m| m.to_string() == usi).expect("legal");
        assert_eq!(move_to_yaneuraou(m), expected, "{usi}");
        assert_eq!(move_from_yaneuraou(expected), Some(m), "{usi}");
        p.do_move(m);
    }
    // YaneuraOu's none, null, resign and win moves are no moves.
    for special in [0, (1 << 7) + 1, (2 << 7) + 2, (3 << 7) + 3] {
        assert_eq!(move_from_yaneuraou(special), None);
    }
    assert_eq!(move_from_yaneuraou(40 | 8 << 7 | 1 << 14), None, "dropped kind 8 is no hand kind");
}

/// Positions along random playouts from the even start and handicap starts.
fn playout_positions(seed: u64) -> Vec<(Position, Move)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for start in [Position::startpos(), Position::handicap(Handicap::TwoPiece), Position::handicap(Handicap::Lance)] {
        for _ in 0..6 {
            let mut p = start.clone();
            for _ in 0..160 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                out.push((p.clone(), m));
                p.do_move(m);
            }
        }
    }
    out
}

#[test]
fn every_position_and_move_of_random_games_survive_a_round_trip() {
    let positions = playout_positions(5);
    assert!(positions.len() > 2_000);
    let mut with_hands = 0;
    for (p, m) in &positions {
        with_hands += usize::from(!p.hand(Color::Black).is_empty() || !p.hand(Color::White).is_empty());
        let record = PackedSfenValue {
            sfen: PackedSfen::pack(p).expect("packable"),
            score: -123,
            mv: move_to_yaneuraou(*m),
            game_ply: p.game_ply() as u16,
            game_result: -1,
            padding: 0,
        };
        let back = PackedSfenValue::from_bytes(&record.to_bytes());
        assert_eq!(back, record);
        let q = back.position().expect("valid");
        assert_eq!(q, *p, "{}", p.to_sfen());
        assert_eq!(q.move_number(), p.game_ply() as u32 + 1);
        assert_eq!(back.legal_move(&q), Some(*m));
    }
    assert!(with_hands > 1_000, "the playouts reach positions with hands: {with_hands}");
}

#[test]
fn a_position_without_a_king_is_refused() {
    let tsume = pos("4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert_eq!(PackedSfen::pack(&tsume), Err(PackedSfenError::MissingKing));
}

#[test]
fn corrupt_bytes_give_errors_not_panics() {
    let mut rng = StdRng::seed_from_u64(9);
    let good = PackedSfen::pack(&Position::startpos()).expect("packable");
    let mut errors = 0;
    for i in 0..20_000 {
        let mut bytes = good.0;
        if i % 2 == 0 {
            rng.fill(&mut bytes);
        } else {
            let bit = rng.random_range(0..256);
            bytes[bit / 8] ^= 1 << (bit % 8);
        }
        errors += usize::from(PackedSfen(bytes).unpack().is_err());
    }
    assert!(errors > 10_000, "most corruptions are caught: {errors}");
    // Two kings on one square, and a king beyond 9i.
    let mut bytes = good.0;
    bytes[1] = (bytes[1] & 0x80) | ((bytes[0] >> 1) & 0x7F);
    assert!(PackedSfen(bytes).unpack().is_err());
    assert!(PackedSfen([0xFF; 32]).unpack().is_err());
}
