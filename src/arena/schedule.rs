//! What a match or tournament plays: the engines, the pairings, the openings and the
//! deterministic schedule of games (colour-swapped pairs, one opening per pair, shards, games
//! already finished skipped).

use super::error::MatchError;
use super::game::GameSpec;
use super::opening_use::OpeningUse;
use super::openings::{self, Opening, OpeningsError};
use super::settings::MatchSettings;
use crate::client::config::EngineConfig;
use crate::client::tc::TimeControl;
use crate::record::Start;

/// A scheduled game: its spec and the engines (indices into the match's engine list) that play it.
pub(crate) struct Job {
    /// What to play.
    pub spec: GameSpec,
    /// The engine playing each colour: [Black's, White's].
    pub engines: [usize; 2],
}

impl Job {
    /// The engine (index into the match's engines) playing each colour: [Black's, White's].
    pub(crate) fn engines_by_colour(&self) -> [usize; 2] {
        self.engines
    }

    /// The engine definitions by colour: (Black, White).
    pub(crate) fn sides<'a>(&self, confs: &'a [EngineConfig]) -> (&'a EngineConfig, &'a EngineConfig) {
        let [black, white] = self.engines;
        (&confs[black], &confs[white])
    }
}

/// The engines: the `--engine`s given, completed with hisha to two; equal names are made
/// distinct (`-2`, `-3`, …). More than two only in a tournament.
pub(crate) fn engines(settings: &MatchSettings) -> Result<Vec<EngineConfig>, MatchError> {
    let load = |w: &Vec<String>| EngineConfig::from_spec(w, &settings.engines_dir);
    let mut list: Vec<EngineConfig> = settings.engines.iter().map(load).collect::<Result<_, _>>()?;
    match list.len() {
        0 => {
            let (mut a, mut b) = (EngineConfig::hisha(), EngineConfig::hisha());
            a.name = "hisha-1".into();
            b.name = "hisha-2".into();
            list = vec![a, b];
        }
        1 => list.push(EngineConfig::hisha()),
        2 => {}
        n if settings.tournament.is_none() => return Err(MatchError::TooManyEngines(n)),
        _ => {}
    }
    for i in 1..list.len() {
        // A name is taken by an engine before this one, or by a later one as given.
        let taken = |name: &str, list: &[EngineConfig]| list.iter().enumerate().any(|(j, c)| j != i && c.name == name);
        if list[..i].iter().any(|c| c.name == list[i].name) {
            let base = list[i].name.clone();
            list[i].name = (2..).map(|k| format!("{base}-{k}")).find(|n| !taken(n, &list)).unwrap_or(base);
        }
    }
    Ok(list)
}

/// The pairings played: every pair of a tournament, or the two engines of a match.
pub(crate) fn pairings(settings: &MatchSettings, engines: usize) -> Vec<(usize, usize)> {
    settings.tournament.map_or(vec![(0, 1)], |t| t.pairings(engines))
}

/// The games each pairing is to play: `--games` rounded up to whole pairs, in every round.
pub(crate) fn games_per_pairing(settings: &MatchSettings) -> usize {
    settings.games.div_ceil(2).max(1) * 2 * settings.rounds.max(1)
}

/// How the match uses its `openings` (how many there are): dealt over its pairings, and whether
/// its games replay (every engine at a node or depth budget; an engine without a time control of
/// its own plays `--tc`).
pub(crate) fn opening_use(settings: &MatchSettings, confs: &[EngineConfig], openings: usize) -> OpeningUse {
    let tcs: Vec<TimeControl> = confs.iter().map(|c| c.tc.unwrap_or(settings.tc)).collect();
    OpeningUse::new(openings, pairings(settings, confs.len()).len(), &tcs, settings.sprt.is_some())
}

/// The openings of the match: one handicap start, the `--openings` file, or the built-in book.
pub(crate) fn load_openings(settings: &MatchSettings) -> Result<Vec<Opening>, OpeningsError> {
    if let Some(h) = settings.handicap {
        return Ok(vec![Opening { start: Start::Handicap(h), moves: Vec::new(), name: h.english().to_string() }]);
    }
    let mut list = settings.openings.load()?;
    if let Some(seed) = settings.seed {
        openings::shuffle(&mut list, seed);
    }
    Ok(list)
}

/// The games still to play. The colour-swapped pairs are dealt out over the pairings in turn:
/// pair `q` (from 0) is pairing `q mod P`'s pair `q div P`, which plays opening `(q div P) mod
/// openings`, so every pairing plays the same openings in the same order, and a longer match or
/// tournament (more `--games` or `--rounds`) only adds pairs at the end. Game `2q + 1` has the
/// pairing's first engine Black, game `2q + 2` the second. A match is the one pairing of its two
/// engines (pair `q` plays opening `q mod openings`). With `--shard K/N` only the pairs of the
/// shard (`Shard::has_pair`) are played; games in `done` are skipped. With the SPRT at a fixed
/// budget, the games that would replay earlier ones are not played (`OpeningUse::counts`).
pub(crate) fn schedule(
    settings: &MatchSettings,
    confs: &[EngineConfig],
    openings: &[Opening],
    done: &[usize],
) -> Vec<Job> {
    let pairings = pairings(settings, confs.len());
    let per_pairing = games_per_pairing(settings) / 2;
    let usage = opening_use(settings, confs, openings.len());
    let tc = |c: &EngineConfig| c.tc.unwrap_or(settings.tc);
    let margin = |c: &EngineConfig| settings.game.time_margin_of(c);
    let mut jobs = Vec::new();
    for number in 1..=per_pairing * pairings.len() * 2 {
        let pair = (number - 1) / 2;
        let elsewhere = settings.shard.is_some_and(|shard| !shard.has_pair(pair));
        if elsewhere || done.contains(&number) || !usage.counts(number) {
            continue;
        }
        let (first, second) = pairings[pair % pairings.len()];
        let o = &openings[usage.opening_of(number)];
        let engines = if number % 2 == 1 { [first, second] } else { [second, first] };
        let [black, white] = engines.map(|e| &confs[e]);
        jobs.push(Job {
            spec: GameSpec {
                number,
                start: o.start.clone(),
                opening: o.moves.clone(),
                opening_name: o.name.clone(),
                tc: [tc(black), tc(white)],
                margin: [margin(black), margin(white)],
            },
            engines,
        });
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::settings::tests::settings;
    use crate::arena::tournament::Tournament;

    fn openings(n: usize) -> Vec<Opening> {
        (0..n).map(|i| Opening { start: Start::default(), moves: Vec::new(), name: format!("o{i}") }).collect()
    }

    fn confs(n: usize) -> Vec<EngineConfig> {
        (0..n)
            .map(|i| {
                let mut c = EngineConfig::hisha();
                c.name = format!("e{i}");
                c
            })
            .collect()
    }

    /// (number, Black's engine, White's engine, opening) of each job.
    fn plan(jobs: &[Job]) -> Vec<(usize, usize, usize, String)> {
        jobs.iter().map(|j| (j.spec.number, j.engines[0], j.engines[1], j.spec.opening_name.clone())).collect()
    }

    #[test]
    fn pairings_take_turns_over_the_same_openings_and_more_rounds_only_add_games() {
        let mut s = settings("nodes=100".parse().expect("tc"));
        s.tournament = Some(Tournament::RoundRobin);
        s.games = 2;
        s.rounds = 2;
        let jobs = schedule(&s, &confs(3), &openings(3), &[]);
        let o = |i: usize| format!("o{i}");
        // Pair q: pairing q mod 3 ((0,1), (0,2), (1,2)), opening (q div 3) mod 3.
        assert_eq!(
            plan(&jobs),
            [
                (1, 0, 1, o(0)),
                (2, 1, 0, o(0)),
                (3, 0, 2, o(0)),
                (4, 2, 0, o(0)),
                (5, 1, 2, o(0)),
                (6, 2, 1, o(0)),
                (7, 0, 1, o(1)),
                (8, 1, 0, o(1)),
                (9, 0, 2, o(1)),
                (10, 2, 0, o(1)),
                (11, 1, 2, o(1)),
                (12, 2, 1, o(1)),
            ]
        );
        // Three rounds: the same twelve games, then six more; a shard and finished games skipped.
        s.rounds = 3;
        assert_eq!(plan(&schedule(&s, &confs(3), &openings(3), &[]))[..12], plan(&jobs)[..]);
        s.shard = "2/2".parse().ok();
        let numbers: Vec<usize> = schedule(&s, &confs(3), &openings(3), &[4]).iter().map(|j| j.spec.number).collect();
        assert_eq!(numbers, [3, 7, 8, 11, 12, 15, 16], "odd pairs 1, 3, 5, 7; game 4 done");
        // A gauntlet pairs the first engine with each other one.
        s.shard = None;
        s.tournament = Some(Tournament::Gauntlet);
        s.rounds = 1;
        let gauntlet = plan(&schedule(&s, &confs(3), &openings(1), &[]));
        assert_eq!(gauntlet, [(1, 0, 1, o(0)), (2, 1, 0, o(0)), (3, 0, 2, o(0)), (4, 2, 0, o(0))]);
    }

    #[test]
    fn a_match_plays_opening_q_in_pair_q_as_before() {
        let mut s = settings("nodes=100".parse().expect("tc"));
        s.games = 5;
        let jobs = plan(&schedule(&s, &confs(2), &openings(2), &[]));
        let o = |i: usize| format!("o{i}");
        assert_eq!(
            jobs,
            [(1, 0, 1, o(0)), (2, 1, 0, o(0)), (3, 0, 1, o(1)), (4, 1, 0, o(1)), (5, 0, 1, o(0)), (6, 1, 0, o(0))]
        );
    }

    #[test]
    fn an_sprt_at_a_node_budget_plays_each_opening_once_with_each_colour() {
        let mut s = settings("nodes=100".parse().expect("tc"));
        s.games = 20;
        s.sprt = "elo0=0 elo1=5".parse().ok();
        let numbers = |s: &MatchSettings| -> Vec<usize> {
            schedule(s, &confs(2), &openings(3), &[2]).iter().map(|j| j.spec.number).collect()
        };
        // 3 openings, 2 colours: games 1 to 6, game 2 done.
        assert_eq!(numbers(&s), [1, 3, 4, 5, 6]);
        s.tc = "byoyomi=100".parse().expect("tc");
        assert_eq!(numbers(&s).len(), 19, "at a clock the games differ: all 20 but game 2");
        s.tc = "nodes=100".parse().expect("tc");
        s.sprt = None;
        assert_eq!(numbers(&s).len(), 19, "without the SPRT every game is played");
    }

    #[test]
    fn engines_get_distinct_names_and_more_than_two_need_a_tournament() {
        let mut s = settings("nodes=100".parse().expect("tc"));
        let spec = |name: &str| vec![format!("name={name}"), "cmd=self".to_string()];
        s.engines = vec![spec("x"), spec("x"), spec("x-2"), spec("x")];
        assert!(matches!(engines(&s), Err(MatchError::TooManyEngines(4))));
        s.tournament = Some(Tournament::Gauntlet);
        let names: Vec<String> = engines(&s).expect("loads").into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["x", "x-3", "x-2", "x-4"], "x-2 is taken by the third engine");
        s.engines.truncate(1);
        let names: Vec<String> = engines(&s).expect("loads").into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["x", "hisha"], "one engine plays hisha");
    }
}
