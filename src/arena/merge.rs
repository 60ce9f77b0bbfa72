//! `hisha match --merge STATE…`: combines the state files of several shards (or of runs of one
//! match) into one result and, with `--out`, their records into one file in game order; with
//! `--report`, the page of the merged match.

use super::error::MergeError;
use super::events::{MatchEvent, MatchObserver};
use super::file_error::FileError;
use super::opening_use::OpeningUse;
use super::output::{format_of, open_record};
use super::recorded::{record_of, records};
use super::report_html::MatchPage;
use super::scoreboard::Scoreboard;
use super::settings::MatchSettings;
use super::state::{self, GameLine, State, StateError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The engines of merged states: from their headers, which must agree, else (state files of an
/// older hisha, always of a match) from the games (the first engine plays Black in odd games).
fn engines(states: &[(PathBuf, State)]) -> Result<Vec<String>, MergeError> {
    let mut named = states.iter().filter_map(|(p, s)| s.engines.clone().map(|e| (p, e)));
    if let Some((p, first)) = named.next() {
        if let Some((q, other)) = named.find(|(_, e)| *e != first) {
            return Err(MergeError::OtherEngines {
                first: p.clone(),
                pairing: first.join(" vs "),
                other: q.clone(),
                other_pairing: other.join(" vs "),
            });
        }
        return Ok(first);
    }
    let g = states.iter().flat_map(|(_, s)| &s.games).min_by_key(|g| g.number).ok_or(MergeError::NoGames)?;
    Ok(if g.number % 2 == 1 { vec![g.black.clone(), g.white.clone()] } else { vec![g.white.clone(), g.black.clone()] })
}

/// Checks that the states that record their settings (engine definitions, time controls,
/// openings) record the same ones: shards of one match.
fn same_settings(states: &[(PathBuf, State)], names: &[&str]) -> Result<(), MergeError> {
    let mut recorded = states.iter().filter_map(|(p, s)| s.identity.as_ref().map(|i| (p, i)));
    let Some((first, identity)) = recorded.next() else { return Ok(()) };
    for (other, theirs) in recorded {
        let differences = theirs.differences(identity, names);
        if !differences.is_empty() {
            return Err(MergeError::OtherSettings { first: first.clone(), other: other.clone(), differences });
        }
    }
    Ok(())
}

/// Writes the records of every state's games, in game order, to each of `outs`, and tells
/// `events` how many.
fn write_records(
    states: &[(PathBuf, State)],
    settings: &MatchSettings,
    events: &dyn MatchObserver,
) -> Result<(), MergeError> {
    let outs = &settings.out;
    let same = |a: &Path, b: &Path| std::path::absolute(a).ok() == std::path::absolute(b).ok();
    if let Some(o) = outs.iter().find(|o| states.iter().any(|(p, _)| same(o, &record_of(p)))) {
        return Err(MergeError::OutIsShard(o.clone()));
    }
    let mut recs = Vec::new();
    for (p, s) in states {
        recs.extend(records(p, s)?);
    }
    recs.sort_by_key(|(n, _)| *n);
    for out in outs {
        let mut w = open_record(out, format_of(out, settings.format))?;
        for (_, r) in &recs {
            w.write(r, events).map_err(FileError::at(out))?;
        }
    }
    events.event(MatchEvent::Notice(&format!("{} games merged into {}", recs.len(), outs[0].display())));
    Ok(())
}

/// Runs `hisha match --merge`, telling `events` the results (and where the page is).
pub(crate) fn merge(settings: &MatchSettings, events: &dyn MatchObserver) -> Result<(), MergeError> {
    let states: Vec<(PathBuf, State)> =
        settings.merge.iter().map(|p| Ok((p.clone(), state::load(p)?))).collect::<Result<_, StateError>>()?;
    let names = engines(&states)?;
    if let Some(anchor) = settings.anchor.as_ref().filter(|a| !names.contains(&a.name)) {
        return Err(MergeError::UnknownAnchor(anchor.name.clone(), names.join(", ")));
    }
    same_settings(&states, &names.iter().map(String::as_str).collect::<Vec<_>>())?;
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (p, s) in &states {
        for g in &s.games {
            if let Some(q) = seen.insert(g.number, p) {
                return Err(MergeError::GameTwice { number: g.number, first: q.to_path_buf(), second: p.clone() });
            }
        }
    }
    let identity = states.iter().find_map(|(_, s)| s.identity.as_ref());
    let time_controls = identity.map(|i| i.time_controls.clone()).unwrap_or_default();
    let tournament = identity.and_then(|i| i.tournament);
    let pairings = tournament.map_or(1, |t| t.pairings(names.len()).len());
    let sprt = settings.sprt.is_some();
    let usage = identity.and_then(|i| i.opening_count).map(|n| OpeningUse::new(n, pairings, &time_controls, sprt));
    // With the SPRT at a fixed budget, games that replay earlier ones are not counted, as a match
    // with it would not have played them.
    let counted = |g: &&GameLine| usage.is_none_or(|u| u.counts(g.number));
    let mut lines: Vec<&GameLine> = states.iter().flat_map(|(_, s)| &s.games).filter(counted).collect();
    lines.sort_by_key(|g| g.number);
    let mut board = Scoreboard::new(&names, time_controls, (tournament, settings.anchor.clone()), usage);
    let mut page = settings.report.as_deref().map(MatchPage::new);
    let mut details = BTreeMap::new();
    if let Some(p) = &mut page {
        for (path, s) in &states {
            details.append(&mut p.earlier_games(path, s, events));
        }
    }
    for g in &lines {
        board.add(g);
        if let Some(p) = &mut page {
            p.add(g, details.remove(&g.number), &board);
        }
    }
    if !settings.out.is_empty() {
        write_records(&states, settings, events)?;
    }
    if let Some(stopped) = settings.sprt.as_ref().and_then(|t| board.sprt_stopped(t)) {
        events.event(MatchEvent::Said(&stopped));
    }
    events.event(MatchEvent::Results(&board.block(settings.sprt.as_ref())));
    if let Some(p) = &page {
        let status = match states.len() {
            1 => "read from 1 state file".to_string(),
            n => format!("merged from {n} state files"),
        };
        p.write(&board, settings.sprt.as_ref(), &status, false)?;
        events.event(MatchEvent::PageWritten(p.path()));
    }
    Ok(())
}
