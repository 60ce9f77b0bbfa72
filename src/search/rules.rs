//! The game rules inside the tree: repetitions (a draw, or a loss for the side giving perpetual
//! check), the game-length limit and the entering-king declaration.

use super::Searcher;
use crate::eval::{Value, mate_in, mated_in};
use crate::position::{DeclarationOutcome, EnteringKingRule, Position, Repetition};
use crate::types::Bitboard;

/// How far back (plies) the search looks for repetitions.
const REPETITION_WINDOW: usize = 32;

impl Searcher {
    /// The score of a draw for the side to move.
    fn draw_score(&self, pos: &Position) -> Value {
        if pos.side_to_move() == self.root_side { self.opts.draw_value } else { -self.opts.draw_value }
    }

    /// Game-rule outcomes at an inner node: repetition, move limit, declaration. `None` = play on.
    pub(super) fn rule_score(&self, pos: &Position, ply: u32) -> Option<Value> {
        match pos.repetition_within(2, REPETITION_WINDOW) {
            Repetition::None => {}
            Repetition::Draw => return Some(self.draw_score(pos)),
            Repetition::PerpetualCheckBy(c) if c == pos.side_to_move() => {
                return Some(mated_in(ply));
            }
            Repetition::PerpetualCheckBy(_) => return Some(mate_in(ply)),
        }
        let max = self.opts.max_moves_to_draw;
        if max > 0 && pos.move_number() > max {
            return Some(self.draw_score(pos));
        }
        let rule = self.opts.entering_king_rule;
        if rule != EnteringKingRule::None {
            let us = pos.side_to_move();
            let in_camp = pos.king_square(us).is_some_and(|k| Bitboard::far_ranks(us, 3).has(k));
            if in_camp && pos.declaration(rule) == DeclarationOutcome::Win {
                return Some(mate_in(ply));
            }
        }
        None
    }
}
