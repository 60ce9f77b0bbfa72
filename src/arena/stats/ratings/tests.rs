use super::fit::ELO_PER_UNIT;
use super::*;
use crate::arena::state::GameLine;
use crate::position::{GameResult, ResultReason, Winner};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Games with `first`'s results against `second` (`wins`, `draws`, `losses`), numbered from
/// `number`, in colour-swapped pairs (`first` Black in the odd games).
fn games(number: &mut usize, first: &str, second: &str, wdl: [u64; 3]) -> Vec<GameLine> {
    let outcomes = [(1.0, wdl[0]), (0.5, wdl[1]), (0.0, wdl[2])];
    let scores = outcomes.into_iter().flat_map(|(s, k)| std::iter::repeat_n(s, k as usize));
    scores.map(|s| game(number, first, second, s)).collect()
}

/// The next game: `first` scores `score` against `second`, Black in odd games.
fn game(number: &mut usize, first: &str, second: &str, score: f64) -> GameLine {
    *number += 1;
    let first_black = *number % 2 == 1;
    let (black, white) = if first_black { (first, second) } else { (second, first) };
    let winner = match (score, first_black) {
        (0.5, _) => Winner::Draw,
        (1.0, true) | (0.0, false) => Winner::Black,
        _ => Winner::White,
    };
    let result = GameResult { winner, reason: ResultReason::Resign };
    GameLine { number: *number, black: black.into(), white: white.into(), result }
}

/// The crosstable of `names` after `results`: `(first, second, [wins, draws, losses])`.
fn table(names: &[&str], results: &[(usize, usize, [u64; 3])]) -> Crosstable {
    let mut number = 0;
    let lines: Vec<GameLine> =
        results.iter().flat_map(|&(i, j, w)| games(&mut number, names[i], names[j], w)).collect();
    Crosstable::from_games(names, &lines).expect("known engines")
}

fn fitted(list: &RatingList, name: &str) -> EloEstimate {
    match list.engines.iter().find(|e| e.name == name).map(|e| e.rating) {
        Some(Rating::Fitted(r)) => r,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn ratings_agree_with_an_independent_fit() {
    // `python3 tests/scripts/ratings_reference.py` (Hunter's MM iteration, and a finite-difference
    // Hessian for the intervals) on the same results prints:
    //   A: +0.0000 +/- 0.0000, B: -97.7178 +/- 127.1897, C: -200.2437 +/- 134.4995,
    //   D: -254.5955 +/- 142.9604.
    let names = ["A", "B", "C", "D"];
    let results = [
        (0, 1, [7, 6, 5]),
        (0, 2, [10, 4, 2]),
        (0, 3, [12, 2, 0]),
        (1, 2, [6, 8, 4]),
        (1, 3, [9, 5, 2]),
        (2, 3, [5, 5, 6]),
    ];
    let t = table(&names, &results);
    let list = RatingList::fit(&t, None).expect("engines");
    assert_eq!(list.prior_draws, 0.0, "a finite maximum exists");
    assert_eq!(list.anchor, Anchor { name: "A".into(), elo: 0.0 });
    for (name, elo, half) in
        [("A", 0.0, 0.0), ("B", -97.7178, 127.1897), ("C", -200.2437, 134.4995), ("D", -254.5955, 142.9604)]
    {
        let r = fitted(&list, name);
        assert!((r.elo - elo).abs() < 0.1, "{name}: {} vs {elo}", r.elo);
        assert!(((r.upper - r.lower) / 2.0 - half).abs() < 0.1, "{name}: {r:?} vs ±{half}");
    }
    assert_eq!(list.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["A", "B", "C", "D"]);
    // Another anchor shifts every rating by the same amount.
    let b = RatingList::fit(&t, Some(&"B=1500".parse().expect("anchor"))).expect("engines");
    for name in names {
        let shift = fitted(&b, name).elo - fitted(&list, name).elo;
        assert!((shift - (1500.0 + 97.7178)).abs() < 0.1, "{name}: {shift}");
    }
    assert_eq!(fitted(&b, "B"), EloEstimate { elo: 1500.0, lower: 1500.0, upper: 1500.0 });
    let unknown = RatingList::fit(&t, Some(&Anchor { name: "E".into(), elo: 0.0 }));
    assert_eq!(unknown, Err(RatingError::UnknownAnchor("E".into())));
}

#[test]
fn two_engines_are_rated_by_the_elo_of_their_score() {
    // The closed form: the maximum-likelihood difference is -400·log10(1/s - 1), and the
    // information n·E·(1 - E)/(400/ln 10)² makes the half-width 1.96·(400/ln 10)/√(n·s·(1 - s)).
    for wdl in [[17, 0, 3], [60, 20, 20], [10, 5, 10], [3, 10, 1], [1, 0, 2]] {
        let list = RatingList::fit(&table(&["x", "y"], &[(0, 1, wdl)]), Some(&"y=0".parse().expect("anchor")))
            .expect("engines");
        let [w, d, l] = wdl.map(|c| c as f64);
        let (n, s) = (w + d + l, (w + 0.5 * d) / (w + d + l));
        let elo = -400.0 * (1.0 / s - 1.0).log10();
        let half = Z95 * ELO_PER_UNIT / (n * s * (1.0 - s)).sqrt();
        let x = fitted(&list, "x");
        assert!((x.elo - elo).abs() < 1e-6, "{wdl:?}: {} vs {elo}", x.elo);
        assert!(((x.upper - x.lower) / 2.0 - half).abs() < 1e-6, "{wdl:?}: {x:?} vs ±{half}");
    }
}

#[test]
fn two_engine_intervals_agree_with_the_match_interval() {
    // The match's per-game interval (`Wdl::elo`, the trinomial likelihood-ratio interval) is the
    // comparable estimate: same games, no pairs. Without draws both describe a binomial score;
    // they differ only as a Wald interval (symmetric in Elo) and a likelihood-ratio one do, by
    // under 1 Elo at either end for 400 games at 60 % (measured: [+35.69, +105.19] against the
    // match's [+35.89, +105.45]).
    let w = Wdl { wins: 240, draws: 0, losses: 160 };
    let x = fitted(
        &RatingList::fit(&table(&["x", "y"], &[(0, 1, [240, 0, 160])]), Some(&"y=0".parse().expect("a")))
            .expect("engines"),
        "x",
    );
    let m = w.elo().expect("games");
    assert!((x.lower - m.lower).abs() < 1.0 && (x.upper - m.upper).abs() < 1.0, "{x:?} vs {m:?}");
    // With draws the rating list counts a draw as half a win and half a loss, a score variance
    // of s·(1 - s) per game, where the match's trinomial uses the draws' smaller variance: its
    // interval is narrower by √(variance / (s·(1 - s))), within 1 % at 400 games (measured:
    // 0.1 %; the list's [+9.34, +77.98] against the match's [+16.70, +70.75]).
    let w = Wdl { wins: 150, draws: 150, losses: 100 };
    let x = fitted(
        &RatingList::fit(&table(&["x", "y"], &[(0, 1, [150, 150, 100])]), Some(&"y=0".parse().expect("a")))
            .expect("engines"),
        "x",
    );
    let m = w.elo().expect("games");
    let s = w.score();
    let variance = (150.0 + 150.0 / 4.0) / 400.0 - s * s;
    let expected = (x.upper - x.lower) * (variance / (s * (1.0 - s))).sqrt();
    let ratio = (m.upper - m.lower) / expected;
    assert!((ratio - 1.0).abs() < 0.01, "match {m:?}, list {x:?}: {ratio}");
}

/// A seeded round-robin of engines rated `truth`: `games_per_pair` games per pairing in
/// colour-swapped pairs, each a win, draw or loss with the model's expected score (draws take
/// half of the weaker side's share).
fn simulated(truth: &[f64], names: &[&str], games_per_pair: usize, seed: u64) -> Vec<GameLine> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut number = 0;
    let mut lines = Vec::new();
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let e = 1.0 / (1.0 + 10f64.powf(-(truth[i] - truth[j]) / 400.0));
            let draw = 0.5 * e.min(1.0 - e);
            for _ in 0..games_per_pair {
                let u: f64 = rng.random();
                let score = if u < e - draw / 2.0 {
                    1.0
                } else if u < e + draw / 2.0 {
                    0.5
                } else {
                    0.0
                };
                lines.push(game(&mut number, names[i], names[j], score));
            }
        }
    }
    lines
}

#[test]
fn simulated_engines_of_clearly_different_strength_are_ordered_and_sums_add_up() {
    let names = ["e0", "e1", "e2", "e3", "e4"];
    let truth = [0.0, -100.0, 100.0, -200.0, 200.0];
    let lines = simulated(&truth, &names, 60, 7);
    let t = Crosstable::from_games(&names, &lines).expect("known engines");
    let list = RatingList::fit(&t, None).expect("engines");
    let order: Vec<&str> = list.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, ["e4", "e2", "e0", "e1", "e3"]);
    for (name, true_elo) in names.iter().zip(truth) {
        let r = fitted(&list, name);
        // Within 1.5 half-widths of the 95 % interval (about 3 standard errors).
        assert!((r.elo - true_elo).abs() < 0.75 * (r.upper - r.lower) + 1e-9, "{name}: {r:?} vs {true_elo}");
    }
    // The crosstable's sums equal the games: 10 pairings of 60, each game once per side, one
    // point per game, every game in a colour-swapped pair.
    assert_eq!(t.games(), 600);
    assert_eq!((0..5).map(|i| t.total(i).games()).sum::<u64>(), 1200);
    let points: f64 = (0..5).map(|i| t.total(i).score() * t.total(i).games() as f64).sum();
    assert!((points - 600.0).abs() < 1e-9);
    let pairs: u64 =
        (0..5).flat_map(|i| (i + 1..5).map(move |j| (i, j))).map(|(i, j)| t.pentanomial(i, j).pairs()).sum();
    assert_eq!(pairs, 300);
    assert_eq!(list.engines.iter().map(|e| e.results.games()).sum::<u64>(), 1200);
}

#[test]
fn merged_shards_give_the_crosstable_and_ratings_of_one_run() {
    let names = ["e0", "e1", "e2", "e3"];
    let lines = simulated(&[0.0, 50.0, -50.0, 120.0], &names, 10, 11);
    let whole = Crosstable::from_games(&names, &lines).expect("known engines");
    // Shards as `--shard K/2` deals them (pairs alternately), and an uneven split that cuts
    // pairs in two; each merged in another order than played.
    let by_pair = |k: usize| lines.iter().filter(move |g| (g.number - 1) / 2 % 2 == k);
    let by_game = |k: usize| lines.iter().filter(move |g| g.number % 3 == k);
    let merged = [
        by_pair(1).chain(by_pair(0)).collect::<Vec<_>>(),
        by_game(2).chain(by_game(0)).chain(by_game(1)).rev().collect(),
    ];
    for shards in merged {
        assert_eq!(shards.len(), lines.len());
        let table = Crosstable::from_games(&names, shards).expect("known engines");
        assert_eq!(table, whole);
        assert_eq!(RatingList::fit(&table, None), RatingList::fit(&whole, None));
    }
    assert_eq!(whole.games(), 60);
}

#[test]
fn a_perfect_score_gets_a_prior_and_an_open_end() {
    // Two engines, 3-0: with half a virtual draw the score is 3.25/3.5, 400·log10(13) = +445.6.
    let list =
        RatingList::fit(&table(&["x", "y"], &[(0, 1, [3, 0, 0])]), Some(&"y=0".parse().expect("a"))).expect("engines");
    assert_eq!(list.prior_draws, PRIOR_DRAWS);
    let x = fitted(&list, "x");
    assert!((x.elo - 400.0 * 13f64.log10()).abs() < 1e-6 && x.upper == f64::INFINITY && x.lower.is_finite(), "{x:?}");
    // A beats everyone; B and C share points: A's rating is finite, above the others, open above.
    let names = ["A", "B", "C"];
    let list = RatingList::fit(&table(&names, &[(0, 1, [3, 0, 0]), (0, 2, [2, 0, 0]), (1, 2, [2, 1, 1])]), None)
        .expect("engines");
    assert_eq!(list.prior_draws, PRIOR_DRAWS);
    assert_eq!(list.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["A", "B", "C"]);
    assert!(fitted(&list, "B").upper.is_finite() && fitted(&list, "C").lower.is_finite());
    assert!(list.list_text().contains("No finite maximum-likelihood ratings yet (A won every game): 0.5 virtual draw"));
    // No perfect engine, but {A, B} scored everything against {C, D}: still no finite maximum.
    let names = ["A", "B", "C", "D"];
    let split = [(0, 1, [1, 1, 1]), (2, 3, [1, 0, 1]), (0, 2, [2, 0, 0]), (1, 3, [2, 0, 0])];
    let list = RatingList::fit(&table(&names, &split), None).expect("engines");
    assert_eq!(list.prior_draws, PRIOR_DRAWS);
    assert!(list.list_text().contains("(some engines have not scored against others)"), "{}", list.list_text());
}

#[test]
fn engines_without_games_or_link_to_the_anchor_get_no_rating() {
    let names = ["a", "b", "c", "d", "e"];
    let list = RatingList::fit(&table(&names, &[(3, 2, [1, 1, 0]), (0, 1, [1, 1, 1])]), None).expect("engines");
    let ratings: Vec<(&str, Rating)> = list.engines.iter().map(|e| (e.name.as_str(), e.rating)).collect();
    assert!(matches!(ratings[..2], [("a" | "b", Rating::Fitted(_)), ("a" | "b", Rating::Fitted(_))]), "{ratings:?}");
    assert_eq!(ratings[2..], [("c", Rating::NotLinked), ("d", Rating::NotLinked), ("e", Rating::NoGames)]);
    assert_eq!(list.prior_draws, 0.0, "c-d is not part of the fit");
    let none: [&str; 0] = [];
    assert_eq!(RatingList::fit(&Crosstable::new(&none).expect("empty"), None), Err(RatingError::NoEngines));
}

#[test]
fn anchors_read_name_equals_elo() {
    assert_eq!("hisha=1500".parse(), Ok(Anchor { name: "hisha".into(), elo: 1500.0 }));
    assert_eq!("a=b=-20.5".parse(), Ok(Anchor { name: "a=b".into(), elo: -20.5 }));
    for bad in ["hisha", "=3", "x=inf", "x=y"] {
        assert_eq!(bad.parse::<Anchor>(), Err(ParseAnchorError(bad.into())), "{bad}");
    }
}

#[test]
fn text_lists_ratings_then_the_grid() {
    let names = ["weak", "strong", "idle"];
    let t = table(&names, &[(0, 1, [1, 2, 3])]);
    let list = RatingList::fit(&t, None).expect("engines");
    // strong scored 4/6: -400·log10(1/(2/3) - 1) = +120.4; ±1.96·173.72/√(6·2/9) = ±294.9.
    // weak's games score 1, ½ | ½, 0 | 0, 0: its pairs 1½, ½, 0, so strong's ½, 1½, 2.
    let expected = "\
Ratings (maximum likelihood, 95 % intervals; weak anchored at +0.0):
Rank  Name       Elo      95 %  Games    Score    Draws
   1  strong  +120.4    ±294.9      6   66.7 %   33.3 %
   2  weak      +0.0    anchor      6   33.3 %   33.3 %
   3  idle       n/a  no games      0        -        -
Crosstable (points of the row's engine against the column's / games):
          strong  weak  idle
  strong       -   4/6     .
  weak       2/6     -     .
  idle         .     .     -
Pairings (W L D of the first engine; pairs by score 0, 1/2, 1, 3/2, 2):
  strong vs weak: 3 W 1 L 2 D, pairs [0, 1, 0, 1, 1]
";
    assert_eq!(list.text(&t), expected);
}
