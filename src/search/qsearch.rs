//! Quiescence search: stand pat, a mate in one by a contact check where standing pat does not
//! cut (`qsearch_contact_mate` switches it), then captures and pawn promotions (all evasions
//! when in check), until the position is quiet. Past the first two moves only recaptures and checks are
//! tried (YaneuraOu's move-count pruning in quiescence).

use super::correction::Keys;
use super::history::ContKey;
use super::ordering::{Context, MovePicker};
use super::tt::{Bound, Stored};
use super::{MAX_PLY, SearchControl, Searcher};
use crate::eval::{INFINITE, Value, capture_value, mated_in};
use crate::mate::mate_in_one_by_contact;
use crate::position::Position;

/// Quiescence plies after which the stand-pat score is returned.
const MAX_QDEPTH: u32 = 12;

impl Searcher {
    /// Quiescence search of `pos` with the window `(alpha, beta)`; `qdepth` counts its plies.
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: Value,
        beta: Value,
        ply: u32,
        qdepth: u32,
        control: &SearchControl,
    ) -> Value {
        let p = ply as usize;
        self.pv_len[p] = p;
        if self.count_node_and_check_stop(control) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if p >= MAX_PLY - 2 {
            return self.eval.evaluate(pos, p);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        // A singular-extension search (one move excluded) must not share this node's entry.
        let excluded = self.stack[p].excluded;
        let hit = if excluded.is_some() { None } else { self.tt.probe(key, ply) };
        if let Some(h) = hit {
            if h.cuts(alpha, beta) {
                return h.score;
            }
        }
        let raw = if in_check { -INFINITE } else { hit.map_or_else(|| self.eval.evaluate(pos, p), |h| h.eval) };
        let stand = if in_check {
            raw
        } else {
            self.correction.corrected(pos.side_to_move(), &Keys::of(pos, &self.previous_keys(p)), raw)
        };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            // A mate by a contact check ends the node, looked for the first time a node is seen
            // (as YaneuraOu's quiescence does), but only where standing pat does not already cut:
            // there a mate changes only the size of the fail-high, and most probes are saved.
            if hit.is_none() && excluded.is_none() && super::params::qsearch_contact_mate() != 0 {
                if let Some(m) = mate_in_one_by_contact(pos) {
                    return self.mate_in_one_found(key, ply, m, 0, raw);
                }
            }
            alpha = alpha.max(stand);
            if qdepth >= MAX_QDEPTH {
                return stand;
            }
        }
        let mut best = stand;
        let mut best_move = None;
        let mut picker = MovePicker::new_quiescence(pos, hit.and_then(|h| h.mv));
        let previous = self.previous_keys(p);
        let mut seen = 0;
        let recapture_square = pos.last_move().map(|m| m.to());
        loop {
            let ctx = Context { history: &self.history, killers: [None; 2], previous };
            let Some(m) = picker.next(pos, &ctx) else { break };
            seen += 1;
            if !in_check {
                // Past the first two moves only recaptures and checks are tried (YaneuraOu's
                // and Stockfish's move-count pruning): the others multiply the tree for little.
                if seen > 2 && Some(m.to()) != recapture_square && !pos.gives_check(m) {
                    continue;
                }
                let gain = pos.piece_on(m.to()).map_or(0, |c| capture_value(c.kind()))
                    + if m.is_promotion() { super::params::qsearch_promotion_gain() } else { 0 };
                if stand + gain + super::params::qsearch_futility() <= alpha {
                    continue;
                }
            }
            self.stack[p].key = ContKey::of(pos, m);
            self.eval.push(pos, m, p + 1);
            pos.do_move(m);
            self.tt.prefetch(pos.key());
            self.eval.played(pos, p + 1);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qdepth + 1, control);
            pos.undo_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(p, m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && seen == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        let eval = if in_check { 0 } else { raw };
        self.tt.store(key, ply, Stored { mv: best_move, score: best, eval, depth: 0, bound });
        best
    }
}
