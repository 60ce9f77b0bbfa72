//! A file of a match that cannot be read or written, named in the message as the user gave it,
//! and a game in it that cannot be read.

use crate::record::RecordError;
use std::path::{Path, PathBuf};

/// Reading or writing `path` failed: `games.psn: Permission denied (os error 13)`.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What the system said.
    pub source: std::io::Error,
}

impl FileError {
    /// For `map_err`: the error `source` about `path`.
    pub(crate) fn at(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError { path: path.to_path_buf(), source }
    }
}

/// A game in a record file of a match that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{}: game {number}: {source}", path.display())]
pub struct UnreadableGame {
    /// The file.
    pub path: PathBuf,
    /// 1-based number of the game in the file.
    pub number: usize,
    /// Where and why it cannot be read.
    pub source: RecordError,
}
