//! Test support for the library's unit tests: positions reached by USI moves and the moves they
//! were reached by. (Integration tests have their own in `tests/`.)

use super::Position;

impl Position {
    /// Plays the space-separated USI `moves`. A test helper: panics, naming the move, on one that
    /// is not legal.
    pub(crate) fn play_usi_moves(&mut self, moves: &str) {
        for text in moves.split_whitespace() {
            let m = self.parse_usi_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            self.do_move(m);
        }
    }

    /// The even start after the space-separated USI `moves` (a test helper, see
    /// [`Position::play_usi_moves`]).
    pub(crate) fn startpos_after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        pos.play_usi_moves(moves);
        pos
    }

    /// The moves played since the position was built, oldest first (tests check the history
    /// with it; the engine reads the history only through the repetition rules).
    pub(crate) fn moves_played(&self) -> impl Iterator<Item = crate::types::Move> + '_ {
        let n = self.history.len();
        self.history.iter().skip(1).chain(std::iter::once(&self.st)).take(n).filter_map(|s| s.last_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_after_plays_the_moves_in_order() {
        // The bishop exchange opening: Black's bishop takes on 2b and promotes, White to move at
        // ply 4 with Black holding a bishop (written out by hand from the start position).
        let pos = Position::startpos_after("7g7f 3c3d 8h2b+");
        assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
    }

    #[test]
    fn moves_played_lists_the_moves_oldest_first() {
        let pos = Position::startpos_after("7g7f 3c3d 8h2b+");
        let played: Vec<String> = pos.moves_played().map(|m| m.to_string()).collect();
        assert_eq!(played, ["7g7f", "3c3d", "8h2b+"]);
    }

    #[test]
    #[should_panic(expected = "7g7e")]
    fn play_usi_moves_names_an_illegal_move() {
        Position::startpos().play_usi_moves("7g7e");
    }
}
