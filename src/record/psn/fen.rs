//! PSN-1998's 13-field `FEN` header (psn.md §1): nine ranks, Black's and White's hands as seven
//! digits (P L N S G B R) or `t` for "everything else", `s`/`g` to move, and the move-pair number.

use crate::position::Position;
use crate::position::sfen::SfenError;
use crate::types::{Color, PieceKind};

/// The hand order of the seven digits.
const ORDER: [(PieceKind, char); 7] = [
    (PieceKind::Pawn, 'P'),
    (PieceKind::Lance, 'L'),
    (PieceKind::Knight, 'N'),
    (PieceKind::Silver, 'S'),
    (PieceKind::Gold, 'G'),
    (PieceKind::Bishop, 'B'),
    (PieceKind::Rook, 'R'),
];

/// What is wrong in a `FEN` header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FenError {
    /// Not 13 fields.
    #[error("FEN needs 13 fields, got {0}")]
    FieldCount(usize),
    /// A hand that is not seven digits.
    #[error("a FEN hand is seven digits, got {0:?}")]
    BadHand(String),
    /// A side to move other than `s` or `g`.
    #[error("side to move must be s or g, got {0:?}")]
    BadSide(String),
    /// A move-pair number that is not a number.
    #[error("bad move number {0:?}")]
    BadMoveNumber(String),
    /// The position the fields describe is not valid.
    #[error("{0}")]
    BadPosition(#[from] SfenError),
}

fn hand(digits: &str) -> Result<[u32; 7], FenError> {
    if digits.len() != 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadHand(digits.to_string()));
    }
    let mut out = [0; 7];
    for (slot, d) in out.iter_mut().zip(digits.bytes()) {
        *slot = (d - b'0') as u32;
    }
    Ok(out)
}

/// The header's value as canonical USI SFEN. Fields are separated by `/` or spaces; the SFEN move
/// number is 2·pair − 1, plus one when Gote is to move.
pub(crate) fn to_sfen(fen: &str) -> Result<String, FenError> {
    let fields: Vec<&str> = fen.split(['/', ' ']).filter(|s| !s.is_empty()).collect();
    if fields.len() != 13 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let board = fields[..9].join("/");
    let black = hand(fields[9])?;
    let white = if fields[10].eq_ignore_ascii_case("t") {
        // Everything not on the board and not in Black's hand.
        let setup = crate::position::sfen::parse_setup(&format!("{board} b - 1"))?;
        let mut w = [0; 7];
        for (i, (k, _)) in ORDER.iter().enumerate() {
            let on_board = setup.board.iter().flatten().filter(|p| p.kind().unpromoted() == *k).count() as u32;
            w[i] = (k.set_count() as u32).saturating_sub(on_board + black[i]);
        }
        w
    } else {
        hand(fields[10])?
    };
    let side = match fields[11] {
        "s" | "S" => Color::Black,
        "g" | "G" => Color::White,
        s => return Err(FenError::BadSide(s.to_string())),
    };
    let pair: u32 = fields[12].parse().map_err(|_| FenError::BadMoveNumber(fields[12].to_string()))?;
    let mut hand_text = String::new();
    for (counts, upper) in [(black, true), (white, false)] {
        for (n, (_, c)) in counts.iter().zip(ORDER) {
            let c = if upper { c } else { c.to_ascii_lowercase() };
            match n {
                0 => {}
                1 => hand_text.push(c),
                n => hand_text.push_str(&format!("{n}{c}")),
            }
        }
    }
    if hand_text.is_empty() {
        hand_text.push('-');
    }
    let ply = pair.max(1).saturating_mul(2) - 1 + (side == Color::White) as u32;
    let sfen = format!("{board} {} {hand_text} {ply}", side.sfen_char());
    let pos = Position::from_sfen(&sfen)?;
    Ok(pos.to_sfen())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_1998_example_converts_to_the_checked_sfen() {
        // Example from the 1998 PSN page (seed 000); expected SFEN from psn.md §1 (checked by script).
        assert_eq!(
            to_sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 1"),
            Ok("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 b R2SNb2gs2n3l17p 1".to_string())
        );
        // Spaces or slashes between all fields, explicit White hand, Gote to move in pair 12.
        assert_eq!(
            to_sfen("5B2g 5s1kl 5g3 9 8P 6N2 9 9 7+r1 0012001 0000000 g 12"),
            Ok("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 w R2SN 24".to_string())
        );
    }

    #[test]
    fn broken_fen_values_are_errors() {
        assert!(to_sfen("9/9/9/9/9/9/9/9/9 0000000/t s 1").is_err(), "no kings");
        assert!(to_sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 001200/T s 1").is_err(), "six digits");
        assert!(to_sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T x 1").is_err(), "side");
        assert!(to_sfen("5B2g/5s1kl/5g3/9/8P/6N2/9/9/7+r1 0012001/T s 99999999999").is_err(), "pair");
        assert!(to_sfen("5B2g/5s1kl/5g3").is_err());
    }
}
