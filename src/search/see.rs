//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable piece (x-rays included: the sliders'
//! attacks are recomputed after each capture), and whether it reaches a threshold.

use crate::eval::{Value, capture_value, piece_value};
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceKind, Square};

/// The kinds in the order of [`piece_value`], least valuable first (the king, which captures
/// only when nothing else can, is what is left); the four promoted minor pieces, worth a gold,
/// go with it.
const BY_VALUE: [PieceKind; 9] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Dragon,
];

/// The least valuable piece among `attackers` (the lowest square among equals), with its kind.
#[inline(always)]
fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(Square, PieceKind)> {
    if attackers.is_empty() {
        return None;
    }
    for kind in BY_VALUE {
        let of_kind = if kind == PieceKind::Gold { pos.gold_movers() } else { pos.pieces_of_kind(kind) };
        if let Some(sq) = (attackers & of_kind).first() {
            return pos.piece_on(sq).map(|p| (sq, p.kind()));
        }
    }
    attackers.first().map(|sq| (sq, PieceKind::King))
}

/// The first capture of an exchange: the move that starts it, before any recapture.
#[derive(Clone, Copy, Debug)]
struct FirstCapture {
    /// The board's occupancy after the move.
    occupied: Bitboard,
    /// The kind then on the square (promoted if the move promotes).
    on_square: PieceKind,
    /// The mover's gain: the captured piece's value and the promotion's.
    gain: Value,
}

/// The first capture of the exchange `m` starts. `None` if `m` moves no piece.
#[inline(always)]
fn first_exchange(pos: &Position, m: Move) -> Option<FirstCapture> {
    let to = m.to();
    match m.kind() {
        MoveKind::Drop { kind, .. } => {
            Some(FirstCapture { occupied: pos.occupied().with(to), on_square: kind, gain: 0 })
        }
        MoveKind::Normal { from, promote, .. } => {
            let p = pos.piece_on(from)?;
            let captured = pos.piece_on(to).map_or(0, |c| capture_value(c.kind()));
            let kind = match (promote, p.kind().promoted()) {
                (true, Some(k)) => k,
                _ => p.kind(),
            };
            let promo_gain = piece_value(kind) - piece_value(p.kind());
            let occupied = pos.occupied().without(from).with(to);
            Some(FirstCapture { occupied, on_square: kind, gain: captured + promo_gain })
        }
    }
}

/// The sliders of both colours attacking `to` through `occ` along the line from `to` through
/// `vacated` (rooks and dragons, bishops and horses, lances on a file): the x-rays a capture from
/// `vacated` may uncover. Empty if `vacated` is on no line through `to`.
#[inline(always)]
fn uncovered_sliders(pos: &Position, to: Square, vacated: Square, occ: Bitboard) -> Bitboard {
    if crate::attacks::bishop_pseudo(to).has(vacated) {
        return crate::attacks::bishop(to, occ) & pos.bishop_movers();
    }
    if !crate::attacks::rook_pseudo(to).has(vacated) {
        return Bitboard::EMPTY;
    }
    let lances = pos.pieces_of_kind(PieceKind::Lance);
    (crate::attacks::rook(to, occ) & pos.rook_movers())
        | (crate::attacks::lance(Color::White, to, occ) & lances & pos.pieces_of(Color::Black))
        | (crate::attacks::lance(Color::Black, to, occ) & lances & pos.pieces_of(Color::White))
}

/// True if the exchange value of playing `m` (see [`exchange`]) is at least `threshold`,
/// answered without the exchange where its first capture settles it: the value lies between the
/// first gain less the value of the piece left on the square (the opponent recaptures, the mover
/// stops) and the first gain (the opponent stops), as the swap list's minimum at each step makes
/// it.
pub fn see_ge(pos: &Position, m: Move, threshold: Value) -> bool {
    let Some(first) = first_exchange(pos, m) else {
        return 0 >= threshold;
    };
    if first.gain < threshold {
        return false;
    }
    if first.gain - capture_value(first.on_square) >= threshold {
        return true;
    }
    exchange(pos, m.to(), first) >= threshold
}

/// The exchange value of the move to `to` whose [`first_exchange`] is `first` (positive = the
/// mover wins material): the swap list of the captures on the square, each side recapturing
/// with its least valuable attacker (a king only where the other side has none left), cut where
/// the side to capture would lose even if not recaptured while the other is ahead. The
/// attackers of both sides are found once, and after each capture only the sliders on the line
/// it opened (x-rays).
fn exchange(pos: &Position, to: Square, first: FirstCapture) -> Value {
    let us = pos.side_to_move();
    let (mut occ, mut on_square) = (first.occupied, first.on_square);
    // Most quiet moves go where the opponent has no attacker: nothing to exchange.
    if !pos.is_attacked(!us, to, occ) {
        return first.gain;
    }
    let mut attackers = pos.attackers_to_both(to, occ) & occ;
    let mut gains = [0 as Value; 48];
    gains[0] = first.gain;
    let mut d = 0;
    let mut side: Color = !us;
    while let Some((sq, kind)) = least_valuable(pos, attackers & pos.pieces_of(side)) {
        if kind == PieceKind::King && (attackers & pos.pieces_of(!side)).is_nonempty() {
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
        attackers = (attackers | uncovered_sliders(pos, to, sq, occ)) & occ;
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
    use rand::{SeedableRng, rngs::StdRng};

    /// The exchange value of playing `m` as the search's SEE computes it.
    fn see(pos: &Position, m: Move) -> Value {
        first_exchange(pos, m).map_or(0, |first| exchange(pos, m.to(), first))
    }

    /// The least valuable of `attackers` by a scan of every square (the first of equals): the
    /// reference's own choice, independent of [`least_valuable`].
    fn cheapest(pos: &Position, attackers: Bitboard) -> Option<(Square, PieceKind)> {
        attackers
            .filter_map(|sq| pos.piece_on(sq).map(|p| (sq, p.kind())))
            .min_by_key(|&(_, k)| if k == PieceKind::King { Value::MAX } else { piece_value(k) })
    }

    /// The exchange value of playing `m` (positive = the mover wins material) by the full swap
    /// list, attackers found anew at every capture: hisha's SEE until 2026-11-28, the reference
    /// `see_ge` is checked against.
    fn reference(pos: &Position, m: Move) -> Value {
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
            let Some((sq, kind)) = cheapest(pos, attackers) else {
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

    /// `see` gives the reference's value, and `see_ge` its comparison with the threshold, for
    /// every legal move of random-walk positions (captures, recaptures, drops, promotions) at
    /// thresholds around the piece values.
    #[test]
    fn see_and_see_ge_agree_with_the_reference() {
        let mut starts = vec![Position::startpos()];
        starts.extend(crate::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()));
        let positions = crate::bench::random_walks(starts, 40, &mut StdRng::seed_from_u64(9));
        let (mut checked, mut nonzero) = (0, 0);
        for pos in &positions {
            for &m in pos.legal_moves().iter() {
                let v = reference(pos, m);
                assert_eq!(see(pos, m), v, "{} {m:?}", pos.to_sfen());
                nonzero += usize::from(v != 0);
                for threshold in [-2000, -1200, -700, -400, -200, -100, -1, 0, 1, 90, 100, 300, 600, 1200] {
                    assert_eq!(see_ge(pos, m, threshold), v >= threshold, "{} {m:?} {threshold}", pos.to_sfen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000 && nonzero > 1_000, "{checked} comparisons, {nonzero} non-zero exchanges");
    }

    /// The reference value of `mv` in `sfen`, checked against `see_ge` just below and above.
    fn see_of(sfen: &str, mv: &str) -> Value {
        let pos = Position::from_sfen(sfen).expect("valid");
        let m = pos.parse_usi_move(mv).expect("legal");
        let v = see(&pos, m);
        assert_eq!(v, reference(&pos, m));
        assert!(see_ge(&pos, m, v) && !see_ge(&pos, m, v + 1));
        v
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
