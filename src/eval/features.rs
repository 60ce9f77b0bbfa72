//! The evaluation as a function of a weight vector ([`super::layout`]): one walk over the
//! position hands every term to an [`Accumulator`]. Summing with weights gives the evaluation;
//! recording the terms gives the tuner its training rows, so the two can never disagree.

use super::Value;
use super::king::AttackMaps;
use super::layout::*;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};

/// Receives the terms of an evaluation.
pub trait Accumulator {
    /// A linear term of side `c`: `count` times parameter `index`.
    fn linear(&mut self, c: Color, index: usize, count: i32);
    /// A king-danger input of `c`'s king: `count` times input `input` (a `D_*` index).
    fn danger(&mut self, c: Color, input: usize, count: i32);
}

/// `sq` as `c` sees the board: (file, rank) with rank 0 the far edge.
#[inline(always)]
fn view(c: Color, sq: Square) -> (usize, usize) {
    let (f, r) = (sq.file().index(), sq.rank().index());
    match c {
        Color::Black => (f, r),
        Color::White => (8 - f, 8 - r),
    }
}

/// Folded file 0..5 (the board is symmetric left to right).
#[inline(always)]
fn fold(f: usize) -> usize {
    f.min(8 - f)
}

/// Cell of a king-relative table for a piece on `sq` (our view) and a king on `king`.
#[inline(always)]
fn relative_cell(piece: (usize, usize), king: (usize, usize)) -> usize {
    let mirror = |f: usize| if king.0 > 4 { 8 - f } else { f };
    let df = mirror(piece.0) + 8 - mirror(king.0);
    let dr = piece.1 + 8 - king.1;
    dr * 17 + df
}

/// Walks every term of `pos` into `acc`.
pub fn extract<A: Accumulator>(pos: &Position, acc: &mut A) {
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for c in Color::ALL {
        for (kind, n) in pos.hand(c).iter() {
            let base = HAND + kind.index() * HAND_SLOTS;
            for i in 0..(n as usize).min(HAND_SLOTS) {
                acc.linear(c, base + i, 1);
            }
        }
        let own = kings[c.index()].map(|k| view(c, k));
        let enemy = kings[(!c).index()].map(|k| view(c, k));
        for sq in pos.pieces_of(c) {
            let Some(p) = pos.piece_on(sq) else { continue };
            let kind = p.kind().index();
            let v = view(c, sq);
            if p.kind() == PieceKind::King {
                acc.linear(c, KING_PST + v.1 * 5 + fold(v.0), 1);
                continue;
            }
            acc.linear(c, PIECE + kind, 1);
            acc.linear(c, PST + kind * 45 + v.1 * 5 + fold(v.0), 1);
            if let Some(k) = own {
                acc.linear(c, OWN_KING + kind * RELATIVE + relative_cell(v, k), 1);
            }
            if let Some(e) = enemy {
                acc.linear(c, ENEMY_KING + kind * RELATIVE + relative_cell(v, e), 1);
            }
        }
    }
    let maps = AttackMaps::new(pos);
    for c in Color::ALL {
        maps.danger_inputs(pos, c, |input, count| acc.danger(c, input, count));
        for slot in 0..MOBILITY_KINDS.len() {
            acc.linear(c, MOBILITY + slot, maps.mobility(c, slot) as i32);
        }
    }
    let us = pos.side_to_move();
    for (side, base) in [(!us, THREAT_BY_US), (us, THREAT_TO_US)] {
        for sq in maps.loose(pos, side) {
            match pos.piece_on(sq) {
                Some(p) if p.kind() != PieceKind::King => acc.linear(us, base + p.kind().index(), 1),
                _ => {}
            }
        }
    }
    acc.linear(us, TEMPO, 1);
}

/// Sums the terms with integer weights.
struct Summer<'a> {
    weights: &'a [i16; NUM_PARAMS],
    score: [i32; 2],
    units: [i32; 2],
}

impl Accumulator for Summer<'_> {
    #[inline(always)]
    fn linear(&mut self, c: Color, index: usize, count: i32) {
        self.score[c.index()] += self.weights[index] as i32 * count;
    }

    #[inline(always)]
    fn danger(&mut self, c: Color, input: usize, count: i32) {
        self.score[c.index()] += self.weights[DANGER_LINEAR + input] as i32 * count;
        self.units[c.index()] += self.weights[DANGER_UNITS + input] as i32 * count;
    }
}

/// The king-danger penalty for `units` attack units (fixed point).
#[inline]
pub(crate) fn danger_penalty(units: i32) -> i32 {
    let u = units.max(0) as i64;
    ((u * u) >> DANGER_SHIFT).min(Value::MAX as i64 / 4) as i32
}

/// The evaluation of `pos` with `weights`, from the side to move's point of view.
pub(crate) fn evaluate_with(pos: &Position, weights: &[i16; NUM_PARAMS]) -> Value {
    let mut s = Summer { weights, score: [0; 2], units: [0; 2] };
    extract(pos, &mut s);
    let side = |c: Color| s.score[c.index()] - danger_penalty(s.units[c.index()]);
    let us = pos.side_to_move();
    (side(us) - side(!us)).clamp(-super::MATE_BOUND + 1, super::MATE_BOUND - 1)
}
