//! `hisha match --tournament`: a round-robin of hisha at two node budgets, Fairy-Stockfish (where
//! installed) and the fake engine, rated and tabulated; a gauntlet played in shards and merged
//! gives the results of one run (resumed to more rounds); an engine that keeps crashing is
//! dropped and the others play on.

use crate::outside;
use crate::support::arena::{fake, fake_engine, hisha_match, round};
use crate::support::{games, s, temp_dir};
use hisha::arena::state::{self, GameLine};
use hisha::arena::stats::{Crosstable, RatingList};
use hisha::record::Format;
use std::path::Path;

/// `--engine` words of hisha itself at a node budget.
fn hisha_at(name: &str, nodes: u32) -> Vec<String> {
    ["--engine".into(), format!("name={name}"), "cmd=self".into(), format!("tc=nodes={nodes}")].into()
}

/// The rows of the printed rating list: (name, games).
fn rating_rows(stdout: &str) -> Vec<(String, u64)> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Rank  Name"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].to_string(), f[f.len() - 5].parse().expect("games column"))
        })
        .collect()
}

/// The results block of a run's output (from `Results of` to its last indented line).
fn results_block(stdout: &str) -> String {
    let from = stdout.rfind("Results of").expect("a results block");
    stdout[from..]
        .lines()
        .take_while(|l| !l.starts_with("Report page") && !l.starts_with("  This run"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_round_robin_of_four_engines_rates_and_tabulates_every_game() {
    let dir = temp_dir("round-robin");
    let (out, page) = (dir.join("rr.psn"), dir.join("rr.html"));
    let mut names = vec!["strong", "weak", "fake"];
    let mut args: Vec<String> =
        [hisha_at("strong", 3000), hisha_at("weak", 300), fake("fake", "good", "any", 0.0, "nodes=1")].concat();
    if outside::fairy_stockfish() {
        names.push("fsf");
        let fsf = ["name=fsf", "cmd=/usr/games/fairy-stockfish", "option.Threads=1", "option.Hash=16", "tc=nodes=2000"];
        args.push("--engine".into());
        args.extend(fsf.map(String::from));
    }
    let n = names.len();
    let rest = ["--tournament", "round-robin", "--games", "2", "--concurrency", "2", "--max-plies", "200"];
    args.extend(rest.map(String::from));
    args.extend(["--out".into(), s(&out).into(), "--report".into(), s(&page).into()]);
    let run = hisha_match(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    // Every pairing once, a colour-swapped pair each: n(n-1)/2 pairings, 2 games each.
    let played = n * (n - 1);
    assert!(
        stdout.starts_with("=== hisha round-robin tournament of strong (nodes=3000), weak (nodes=300), fake (nodes=1)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("Results of the round-robin tournament of {} ({played} games; ", names.join(", "))),
        "{stdout}"
    );
    let st = state::load(&state::path_for(&out)).expect("state");
    assert_eq!(st.games.len(), played);
    assert_eq!(st.engines, Some(names.iter().map(|n| n.to_string()).collect()));
    let table = Crosstable::from_games(&names, &st.games).expect("the tournament's engines");
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            assert_eq!(table.wdl(i, j).games(), 2, "{} met {} twice", names[i], names[j]);
            assert_eq!(table.pentanomial(i, j).pairs(), 1, "as one colour-swapped pair");
        }
    }
    // The list's games column sums to twice the games played, each engine n-1 pairs.
    let rows = rating_rows(&stdout);
    assert_eq!(rows.len(), n, "{stdout}");
    assert!(rows.iter().all(|(_, g)| *g == 2 * (n as u64 - 1)), "{rows:?}");
    assert_eq!(rows.iter().map(|(_, g)| g).sum::<u64>(), 2 * played as u64);
    // The fake engine plays the first legal move: last, below hisha at 3000 nodes.
    assert_eq!(rows.last().map(|r| r.0.as_str()), Some("fake"), "{stdout}");
    let rank = |name: &str| rows.iter().position(|r| r.0 == name).expect("listed");
    assert!(rank("strong") < rank("fake"));
    // The list printed is the fit of the state file's games (its figures against an independent
    // fit: stats::ratings::tests, tests/scripts/ratings_reference.py).
    let fitted = RatingList::fit(&table, None).expect("rated");
    assert!(stdout.contains(&fitted.text(&table)), "{stdout}");
    // The records carry the games, in the state file's pairings.
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), played);
    for r in &recs {
        let g: &GameLine = st.games.iter().find(|g| g.number == round(r)).expect("in the state file");
        assert_eq!((r.tag("Black"), r.tag("White")), (Some(g.black.as_str()), Some(g.white.as_str())));
    }
    let html = std::fs::read_to_string(&page).expect("page");
    for part in [
        "<title>hisha round-robin tournament of strong, weak, fake",
        "<h2>Ratings</h2>",
        "<h2>Crosstable</h2>",
        "<h2>Pairings</h2>",
    ] {
        assert!(html.contains(part), "{part}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_gauntlet_in_shards_merges_to_the_results_of_one_run() {
    let dir = temp_dir("gauntlet");
    let engines = [
        hisha_at("hisha", 1000),
        fake("fake-a", "good", "any", 0.0, "nodes=1"),
        fake("fake-b", "good", "any", 0.0, "nodes=1"),
    ]
    .concat();
    let gauntlet = |extra: &[&str]| {
        let args = [
            &engines[..],
            &["--tournament", "gauntlet", "--games", "2", "--seed", "3"].map(String::from)[..],
            &extra.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ]
        .concat();
        let run = hisha_match(&args);
        assert!(run.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&run.stderr));
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    // One run of one round, resumed to two rounds: only the second round's 4 games are played.
    let one = dir.join("one.psn");
    gauntlet(&["--out", s(&one)]);
    let resumed = gauntlet(&["--rounds", "2", "--out", s(&one), "--resume"]);
    assert_eq!(resumed.matches("Finished game").count(), 4, "{resumed}");
    // Pairs take turns: hisha-fake-a (games 1-2, 5-6), hisha-fake-b (3-4, 7-8).
    let st = state::load(&state::path_for(&one)).expect("state");
    let mut lines = st.games.clone();
    lines.sort_by_key(|g| g.number);
    let pairings: Vec<(usize, &str, &str)> =
        lines.iter().map(|g| (g.number, g.black.as_str(), g.white.as_str())).collect();
    assert_eq!(
        pairings,
        [
            (1, "hisha", "fake-a"),
            (2, "fake-a", "hisha"),
            (3, "hisha", "fake-b"),
            (4, "fake-b", "hisha"),
            (5, "hisha", "fake-a"),
            (6, "fake-a", "hisha"),
            (7, "hisha", "fake-b"),
            (8, "fake-b", "hisha")
        ]
    );
    // The same schedule in two shards, merged: the same games and results.
    let shards = [dir.join("s1.psn"), dir.join("s2.psn")];
    for (k, path) in shards.iter().enumerate() {
        gauntlet(&["--rounds", "2", "--shard", &format!("{}/2", k + 1), "--out", s(path)]);
    }
    let states: Vec<String> = shards.iter().map(|p| s(&state::path_for(p)).to_string()).collect();
    let merged = hisha_match(&[&["--merge"][..], &states.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    let merged_text = String::from_utf8_lossy(&merged.stdout);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let mut shard_lines: Vec<GameLine> =
        shards.iter().flat_map(|p| state::load(&state::path_for(p)).expect("state").games).collect();
    shard_lines.sort_by_key(|g| g.number);
    assert_eq!(shard_lines, lines, "node budgets: the same games in shards as in one run");
    assert_eq!(results_block(&merged_text), results_block(&resumed), "{merged_text}");
    assert!(
        merged_text.contains("Results of the gauntlet tournament of hisha, fake-a, fake-b (8 games; "),
        "{merged_text}"
    );
    // An anchor the merge does not know is refused; a known one moves the list.
    let anchored = hisha_match(
        &[&["--merge"][..], &states.iter().map(String::as_str).collect::<Vec<_>>(), &["--anchor", "fake-b=1000"]]
            .concat(),
    );
    assert!(String::from_utf8_lossy(&anchored.stdout).contains("fake-b anchored at +1000.0"));
    let unknown = hisha_match(
        &[&["--merge"][..], &states.iter().map(String::as_str).collect::<Vec<_>>(), &["--anchor", "nobody=0"]].concat(),
    );
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("--anchor \"nobody\" is not an engine of the merged games")
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_engine_that_keeps_crashing_is_dropped_and_the_others_play_on() {
    let dir = temp_dir("dropped");
    let out = dir.join("d.psn");
    let engines = [
        fake("a", "good", "any", 0.0, "nodes=1"),
        fake("b", "good", "any", 0.0, "nodes=1"),
        fake("c", "crash", "any", 0.0, "nodes=1"),
    ]
    .concat();
    let rest =
        ["--tournament", "round-robin", "--games", "4", "--concurrency", "1", "--max-crashes", "2", "--out", s(&out)];
    let run = hisha_match(&[&engines[..], &rest.map(String::from)[..]].concat());
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert_eq!(run.status.code(), Some(1), "{stdout}{stderr}");
    // Pairs in turn: a-b (games 1-2), a-c (3-4: c crashes twice and is dropped), b-c (5-6, not
    // played), a-b (7-8), a-c and b-c (9-12, not played).
    let mut numbers: Vec<usize> =
        state::load(&state::path_for(&out)).expect("state").games.iter().map(|g| g.number).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 7, 8], "{stdout}");
    assert!(stdout.contains("Dropping c from the tournament: c crashed, stalled or failed to start in 2 games in a row (--max-crashes 2); its finished games stay, the others play on"), "{stdout}");
    assert!(stdout.contains("  Dropped for crashing: c\n"), "{stdout}");
    assert!(
        stderr.contains("the tournament went on without c: ")
            && stderr.contains("6 games finished, 6 not played; --resume plays their games"),
        "{stderr}"
    );
    assert!(Path::new(fake_engine()).exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tournament_usage_errors_are_refused_before_any_game() {
    let dir = temp_dir("tournament-usage");
    let out = dir.join("u.psn");
    let three = [hisha_at("a", 100), hisha_at("b", 100), hisha_at("c", 100)].concat();
    let refused = |extra: &[&str], said: &str| {
        let run = hisha_match(
            &[&three[..], &extra.iter().map(|e| e.to_string()).collect::<Vec<_>>(), &["--out".into(), s(&out).into()]]
                .concat(),
        );
        assert_eq!(run.status.code(), Some(2), "{extra:?}");
        assert!(
            String::from_utf8_lossy(&run.stderr).contains(said),
            "{extra:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(!out.exists(), "nothing written");
    };
    refused(&[], "a match has two engines (got 3); give --tournament round-robin or gauntlet to play them all");
    refused(&["--tournament", "swiss"], "wants round-robin or gauntlet, got \"swiss\"");
    refused(&["--tournament", "gauntlet", "--sprt", "elo0=0 elo1=5"], "cannot be used with");
    refused(
        &["--tournament", "gauntlet", "--anchor", "d=0"],
        "--anchor \"d\" is not an engine of the tournament (its engines: a, b, c)",
    );
    refused(&["--rounds", "2"], "--tournament");
    let _ = std::fs::remove_dir_all(dir);
}
