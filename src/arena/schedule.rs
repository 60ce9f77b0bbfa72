//! What a match plays: the two engines, the openings and the deterministic schedule of games
//! (colour-swapped pairs, one opening per pair, shards, games already finished skipped).

use super::error::MatchError;
use super::game::GameSpec;
use super::openings::{self, Opening, OpeningsError};
use super::settings::MatchSettings;
use crate::client::config::EngineConfig;
use crate::record::Start;
use std::path::Path;

/// The default openings (`book/openings.psn`), built in so that a match does not depend on the
/// folder it is started from.
pub(crate) const DEFAULT_OPENINGS: &str = include_str!("../../book/openings.psn");

/// A scheduled game: its spec and which engine (0 = first, 1 = second) plays Black.
pub(crate) struct Job {
    /// What to play.
    pub spec: GameSpec,
    /// The first engine plays Black (odd game numbers).
    pub first_is_black: bool,
}

/// The engine (0 = first, 1 = second) playing each colour: [Black's, White's].
fn engines_by_colour(first_is_black: bool) -> [usize; 2] {
    if first_is_black { [0, 1] } else { [1, 0] }
}

impl Job {
    /// The engine (0 = first, 1 = second) playing each colour: [Black's, White's].
    pub(crate) fn engines_by_colour(&self) -> [usize; 2] {
        engines_by_colour(self.first_is_black)
    }

    /// The engine definitions by colour: (Black, White).
    pub(crate) fn sides<'a>(&self, confs: &'a [EngineConfig; 2]) -> (&'a EngineConfig, &'a EngineConfig) {
        let [black, white] = self.engines_by_colour();
        (&confs[black], &confs[white])
    }
}

/// The two engines: the `--engine`s given, completed with hisha; equal names are made distinct.
pub(crate) fn engines(settings: &MatchSettings) -> Result<[EngineConfig; 2], MatchError> {
    let load = |w: &Vec<String>| EngineConfig::from_spec(w, &settings.engines_dir);
    let mut list: Vec<EngineConfig> = settings.engines.iter().map(load).collect::<Result<_, _>>()?;
    let [a, mut b] = match list.len() {
        0 => {
            let (mut a, mut b) = (EngineConfig::hisha(), EngineConfig::hisha());
            a.name = "hisha-1".into();
            b.name = "hisha-2".into();
            [a, b]
        }
        1 => [list.remove(0), EngineConfig::hisha()],
        2 => {
            let b = list.remove(1);
            [list.remove(0), b]
        }
        n => return Err(MatchError::TooManyEngines(n)),
    };
    if a.name == b.name {
        b.name.push_str("-2");
    }
    Ok([a, b])
}

/// The openings of the match: one handicap start, the `--openings` file, or the built-in book.
pub(crate) fn load_openings(settings: &MatchSettings) -> Result<Vec<Opening>, OpeningsError> {
    let mut list = match (&settings.handicap, &settings.openings) {
        (Some(h), _) => {
            return Ok(vec![Opening { start: Start::Handicap(*h), moves: Vec::new(), name: h.english().to_string() }]);
        }
        (None, Some(path)) => openings::load(path, settings.opening_plies)?,
        (None, None) => {
            openings::parse(DEFAULT_OPENINGS.as_bytes(), Path::new("book/openings.psn"), settings.opening_plies)?
        }
    };
    if let Some(seed) = settings.seed {
        openings::shuffle(&mut list, seed);
    }
    Ok(list)
}

/// The games still to play: game `n` (1-based) belongs to pair `(n - 1) / 2`, which plays opening
/// `pair % openings` twice, the first engine Black in the odd game. With `--shard K/N` only the
/// pairs of the shard (`Shard::has_pair`) are played; games in `done` are skipped.
pub(crate) fn schedule(
    settings: &MatchSettings,
    confs: &[EngineConfig; 2],
    openings: &[Opening],
    done: &[usize],
) -> Vec<Job> {
    let pairs = settings.games.div_ceil(2).max(1);
    let tc = |c: &EngineConfig| c.tc.unwrap_or(settings.tc);
    let margin = |c: &EngineConfig| c.time_margin.unwrap_or(settings.time_margin);
    let mut jobs = Vec::new();
    for number in 1..=pairs * 2 {
        let pair = (number - 1) / 2;
        if settings.shard.is_some_and(|shard| !shard.has_pair(pair)) || done.contains(&number) {
            continue;
        }
        let o = &openings[pair % openings.len()];
        let first_is_black = number % 2 == 1;
        let [black, white] = engines_by_colour(first_is_black).map(|e| &confs[e]);
        jobs.push(Job {
            spec: GameSpec {
                number,
                start: o.start.clone(),
                opening: o.moves.clone(),
                opening_name: o.name.clone(),
                tc: [tc(black), tc(white)],
                margin: [margin(black), margin(white)],
            },
            first_is_black,
        });
    }
    jobs
}
