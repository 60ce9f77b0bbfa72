//! What a match writes: every finished game appended and flushed at once to each record file
//! (with the match's header tags) — or, for KIF, KIFU and KI2, which hold one game per file,
//! written whole to its own file `STEM-NNNN.EXT` numbered by game — then to the state file; the
//! `Finished game …` line; and the log of engine stderr and USI transcripts.

use super::events::{MatchEvent, MatchObserver};
use super::file_error::{FileError, UnreadableGame};
use super::identity::MatchIdentity;
use super::schedule::Job;
use super::state::{GameLine, StateWriter};
use super::timestamp::today;
use crate::client::process::LogSink;
use crate::output_file::OutputFile;
use crate::position::Winner;
use crate::record::{Format, GameRecord, RecordWriter, game_path, game_paths, read_games};
use crossbeam_channel::unbounded;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The record files and the state file of a match.
pub(crate) struct Outputs {
    writers: Vec<(PathBuf, RecordFile)>,
    state: StateWriter,
    state_path: PathBuf,
    log: Option<PathBuf>,
}

/// The format of an output: `--format`, else the file's extension, else PSN.
pub(crate) fn format_of(path: &Path, format: Option<Format>) -> Format {
    format.or_else(|| path.to_str().and_then(Format::from_path)).unwrap_or(Format::Psn)
}

/// A record output of a match.
pub(crate) enum RecordFile {
    /// One file, games appended.
    Append(RecordWriter<BufWriter<File>>),
    /// One file per game (KIF, KIFU, KI2): game N of the set `path` goes to `STEM-000N.EXT`.
    PerGame {
        /// The name given (`games.kif`).
        path: PathBuf,
        /// The format.
        format: Format,
    },
}

impl RecordFile {
    /// Writes one game. Per game, the file is numbered by the game's `Round` tag (its number in
    /// the schedule) and written whole, then renamed into place; a file of that name from an
    /// earlier match is kept as `NAME.1` (or `.2` …), as the runner keeps an earlier state file,
    /// and `events` are told.
    pub(crate) fn write(&mut self, rec: &GameRecord, events: &dyn MatchObserver) -> std::io::Result<()> {
        let (path, format) = match self {
            RecordFile::Append(w) => return w.write(rec),
            RecordFile::PerGame { path, format } => (path, *format),
        };
        let n = rec.tag("Round").and_then(|r| r.trim().parse().ok()).unwrap_or(1);
        let target = game_path(path, n);
        if target.exists() {
            let kept = aside_name(&target);
            std::fs::rename(&target, &kept)?;
            let notice = format!("{} existed; the earlier record is kept as {}", target.display(), kept.display());
            events.event(MatchEvent::Notice(&notice));
        }
        let mut w = RecordWriter::new(OutputFile::create(&target)?, format, true);
        w.write(rec)?;
        w.into_inner().commit()
    }
}

/// The record file `path` as the first and last lines of a match name it: the file itself, or
/// for a format of one game per file, `STEM-NNNN.EXT (one file per game)` before the games and
/// the files there are after them (`STEM-0001.EXT … STEM-0006.EXT`).
pub(crate) fn record_names(path: &Path, format: Option<Format>, written: bool) -> String {
    if !format_of(path, format).one_game_per_file() {
        return path.display().to_string();
    }
    let pattern = || format!("{} (one file per game)", game_path(path, 0).display()).replace("-0000", "-NNNN");
    let files = if written { game_paths(path).unwrap_or_default() } else { Vec::new() };
    match (files.first(), files.last()) {
        (Some((_, first)), Some((_, last))) if first == last => first.display().to_string(),
        (Some((_, first)), Some((_, last))) => format!("{} … {}", first.display(), last.display()),
        _ => pattern(),
    }
}

/// Where an earlier file `path` is kept when a new match writes its own: the first of `PATH.1`,
/// `PATH.2` … that does not exist.
pub(crate) fn aside_name(path: &Path) -> PathBuf {
    (1..).map(|i| PathBuf::from(format!("{}.{i}", path.display()))).find(|p| !p.exists()).unwrap_or_default()
}

/// Opens `path` for records in `format`: for appending, or, for a format that holds one game
/// per file, for one file per game. Appended records are buffered whole and written with one
/// `write` when the writer flushes them, so that a runner killed mid-game leaves no half record.
pub(crate) fn open_record(path: &Path, format: Format) -> Result<RecordFile, FileError> {
    if format.one_game_per_file() {
        return Ok(RecordFile::PerGame { path: path.to_path_buf(), format });
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(FileError::at(path))?;
    let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
    Ok(RecordFile::Append(RecordWriter::new(BufWriter::with_capacity(1 << 20, file), format, empty)))
}

/// Reads the games [`open_record`] wrote to `path` in `format` (for one game per file, every
/// `STEM-NNNN.EXT` file there is); a game that cannot be read is an error naming its file.
pub(crate) fn read_records(path: &Path, format: Format) -> Result<Vec<Result<GameRecord, UnreadableGame>>, FileError> {
    let files = if format.one_game_per_file() {
        game_paths(path).map_err(FileError::at(path))?.into_iter().map(|(_, p)| p).collect()
    } else {
        vec![path.to_path_buf()]
    };
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).map_err(FileError::at(&file))?;
        let named = |(i, g): (usize, Result<GameRecord, _>)| {
            g.map_err(|source| UnreadableGame { path: file.clone(), number: i + 1, source })
        };
        games.extend(read_games(&bytes, format).into_iter().enumerate().map(named));
    }
    Ok(games)
}

impl Outputs {
    /// Opens every `--out` file for appending and the state file beside the first one.
    pub(crate) fn open(
        outs: &[PathBuf],
        format: Option<Format>,
        (state_path, identity): (&Path, &MatchIdentity),
        engines: &[&str],
        log: Option<PathBuf>,
    ) -> Result<Outputs, FileError> {
        let writers = outs
            .iter()
            .map(|p| Ok((p.clone(), open_record(p, format_of(p, format))?)))
            .collect::<Result<Vec<_>, FileError>>()?;
        let first = outs.first().map(PathBuf::as_path).unwrap_or(Path::new("games.psn"));
        let state = StateWriter::open(state_path, first, format_of(first, format), engines, identity)?;
        Ok(Outputs { writers, state, state_path: state_path.to_path_buf(), log })
    }

    /// Writes a finished game: the record (with the match's tags) to every record file, then its
    /// line to the state file. Write errors are told to `events` and the match goes on.
    pub(crate) fn write(
        &mut self,
        job: &Job,
        names: (&str, &str),
        mut rec: GameRecord,
        events: &dyn MatchObserver,
    ) -> GameLine {
        let (black, white) = names;
        let spec = &job.spec;
        let mut tags = vec![
            ("Event".to_string(), "hisha match".to_string()),
            ("Date".to_string(), today()),
            ("Round".to_string(), spec.number.to_string()),
            ("Black".to_string(), black.to_string()),
            ("White".to_string(), white.to_string()),
            ("Opening".to_string(), spec.opening_name.clone()),
        ];
        let [tb, tw] = spec.tc;
        if tb == tw {
            tags.push(("TimeControl".into(), tb.to_string()));
        } else {
            tags.push(("BlackTimeControl".into(), tb.to_string()));
            tags.push(("WhiteTimeControl".into(), tw.to_string()));
        }
        if let Some(log) = &self.log {
            // Where the game's USI transcript is: the log lines that start `[game N black|white …]`.
            tags.push(("Transcript".into(), format!("{}: game {}", log.display(), spec.number)));
        }
        tags.append(&mut rec.tags);
        rec.tags = tags;
        for (path, w) in self.writers.iter_mut() {
            if let Err(e) = w.write(&rec, events) {
                events.event(MatchEvent::Notice(&format!("{}: {e}", path.display())));
            }
        }
        let line = GameLine {
            number: spec.number,
            black: black.to_string(),
            white: white.to_string(),
            result: rec.result.unwrap_or(crate::position::GameResult {
                winner: Winner::Unfinished,
                reason: crate::position::ResultReason::Interrupt,
            }),
        };
        if let Err(e) = self.state.add(&line) {
            events.event(MatchEvent::Notice(&format!("{}: {e}", self.state_path.display())));
        }
        line
    }
}

/// `Finished game N (A vs B): 1-0 {Black wins by resignation}`, as cutechess-cli and fastchess
/// print it: A plays Black; `1-0` Black won, `0-1` White won, `1/2-1/2` a draw, `*` unfinished.
pub(crate) fn finished_line(g: &GameLine) -> String {
    let (score, text) = match g.result.winner {
        Winner::Black => ("1-0", format!("Black wins by {}", g.result.reason)),
        Winner::White => ("0-1", format!("White wins by {}", g.result.reason)),
        Winner::Draw => ("1/2-1/2", format!("Draw by {}", g.result.reason)),
        Winner::Unfinished => ("*", format!("Unfinished ({})", g.result.reason)),
    };
    format!("Finished game {} ({} vs {}): {score} {{{text}}}", g.number, g.black, g.white)
}

/// The thread writing the log.
pub(crate) struct Logger(Option<std::thread::JoinHandle<()>>);

impl Logger {
    /// Waits (at most 2 s) until every line sent has been written: the thread ends when the last
    /// sender is gone (an engine's stderr reader may outlive the match, hence the limit; the thread
    /// flushes whenever it has nothing more to write).
    pub(crate) fn finish(self) {
        let Some(handle) = self.0 else { return };
        let deadline = Instant::now() + std::time::Duration::from_secs(2);
        while !handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// Starts the thread that writes the log (`--log`), appending; each line carries the seconds from
/// the start of the match to the moment it was sent or read, and a first line says which match
/// begins.
pub(crate) fn spawn_logger(path: &Option<PathBuf>, heading: String) -> Result<(LogSink, Logger), FileError> {
    let Some(path) = path else { return Ok((None, Logger(None))) };
    let mut file =
        BufWriter::new(std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(FileError::at(path))?);
    let (tx, rx) = unbounded::<(Instant, String)>();
    let start = Instant::now();
    let _ = tx.send((start, heading));
    let handle = std::thread::spawn(move || {
        for (at, line) in rx.iter() {
            let _ = writeln!(file, "{:>10.3} {line}", at.saturating_duration_since(start).as_secs_f64());
            if rx.is_empty() {
                let _ = file.flush();
            }
        }
        let _ = file.flush();
    });
    Ok((Some(tx), Logger(Some(handle))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{GameResult, ResultReason};
    use crate::record::Start;

    #[test]
    fn kif_records_of_a_match_go_one_file_per_game_numbered_by_game() {
        let dir = crate::testing::temp_dir("match-kif");
        let path = dir.join("games.kif");
        let game = |round: usize, first: &str| {
            let mut rec =
                GameRecord::new(Start::default(), [crate::Position::startpos().parse_usi_move(first).expect("legal")]);
            rec.set_tag("Round", round.to_string());
            rec.result = Some(GameResult::loss(crate::Color::White, ResultReason::Resign));
            rec
        };
        let mut out = open_record(&path, format_of(&path, None)).expect("opens");
        let events = crate::arena::events::Collected::default();
        for (round, first) in [(3, "7g7f"), (4, "2g2f"), (3, "5g5f")] {
            out.write(&game(round, first), &events).expect("writes");
        }
        let told = events.0.into_inner().expect("not poisoned");
        let (game3, kept3) = (dir.join("games-0003.kif"), dir.join("games-0003.kif.1"));
        let notice = format!("{} existed; the earlier record is kept as {}", game3.display(), kept3.display());
        assert_eq!(told, [format!("{:?}", MatchEvent::Notice(&notice))], "the one game written over is told");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // Game 3 written again (a new match on the same name): the earlier record is kept aside.
        assert_eq!(names, ["games-0003.kif", "games-0003.kif.1", "games-0004.kif"]);
        let back: Vec<String> = read_records(&path, Format::Kif)
            .expect("reads")
            .into_iter()
            .map(|g| g.expect("readable").moves[0].mv.to_string())
            .collect();
        assert_eq!(back, ["5g5f", "2g2f"], "games 3 and 4, in game order");
        let kept = read_games(&std::fs::read(dir.join("games-0003.kif.1")).expect("kept"), Format::Kif);
        assert_eq!(kept[0].as_ref().expect("readable").moves[0].mv.to_string(), "7g7f");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn finished_lines_in_the_cutechess_form() {
        let line = |winner, reason| GameLine {
            number: 7,
            black: "A b".into(),
            white: "B".into(),
            result: GameResult { winner, reason },
        };
        assert_eq!(
            finished_line(&line(Winner::Black, ResultReason::Resign)),
            "Finished game 7 (A b vs B): 1-0 {Black wins by resignation}"
        );
        assert_eq!(
            finished_line(&line(Winner::White, ResultReason::Time)),
            "Finished game 7 (A b vs B): 0-1 {White wins by time forfeit}"
        );
        assert_eq!(
            finished_line(&line(Winner::Draw, ResultReason::Repetition)),
            "Finished game 7 (A b vs B): 1/2-1/2 {Draw by repetition}"
        );
    }
}
