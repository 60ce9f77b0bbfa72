//! The handicap table against the specs' name tables and the rules.

use super::*;
use crate::Position;

const REST: &str = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

#[test]
fn table_order_matches_enum() {
    for (i, h) in Handicap::ALL.iter().enumerate() {
        assert_eq!(TABLE[i].h, *h);
    }
    assert!(TABLE.iter().all(|e| e.sfen.ends_with(" - 1") && e.sfen.contains(REST)));
}

#[test]
fn every_start_is_a_legal_position_with_the_giver_to_move() {
    for h in Handicap::ALL {
        let p = Position::from_sfen(h.sfen()).unwrap_or_else(|e| panic!("{h:?}: {e}"));
        assert_eq!(p.to_sfen(), h.sfen());
        let expected = if h == Handicap::Even { crate::Color::Black } else { crate::Color::White };
        assert_eq!(p.side_to_move(), expected, "{h:?}");
        assert_eq!(Handicap::from_start_sfen(h.sfen()), Some(h));
    }
}

#[test]
fn every_spelling_in_the_specs_name_table() {
    // sfen-and-handicaps.md §2 "PSN handicap names" (PSN-1998 and PSN Draft 1 columns, KIF),
    // the JKF preset names, and the English names of the start table.
    let table: [(&[&str], Handicap); 16] = [
        (&["Even", "Sente", "Gote", "平手", "HIRATE", "even"], Handicap::Even),
        (&["lance", "Lance", "香落ち", "KY"], Handicap::Lance),
        (&["right lance", "右香落ち", "KY_R"], Handicap::RightLance),
        (&["bishop", "Bishop", "角落ち", "KA"], Handicap::Bishop),
        (&["rook", "Rook", "飛車落ち", "HI"], Handicap::Rook),
        (
            &["rook and lance", "Rook and Lance", "Rook & Lance", "Rook+Lance", "Rook + Lance", "飛香落ち", "HIKY"],
            Handicap::RookLance,
        ),
        (
            &["2 piece", "Two Pieces", "Two Piece", "Rook and Bishop", "Rook+Bishop", "Rook + Bishop", "二枚落ち", "2"],
            Handicap::TwoPiece,
        ),
        (&["3 piece", "三枚落ち", "3"], Handicap::ThreePiece),
        (&["4 piece", "Four Pieces", "Four Piece", "四枚落ち", "4"], Handicap::FourPiece),
        (&["5 piece", "五枚落ち", "5"], Handicap::FivePiece),
        (&["left 5-piece", "左五枚落ち", "5_L"], Handicap::LeftFivePiece),
        (&["6 piece", "Six Pieces", "Six Piece", "六枚落ち", "6"], Handicap::SixPiece),
        (&["left 7-piece", "左七枚落ち", "7_L"], Handicap::LeftSevenPiece),
        (&["right 7-piece", "7 piece", "右七枚落ち", "7_R"], Handicap::RightSevenPiece),
        (&["8 piece", "Eight Pieces", "Eight Piece", "八枚落ち", "8"], Handicap::EightPiece),
        (&["10-piece", "十枚落ち", "10"], Handicap::TenPiece),
    ];
    for (names, h) in table {
        for name in names {
            assert_eq!(name.parse::<Handicap>(), Ok(h), "{name}");
            assert_eq!(name.to_uppercase().parse::<Handicap>(), Ok(h), "{name} in upper case");
            assert_eq!(name.to_lowercase().parse::<Handicap>(), Ok(h), "{name} in lower case");
        }
    }
}

#[test]
fn names_from_both_psn_specs_kif_and_ids() {
    let cases = [
        ("Rook and Lance", Handicap::RookLance),
        ("Rook & Lance", Handicap::RookLance),
        ("rook+lance", Handicap::RookLance),
        ("Rook + Lance", Handicap::RookLance),
        ("rook and lance", Handicap::RookLance),
        ("Two Pieces", Handicap::TwoPiece),
        ("Two Piece", Handicap::TwoPiece),
        ("2 piece", Handicap::TwoPiece),
        ("Rook+Bishop", Handicap::TwoPiece),
        ("8 piece", Handicap::EightPiece),
        ("Eight Pieces", Handicap::EightPiece),
        ("right lance", Handicap::RightLance),
        ("lance", Handicap::Lance),
        ("LANCE", Handicap::Lance),
        ("Even", Handicap::Even),
        ("香落ち", Handicap::Lance),
        ("右香落ち", Handicap::RightLance),
        ("左七枚落ち", Handicap::LeftSevenPiece),
        ("十枚落ち", Handicap::TenPiece),
        ("平手", Handicap::Even),
        ("2-piece", Handicap::TwoPiece),
        ("left-5-piece", Handicap::LeftFivePiece),
        ("Six Pieces", Handicap::SixPiece),
        ("Four Piece", Handicap::FourPiece),
        ("3 piece", Handicap::ThreePiece),
        ("5 piece", Handicap::FivePiece),
        ("Bishop handicap", Handicap::Bishop),
        ("HIKY", Handicap::RookLance),
    ];
    for (name, h) in cases {
        assert_eq!(name.parse::<Handicap>(), Ok(h), "{name}");
    }
    assert_eq!("7 piece".parse::<Handicap>(), Ok(Handicap::RightSevenPiece));
    for bad in ["", "queen", "9 piece", "lance lance"] {
        assert!(bad.parse::<Handicap>().is_err(), "{bad}");
    }
    for h in Handicap::ALL {
        assert_eq!(h.id().parse::<Handicap>(), Ok(h));
        assert_eq!(h.english().parse::<Handicap>(), Ok(h));
        assert_eq!(h.kif_name().parse::<Handicap>(), Ok(h));
    }
}
