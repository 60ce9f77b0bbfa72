//! What the output files already hold before a match starts: the state file of an earlier run
//! (continued with `--resume`, else kept beside as `<state>.N`), and games of other engines in a
//! record file that a new match appends to.

use super::error::MatchError;
use super::events::{MatchEvent, MatchObserver};
use super::file_error::FileError;
use super::identity::MatchIdentity;
use super::output::{aside_name, format_of};
use super::state::{self, State};
use crate::client::config::EngineConfig;
use crate::record::{Format, game_paths, read_games};
use std::path::{Path, PathBuf};

/// The finished games of the match being resumed (`--resume`), or none for a new match: the
/// state must be of the same engines, with the same definitions and time controls, over the same
/// openings (`identity`; `--games` may differ); a state file too old to record them is resumed
/// with a warning to `events`. Reads only: nothing is changed before the engines have passed
/// their check.
pub(crate) fn previous_state(
    resume: bool,
    state_path: &Path,
    confs: &[EngineConfig],
    identity: &MatchIdentity,
    events: &dyn MatchObserver,
) -> Result<State, MatchError> {
    if !resume {
        return Ok(State::default());
    }
    if !state_path.exists() {
        return Err(MatchError::NothingToResume(state_path.to_path_buf()));
    }
    let st = state::load(state_path).map_err(MatchError::ResumeState)?;
    let given: Vec<String> = confs.iter().map(|c| c.name.clone()).collect();
    if let Some(recorded) = st.engines.clone().filter(|r| *r != given) {
        return Err(MatchError::OtherEngines { state: state_path.to_path_buf(), recorded, given });
    }
    match &st.identity {
        Some(recorded) => {
            let names: Vec<&str> = confs.iter().map(|c| c.name.as_str()).collect();
            let differences = identity.differences(recorded, &names);
            if !differences.is_empty() {
                return Err(MatchError::OtherSettings { state: state_path.to_path_buf(), differences });
            }
        }
        None => events.event(MatchEvent::Notice(&format!(
            "warning: {} does not record the engines' settings, time controls and openings \
             (written by an older hisha); resuming without checking them",
            state_path.display()
        ))),
    }
    Ok(st)
}

/// For a new match, moves an earlier state file out of the way, to `<state>.N`, and tells
/// `events`.
pub(crate) fn keep_earlier_state(state_path: &Path, events: &dyn MatchObserver) -> Result<(), MatchError> {
    if !state_path.exists() {
        return Ok(());
    }
    let kept = aside_name(state_path);
    std::fs::rename(state_path, &kept).map_err(FileError::at(state_path))?;
    let notice = format!("a new match; the earlier state is kept as {} (--resume continues one)", kept.display());
    events.event(MatchEvent::Notice(&notice));
    Ok(())
}

/// For a new match, moves the game files of an earlier match out of the way, each to `NAME.N`,
/// where an output holds one game per file (`STEM-NNNN.EXT`): otherwise the games of a longer
/// earlier run would stay among the new match's files, and `--merge` or a reader of the set
/// would take them for its games. `events` are told.
pub(crate) fn keep_earlier_games(
    outs: &[PathBuf],
    format: Option<Format>,
    events: &dyn MatchObserver,
) -> Result<(), MatchError> {
    for out in outs.iter().filter(|o| format_of(o, format).one_game_per_file()) {
        let files = game_paths(out).map_err(FileError::at(out))?;
        for (_, file) in &files {
            std::fs::rename(file, aside_name(file)).map_err(FileError::at(file))?;
        }
        if let (Some((_, first)), Some((_, last))) = (files.first(), files.last()) {
            events.event(MatchEvent::Notice(&format!(
                "a new match; the {} game files of an earlier match ({} … {}) are kept as NAME.N",
                files.len(),
                first.display(),
                last.display()
            )));
        }
    }
    Ok(())
}

/// Games in a record file that were not played by this match's engines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct OtherGames {
    /// How many.
    pub count: usize,
    /// Their `Black vs White` pairings, first seen first (at most three).
    pub pairings: Vec<String>,
}

/// The games in `path` (read as `format`) with a player who is neither of `names`; unreadable
/// games are not counted, a missing file holds none.
fn other_games(path: &Path, format: Format, names: &[&str]) -> OtherGames {
    let Ok(bytes) = std::fs::read(path) else { return OtherGames::default() };
    let mut found = OtherGames::default();
    for rec in read_games(&bytes, format).into_iter().flatten() {
        let (black, white) = (rec.tag("Black").unwrap_or("?"), rec.tag("White").unwrap_or("?"));
        if names.contains(&black) && names.contains(&white) {
            continue;
        }
        found.count += 1;
        let pairing = format!("{black} vs {white}");
        if found.pairings.len() < 3 && !found.pairings.contains(&pairing) {
            found.pairings.push(pairing);
        }
    }
    found
}

/// For a new match: warns `events` of each record file that holds games of other engines; the
/// note for the first and last lines of the match (empty when there is none).
pub(crate) fn warn_of_other_games(
    outs: &[PathBuf],
    format: Option<Format>,
    names: &[&str],
    events: &dyn MatchObserver,
) -> String {
    let mut note = String::new();
    for (i, out) in outs.iter().enumerate() {
        let other = other_games(out, format_of(out, format), names);
        if other.count == 0 {
            continue;
        }
        events.event(MatchEvent::Notice(&format!(
            "warning: {} already holds {} games of other engines ({}); this match appends its games after them",
            out.display(),
            other.count,
            other.pairings.join(", ")
        )));
        if i == 0 {
            note = format!(" (after {} games of other engines)", other.count);
        }
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::tc::TimeControl;
    use crate::record::{GameRecord, RecordWriter, Start};

    #[test]
    fn games_of_other_engines_are_counted_with_their_pairings() {
        let dir = crate::testing::temp_dir("earlier");
        let path = dir.join("g.psn");
        let mut w = RecordWriter::new(std::fs::File::create(&path).expect("create"), Format::Psn, true);
        for (black, white) in [("a", "b"), ("x", "b"), ("b", "a"), ("x", "y"), ("x", "b")] {
            let mv = crate::Position::startpos().parse_usi_move("7g7f").expect("legal");
            let mut r = GameRecord::new(Start::default(), [mv]);
            r.set_tag("Black", black);
            r.set_tag("White", white);
            w.write(&r).expect("write");
        }
        drop(w);
        let other = other_games(&path, Format::Psn, &["a", "b"]);
        assert_eq!(other, OtherGames { count: 3, pairings: vec!["x vs b".into(), "x vs y".into()] });
        assert_eq!(other_games(&path, Format::Psn, &["x", "b"]).count, 3, "a-b, b-a and x-y");
        assert_eq!(other_games(&dir.join("none.psn"), Format::Psn, &["a", "b"]), OtherGames::default());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn resume_without_a_state_file_is_a_usage_error() {
        use crate::arena::events::Collected;
        let confs = [EngineConfig::hisha(), EngineConfig::hisha()];
        let dir = crate::testing::temp_dir("no-state");
        let missing = dir.join("g.psn.state");
        let identity = MatchIdentity::of(&crate::arena::settings::tests::settings(TimeControl::Nodes(1)), &confs, &[]);
        let e =
            previous_state(true, &missing, &confs, &identity, &Collected::default()).expect_err("nothing to resume");
        assert!(matches!(e, MatchError::NothingToResume(ref p) if *p == missing), "{e}");
        assert!(e.to_string().contains("there is no state file"), "{e}");
        assert_eq!(
            previous_state(false, &missing, &confs, &identity, &Collected::default()).expect("a new match").games,
            []
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
