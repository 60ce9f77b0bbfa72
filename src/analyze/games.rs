//! The work of an analysis run: which positions of each game are searched (`--plies`), the
//! searches they make, and the games' analyses put together from the searches' outcomes.

use super::pool::{self, EngineSetup, Outcome};
use super::search::Job;
use super::{GameAnalysis, analyse_game};
use crate::record::{GameRecord, Start};
use crate::types::Color;
use crate::usi::command::StartPosition;

/// A game's positions to analyse, each with the index of its search (`None`: not searched), or
/// why the game cannot be analysed.
type GamePlan = Result<Vec<(usize, Option<usize>)>, String>;

/// The positions of `rec` to analyse for `plies` (`A-B`: the moves of plies A to B, so the
/// positions before them and the one after B); indexes into the game's positions (0 = start).
pub fn positions_to_analyse(rec: &GameRecord, plies: Option<(usize, usize)>) -> Vec<usize> {
    let last = rec.moves.len();
    match plies {
        None => (0..=last).collect(),
        Some((a, b)) => (a.max(1) - 1..=b.min(last)).collect(),
    }
}

/// The searches for positions `indexes` of `rec` (`None` for one whose side to move has no legal
/// move: it is not searched). Fails if the game's start is not a position.
pub fn jobs_of(rec: &GameRecord, indexes: &[usize]) -> Result<Vec<Option<Job>>, crate::position::sfen::SfenError> {
    let start = match &rec.start {
        Start::Handicap(crate::Handicap::Even) => StartPosition::Startpos,
        other => StartPosition::Sfen(other.sfen()),
    };
    let mut pos = rec.start.position()?;
    let mut moves = Vec::new();
    let mut jobs = Vec::with_capacity(indexes.len());
    for i in 0..=rec.moves.len() {
        if indexes.contains(&i) {
            let black_to_move = pos.side_to_move() == Color::Black;
            let job = Job { start: start.clone(), moves: moves.clone(), black_to_move };
            jobs.push(pos.has_legal_move().then_some(job));
        }
        if let Some(m) = rec.moves.get(i) {
            moves.push(m.mv.to_string());
            pos.do_move(m.mv);
        }
    }
    Ok(jobs)
}

/// Analyses positions `plies` (see [`positions_to_analyse`]) of every game with the engines of
/// `setup`; `progress(done, total)` is called after each position. A game whose start is not a
/// position gets no analysis (its error as the failure of its first position).
pub fn analyse_games(
    setup: &EngineSetup,
    games: &[GameRecord],
    plies: Option<(usize, usize)>,
    mut progress: impl FnMut(usize, usize),
) -> Vec<GameAnalysis> {
    // Every game's positions, and for each the job it is (None: nothing to search).
    let mut wanted: Vec<GamePlan> = Vec::with_capacity(games.len());
    let mut jobs = Vec::new();
    for rec in games {
        let indexes = positions_to_analyse(rec, plies);
        wanted.push(match jobs_of(rec, &indexes) {
            Ok(js) => Ok(indexes
                .into_iter()
                .zip(js)
                .map(|(i, job)| {
                    (
                        i,
                        job.map(|j| {
                            jobs.push(j);
                            jobs.len() - 1
                        }),
                    )
                })
                .collect()),
            Err(e) => Err(e.to_string()),
        });
    }
    let total = jobs.len();
    let mut done = 0;
    let mut outcomes: Vec<Option<Outcome>> = pool::run_all(setup, &jobs, |_, _| {
        done += 1;
        progress(done, total);
    })
    .into_iter()
    .map(Some)
    .collect();
    games
        .iter()
        .zip(wanted)
        .enumerate()
        .map(|(g, (rec, want))| match want {
            Ok(positions) => {
                let positions = positions
                    .into_iter()
                    .map(|(i, job)| {
                        (
                            i,
                            job.map_or(Ok(Vec::new()), |j| {
                                outcomes[j].take().unwrap_or_else(|| Err("not searched".to_string()))
                            }),
                        )
                    })
                    .collect();
                analyse_game(g + 1, rec, positions)
            }
            Err(e) => GameAnalysis { positions: vec![(0, Err(e))], reports: Vec::new() },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::testing::play;

    fn game(moves: &[&str]) -> GameRecord {
        GameRecord::new(Start::default(), play(&mut Position::startpos(), moves))
    }

    #[test]
    fn plies_a_to_b_analyse_the_positions_before_them_and_the_one_after_b() {
        let rec = game(&["7g7f", "3c3d", "2g2f", "4c4d"]);
        assert_eq!(positions_to_analyse(&rec, None), [0, 1, 2, 3, 4]);
        assert_eq!(positions_to_analyse(&rec, Some((2, 3))), [1, 2, 3]);
        assert_eq!(positions_to_analyse(&rec, Some((3, 99))), [2, 3, 4], "B past the end: to the end");
        assert!(positions_to_analyse(&rec, Some((9, 12))).is_empty(), "past the end: none");
    }

    #[test]
    fn a_position_with_no_legal_move_is_not_searched() {
        // White's king on 1a, Black's gold on 1b guarded by a pawn on 1c: mated.
        let rec = GameRecord::new(Start::from_sfen("8k/8G/8P/9/9/9/9/9/K8 w - 1").expect("sfen"), []);
        assert!(rec.start.position().expect("position").is_checkmate());
        let jobs = jobs_of(&rec, &[0]).expect("jobs");
        assert!(matches!(jobs[..], [None]), "{jobs:?}");
        let rec = game(&["7g7f"]);
        let jobs = jobs_of(&rec, &[0, 1]).expect("jobs");
        let moves: Vec<Vec<String>> = jobs.iter().flatten().map(|j| j.moves.clone()).collect();
        assert_eq!(moves, [vec![], vec!["7g7f".to_string()]], "each search carries the moves before it");
        assert!(!jobs[1].as_ref().is_some_and(|j| j.black_to_move), "White moves after 7g7f");
    }
}
