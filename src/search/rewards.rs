//! What a cut-off teaches the move ordering: the move that cut off becomes a killer and the
//! counter move (quiet moves) and gains history, butterfly and continuation or capture, while the
//! moves of its kind tried before it lose as much ([`history_bonus`] by depth).

use super::history::{CaptureKey, ContKey, PreviousKeys};
use super::{Searcher, params};
use crate::types::{Color, Move};

impl Searcher {
    /// A move caused a cut-off: the captures tried before it lose capture history, and it gains
    /// some if it is a capture (`best`).
    pub(super) fn reward_capture(&mut self, best: Option<CaptureKey>, depth: i32, tried: &[Option<CaptureKey>]) {
        let bonus = history_bonus(depth);
        if let Some(k) = best {
            self.history.update_capture(k, bonus);
        }
        for &k in tried.iter().flatten() {
            self.history.update_capture(k, -bonus);
        }
    }

    /// A quiet move caused a cut-off: it becomes a killer and the counter move, and gains history
    /// while the quiet moves tried before it lose some.
    pub(super) fn reward_quiet(
        &mut self,
        us: Color,
        p: usize,
        (m, key): (Move, ContKey),
        previous: &PreviousKeys,
        depth: i32,
        tried: &[Option<(Move, ContKey)>],
    ) {
        let k = &mut self.killers[p];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.history.set_counter(us, previous[0], m);
        let bonus = history_bonus(depth);
        self.history.update(us, m, key, previous, bonus);
        for &(q, qk) in tried.iter().flatten() {
            if q != m {
                self.history.update(us, q, qk, previous, -bonus);
            }
        }
    }
}

/// The history bonus of a move that cut off at `depth` (the malus of those tried before it).
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * params::history_bonus_depth_squared() + params::history_bonus_base())
        .min(params::history_bonus_max())
}
