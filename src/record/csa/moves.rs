//! CSA move and piece text (kif-csa.md §2): piece codes (`FU` … `RY`), squares as two digits,
//! moves `+7776FU` / `-0055KA` (a drop has origin `00`), and the `+`/`-` side signs.

use crate::position::Position;
use crate::types::{Color, File, Move, MoveKind, PieceKind, Rank, Square};

/// The CSA code of every piece kind.
const CODES: [(PieceKind, &str); 14] = [
    (PieceKind::Pawn, "FU"),
    (PieceKind::Lance, "KY"),
    (PieceKind::Knight, "KE"),
    (PieceKind::Silver, "GI"),
    (PieceKind::Gold, "KI"),
    (PieceKind::Bishop, "KA"),
    (PieceKind::Rook, "HI"),
    (PieceKind::King, "OU"),
    (PieceKind::ProPawn, "TO"),
    (PieceKind::ProLance, "NY"),
    (PieceKind::ProKnight, "NK"),
    (PieceKind::ProSilver, "NG"),
    (PieceKind::Horse, "UM"),
    (PieceKind::Dragon, "RY"),
];

/// The CSA code of a piece kind (`FU` …).
pub(super) fn code(k: PieceKind) -> &'static str {
    CODES.iter().find(|(x, _)| *x == k).map_or("FU", |(_, c)| c)
}

/// The piece kind of a CSA code.
pub(super) fn kind_of(c: &str) -> Option<PieceKind> {
    CODES.iter().find(|(_, x)| *x == c).map(|(k, _)| *k)
}

/// The square of file `f` and rank `r` (1–9 each).
pub(super) fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::new(File::new(f)?, Rank::from_index((r as usize).checked_sub(1)?)?))
}

/// Appends a square as two digits, file then rank.
pub(super) fn push_square(s: &mut String, sq: Square) {
    s.push((b'0' + sq.file().number()) as char);
    s.push((b'0' + sq.rank().number()) as char);
}

/// Appends the CSA text of a legal move with its sign: `+7776FU`, `-0045KA`, `+8822UM`.
pub(super) fn write_move(s: &mut String, pos: &Position, m: Move) {
    s.push(sign(pos.side_to_move()));
    match m.kind() {
        MoveKind::Drop { kind, to } => {
            s.push_str("00");
            push_square(s, to);
            s.push_str(code(kind));
        }
        MoveKind::Normal { from, to, promote } => {
            let k = pos.piece_on(from).map_or(PieceKind::Pawn, |p| p.kind());
            let k = if promote { k.promoted().unwrap_or(k) } else { k };
            push_square(s, from);
            push_square(s, to);
            s.push_str(code(k));
        }
    }
}

/// `+` for Black, `-` for White.
pub(super) fn sign(c: Color) -> char {
    if c == Color::Black { '+' } else { '-' }
}

/// Reads `+7776FU` in `pos` (the sign must be the side to move's; legality is not checked).
pub(super) fn read_move(pos: &Position, text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() != 7 || !text.is_ascii() {
        return None;
    }
    let c = match b[0] {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    if c != pos.side_to_move() {
        return None;
    }
    let d = |i: usize| (b[i] as char).to_digit(10).map(|x| x as u8);
    let to = square(d(3)?, d(4)?)?;
    let kind = kind_of(&text[5..7])?;
    if d(1)? == 0 && d(2)? == 0 {
        return kind.is_hand_kind().then(|| Move::drop(kind, to));
    }
    let from = square(d(1)?, d(2)?)?;
    let before = pos.piece_on(from)?.kind();
    let promote = before != kind && before.promoted() == Some(kind);
    if !promote && before != kind {
        return None;
    }
    Some(Move::normal(from, to, promote))
}
