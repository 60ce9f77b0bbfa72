//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable piece (x-rays included, since attackers
//! are recomputed after each capture).

use crate::eval::{Value, capture_value, piece_value};
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceKind, Square};

/// The least valuable piece of `c` attacking `to` among `attackers`, with its kind.
fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(Square, PieceKind)> {
    attackers
        .filter_map(|sq| pos.piece_on(sq).map(|p| (sq, p.kind())))
        .min_by_key(|&(_, k)| if k == PieceKind::King { Value::MAX } else { piece_value(k) })
}

/// The exchange value of playing `m` (positive = the mover wins material).
pub fn see(pos: &Position, m: Move) -> Value {
    let us = pos.side_to_move();
    let to = m.to();
    let (mut occ, mut on_square, first_gain) = match m.kind() {
        MoveKind::Drop { kind, .. } => (pos.occupied().with(to), kind, 0),
        MoveKind::Normal { from, promote, .. } => {
            let Some(p) = pos.piece_on(from) else {
                return 0;
            };
            let captured = pos.piece_on(to).map_or(0, |c| capture_value(c.kind()));
            let kind = match (promote, p.kind().promoted()) {
                (true, Some(k)) => k,
                _ => p.kind(),
            };
            let promo_gain = piece_value(kind) - piece_value(p.kind());
            (pos.occupied().without(from).with(to), kind, captured + promo_gain)
        }
    };
    let mut gains = [0 as Value; 48];
    gains[0] = first_gain;
    let mut d = 0;
    let mut side: Color = !us;
    loop {
        let attackers = pos.attackers_to(side, to, occ) & occ;
        let Some((sq, kind)) = least_valuable(pos, attackers) else {
            break;
        };
        if kind == PieceKind::King && (pos.attackers_to(!side, to, occ) & occ).is_nonempty() {
            break; // the king may not capture into an attacked square
        }
        d += 1;
        if d >= gains.len() {
            break;
        }
        gains[d] = capture_value(on_square) - gains[d - 1];
        if gains[d].max(-gains[d - 1]) < 0 {
            break;
        }
        occ = occ.without(sq);
        on_square = kind;
        side = !side;
    }
    while d > 0 {
        gains[d - 1] = -((-gains[d - 1]).max(gains[d]));
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(sfen: &str, mv: &str) -> Value {
        let pos = Position::from_sfen(sfen).expect("valid");
        see(&pos, pos.parse_usi_move(mv).expect("legal"))
    }

    #[test]
    fn undefended_capture_wins_the_piece() {
        // Black rook takes an undefended White silver.
        assert_eq!(see_of("4k4/9/9/9/4s4/9/9/9/4R3K b - 1", "5i5e"), capture_value(PieceKind::Silver));
    }

    #[test]
    fn defended_capture_by_a_bigger_piece_loses() {
        // The silver on 5e is defended by the gold on 5d: RxS, GxR.
        let v = see_of("4k4/9/9/4g4/4s4/9/9/9/4R3K b - 1", "5i5e");
        assert_eq!(v, capture_value(PieceKind::Silver) - capture_value(PieceKind::Rook));
    }

    #[test]
    fn quiet_move_to_an_attacked_square_loses_the_piece() {
        // Dropping a gold where a White pawn takes it.
        let v = see_of("4k4/9/9/4p4/9/9/9/9/8K b G 1", "G*5e");
        assert_eq!(v, -capture_value(PieceKind::Gold));
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/8K b G 1", "G*5e"), 0);
    }
}
