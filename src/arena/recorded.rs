//! The records of a state file's games, read back from the record file beside it: what `--merge`
//! writes into one file and what the report page draws the games of earlier runs from.

use super::error::MergeError;
use super::output::{format_of, read_records};
use super::state::State;
use crate::record::GameRecord;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The record file a state file belongs to (`games.psn` for `games.psn.state`).
pub(super) fn record_of(state_path: &Path) -> PathBuf {
    let s = state_path.to_string_lossy();
    PathBuf::from(s.strip_suffix(".state").unwrap_or(&s))
}

/// The records of `st`'s games from the record file beside `state_path`; where a file holds
/// several games with one round number (a new match appended to it), the last one is taken.
pub(super) fn records(state_path: &Path, st: &State) -> Result<Vec<(usize, GameRecord)>, MergeError> {
    let path = record_of(state_path);
    let format = st.format.unwrap_or_else(|| format_of(&path, None));
    let mut by_round: BTreeMap<usize, GameRecord> = BTreeMap::new();
    for g in read_records(&path, format)? {
        let rec = g?;
        if let Some(n) = rec.tag("Round").and_then(|r| r.trim().parse().ok()) {
            by_round.insert(n, rec);
        }
    }
    st.games
        .iter()
        .map(|g| {
            by_round
                .remove(&g.number)
                .map(|r| (g.number, r))
                .ok_or_else(|| MergeError::NoRecord { path: path.clone(), number: g.number })
        })
        .collect()
}
