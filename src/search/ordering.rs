//! Move ordering: the transposition-table move first, then the other moves scored and handed out
//! best-first (good captures and promotions by MVV-LVA, killers, quiet moves by history, losing
//! captures last). Non-promotions of pawns, bishops and rooks where promotion is possible are
//! skipped, as in YaneuraOu: the promoting twin is always at least as good.

use super::see::see;
use crate::eval::{Value, capture_value, piece_value};
use crate::movegen::{Gen, MAX_MOVES, MoveList, generate};
use crate::position::Position;
use crate::types::{Color, Move, MoveKind, PieceKind};

/// History of quiet moves that caused cut-offs: `[color][piece kind][to]`.
pub struct History(Box<[[[i32; 81]; 14]; 2]>);

impl History {
    /// An empty table.
    pub fn new() -> History {
        History(Box::new([[[0; 81]; 14]; 2]))
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self.0 = [[[0; 81]; 14]; 2];
    }

    fn slot(&mut self, pos: &Position, m: Move) -> Option<&mut i32> {
        let kind = pos.moved_piece(m)?.kind();
        Some(&mut self.0[pos.side_to_move().index()][kind.index()][m.to().index()])
    }

    /// The history score of `m` in `pos`.
    pub fn get(&self, c: Color, kind: PieceKind, m: Move) -> i32 {
        self.0[c.index()][kind.index()][m.to().index()]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move, with the usual gravity toward zero.
    pub fn update(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(h) = self.slot(pos, m) {
            let b = bonus.clamp(-16_000, 16_000);
            *h += b - *h * b.abs() / 16_000;
        }
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// True if `m` is a non-promotion that search never needs (pawn, bishop or rook that could
/// promote on this move).
pub fn is_useless_non_promotion(pos: &Position, m: Move) -> bool {
    let MoveKind::Normal { from, to, promote: false } = m.kind() else {
        return false;
    };
    let us = pos.side_to_move();
    if !(from.rank().in_zone(us) || to.rank().in_zone(us)) {
        return false;
    }
    matches!(pos.piece_on(from).map(|p| p.kind()), Some(PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook))
}

/// True if `m` captures.
pub fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_drop() && pos.piece_on(m.to()).is_some()
}

/// MVV-LVA score of a capture or promotion.
fn mvv_lva(pos: &Position, m: Move) -> Value {
    let victim = pos.piece_on(m.to()).map_or(0, |p| capture_value(p.kind()));
    let attacker = pos.moved_piece(m).map_or(0, |p| piece_value(p.kind()));
    let promo = if m.is_promotion() { 300 } else { 0 };
    victim * 8 - attacker / 16 + promo
}

/// Hands out the moves of a node in a good order.
pub struct MovePicker {
    tt_move: Option<Move>,
    stage: u8,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    captures_only: bool,
}

const GOOD: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const BAD: i32 = -(1 << 28);

impl MovePicker {
    /// A picker for all moves of a main-search node.
    pub fn new(tt_move: Option<Move>) -> MovePicker {
        MovePicker { tt_move, stage: 0, moves: MoveList::new(), scores: [0; MAX_MOVES], next: 0, captures_only: false }
    }

    /// A picker for quiescence search: captures and promotions (all evasions when in check).
    pub fn new_quiescence(tt_move: Option<Move>) -> MovePicker {
        MovePicker { captures_only: true, ..MovePicker::new(tt_move) }
    }

    fn fill(&mut self, pos: &Position, killers: &[Option<Move>; 2], history: &History) {
        let kind = if self.captures_only && !pos.in_check() { Gen::Captures } else { Gen::Legal };
        generate(pos, kind, &mut self.moves);
        let us = pos.side_to_move();
        self.moves.retain(|m| Some(m) != self.tt_move && !is_useless_non_promotion(pos, m));
        for (i, &m) in self.moves.iter().enumerate() {
            self.scores[i] = {
                if is_capture(pos, m) || m.is_promotion() {
                    let base = mvv_lva(pos, m);
                    if see(pos, m) >= 0 { GOOD + base } else { BAD + base }
                } else if killers.contains(&Some(m)) {
                    KILLER + if killers[0] == Some(m) { 1 } else { 0 }
                } else {
                    pos.moved_piece(m).map_or(0, |p| history.get(us, p.kind(), m))
                }
            };
        }
    }

    /// The next move, or `None` when all were handed out. Moves are legal.
    pub fn next(&mut self, pos: &Position, killers: &[Option<Move>; 2], history: &History) -> Option<Move> {
        if self.stage == 0 {
            self.stage = 1;
            if let Some(m) = self.tt_move {
                let acceptable = pos.is_legal(m)
                    && !is_useless_non_promotion(pos, m)
                    && (!self.captures_only || pos.in_check() || is_capture(pos, m) || m.is_promotion());
                if acceptable {
                    return Some(m);
                }
                self.tt_move = None;
            }
        }
        if self.stage == 1 {
            self.stage = 2;
            self.fill(pos, killers, history);
        }
        // Selection of the best remaining move.
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.scores.swap(self.next, best);
        self.moves.swap(self.next, best);
        let m = self.moves[self.next];
        self.next += 1;
        Some(m)
    }

    /// The score the picker gave the last move handed out (for pruning decisions): `true` if it
    /// was a losing capture.
    pub fn last_was_bad_capture(&self) -> bool {
        self.next > 0 && self.scores[self.next - 1] < BAD / 2
    }
}
