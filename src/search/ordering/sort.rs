//! The move picker's ordering of the lists it generated: the best of a range picked one at a
//! time, and the quiet moves' two-step sort (the first few by one insertion pass, the rest only
//! if the picker gets there).

use super::{FIRST_SORTED, MovePicker, SKIP};
use crate::movegen::FixedList;
use crate::position::Position;
use crate::types::Move;
use std::cmp::Reverse;

impl MovePicker {
    /// Index of the best-scored move in `cur..end`, swapped to `cur`.
    #[inline(always)]
    pub(super) fn select_best(&mut self, end: usize) -> Option<(Move, i32)> {
        let cur = self.cur;
        // One slice of each list for the loop (each `FixedList` index would slice it anew).
        let (moves, scores) = (&mut self.moves[..], &mut self.scores[..]);
        let window = scores.get(cur..end).filter(|w| !w.is_empty())?;
        let mut best = 0;
        for (i, &s) in window.iter().enumerate().skip(1) {
            if s > window[best] {
                best = i;
            }
        }
        scores.swap(cur, cur + best);
        moves.swap(cur, cur + best);
        self.cur += 1;
        Some((moves[cur], scores[cur]))
    }

    /// Puts the quiet moves from `start` on that score at least `limit` in front of the others
    /// (which follow in no particular order: they are rarely reached at a cut node) and sorts the
    /// first [`FIRST_SORTED`] of them, best first; [`MovePicker::sort_rest`] sorts what follows
    /// once the picker gets there. The scores are distinct, so any sort gives the same order.
    pub(super) fn sort_quiets(&mut self, start: usize, limit: i32) {
        let (moves, scores) = (&mut self.moves[..], &mut self.scores[..]);
        let mut end = moves.len();
        let mut i = start;
        while i < end {
            if scores[i] >= limit {
                i += 1;
            } else {
                end -= 1;
                moves.swap(i, end);
                scores.swap(i, end);
            }
        }
        self.above_end = end;
        self.sorted_end = (start + FIRST_SORTED).min(end);
        self.select_best_few(start, end, self.sorted_end - start);
    }

    /// Puts the best `first` of the moves in `start..end` into its front, best first; the others
    /// follow in no particular order. One pass that keeps the front sorted: most moves lose to the
    /// front's last at one comparison (cheaper than a selection and a sort of copied pairs).
    pub(super) fn select_best_few(&mut self, start: usize, end: usize, first: usize) {
        if first == 0 {
            return;
        }
        let (Some(moves), Some(scores)) = (self.moves.get_mut(start..end), self.scores.get_mut(start..end)) else {
            return;
        };
        // One length for both, so that a bound checked on one holds for the other.
        let n = moves.len().min(scores.len());
        let (moves, scores) = (&mut moves[..n], &mut scores[..n]);
        let last = first - 1;
        for i in 0..n {
            // The front is 0..i while it is not full, then 0..=last.
            let mut j = if i <= last {
                i
            } else if scores[i] > scores[last] {
                scores.swap(i, last);
                moves.swap(i, last);
                last
            } else {
                continue;
            };
            let (s, m) = (scores[j], moves[j]);
            while let Some(&before) = scores[..j].last() {
                if before >= s {
                    break;
                }
                scores[j] = before;
                moves[j] = moves[j - 1];
                j -= 1;
            }
            scores[j] = s;
            moves[j] = m;
        }
    }

    /// Sorts the moves in `start..end` by score, best first. A node may have hundreds of drops:
    /// the standard unstable sort (which never allocates) on (score, move) pairs cost fewer
    /// instructions than a Shell sort on the two parallel arrays did.
    pub(super) fn sort_range(&mut self, start: usize, end: usize) {
        let (moves, scores) = (&mut self.moves[..], &mut self.scores[..]);
        let mut pairs: FixedList<(i32, Move)> = FixedList::new();
        pairs.extend(scores[start..end].iter().copied().zip(moves[start..end].iter().copied()));
        pairs.sort_unstable_by_key(|&(s, _)| Reverse(s));
        for (k, &(s, m)) in pairs.iter().enumerate() {
            scores[start + k] = s;
            moves[start + k] = m;
        }
    }

    /// The picker reached the end of the sorted quiet moves: sorts the rest of those above the
    /// limit, or, once only quiet checks are wanted, only the checks among them (the others are
    /// marked to be skipped). Either way the moves handed out come in the order of a full sort.
    /// Not inlined: its sort's 4.8 KB of pairs would make every call of [`MovePicker::next`]
    /// set up a frame that large.
    #[inline(never)]
    pub(super) fn sort_rest(&mut self, pos: &Position) {
        let (start, end) = (self.cur, self.above_end);
        self.sorted_end = end;
        let Some(checks) = &self.checks_only else {
            self.sort_range(start, end);
            return;
        };
        let (moves, scores) = (&mut self.moves[..], &mut self.scores[..]);
        let mut n = start;
        for i in start..end {
            if scores[i] != SKIP && checks.gives_check(pos, moves[i]) {
                moves.swap(i, n);
                scores.swap(i, n);
                n += 1;
            }
        }
        scores[n..end].fill(SKIP);
        self.sort_range(start, n);
    }
}
