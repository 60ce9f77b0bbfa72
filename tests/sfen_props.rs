//! Property tests: the SFEN and USI-move parsers never panic, and whatever they accept
//! round-trips through the canonical form.

use hisha::Position;
use proptest::prelude::*;

const SEEDS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
];

/// A valid SFEN with a few bytes replaced, inserted or deleted.
fn mutated_sfen() -> impl Strategy<Value = String> {
    (
        0..SEEDS.len(),
        prop::collection::vec(
            (0usize..120, 0u8..4, prop::sample::select(b"0123456789/+-bwBWkKpPlLnNsSgGrRx ".to_vec())),
            1..5,
        ),
    )
        .prop_map(|(i, edits)| {
            let mut bytes = SEEDS[i].as_bytes().to_vec();
            for (at, op, b) in edits {
                let at = at % (bytes.len() + 1);
                match op {
                    0 if at < bytes.len() => bytes[at] = b,
                    1 => bytes.insert(at, b),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

fn check_round_trip(s: &str) {
    if let Ok(p) = Position::from_sfen(s) {
        let canonical = p.to_sfen();
        let again = Position::from_sfen(&canonical).expect("canonical SFEN of a valid position parses");
        assert_eq!(again.to_sfen(), canonical);
        assert_eq!(again, p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn any_text_never_panics(s in ".{0,120}") {
        check_round_trip(&s);
    }

    #[test]
    fn mutated_sfens_never_panic_and_round_trip(s in mutated_sfen()) {
        check_round_trip(&s);
    }

    #[test]
    fn usi_move_text_never_panics(s in "[0-9a-zA-Z*+]{0,7}") {
        let pos = Position::from_sfen(SEEDS[1]).expect("valid");
        if let Ok(m) = pos.parse_usi_move(&s) {
            prop_assert!(pos.legal_moves().contains(&m));
            prop_assert_eq!(m.to_string(), s);
        }
    }
}
