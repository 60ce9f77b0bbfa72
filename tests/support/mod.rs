//! The one support module of the integration tests (`mod support;`): temporary folders, running the
//! built `hisha` binary, reading record files and playing USI moves from the start here; the USI
//! pipe driver in [`usi`]; the fake engine and `hisha match` helpers in [`arena`]; record reading
//! and writing helpers in [`records`]. Each test binary uses a part of it, hence `dead_code` is allowed.

#![allow(dead_code)]

pub mod arena;
pub mod records;
pub mod usi;

use hisha::record::{Format, GameRecord, Start, read_games};
use hisha::{Move, Position};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh, empty folder `hisha-test-NAME-PID` in the system's temporary folder (NAME unique
/// within one test binary).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// The path as a `&str` (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The built `hisha` binary as a command, run in the repository root.
pub fn hisha_command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hisha"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// `hisha ARGS…`, run to the end.
pub fn hisha(args: &[&str]) -> Output {
    hisha_command().args(args).output().expect("the hisha binary runs")
}

/// `hisha ARGS…`, run to the end: (exit code, stdout, stderr).
pub fn hisha_text(args: &[&str]) -> (Option<i32>, String, String) {
    let out = hisha(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `hisha ARGS…` with `stdin` on its standard input, run to the end: (exit code, stdout, stderr).
pub fn hisha_with_stdin(args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = hisha_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hisha binary runs");
    child.stdin.take().expect("stdin").write_all(stdin).expect("write");
    let out = child.wait_with_output().expect("exits");
    (out.status.code(), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The games of a record file, each one readable.
pub fn games(path: &Path, format: Format) -> Vec<GameRecord> {
    read_games(&std::fs::read(path).expect("record file"), format)
        .into_iter()
        .map(|g| g.expect("readable game"))
        .collect()
}

/// Plays `moves` (USI) on `pos`; the moves played. Panics at the first move that is not legal,
/// naming it and the rule it breaks.
pub fn play<S: AsRef<str>>(pos: &mut Position, moves: &[S]) -> Vec<Move> {
    moves
        .iter()
        .map(|text| {
            let text = text.as_ref();
            let m = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.do_move(m);
            m
        })
        .collect()
}

/// The position after `moves` (USI) from the even start.
pub fn after<S: AsRef<str>>(moves: &[S]) -> Position {
    let mut pos = Position::startpos();
    play(&mut pos, moves);
    pos
}

/// A game record of `moves` (USI) from the even start, without a result.
pub fn line(moves: &[&str]) -> GameRecord {
    GameRecord::new(Start::default(), play(&mut Position::startpos(), moves))
}
