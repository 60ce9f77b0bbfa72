//! The match state file (`<first output>.state`): one line per finished game, appended and
//! flushed right after the game's record, so `--resume` skips finished games and `--merge`
//! combines the results of several shards. Tab-separated (engine names may contain spaces):
//!
//! ```text
//! # hisha match state v1 <TAB> out=games.psn <TAB> format=psn <TAB> first=ENGINE <TAB> second=ENGINE <TAB> engine1=… <TAB> engine2=… <TAB> tc1=… <TAB> tc2=… <TAB> openings=… <TAB> opening_count=N
//! game <TAB> number <TAB> black engine <TAB> white engine <TAB> black|white|draw|unfinished <TAB> reason
//! ```
//!
//! A tournament's header names its third and later engines `name3=…`, `name4=…` after `second=`,
//! has their `engineN=` and `tcN=` too, and ends with `tournament=round-robin|gauntlet`. The
//! `engine1` … `tournament` fields ([`MatchIdentity`]) are what `--resume` checks; state files
//! written before they were recorded lack them.

use super::file_error::FileError;
use super::identity::MatchIdentity;
use super::stats::PlayedGame;
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

impl<'a> From<&'a GameLine> for PlayedGame<'a> {
    /// The game as a tournament's crosstable counts it.
    fn from(g: &'a GameLine) -> PlayedGame<'a> {
        PlayedGame { number: g.number, black: &g.black, white: &g.white, winner: g.result.winner }
    }
}

/// What a state file says about its match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// The record file the games went to.
    pub out: Option<PathBuf>,
    /// Its format.
    pub format: Option<Format>,
    /// The engines of the match (results are from the first one's side) or tournament, in order.
    pub engines: Option<Vec<String>>,
    /// The engines' definitions, time controls and the openings, where recorded.
    pub identity: Option<MatchIdentity>,
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

/// A state file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line that is neither the header nor a game.
    #[error("{}:{line}: bad state line {text:?}", path.display())]
    BadLine {
        /// The state file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

/// Reads a state file (a missing file is an empty state).
pub fn load(path: &Path) -> Result<State, StateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(State::default()),
        Err(e) => return Err(FileError::at(path)(e).into()),
    };
    let mut st = State::default();
    let mut names: Vec<(usize, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        if line.starts_with('#') {
            st.identity = MatchIdentity::from_fields(f[1..].iter().filter_map(|kv| kv.split_once('=')));
            for kv in &f[1..] {
                match kv.split_once('=') {
                    Some(("out", v)) => st.out = Some(PathBuf::from(v)),
                    Some(("format", v)) => st.format = v.parse().ok(),
                    Some(("first", v)) => names.push((1, v.to_string())),
                    Some(("second", v)) => names.push((2, v.to_string())),
                    Some((k, v)) => {
                        if let Some(n) = k.strip_prefix("name").and_then(|n| n.parse().ok()).filter(|&n| n > 2) {
                            names.push((n, v.to_string()));
                        }
                    }
                    None => {}
                }
            }
            continue;
        }
        let bad = || StateError::BadLine { path: path.to_path_buf(), line: i + 1, text: line.to_string() };
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
    names.sort_by_key(|(n, _)| *n);
    let numbered_in_order = names.iter().enumerate().all(|(i, (n, _))| *n == i + 1);
    st.engines = (names.len() >= 2 && numbered_in_order).then(|| names.into_iter().map(|(_, v)| v).collect());
    Ok(st)
}

/// Appends finished games to a state file.
pub(crate) struct StateWriter {
    file: std::fs::File,
}

impl StateWriter {
    /// Opens (creating with a header if new) the state file of a match of `engines` written to
    /// `out` in `format`, whose games depend on `identity`.
    pub(crate) fn open(
        path: &Path,
        out: &Path,
        format: Format,
        engines: &[&str],
        identity: &MatchIdentity,
    ) -> Result<StateWriter, FileError> {
        let fresh = !path.exists();
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(FileError::at(path))?;
        if fresh {
            let key = |i: usize| match i {
                0 => "first".to_string(),
                1 => "second".to_string(),
                _ => format!("name{}", i + 1),
            };
            let names: Vec<String> =
                engines.iter().enumerate().map(|(i, e)| format!("{}={}", key(i), e.replace('\t', " "))).collect();
            let identity = identity.fields().join("\t");
            writeln!(
                file,
                "# hisha match state v1\tout={}\tformat={format}\t{}\t{identity}",
                out.display(),
                names.join("\t")
            )
            .map_err(FileError::at(path))?;
        }
        Ok(StateWriter { file })
    }

    /// Records a finished game and flushes.
    pub(crate) fn add(&mut self, g: &GameLine) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tournament::Tournament;
    use crate::client::tc::TimeControl;
    use crate::position::ResultReason;

    #[test]
    fn state_files_round_trip_and_bad_lines_name_their_line() {
        let dir = crate::testing::temp_dir("state");
        let path = dir.join("g.psn.state");
        let line = |number, black: &str, winner| GameLine {
            number,
            black: black.into(),
            white: if black == "my engine" { "hisha".into() } else { "my engine".into() },
            result: GameResult { winner, reason: ResultReason::Checkmate },
        };
        let games = [line(2, "hisha", Winner::White), line(1, "my engine", Winner::Draw)];
        let identity = MatchIdentity {
            engines: vec!["/bin/engine --fast".into(), "/usr/bin/hisha option.USI_Hash=16".into()],
            time_controls: vec!["byoyomi=100".parse().expect("tc"), "nodes=2000".parse().expect("tc")],
            openings: "built-in book/openings.psn, 24 plies #0123456789abcdef".into(),
            opening_count: Some(100),
            tournament: None,
        };
        {
            let mut w = StateWriter::open(&path, Path::new("g.psn"), Format::Psn, &["my engine", "hisha"], &identity)
                .expect("open");
            games.iter().for_each(|g| w.add(g).expect("write"));
        }
        let st = load(&path).expect("reads");
        assert_eq!(st.games, games);
        assert_eq!(st.identity, Some(identity));
        assert_eq!(st.engines, Some(vec!["my engine".to_string(), "hisha".to_string()]));
        assert_eq!((st.out, st.format), (Some(PathBuf::from("g.psn")), Some(Format::Psn)));
        std::fs::write(&path, "# hisha match state v1\ngame\t1\ta\tb\tblack\tcheckmate\ngame\t2\ta\tb\tsideways\tx\n")
            .expect("write");
        let e = load(&path).expect_err("bad line").to_string();
        assert!(e.ends_with("g.psn.state:3: bad state line \"game\\t2\\ta\\tb\\tsideways\\tx\""), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_tournament_header_names_every_engine_and_its_kind() {
        let dir = crate::testing::temp_dir("state-tournament");
        let path = dir.join("t.psn.state");
        let tc: TimeControl = "nodes=1000".parse().expect("tc");
        let identity = MatchIdentity {
            engines: vec!["/bin/a".into(), "/bin/b".into(), "/bin/c x".into()],
            time_controls: vec![tc, tc, "byoyomi=50".parse().expect("tc")],
            openings: "built-in book/openings.psn, 24 plies #0123456789abcdef".into(),
            opening_count: None,
            tournament: Some(Tournament::Gauntlet),
        };
        let names = ["a", "b", "c\td"];
        drop(StateWriter::open(&path, Path::new("t.psn"), Format::Psn, &names, &identity).expect("open"));
        let header = std::fs::read_to_string(&path).expect("written");
        assert!(header.contains("\tfirst=a\tsecond=b\tname3=c d\tengine1=/bin/a\t"), "{header}");
        assert!(
            header.contains("\ttc3=byoyomi=50\t") && header.trim_end().ends_with("\ttournament=gauntlet"),
            "{header}"
        );
        let st = load(&path).expect("reads");
        assert_eq!(st.engines, Some(vec!["a".to_string(), "b".into(), "c d".into()]));
        assert_eq!(st.identity, Some(identity));
        // A gap in the names (no name3) names no engines rather than the wrong ones.
        std::fs::write(&path, "# hisha match state v1\tfirst=a\tsecond=b\tname4=d\n").expect("write");
        assert_eq!(load(&path).expect("reads").engines, None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
