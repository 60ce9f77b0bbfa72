//! `hisha match --merge STATE…`: combines the state files of several shards (or of runs of one
//! match) into one result and, with `--out`, their records into one file in game order.

use super::MatchArgs;
use super::output::{format_of, open_record, read_records};
use super::report::Tally;
use super::state::{self, GameLine, State};
use crate::record::GameRecord;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first and second engine of merged states: from their headers, which must agree, else from
/// the games (the first engine plays Black in odd games).
fn engines(states: &[(PathBuf, State)]) -> Result<[String; 2], String> {
    let mut named = states.iter().filter_map(|(p, s)| s.engines.clone().map(|e| (p, e)));
    if let Some((p, first)) = named.next() {
        if let Some((q, other)) = named.find(|(_, e)| *e != first) {
            return Err(format!(
                "{} is a match of {} vs {}, but {} of {} vs {}",
                p.display(),
                first[0],
                first[1],
                q.display(),
                other[0],
                other[1]
            ));
        }
        return Ok(first);
    }
    let g = states.iter().flat_map(|(_, s)| &s.games).min_by_key(|g| g.number).ok_or("no games in the state files")?;
    Ok(if g.number % 2 == 1 { [g.black.clone(), g.white.clone()] } else { [g.white.clone(), g.black.clone()] })
}

/// The record file a state file belongs to (`games.psn` for `games.psn.state`).
fn record_of(state_path: &Path) -> PathBuf {
    let s = state_path.to_string_lossy();
    PathBuf::from(s.strip_suffix(".state").unwrap_or(&s))
}

/// The records of `games` from the record file beside `state_path`; where a file holds several
/// games with one round number (a new match appended to it), the last one is taken.
fn records(state_path: &Path, st: &State, games: &[&GameLine]) -> Result<Vec<(usize, GameRecord)>, String> {
    let path = record_of(state_path);
    let format = st.format.unwrap_or_else(|| format_of(&path, None));
    let mut by_round: BTreeMap<usize, GameRecord> = BTreeMap::new();
    for g in read_records(&path, format)? {
        let rec = g?;
        if let Some(n) = rec.tag("Round").and_then(|r| r.trim().parse().ok()) {
            by_round.insert(n, rec);
        }
    }
    games
        .iter()
        .map(|g| {
            by_round
                .remove(&g.number)
                .map(|r| (g.number, r))
                .ok_or_else(|| format!("{}: no record of game {}", path.display(), g.number))
        })
        .collect()
}

/// Runs `hisha match --merge`.
pub fn merge(args: &MatchArgs) -> Result<(), String> {
    let states: Vec<(PathBuf, State)> =
        args.merge.iter().map(|p| Ok((p.clone(), state::load(p)?))).collect::<Result<_, String>>()?;
    let [a, b] = engines(&states)?;
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (p, s) in &states {
        for g in &s.games {
            if let Some(q) = seen.insert(g.number, p) {
                return Err(format!("game {} is in both {} and {}", g.number, q.display(), p.display()));
            }
        }
    }
    let mut lines: Vec<&GameLine> = states.iter().flat_map(|(_, s)| &s.games).collect();
    lines.sort_by_key(|g| g.number);
    let mut tally = Tally::new(&a, &b);
    for g in &lines {
        tally.add(g);
    }
    if !args.out.is_empty() {
        let same = |a: &Path, b: &Path| std::path::absolute(a).ok() == std::path::absolute(b).ok();
        if let Some(o) = args.out.iter().find(|o| states.iter().any(|(p, _)| same(o, &record_of(p)))) {
            return Err(format!("--out {} is one of the shards' record files; merge into a new file", o.display()));
        }
        let mut recs = Vec::new();
        for (p, s) in &states {
            let games: Vec<&GameLine> = s.games.iter().collect();
            recs.extend(records(p, s, &games)?);
        }
        recs.sort_by_key(|(n, _)| *n);
        for out in &args.out {
            let mut w = open_record(out, format_of(out, args.format))?;
            for (_, r) in &recs {
                w.write(r).map_err(|e| format!("{}: {e}", out.display()))?;
            }
        }
        eprintln!("hisha match: {} games merged into {}", recs.len(), args.out[0].display());
    }
    print!("{}", tally.block(args.sprt.as_ref()));
    Ok(())
}
