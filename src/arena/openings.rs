//! Openings for matches: a file of SFEN or `startpos|sfen … moves …` lines, or any record file
//! hisha reads (PSN, PSN2, KIF, KI2, CSA), cut at a number of plies; in file order or shuffled
//! with a seed. Each opening is played twice, colours swapped.

use super::file_error::FileError;
use crate::record::{Format, RecordError, Start, decode_text, detect_format, lines, read_games};
use crate::types::Move;
use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use std::path::{Path, PathBuf};

/// One opening: where it starts and the moves played before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start position.
    pub start: Start,
    /// Moves.
    pub moves: Vec<Move>,
    /// Name for the record (`file:line`, or the record's `Opening` tag).
    pub name: String,
}

/// An openings file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// An opening that cannot be read.
    #[error("{}: opening {number}: {source}", path.display())]
    Game {
        /// The file.
        path: PathBuf,
        /// 1-based number of the opening in the file.
        number: usize,
        /// Where and why it cannot be read.
        source: RecordError,
    },
    /// A file without a single opening.
    #[error("{}: no openings", .0.display())]
    Empty(PathBuf),
}

/// The built-in openings (`book/openings.psn`), so that a match or a tuning run does not depend on
/// the folder it is started from.
const BUILT_IN: &str = include_str!("../../book/openings.psn");

/// Where the openings of a match or a tuning run come from and how much of each is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSettings {
    /// The openings file (`None`: the built-in openings, `book/openings.psn`).
    pub file: Option<PathBuf>,
    /// Plies of each opening played before the engines take over.
    pub plies: usize,
}

impl OpeningSettings {
    /// The openings in file order, each cut at `plies`: those of the file, or the built-in ones.
    pub fn load(&self) -> Result<Vec<Opening>, OpeningsError> {
        match &self.file {
            Some(path) => load(path, self.plies),
            None => parse(BUILT_IN.as_bytes(), Path::new("book/openings.psn"), self.plies),
        }
    }
}

/// What makes a bare SFEN line a USI line.
const SFEN_PREFIX: &str = "sfen ";

/// Reads openings from `path`, keeping at most `plies` moves of each.
pub(crate) fn load(path: &Path, plies: usize) -> Result<Vec<Opening>, OpeningsError> {
    let bytes = std::fs::read(path).map_err(FileError::at(path))?;
    parse(&bytes, path, plies)
}

/// Reads openings from the contents of a file named `path`, keeping at most `plies` moves of each.
pub fn parse(bytes: &[u8], path: &Path, plies: usize) -> Result<Vec<Opening>, OpeningsError> {
    let text = decode_text(bytes);
    let shown = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // Bare SFEN lines (4 fields, no `moves`) are accepted as starts.
    let first = lines(&text).map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    let bare_sfen = first.split_whitespace().count() >= 3
        && !first.starts_with("startpos")
        && !first.starts_with("sfen")
        && first.contains('/')
        && !first.starts_with('[');
    let format = if bare_sfen { Format::Usi } else { detect_format(&text, path.to_str()).unwrap_or(Format::Usi) };
    let owned;
    // They are read as USI lines: `sfen ` before each, on the lines the readers see (a lone `\r`
    // ends one too), and an error's column given back in the file's line.
    let source: &[u8] = if bare_sfen {
        owned = lines(&text)
            .map(|l| {
                let t = l.trim_start();
                if t.is_empty() || t.starts_with('#') { l.to_string() } else { format!("{SFEN_PREFIX}{l}") }
            })
            .collect::<Vec<_>>()
            .join("\n");
        owned.as_bytes()
    } else {
        bytes
    };
    let mut out = Vec::new();
    for (i, g) in read_games(source, format).into_iter().enumerate() {
        let rec = g.map_err(|mut source| {
            if bare_sfen {
                // Past the prefix, or at the line's start (a bad position is shown at `sfen`).
                source.column = source.column.saturating_sub(SFEN_PREFIX.len()).max(1);
            }
            OpeningsError::Game { path: path.to_path_buf(), number: i + 1, source }
        })?;
        // A blank `Opening` tag names nothing: the opening goes by its place in the file.
        let tagged = rec.tag("Opening").filter(|n| !n.trim().is_empty());
        let name = tagged.map(str::to_string).unwrap_or_else(|| format!("{shown}#{}", i + 1));
        out.push(Opening { start: rec.start, moves: rec.moves.iter().take(plies).map(|m| m.mv).collect(), name });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(path.to_path_buf()));
    }
    Ok(out)
}

/// Shuffles openings reproducibly.
pub(crate) fn shuffle(openings: &mut [Opening], seed: u64) {
    openings.shuffle(&mut StdRng::seed_from_u64(seed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_lines_sfen_lines_and_records() {
        let dir = crate::testing::temp_dir("openings");
        let usi = dir.join("o.txt");
        std::fs::write(&usi, "startpos moves 7g7f 3c3d 2g2f\n# comment\nstartpos moves 2g2f 8c8d\n").expect("write");
        let o = load(&usi, 2).expect("reads");
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.len(), 2, "cut at 2 plies");
        let sfen = dir.join("o.sfen");
        std::fs::write(&sfen, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n").expect("write");
        let o = load(&sfen, 8).expect("reads");
        assert_eq!(o.len(), 1);
        assert!(o[0].moves.is_empty());
        let csa = dir.join("o.csa");
        std::fs::write(&csa, "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").expect("write");
        assert_eq!(load(&csa, 8).expect("reads")[0].moves.len(), 2);
        let mut many: Vec<Opening> =
            (0..10).map(|i| Opening { start: Start::default(), moves: vec![], name: i.to_string() }).collect();
        let mut again = many.clone();
        shuffle(&mut many, 7);
        shuffle(&mut again, 7);
        assert_eq!(many, again, "same seed, same order");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn settings_load_the_file_given_or_the_built_in_book() {
        // The built-in openings are book/openings.psn as it is in the repository.
        let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/openings.psn");
        let built_in = OpeningSettings { file: None, plies: 6 }.load().expect("the built-in openings read");
        assert_eq!(built_in, load(&book, 6).expect("book/openings.psn reads"));
        assert!(built_in.iter().all(|o| o.moves.len() <= 6), "cut at 6 plies");
        assert!(built_in.iter().any(|o| o.moves.len() == 6), "and not shorter than they need be");
        let dir = crate::testing::temp_dir("opening-settings");
        let file = dir.join("o.txt");
        std::fs::write(&file, "startpos moves 7g7f 3c3d 2g2f\n").expect("write");
        let given = OpeningSettings { file: Some(file.clone()), plies: 2 }.load().expect("reads");
        assert_eq!(given.len(), 1, "the file's one opening, not the book's");
        assert_eq!(given[0].moves.len(), 2, "cut at 2 plies");
        let missing = OpeningSettings { file: Some(dir.join("none.txt")), plies: 2 }.load();
        assert!(matches!(missing, Err(OpeningsError::File(_))), "{missing:?}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_opening_with_a_blank_name_tag_is_named_by_its_place() {
        // Found by the fuzz target `openings`: a KI2 file holding only `Opening：` (in Shift_JIS)
        // gave an opening named "", which the match wrote as every game's `Opening` tag.
        let names = |bytes: &[u8], file: &str| -> Vec<String> {
            parse(bytes, Path::new(file), 8).expect("reads").into_iter().map(|o| o.name).collect()
        };
        assert_eq!(names(b"Opening\x81\x46", "o.ki2"), ["o.ki2#1"]);
        let psn = "[Opening \"\"]\n1.P7g-7f\n\n[Opening \" \"]\n1.P2g-2f\n\n[Opening \"Yagura\"]\n1.P7g-7f\n";
        assert_eq!(names(psn.as_bytes(), "o.psn"), ["o.psn#1", "o.psn#2", "Yagura"]);
    }

    #[test]
    fn bare_sfen_lines_read_as_usi_lines_with_the_columns_of_the_file() {
        const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let read = |text: &str| parse(text.as_bytes(), Path::new("o.sfen"), 8);
        // Found by the fuzz target `openings`: the column was that of the line with `sfen ` put
        // before it, 5 past the move (here past the end of the line).
        let line = format!("{START} moves x");
        match read(&line) {
            Err(OpeningsError::Game { number: 1, source, .. }) => {
                assert_eq!((source.line, source.column), (1, line.len()), "{source}");
            }
            other => panic!("{other:?}"),
        }
        // The lines the record readers see: a lone `\r` ends one, and an indented `#` line is a
        // comment (both were read as positions).
        assert_eq!(read(&format!("{START}\r{START} moves 7g7f\r")).map(|o| o.len()).ok(), Some(2));
        assert_eq!(read(&format!("{START}\n  # a comment\n{START}\n")).map(|o| o.len()).ok(), Some(2));
    }
}
