//! A file of a match that cannot be read or written, named in the message as the user gave it.

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
