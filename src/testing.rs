//! Helpers for the unit tests: positions after USI moves, and a fresh folder per test.

use crate::{Move, Position};
use std::path::PathBuf;

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
