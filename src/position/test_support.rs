//! Test support for the library's unit tests: the moves a position was reached by. (Positions
//! reached by USI moves come from `crate::testing`; integration tests have their own in `tests/`.)

use super::Position;

impl Position {
    /// The moves played since the position was built, oldest first (tests check the history
    /// with it; the engine reads the history only through the repetition rules).
    pub(crate) fn moves_played(&self) -> impl Iterator<Item = crate::types::Move> + '_ {
        let n = self.history.len();
        self.history.iter().skip(1).chain(std::iter::once(&self.st)).take(n).filter_map(|s| s.last_move)
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::after;

    #[test]
    fn moves_played_lists_the_moves_oldest_first() {
        // The bishop exchange opening: Black's bishop takes on 2b and promotes.
        let pos = after(&["7g7f", "3c3d", "8h2b+"]);
        let played: Vec<String> = pos.moves_played().map(|m| m.to_string()).collect();
        assert_eq!(played, ["7g7f", "3c3d", "8h2b+"]);
    }
}
