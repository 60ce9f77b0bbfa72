//! Helpers for the unit tests: positions after USI moves, a fresh folder per test, and a tally of
//! the kinds of move a random walk went through.

use crate::types::{MoveKind, PieceKind};
use crate::{Move, Position};
use std::path::PathBuf;

/// The kinds of move a random walk played (what an incremental update must get right).
#[derive(Default, Debug)]
pub(crate) struct MoveKinds {
    /// Drops.
    pub(crate) drops: usize,
    /// Captures.
    pub(crate) captures: usize,
    /// Promotions.
    pub(crate) promotions: usize,
    /// King moves.
    pub(crate) king_moves: usize,
}

impl MoveKinds {
    /// Counts `m`, about to be played in `pos`.
    pub(crate) fn count(&mut self, pos: &Position, m: Move) {
        match m.kind() {
            MoveKind::Drop { .. } => self.drops += 1,
            MoveKind::Normal { from, to, promote } => {
                self.captures += usize::from(pos.piece_on(to).is_some());
                self.promotions += usize::from(promote);
                self.king_moves += usize::from(pos.piece_on(from).is_some_and(|p| p.kind() == PieceKind::King));
            }
        }
    }
}

/// Plays `moves` (USI, e.g. `["7g7f", "3c3d"]`) on `pos`; the moves played. Panics at the first
/// move that is not legal, naming it and the rule it breaks.
pub(crate) fn play(pos: &mut Position, moves: &[&str]) -> Vec<Move> {
    moves
        .iter()
        .map(|text| {
            let m = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.do_move(m);
            m
        })
        .collect()
}

/// The position after `moves` (USI) from the even start.
pub(crate) fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    play(&mut pos, moves);
    pos
}

/// A fresh, empty folder `hisha-NAME-PID` in the system's temporary folder.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hisha-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

#[test]
fn after_plays_the_moves_from_the_start_and_play_returns_them() {
    let pos = after(&["7g7f", "3c3d"]);
    assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    let mut p = Position::startpos();
    let played = play(&mut p, &["7g7f", "3c3d"]);
    assert_eq!(played.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["7g7f", "3c3d"]);
    assert_eq!(p, pos);
}

#[test]
#[should_panic(expected = "7g7e: ")]
fn play_names_an_illegal_move() {
    after(&["7g7f", "3c3d", "7g7e"]);
}
