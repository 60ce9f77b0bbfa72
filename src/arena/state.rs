//! The match state file (`<first output>.state`): one line per finished game, appended and
//! flushed right after the game's record, so `--resume` skips finished games and `--merge`
//! combines the results of several shards. Tab-separated (engine names may contain spaces):
//!
//! ```text
//! # hisha match state v1 <TAB> out=games.psn <TAB> format=psn
//! game <TAB> number <TAB> black engine <TAB> white engine <TAB> black|white|draw|unfinished <TAB> reason
//! ```

use crate::position::{GameResult, Winner};
use crate::record::Format;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// Game number in the schedule (1-based).
    pub number: usize,
    /// Engine that played Black.
    pub black: String,
    /// Engine that played White.
    pub white: String,
    /// The result.
    pub result: GameResult,
}

/// What a state file says about its match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// The record file the games went to.
    pub out: Option<PathBuf>,
    /// Its format.
    pub format: Option<Format>,
    /// The finished games.
    pub games: Vec<GameLine>,
}

/// The state file next to `out`.
pub fn path_for(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".state");
    PathBuf::from(s)
}

fn winner_id(w: Winner) -> &'static str {
    match w {
        Winner::Black => "black",
        Winner::White => "white",
        Winner::Draw => "draw",
        Winner::Unfinished => "unfinished",
    }
}

/// Reads a state file (a missing file is an empty state).
pub fn load(path: &Path) -> Result<State, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(State::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut st = State::default();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        if line.starts_with('#') {
            for kv in &f[1..] {
                match kv.split_once('=') {
                    Some(("out", v)) => st.out = Some(PathBuf::from(v)),
                    Some(("format", v)) => st.format = v.parse().ok(),
                    _ => {}
                }
            }
            continue;
        }
        let bad = || format!("{}:{}: bad state line {line:?}", path.display(), i + 1);
        let ["game", number, black, white, winner, reason] = f[..] else {
            if line.trim().is_empty() {
                continue;
            }
            return Err(bad());
        };
        let winner = match winner {
            "black" => Winner::Black,
            "white" => Winner::White,
            "draw" => Winner::Draw,
            "unfinished" => Winner::Unfinished,
            _ => return Err(bad()),
        };
        let reason = crate::record::reason_from_id(reason).ok_or_else(bad)?;
        st.games.push(GameLine {
            number: number.parse().map_err(|_| bad())?,
            black: black.into(),
            white: white.into(),
            result: GameResult { winner, reason },
        });
    }
    Ok(st)
}

/// Appends finished games to a state file.
pub struct StateWriter {
    file: std::fs::File,
}

impl StateWriter {
    /// Opens (creating with a header if new) the state file for `out` in `format`.
    pub fn open(path: &Path, out: &Path, format: Format) -> Result<StateWriter, String> {
        let fresh = !path.exists();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if fresh {
            writeln!(file, "# hisha match state v1\tout={}\tformat={format}", out.display())
                .map_err(|e| e.to_string())?;
        }
        Ok(StateWriter { file })
    }

    /// Records a finished game and flushes.
    pub fn add(&mut self, g: &GameLine) -> std::io::Result<()> {
        writeln!(
            self.file,
            "game\t{}\t{}\t{}\t{}\t{}",
            g.number,
            g.black.replace('\t', " "),
            g.white.replace('\t', " "),
            winner_id(g.result.winner),
            crate::record::reason_id(g.result.reason)
        )?;
        self.file.flush()
    }
}
