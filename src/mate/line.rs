//! The mating line read from the table after a proof: the attacker plays a check proven within
//! the plies left, the defender the evasion that resists longest. When the root's value is known
//! exactly (no shorter mate exists), every evasion chosen is proven to resist exactly as long as
//! the node allows (mate within the plies left, none within two fewer), so the line has the
//! mate's length; among such evasions a move comes before an interposing drop. Facts missing
//! from the table are searched again with a small node budget.

use super::MateSolver;
use super::node::Value;
use super::table::Known;
use crate::movegen::{Gen, MoveList, generate};
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes a search for a fact missing from the line may use at first; doubled each time a line
/// cannot be completed because a fact ran out of it (yumei 0278's line of 23 plies needs more).
pub(super) const FACT_BUDGET: u64 = 200_000;

impl MateSolver {
    /// Runs a search of `pos` that may use at most the fact budget in nodes; a budget running out
    /// does not stop the solve (the clock, the stop flag and the solve's node limit do) but is
    /// noted in `fact_budget_hit`.
    fn fact(&mut self, pos: &mut Position, or_node: bool, max_ply: u32, stop: &AtomicBool) -> Option<Value> {
        if self.aborted {
            return None;
        }
        let limit = self.node_limit;
        self.node_limit = limit.min(self.nodes.saturating_add(self.fact_budget));
        let v = self.run(pos, or_node, max_ply, stop);
        let out_of_time = stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.aborted && self.nodes < limit && !out_of_time {
            self.aborted = false;
            self.fact_budget_hit = true;
        }
        self.node_limit = limit;
        v
    }

    /// Mate length of `pos` (either side to move) within `left` plies, searching if the table
    /// lacks it.
    fn mate_within(&mut self, pos: &mut Position, left: u32, stop: &AtomicBool) -> Option<u32> {
        if let Known::Mate { len, .. } = self.known(pos, left) {
            return Some(len as u32);
        }
        let or_node = pos.side_to_move() == self.attacker;
        self.fact(pos, or_node, left, stop).filter(|v| v.pn == 0).map(|v| v.mate as u32)
    }

    /// True if `pos` (attacker to move) is proven to have no mate within `left` plies.
    fn no_mate_within(&mut self, pos: &mut Position, left: u32, stop: &AtomicBool) -> bool {
        if matches!(self.known(pos, left), Known::NoMate { .. }) {
            return true;
        }
        self.fact(pos, true, left, stop).is_some_and(|v| v.dn == 0)
    }

    /// The line of a mate of `len` plies from `root` (see `line`), the fact budget doubled each
    /// time a fact ran out of it, until the line is complete (`exact`: of `len` plies), a limit
    /// stops the solve, or the line fails for another reason; then the best line built.
    pub(super) fn line_within_budget(
        &mut self,
        root: &Position,
        len: u32,
        exact: bool,
        stop: &AtomicBool,
    ) -> Option<Vec<Move>> {
        let mut partial = None;
        loop {
            self.fact_budget_hit = false;
            let line = self.line(root, len, exact, stop);
            // An exact line resists as long as `len` only if every fact it needed was found.
            let complete = line.as_ref().is_some_and(|l| !exact || l.len() as u32 == len);
            if complete || self.aborted || !self.fact_budget_hit {
                return line.or(partial);
            }
            partial = line.or(partial);
            self.fact_budget = self.fact_budget.saturating_mul(2);
            log::debug!("mate: a fact ran out of nodes: fact budget raised to {}", self.fact_budget);
        }
    }

    /// The line of a mate of `len` plies from `root` (attacker to move). With `exact`, `len` is
    /// the mate's value and the defender resists for exactly that long; otherwise lengths are the
    /// proven upper bounds. Returns `None` if the line cannot be completed and verified.
    fn line(&mut self, root: &Position, len: u32, exact: bool, stop: &AtomicBool) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut left = len;
        loop {
            // Attacker: a check proven within the plies left, the shortest known first.
            let mut checks = MoveList::new();
            generate(&pos, Gen::Checks, &mut checks);
            let mut pick: Option<(Move, u32)> = None;
            for &m in checks.iter() {
                pos.do_move(m);
                if let Known::Mate { len, .. } = self.known(&pos, left - 1) {
                    if pick.is_none_or(|(_, l)| (len as u32) < l) {
                        pick = Some((m, len as u32));
                    }
                }
                pos.undo_move();
            }
            if pick.is_none() {
                for &m in checks.iter() {
                    pos.do_move(m);
                    let found = self.mate_within(&mut pos, left - 1, stop);
                    pos.undo_move();
                    if let Some(l) = found {
                        pick = Some((m, l));
                        break;
                    }
                }
            }
            let (m, l) = pick?;
            pos.do_move(m);
            line.push(m);
            left = if exact { left - 1 } else { l };
            // Defender: every evasion must be proven; the longest resistance is played.
            let mut evasions = MoveList::new();
            generate(&pos, Gen::Legal, &mut evasions);
            if evasions.is_empty() {
                break;
            }
            if left == 0 {
                return None;
            }
            let mut proven: Vec<(Move, u32)> = Vec::with_capacity(evasions.len());
            for &e in evasions.iter() {
                pos.do_move(e);
                let l = self.mate_within(&mut pos, left - 1, stop);
                pos.undo_move();
                proven.push((e, l?));
            }
            // Moves before drops, then the longest known resistance first.
            proven.sort_by_key(|&(e, l)| (e.is_drop(), std::cmp::Reverse(l)));
            let mut choice = None;
            if exact {
                for &(e, l) in &proven {
                    if l + 1 < left {
                        continue; // resists less than the node allows
                    }
                    pos.do_move(e);
                    let resists = left < 3 || self.no_mate_within(&mut pos, left - 3, stop);
                    pos.undo_move();
                    if resists {
                        choice = Some((e, left - 1));
                        break;
                    }
                }
            }
            let (e, l) = match choice {
                Some(c) => c,
                None => {
                    let longest = proven.iter().map(|&(_, l)| l).max()?;
                    proven.into_iter().find(|&(_, l)| l == longest)?
                }
            };
            pos.do_move(e);
            line.push(e);
            left = l;
        }
        verify(root, &line).then_some(line)
    }
}

/// True if `line` is legal from `root`, alternates checks and evasions, and ends in checkmate.
pub(super) fn verify(root: &Position, line: &[Move]) -> bool {
    let mut p = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) || (i % 2 == 0 && !p.gives_check(m)) {
            return false;
        }
        p.do_move(m);
    }
    line.len() % 2 == 1 && p.is_checkmate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::MateLimits;

    #[test]
    fn facts_are_searched_from_either_side_to_move() {
        // yumei 0216: 5 plies (cshogi mate_move: mate in 5, none in 3). With an empty table the
        // facts are searched: the attacker's position as an OR node, the defender's as an AND node.
        let stop = AtomicBool::new(false);
        let mut pos = Position::from_sfen("7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1").expect("valid");
        let mut s = MateSolver::new(1);
        s.prepare(&pos, &MateLimits::default());
        assert_eq!(s.mate_within(&mut pos, 5, &stop), Some(5));
        assert_eq!(s.mate_within(&mut pos, 3, &stop), None);
        let check = pos.parse_usi_move("S*2c").expect("legal");
        pos.do_move(check);
        s.clear();
        assert_eq!(s.mate_within(&mut pos, 4, &stop), Some(4));
    }
}
