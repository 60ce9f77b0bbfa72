//! Where the report page may go: never onto a file the match reads (openings, engine files, state
//! files to merge) or writes (record outputs, the state file, the log), checked before anything
//! is played or written.

use crate::arena::settings::MatchSettings;
use crate::arena::state;
use crate::output_file::same_file;
use std::path::{Path, PathBuf};

/// A `--report` that names a file the match reads or writes.
#[derive(Debug, thiserror::Error)]
#[error("--report {}: that is {what} {}; write the page to another file", report.display(), other.display())]
pub struct ReportClash {
    /// The `--report` given.
    pub report: PathBuf,
    /// What the other file is to the match: `the record output`, `the openings file` …
    pub what: &'static str,
    /// The other file, as given.
    pub other: PathBuf,
}

/// True when `a` and `b` are one file: the same file through links, or the same path.
fn same(a: &Path, b: &Path) -> bool {
    same_file(a, b) || matches!((std::path::absolute(a), std::path::absolute(b)), (Ok(x), Ok(y)) if x == y)
}

/// The files `settings` reads or writes, each with what it is to the match.
fn match_files(settings: &MatchSettings) -> Vec<(&'static str, PathBuf)> {
    let mut files: Vec<(&'static str, PathBuf)> =
        settings.out.iter().map(|p| ("the record output", p.clone())).collect();
    if let Some(first) = settings.out.first() {
        files.push(("the state file", state::path_for(first)));
    }
    for m in &settings.merge {
        files.push(("a state file to merge", m.clone()));
        let s = m.to_string_lossy();
        files.push(("a shard's record file", PathBuf::from(s.strip_suffix(".state").unwrap_or(&s))));
    }
    files.extend(settings.openings.iter().map(|p| ("the openings file", p.clone())));
    files.extend(settings.log.iter().map(|p| ("the log", p.clone())));
    // Engine words name files too: a definition (`x.toml`), `cmd=PATH`, `arg=FILE`, `dir=D`.
    for word in settings.engines.iter().flatten() {
        let path = word.split_once('=').map_or(word.as_str(), |(_, v)| v);
        files.push(("a file of an engine", PathBuf::from(path)));
    }
    files
}

/// Refuses a `--report` onto a file the match reads or writes.
pub(crate) fn check_target(settings: &MatchSettings) -> Result<(), ReportClash> {
    let Some(report) = &settings.report else { return Ok(()) };
    match match_files(settings).into_iter().find(|(_, p)| same(report, p)) {
        Some((what, other)) => Err(ReportClash { report: report.clone(), what, other }),
        None => Ok(()),
    }
}
