//! SFEN parsing and formatting: one test per rejection rule (named after it), leniency, round trips.

use super::*;
use crate::Position;

fn err(s: &str) -> SfenError {
    match Position::from_sfen(s) {
        Ok(p) => panic!("accepted {s:?} as {}", p.to_sfen()),
        Err(e) => e,
    }
}

#[test]
fn startpos_and_the_usi_drafts_midgame_example_round_trip() {
    // Example from the USI draft (Ryu-O match 2006, game 3), sfen-and-handicaps.md §1.2.
    let ryuo = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";
    for s in [STARTPOS, ryuo] {
        assert_eq!(Position::from_sfen(s).map(|p| p.to_sfen()), Ok(s.to_string()));
    }
    assert_eq!(Position::from_sfen("startpos").map(|p| p.to_sfen()), Ok(STARTPOS.to_string()));
    assert_eq!(Position::from_sfen(&format!("sfen {STARTPOS}")).map(|p| p.to_sfen()), Ok(STARTPOS.to_string()));
}

#[test]
fn accepts_2007_spec_upper_case_side_any_hand_order_and_missing_move_number() {
    // SFEN_Spec 0.0.1 examples (seed 003), written with `B` and hands like `2SB`.
    let cases = [
        ("7kl/9/6+r1+B/6+B2/9/9/9/9/9 B G", "7kl/9/6+r1+B/6+B2/9/9/9/9/9 b G 1"),
        ("8l/7b1/8k/6+B2/7Pg/9/9/9/9 B R", "8l/7b1/8k/6+B2/7Pg/9/9/9/9 b R 1"),
        ("4k4/9/9/9/9/9/9/9/4K4 W p2PPr 7", "4k4/9/9/9/9/9/9/9/4K4 w 3Prp 7"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 10P8p", "4k4/9/9/9/9/9/9/9/4K4 b 10P8p 1"),
    ];
    for (input, canonical) in cases {
        assert_eq!(Position::from_sfen(input).map(|p| p.to_sfen()), Ok(canonical.to_string()), "{input}");
    }
}

#[test]
fn the_2007_specs_third_example_parses_but_has_three_bishops() {
    // `7r1/6B1p/6Bsk/9/7P1/9/9/9/9 B 2SB` (seed 003) has two bishops on the board and a third in
    // hand: the syntax is fine, the material is not.
    let s = "7r1/6B1p/6Bsk/9/7P1/9/9/9/9 B 2SB";
    let setup = parse_setup(s).expect("syntax is valid");
    assert_eq!(format_setup(&setup), "7r1/6B1p/6Bsk/9/7P1/9/9/9/9 b B2S 1");
    let e = err(s);
    assert_eq!(e.kind, SfenErrorKind::Illegal(SetupError::TooManyPieces { kind: PieceKind::Bishop, count: 3, max: 2 }));
}

#[test]
fn wrong_number_of_ranks() {
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Board, 0, SfenErrorKind::RankCount(8)));
    assert_eq!(err("9/9/9/9/9/9/9/9/9/9 b - 1").kind, SfenErrorKind::RankCount(10));
}

#[test]
fn rank_not_summing_to_nine() {
    let e = err("lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!((e.field, e.offset), (SfenField::Board, 10));
    assert_eq!(e.kind, SfenErrorKind::RankWidth { rank: 'b', width: 8 });
    let e = err("lnsgkgsnl/1r5b11/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!(e.kind, SfenErrorKind::RankWidth { rank: 'b', width: 10 });
    assert!(matches!(err("lnsgkgsnlp/9/9/9/9/9/9/9/4K4 b - 1").kind, SfenErrorKind::RankWidth { rank: 'a', .. }));
}

#[test]
fn unknown_letters() {
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/4X4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Board, 29, SfenErrorKind::UnexpectedChar('X')));
    let e = err("4k4/9/9/9/9/9/9/9/4K4 b Q 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Hand, 24, SfenErrorKind::UnexpectedChar('Q')));
}

#[test]
fn promoted_gold_or_king() {
    assert_eq!(err("4k4/9/9/9/4+G4/9/9/9/4K4 b - 1").kind, SfenErrorKind::BadPromotion);
    let e = err("4+k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!((e.offset, e.kind), (1, SfenErrorKind::BadPromotion));
    assert_eq!(err("4k3+/9/9/9/9/9/9/9/4K4 b - 1").kind, SfenErrorKind::BadPromotion);
}

#[test]
fn more_pieces_of_a_kind_than_the_set_has() {
    let too_many = |kind, count, max| SfenErrorKind::Illegal(SetupError::TooManyPieces { kind, count, max });
    // Board + hands: 18 pawns on the board plus one in hand is 19.
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Hand, 60, too_many(PieceKind::Pawn, 19, 18)));
    let e = err("4k4/9/9/9/9/9/9/9/4K4 b 3B 1");
    assert_eq!((e.field, e.kind), (SfenField::Hand, too_many(PieceKind::Bishop, 3, 2)));
    // Promoted pieces count as their base kind.
    let e = err("+r+r+r1k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Board, 5, too_many(PieceKind::Rook, 3, 2)));
    // The board alone is over the limit: the board is blamed even with pieces in hand, at the
    // letter of the fifth gold in text order.
    let e = err("g1g1k1g1g/9/9/9/9/9/9/9/2G1K4 b P 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Board, 25, too_many(PieceKind::Gold, 5, 4)));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1").kind, SfenErrorKind::BadCount(_)));
}

#[test]
fn two_kings_of_one_colour() {
    let two = |color, square: &str| {
        SfenErrorKind::Illegal(SetupError::TwoKings { color, square: square.parse().expect("square") })
    };
    let e = err("4k3k/9/9/9/9/9/9/9/4K4 b - 1");
    // The offset points at one of the two kings' letters.
    assert_eq!((e.field, e.kind), (SfenField::Board, two(Color::White, "5a")));
    assert_eq!(e.offset, 1);
    let e = err("4k4/9/9/9/9/9/9/9/K3K4 b - 1");
    assert_eq!((e.field, e.offset, e.kind), (SfenField::Board, 18, two(Color::Black, "9i")));
}

#[test]
fn no_white_king() {
    assert_eq!(err("9/9/9/9/9/9/9/9/4K4 b - 1").kind, SfenErrorKind::Illegal(SetupError::NoWhiteKing));
}

#[test]
fn missing_black_king_is_allowed_for_tsume() {
    // sfen-and-handicaps.md §2: tsume setups with one king and everything else in White's hand.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1").expect("tsume setup");
    assert_eq!(p.king_square(Color::Black), None);
    assert!(!p.in_check());
    // Black, to move, has no pieces at all: no legal move.
    assert_eq!(p.count_legal_moves(), 0);
    let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").expect("tsume setup");
    assert!(p.legal_moves().iter().any(|m| m.to_string() == "G*5b"));
}

#[test]
fn pawn_or_lance_on_the_last_rank_or_knight_on_the_last_two() {
    let dead = |s: &str| match err(s).kind {
        SfenErrorKind::Illegal(SetupError::DeadPiece { piece, square }) => (piece.to_string(), square.to_string()),
        k => panic!("{s}: {k:?}"),
    };
    assert_eq!(dead("P3k4/9/9/9/9/9/9/9/4K4 b - 1"), ("P".into(), "9a".into()));
    assert_eq!(dead("4k3L/9/9/9/9/9/9/9/4K4 b - 1"), ("L".into(), "1a".into()));
    assert_eq!(dead("4k4/1N7/9/9/9/9/9/9/4K4 b - 1"), ("N".into(), "8b".into()));
    assert_eq!(dead("4k4/9/9/9/9/9/9/9/p3K4 b - 1"), ("p".into(), "9i".into()));
    assert_eq!(dead("4k4/9/9/9/9/9/9/7n1/4K4 b - 1"), ("n".into(), "2h".into()));
    // The offset points at the piece letter.
    assert_eq!(err("4k3L/9/9/9/9/9/9/9/4K4 b - 1").offset, 3);
    // Promoted pieces and the other side's last rank are fine.
    assert!(Position::from_sfen("+P3k3p/9/9/9/9/9/9/9/4K3P b - 1").is_ok());
}

#[test]
fn two_unpromoted_pawns_of_one_colour_on_a_file() {
    let e = err("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1");
    assert!(matches!(e.kind, SfenErrorKind::Illegal(SetupError::Nifu { color: Color::Black, .. })), "{e}");
    // The offset points at one of the two pawns' letters.
    assert_eq!(e.field, SfenField::Board);
    assert!([11, 17].contains(&e.offset), "{e}");
    // A tokin and an enemy pawn on the file do not count.
    assert!(Position::from_sfen("4k4/9/4p4/9/4P4/9/4+P4/9/4K4 b - 1").is_ok());
}

#[test]
fn side_not_to_move_in_check() {
    // White's king on 5a is attacked by Black's rook on 5e, and it is Black's turn.
    let e = err("4k4/9/9/9/4R4/9/9/9/4K4 b - 1");
    assert_eq!((e.field, e.kind), (SfenField::Side, SfenErrorKind::Illegal(SetupError::OpponentInCheck(Color::White))));
    assert!(Position::from_sfen("4k4/9/9/9/4R4/9/9/9/4K4 w - 1").is_ok_and(|p| p.in_check()));
}

#[test]
fn bad_side_hand_move_number_and_trailing_text() {
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 x - 1").kind, SfenErrorKind::BadSide("x".into()));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4").field, SfenField::Side);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 b").field, SfenField::Hand);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 b - one").kind, SfenErrorKind::BadMoveNumber("one".into()));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 b - 1 moves").kind, SfenErrorKind::Trailing("moves".into()));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b 0P 1").kind, SfenErrorKind::BadCount(_)));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b 2 1").kind, SfenErrorKind::BadCount(_)));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/4K4 b K 1").kind, SfenErrorKind::NotAHandPiece('K'));
    assert_eq!(err("").field, SfenField::Board);
}

#[test]
fn error_messages_name_field_and_offset() {
    let e = err("4k4/9/9/9/9/9/9/9/4K4 b - one");
    assert_eq!(e.to_string(), "sfen move number: \"one\" is not a move number (at byte 26)");
}
