//! Cross-check with cshogi (PyPI): for every result hisha records, cshogi's KIF and KI2 readers
//! take the winner from the `まで…` line hisha writes (they ignore KIF's terminal move words):
//! Black, White, a draw, or none for an unfinished game; and no ending at all for a game without a
//! result (what a cut file reads as). Skipped, with one line, where cshogi is not installed (see
//! tests/outside/mod.rs).

use super::games::REASONS;
use crate::support::records::written;
use crate::support::{play, temp_dir};
use hisha::position::{GameResult, Winner};
use hisha::record::{Format, GameRecord, Start};
use hisha::{Handicap, Move};
use std::process::Command;

/// Prints `<path> <win>` per file: cshogi's `win` (1 Black, 2 White, 0 draw, None unknown).
/// `.kif` is read as cshogi reads it (Shift_JIS); hisha writes KI2 in UTF-8, which cshogi's
/// `KI2.Parser.parse_file` would read as Shift_JIS, so the text is decoded here and parsed.
const SCRIPT: &str = r#"
import sys
from cshogi import KIF, KI2
for path in sys.argv[1:]:
    if path.endswith('.ki2'):
        game = KI2.Parser.parse_file(path)
    elif path.endswith('.ki2u'):
        with open(path, encoding='utf-8') as f:
            game = KI2.Parser.parse_str(f.read())
    else:
        game = KIF.Parser.parse_file(path)
    print(path, game.win)
"#;

/// The moves `usi` (USI, separated by blanks) from `start`.
fn moves(start: &Start, usi: &str) -> Vec<Move> {
    play(&mut start.position().expect("valid"), &usi.split(' ').collect::<Vec<_>>())
}

/// What cshogi's `win` should be for a winner.
fn cshogi_win(w: Winner) -> &'static str {
    match w {
        Winner::Black => "1",
        Winner::White => "2",
        Winner::Draw => "0",
        Winner::Unfinished => "None",
    }
}

#[test]
fn cshogi_reads_the_winner_hisha_writes_for_every_result_kind() {
    if !crate::outside::cshogi() {
        return;
    }
    let dir = temp_dir("cshogi-results");
    // Both sides to move at the end, and a handicap game (下手/上手 in the `まで` line).
    let starts =
        [(Start::default(), "7g7f"), (Start::default(), "7g7f 3c3d"), (Start::Handicap(Handicap::TwoPiece), "3c3d")];
    let mut files = Vec::new();
    for (s, (start, line)) in starts.iter().enumerate() {
        for reason in REASONS {
            for winner in [Winner::Black, Winner::White, Winner::Draw, Winner::Unfinished] {
                let mut rec = GameRecord::new(start.clone(), moves(start, line));
                rec.result = Some(GameResult { winner, reason });
                for f in [Format::Kif, Format::Kifu, Format::Ki2, Format::Ki2u] {
                    let path = dir.join(format!("{s}-{reason:?}-{winner:?}.{}", f.extension()));
                    std::fs::write(&path, written([&rec], f)).expect("write");
                    files.push((path, winner, reason, *line));
                }
            }
        }
    }
    let out = Command::new("python3")
        .args(["-c", SCRIPT])
        .args(files.iter().map(|(p, ..)| p))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let wins: Vec<&str> = stdout.lines().map(|l| l.rsplit(' ').next().unwrap_or("")).collect();
    assert_eq!(wins.len(), files.len(), "{stdout}");
    for ((path, winner, reason, line), got) in files.iter().zip(wins) {
        assert_eq!(got, cshogi_win(*winner), "{} ({winner:?} by {reason:?} after {line})", path.display());
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Prints `<win> <endgame>` per file, as cshogi reads a game (its `endgame` is the CSA word of
/// the ending: `%TORYO`, `%CHUDAN` for 中断, … and `None` (KIF) or empty (KI2) for none).
const ENDING_SCRIPT: &str = r#"
import sys
from cshogi import KIF, KI2
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    game = KI2.Parser.parse_str(text) if path.endswith('.ki2u') else KIF.Parser.parse_str(text)
    print(game.win, game.endgame or None)
"#;

#[test]
fn cshogi_reads_no_ending_where_hisha_writes_a_game_without_a_result() {
    // A game read without an ending (a cut file) is written with none: no terminal move and no
    // `まで` line, where `まで…中断` would claim that the game was stopped (cshogi: `%CHUDAN`).
    if !crate::outside::cshogi() {
        return;
    }
    let dir = temp_dir("cshogi-no-ending");
    let start = Start::default();
    // Two moves: cshogi 1.1.0's KI2 reader fails on a line of three.
    let rec = GameRecord::new(start.clone(), moves(&start, "7g7f 3c3d"));
    let files: Vec<_> = [Format::Kifu, Format::Ki2u]
        .into_iter()
        .map(|f| {
            let path = dir.join(format!("game.{}", f.extension()));
            std::fs::write(&path, written([&rec], f)).expect("write");
            path
        })
        .collect();
    let out = Command::new("python3").args(["-c", ENDING_SCRIPT]).args(&files).output().expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "None None\nNone None\n");
    let _ = std::fs::remove_dir_all(dir);
}
