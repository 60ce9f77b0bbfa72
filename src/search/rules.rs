//! The game rules inside the tree: repetitions (a draw, or a loss for the side giving perpetual
//! check), the game-length limit and the entering-king declaration.

use super::Searcher;
use crate::eval::{Value, mate_in, mated_in};
use crate::position::{DeclarationOutcome, EnteringKingRule, Position, Repetition};
use crate::types::Bitboard;

/// How far back (plies) the search looks for repetitions below [`FULL_HISTORY_PLIES`].
const REPETITION_WINDOW: usize = 32;

/// Up to this ply from the root the search compares with the whole game: a cycle longer than
/// [`REPETITION_WINDOW`] (a king walking 9 squares while the other side shuffles between 2 comes
/// back every 36 plies) would otherwise never be seen, and the engine walked into sennichite in
/// a won game. The nodes this close to the root are few, so the longer look costs nothing.
const FULL_HISTORY_PLIES: u32 = 2;

impl Searcher {
    /// The score of a draw for the side to move.
    fn draw_score(&self, pos: &Position) -> Value {
        if pos.side_to_move() == self.root_side { self.opts.draw_value } else { -self.opts.draw_value }
    }

    /// Game-rule outcomes at an inner node: repetition, move limit, declaration. `None` = play on.
    pub(super) fn rule_score(&self, pos: &Position, ply: u32) -> Option<Value> {
        let window = if ply <= FULL_HISTORY_PLIES { usize::MAX } else { REPETITION_WINDOW };
        match pos.repetition_within(2, window) {
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

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::search::{BestMove, Limits, SearchControl, SearchOptions, Searcher};

    #[test]
    fn a_position_36_plies_back_is_a_repetition_for_the_roots_moves() {
        // Black, a rook and nine pawns up, walks its king around 9 squares while White's king
        // shuffles 5a-4a: the positions come back every 36 plies, beyond the 32-ply window.
        // Two cycles less one ply in, White's 4a5a brings the start position back a third
        // time; for the side that is lost, that draw (0) is the best move.
        let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R9P 1").expect("sfen");
        let black = ["5i4i", "4i3i", "3i3h", "3h4g", "4g5g", "5g6g", "6g6h", "6h6i", "6i5i"];
        for ply in 0..71 {
            let text = if ply % 2 == 0 { black[(ply / 2) % 9] } else { ["5a4a", "4a5a"][(ply / 2) % 2] };
            let m = pos.parse_usi_move(text).expect("a legal move");
            pos.do_move(m);
        }
        let limits = Limits { depth: Some(5), ..Limits::default() };
        let (control, opts) = (SearchControl::default(), SearchOptions::default());
        let out = Searcher::new(4).search(&mut pos, &limits, &opts, &control, &mut |_| {});
        let BestMove::Move { best, .. } = out.best else { panic!("{out:?}") };
        assert_eq!((best.to_usi().to_string(), out.score), ("4a5a".to_string(), 0), "{out:?}");
    }
}
