//! The root moves' order and reductions. Before the first iteration the root moves are put in
//! the move picker's order (the table's move, captures by MVV-LVA and capture history, quiet
//! moves by history); each iteration then sorts them by score, stably, so the moves that failed
//! low keep that order. Late quiet root moves get late-move reductions as at any PV node
//! (Stockfish and YaneuraOu search the root with the node search, reductions included).

use super::history::{ContKey, NO_PREVIOUS};
use super::ordering::{Context, MovePicker, is_capture};
use super::pruning::reduction;
use super::{Searcher, params};
use crate::eval::Value;
use crate::position::Position;
use crate::types::Move;

/// One move at the root: its score in the last pass over it and its line.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    /// The move.
    pub(super) mv: Move,
    /// Its score in the iteration under way (`-INFINITE` where it failed low).
    pub(super) score: Value,
    /// Its score in the last finished iteration.
    pub(super) previous: Value,
    /// Its principal variation, the move first.
    pub(super) pv: Vec<Move>,
}

impl Searcher {
    /// Puts `roots` in the order the move picker hands their moves out at the root (any it does
    /// not hand out keep their order, after the others).
    pub(super) fn order_roots(&self, pos: &Position, roots: &mut [RootMove]) {
        let tt_move = self.tt.probe(pos.key(), 0).and_then(|h| h.mv);
        let mut picker = MovePicker::new(pos, tt_move, 1);
        let ctx = Context { history: &self.history, killers: self.killers[0], previous: NO_PREVIOUS };
        let mut placed = 0;
        while let Some(m) = picker.next(pos, &ctx) {
            if let Some(i) = roots[placed..].iter().position(|r| r.mv == m) {
                roots[placed..=placed + i].rotate_right(1);
                placed += 1;
            }
        }
    }

    /// The late-move reduction of root move `m` (`gives_check` or not), the `searched`-th move
    /// of a pass at `depth` (counted from 0): none for the first moves, captures, promotions
    /// and checks, else a PV node's.
    pub(super) fn root_reduction(
        &self,
        pos: &Position,
        m: Move,
        gives_check: bool,
        searched: usize,
        depth: i32,
    ) -> i32 {
        if depth < params::lmr_depth()
            || searched < params::lmr_searched() as usize
            || gives_check
            || is_capture(pos, m)
            || m.is_promotion()
        {
            return 0;
        }
        let history = ContKey::of(pos, m).map_or(0, |k| self.history.score(pos.side_to_move(), m, k, &NO_PREVIOUS));
        let r = reduction(depth, searched) - params::lmr_pv_node() / 1024 - history / params::lmr_history_divisor();
        r.clamp(0, (depth - 2).max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::INFINITE;
    use crate::search::tt::{Bound, Stored};

    fn roots_of(pos: &Position) -> Vec<RootMove> {
        let moves = pos.legal_moves();
        moves.iter().map(|&m| RootMove { mv: m, score: -INFINITE, previous: -INFINITE, pv: vec![m] }).collect()
    }

    #[test]
    fn the_table_move_comes_first_then_the_winning_captures_then_the_quiet_moves() {
        // Black's rook can take an undefended silver on 7h (a winning capture); the table holds a
        // king move.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/1Rs6/4K4 b - 1").expect("valid sfen");
        let searcher = Searcher::new(1);
        let quiet = pos.parse_usi_move("5i6h").expect("legal move");
        let stored = Stored { mv: Some(quiet), score: 0, eval: 0, depth: 3, bound: Bound::Lower };
        searcher.tt.store(pos.key(), 0, stored);
        let mut roots = roots_of(&pos);
        let n = roots.len();
        searcher.order_roots(&pos, &mut roots);
        assert_eq!(roots.len(), n, "every root move kept");
        assert_eq!(roots[0].mv, quiet, "the table's move first");
        assert_eq!(roots[1].mv.to_string(), "8h7h", "then the capture");
        let mut sorted: Vec<String> = roots.iter().map(|r| r.mv.to_string()).collect();
        sorted.sort();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        legal.sort();
        assert_eq!(sorted, legal, "the same moves, reordered");
    }

    #[test]
    fn only_late_quiet_root_moves_that_do_not_check_are_reduced() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/1Rs6/4K4 b - 1").expect("valid sfen");
        let searcher = Searcher::new(1);
        let quiet = pos.parse_usi_move("5i4h").expect("legal move");
        let capture = pos.parse_usi_move("8h7h").expect("legal move");
        let check = pos.parse_usi_move("8h8a+").expect("legal move");
        assert!(pos.gives_check(check) && !pos.gives_check(quiet));
        assert!(searcher.root_reduction(&pos, quiet, false, 20, 12) > 0, "a late quiet move");
        assert_eq!(searcher.root_reduction(&pos, quiet, false, 0, 12), 0, "the first move");
        assert_eq!(searcher.root_reduction(&pos, quiet, false, 1, 12), 0, "the second move");
        assert_eq!(searcher.root_reduction(&pos, quiet, false, 20, 2), 0, "too shallow");
        assert_eq!(searcher.root_reduction(&pos, capture, false, 20, 12), 0, "a capture");
        assert_eq!(searcher.root_reduction(&pos, check, true, 20, 12), 0, "a check");
        // Never below the quiescence search: the reduced depth stays at least 1.
        assert!(searcher.root_reduction(&pos, quiet, false, 200, 4) <= 2);
    }
}
