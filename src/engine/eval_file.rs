//! The evaluation the engine plays with: the built-in one or a net read from a file (the USI
//! option `EvalFile`), loaded when the engine is prepared, and loaded again when its file changed
//! (a trainer re-writing `nn.bin` in place, then `isready`).

use crate::eval::nnue::{Network, NnueError};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// Where the evaluation comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EvalSource {
    /// The built-in evaluation ([`crate::eval::nnue::builtin`]: the embedded net; the linear
    /// evaluation only if the embedded net cannot be read).
    Builtin,
    /// The linear evaluation ([`crate::eval::evaluate`]), hisha's evaluation before it shipped a
    /// net: weaker (`nnue/README.md`).
    Linear,
    /// A YaneuraOu-format `nn.bin`, or a folder holding one (YaneuraOu's `EvalDir` layout).
    File(PathBuf),
}

impl EvalSource {
    /// The source an `EvalFile` value names: `builtin` or empty, `linear`, or a path.
    pub fn named(value: &str) -> EvalSource {
        match value {
            "" | "builtin" => EvalSource::Builtin,
            "linear" => EvalSource::Linear,
            path => EvalSource::File(path.into()),
        }
    }

    /// The net to evaluate with (`None`: the linear evaluation).
    pub fn load(&self) -> Result<Option<Arc<Network>>, EvalFileError> {
        match self {
            EvalSource::Builtin => Ok(crate::eval::nnue::builtin()),
            EvalSource::Linear => Ok(None),
            EvalSource::File(path) => load_file(path).map(|net| Some(Arc::new(net))),
        }
    }

    /// The modification time of the file this reads (`None`: a built-in evaluation, or a file
    /// that cannot be read); a net is loaded again when it changes.
    pub(crate) fn modified(&self) -> Option<SystemTime> {
        match self {
            EvalSource::Builtin | EvalSource::Linear => None,
            EvalSource::File(path) => std::fs::metadata(net_file(path)).and_then(|m| m.modified()).ok(),
        }
    }

    /// What the engine evaluates with when this is loaded, in words.
    pub fn describe(&self) -> String {
        match (self, crate::eval::nnue::builtin()) {
            (EvalSource::Builtin, None) => "the built-in linear evaluation".into(),
            (EvalSource::Builtin, Some(_)) => "the built-in net".into(),
            (EvalSource::Linear, _) => "the linear evaluation".into(),
            (EvalSource::File(path), _) => format!("the net of {}", path.display()),
        }
    }
}

/// A net file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("EvalFile {path}: {source}")]
pub struct EvalFileError {
    /// The path given.
    path: String,
    /// Why.
    source: NnueError,
}

/// A net not loaded, and the evaluation the engine goes on with.
#[derive(Debug, thiserror::Error)]
#[error("{error}; keeping {keeping}")]
pub(crate) struct EvalNotLoaded {
    /// Why the file cannot be used.
    pub(crate) error: EvalFileError,
    /// The evaluation in use, in words ([`EvalSource::describe`]).
    pub(crate) keeping: String,
}

/// Reads the net at `path`, or at `path/nn.bin` when `path` is a folder.
fn load_file(path: &Path) -> Result<Network, EvalFileError> {
    Network::load_file(&net_file(path)).map_err(|source| EvalFileError { path: path.display().to_string(), source })
}

/// The file a net is read from: `path`, or `path/nn.bin` when `path` is a folder.
fn net_file(path: &Path) -> PathBuf {
    if path.is_dir() { path.join("nn.bin") } else { path.to_path_buf() }
}
