//! Static evaluation: material (board and hand), piece-square terms relative to both kings, and
//! king safety. Scores are centipawns from the side to move's point of view.
//!
//! The interface is [`evaluate`] plus the [`Value`] conventions; a stronger evaluation can replace
//! this module without touching the search. King safety and threats, which need attack maps,
//! live in [`king`].

mod king;

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// A search or evaluation score in centipawns, or a mate distance near [`MATE`].
pub type Value = i32;

/// Score of giving mate at the root (mate in 0 plies).
pub const MATE: Value = 32_000;
/// Larger than any score.
pub const INFINITE: Value = 32_001;
/// Scores at or beyond this are mate scores.
pub const MATE_BOUND: Value = MATE - 1_000;
/// Score of a draw.
pub const DRAW: Value = 0;

/// The score of mating in `ply` plies.
pub const fn mate_in(ply: u32) -> Value {
    MATE - ply as Value
}

/// The score of being mated in `ply` plies.
pub const fn mated_in(ply: u32) -> Value {
    -MATE + ply as Value
}

/// True for mate scores (either side).
pub const fn is_mate_score(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Value of a piece of `kind` on the board (King: 0).
pub const fn piece_value(kind: PieceKind) -> Value {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::ProPawn => 540,
        PieceKind::ProLance => 540,
        PieceKind::ProKnight => 540,
        PieceKind::ProSilver => 540,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
        PieceKind::King => 0,
    }
}

/// Value of a piece of `kind` in hand (a hand piece can go anywhere, so it is worth a little more).
pub const fn hand_value(kind: PieceKind) -> Value {
    match kind {
        PieceKind::Pawn => 100,
        PieceKind::Lance => 340,
        PieceKind::Knight => 430,
        PieceKind::Silver => 540,
        PieceKind::Gold => 590,
        PieceKind::Bishop => 920,
        PieceKind::Rook => 1080,
        _ => 0,
    }
}

/// What capturing a piece of `kind` gains: its board value plus the value it adds to the hand.
pub const fn capture_value(kind: PieceKind) -> Value {
    piece_value(kind) + hand_value(kind.unpromoted())
}

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Bonus for a piece of `kind` by its distance to the enemy king (attack) and to its own king
/// (defence). Indexed by distance 0..=8.
fn king_relative(kind: PieceKind, to_enemy: i32, to_own: i32) -> Value {
    const ATTACK_GOLD: [Value; 9] = [0, 60, 40, 20, 8, 0, 0, 0, 0];
    const DEFEND_GOLD: [Value; 9] = [0, 45, 30, 12, 0, -10, -15, -20, -25];
    const ATTACK_SILVER: [Value; 9] = [0, 50, 35, 18, 6, 0, 0, 0, 0];
    const DEFEND_SILVER: [Value; 9] = [0, 30, 25, 10, 0, -5, -8, -10, -12];
    const ATTACK_BIG: [Value; 9] = [0, 70, 55, 35, 18, 8, 0, 0, 0];
    const ATTACK_SMALL: [Value; 9] = [0, 25, 20, 12, 5, 0, 0, 0, 0];
    let (e, o) = (to_enemy as usize, to_own as usize);
    match kind {
        PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver => {
            ATTACK_GOLD[e].max(DEFEND_GOLD[o])
        }
        PieceKind::Silver => ATTACK_SILVER[e].max(DEFEND_SILVER[o]),
        PieceKind::Horse => ATTACK_BIG[e] + DEFEND_SILVER[o] / 2,
        PieceKind::Dragon => ATTACK_BIG[e],
        PieceKind::Knight | PieceKind::Lance | PieceKind::Pawn => ATTACK_SMALL[e],
        _ => 0,
    }
}

/// Piece-square term by relative rank (0 = the enemy's back rank) for kinds whose rank matters.
fn rank_term(kind: PieceKind, rel_rank: usize) -> Value {
    const PAWN: [Value; 9] = [0, 20, 15, 10, 5, 0, 0, 0, 0];
    const KNIGHT: [Value; 9] = [0, 0, 10, 15, 10, 0, -5, -5, -10];
    const LANCE: [Value; 9] = [0, -10, -5, 0, 0, 0, 5, 5, 10];
    match kind {
        PieceKind::Pawn => PAWN[rel_rank],
        PieceKind::Knight => KNIGHT[rel_rank],
        PieceKind::Lance => LANCE[rel_rank],
        _ => 0,
    }
}

/// King placement: castled on the back ranks and toward an edge is good, wandering is bad.
fn king_placement(ksq: Square, c: Color) -> Value {
    const RANK: [Value; 9] = [-40, -40, -35, -30, -30, -25, -5, 10, 15];
    const FILE: [Value; 9] = [10, 15, 10, 0, -10, 0, 10, 15, 10];
    RANK[ksq.rank().relative_to(c)] + FILE[ksq.file().index()]
}

/// Danger to `c`'s king from the opponent's pieces in hand: drops aim at the empty squares around it.
fn hand_danger(pos: &Position, c: Color, ksq: Square) -> Value {
    let hand = pos.hand(!c);
    if hand.is_empty() {
        return 0;
    }
    let around = attacks::king(ksq);
    let open = (around - pos.occupied()).count() as Value;
    let weight = 3 * hand.count(PieceKind::Gold) as Value
        + 3 * hand.count(PieceKind::Silver) as Value
        + 4 * hand.count(PieceKind::Rook) as Value
        + 3 * hand.count(PieceKind::Bishop) as Value
        + 2 * hand.count(PieceKind::Knight) as Value
        + hand.count(PieceKind::Lance) as Value
        + (hand.count(PieceKind::Pawn) as Value).min(2);
    weight * (2 + open)
}

/// Danger from enemy pieces standing near `c`'s king, minus the defenders around it.
fn board_danger(pos: &Position, c: Color, ksq: Square) -> Value {
    let zone = attacks::king(ksq) | attacks::gold(!c, ksq).with(ksq);
    let near = zone | attacks::king(ksq).fold(Bitboard::EMPTY, |b, s| b | attacks::king(s));
    let mut danger = 0;
    for sq in near & pos.pieces_of(!c) {
        danger += match pos.piece_on(sq).map(|p| p.kind()) {
            Some(PieceKind::Dragon) => 14,
            Some(PieceKind::Horse | PieceKind::Rook) => 10,
            Some(PieceKind::Bishop) => 6,
            Some(PieceKind::King) | None => 0,
            Some(_) => 5,
        };
    }
    let defenders = (attacks::king(ksq) & pos.pieces_of(c)).count() as Value;
    danger * 3 - defenders * 6
}

/// The evaluation of `pos` from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> Value {
    let mut score = [0 as Value; 2];
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for c in Color::ALL {
        let s = &mut score[c.index()];
        for (k, n) in pos.hand(c).iter() {
            *s += hand_value(k) * n as Value;
        }
        for sq in pos.pieces_of(c) {
            let Some(p) = pos.piece_on(sq) else { continue };
            let kind = p.kind();
            *s += piece_value(kind) + rank_term(kind, sq.rank().relative_to(c));
            if let (Some(e), Some(o)) = (kings[(!c).index()], kings[c.index()]) {
                *s += king_relative(kind, distance(sq, e), distance(sq, o));
            }
        }
        if let Some(ksq) = kings[c.index()] {
            *s += king_placement(ksq, c);
            *s -= hand_danger(pos, c, ksq) + board_danger(pos, c, ksq).max(0);
        }
    }
    let us = pos.side_to_move();
    let maps = king::AttackMaps::new(pos);
    for c in Color::ALL {
        score[c.index()] += maps.mobility(pos, c) - maps.king_danger(pos, c);
    }
    score[us.index()] - score[(!us).index()] + maps.threats(pos, us) + TEMPO
}

/// Bonus for having the move.
const TEMPO: Value = 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Handicap;

    #[test]
    fn the_start_position_is_balanced() {
        // Symmetric position: only the tempo bonus remains.
        assert_eq!(evaluate(&Position::startpos()), TEMPO);
    }

    #[test]
    fn symmetry_under_colour_flip() {
        // Rotating the board and swapping colours and the side to move gives the same score.
        let sfen = "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62";
        let p = Position::from_sfen(sfen).expect("valid");
        let mut setup = p.to_setup();
        let mut flipped = setup.clone();
        for sq in Square::all() {
            flipped.board[sq.rotate().index()] =
                setup.board[sq.index()].map(|pc| crate::Piece::new(!pc.color(), pc.kind()));
        }
        flipped.hands = [setup.hands[1], setup.hands[0]];
        flipped.side_to_move = !setup.side_to_move;
        setup = flipped;
        let q = Position::from_setup(&setup).expect("valid");
        assert_eq!(evaluate(&p), evaluate(&q));
    }

    #[test]
    fn material_up_is_better() {
        // A rook handicap: Black (to move second) is a rook up.
        let mut p = Position::handicap(Handicap::Rook);
        assert!(evaluate(&p) < -500, "White to move is a rook down: {}", evaluate(&p));
        p.do_null_move();
        assert!(evaluate(&p) > 500);
    }

    #[test]
    fn mate_scores() {
        assert!(is_mate_score(mate_in(5)) && is_mate_score(mated_in(7)));
        assert!(!is_mate_score(3000));
        assert!(mate_in(1) > mate_in(3));
    }
}
