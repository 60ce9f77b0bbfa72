//! Where the report page may go: into a folder that exists, never onto a folder, nor onto a file
//! the match reads (openings, engine files, state files to merge) or writes (record outputs, the
//! state file, the log); checked before anything is played or written, so that a match does not
//! run for hours to find that its page cannot be written.

use crate::arena::error::BadReportTarget;
use crate::arena::settings::MatchSettings;
use crate::arena::state;
use crate::output_file::same_file;
use std::path::{Path, PathBuf};

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
    files.extend(settings.openings.file.iter().map(|p| ("the openings file", p.clone())));
    files.extend(settings.log.iter().map(|p| ("the log", p.clone())));
    // Engine words name files too: a definition (`x.toml`), `cmd=PATH`, `arg=FILE`, `dir=D`.
    for word in settings.engines.iter().flatten() {
        let path = word.split_once('=').map_or(word.as_str(), |(_, v)| v);
        files.push(("a file of an engine", PathBuf::from(path)));
    }
    files
}

/// Refuses a `--report` that is a folder, in a folder that does not exist, or onto a file the
/// match reads or writes.
pub(crate) fn check_target(settings: &MatchSettings) -> Result<(), BadReportTarget> {
    let Some(report) = &settings.report else { return Ok(()) };
    let no_file = |why: String| Err(BadReportTarget::NoFile { report: report.clone(), why });
    if report.is_dir() {
        return no_file("is a folder; name the page's file".into());
    }
    let folder = report.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !folder.is_dir() {
        return no_file(format!("there is no folder {}", folder.display()));
    }
    match match_files(settings).into_iter().find(|(_, p)| same(report, p)) {
        Some((what, other)) => Err(BadReportTarget::InUse { report: report.clone(), what, other }),
        None => Ok(()),
    }
}
