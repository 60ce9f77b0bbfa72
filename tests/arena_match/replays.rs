//! Openings used up at a fixed budget: at `nodes=N` a single-threaded hisha plays the same game
//! from the same opening with the same colours, so a match of more games than twice its openings
//! replays games. It says so at the start; its SPRT stops, undecided, once every opening has been
//! played with both colours, and counts no replay, also when resumed or merged.

use crate::support::arena::{fake, hisha_match};
use crate::support::{s, temp_dir};
use hisha::arena::state;
use std::path::Path;

/// The words of the SPRT the tests run.
const SPRT: &str = "elo0=0 elo1=5";

/// The line the SPRT ends with once the 3 openings of [`three_openings`] are used up.
const STOPPED: &str = "SPRT stopped undecided: all 3 openings played with both colours; more games at a fixed node \
                       budget would replay them\n";

/// A file of 3 openings, each of two plies.
fn three_openings(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("openings.usi");
    std::fs::write(&path, "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\nstartpos moves 7g7f 8c8d\n")
        .expect("write");
    path
}

/// hisha against itself at `nodes=300` over `openings`, `--games 40` with the SPRT, into `out`,
/// with `extra` arguments: (exit status, stdout, stderr).
fn sprt_match(openings: &Path, out: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let args = ["--tc", "nodes=300", "--games", "40", "--openings", s(openings), "--sprt", SPRT, "--out", s(out)];
    let run = hisha_match(&[&args[..], &["--concurrency", "2"], extra].concat());
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (run.status.code(), text(&run.stdout), text(&run.stderr))
}

#[test]
fn an_sprt_at_a_node_budget_stops_undecided_once_every_opening_is_played_with_both_colours() {
    let dir = temp_dir("replays-sprt");
    let (openings, out, page) = (three_openings(&dir), dir.join("g.psn"), dir.join("g.html"));
    let (status, stdout, stderr) = sprt_match(&openings, &out, &["--report", s(&page)]);
    // An undecided SPRT is a match run to its end: status 0.
    assert_eq!(status, Some(0), "{stderr}");
    // 3 openings × 2 colours: games 1 to 6 differ; game 7 would replay game 1.
    assert_eq!(stdout.matches("Finished game").count(), 6, "{stdout}");
    assert!(stdout.contains(STOPPED), "{stdout}");
    assert!(stdout.contains("Results of hisha-1 vs hisha-2 (6 games; nodes=300 each)"), "{stdout}");
    assert!(stdout.contains("(3 pairs)") && stdout.contains(": undecided\n"), "{stdout}");
    assert!(stdout.contains("  Openings: 3 (each played 2 times)\n"), "{stdout}");
    let page = std::fs::read_to_string(&page).expect("the report page");
    assert!(page.contains("<p>Openings: 3 (each played 2 times).</p>"), "the page says it too");
    let numbers: Vec<usize> =
        state::load(&state::path_for(&out)).expect("state").games.iter().map(|g| g.number).collect();
    assert_eq!(numbers.len(), 6, "{numbers:?}");
    assert!(numbers.iter().all(|&n| n <= 6), "no replay played: {numbers:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_node_budget_match_of_more_games_than_twice_its_openings_says_so_at_the_start() {
    let dir = temp_dir("replays-notice");
    let openings = three_openings(&dir);
    // The fake engine plays its first legal move at once; 8 plies keep the games short.
    let run = |tc: &str, games: &str, name: &str| {
        let (out, log) = (dir.join(format!("{name}.psn")), dir.join(format!("{name}.log")));
        let mut args = fake("a", "good", "any", 0.0, tc);
        args.extend(fake("b", "good", "any", 0.0, tc));
        let rest =
            ["--games", games, "--openings", s(&openings), "--max-plies", "8", "--out", s(&out), "--log", s(&log)];
        args.extend(rest.map(String::from));
        let run = hisha_match(&args);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let log = std::fs::read_to_string(&log).expect("log");
        (String::from_utf8_lossy(&run.stderr).into_owned(), log)
    };
    // 8 games over 3 openings: 8 / 6 → up to 2 games of an opening with each colour; the
    // suggested count is one opening per pair, 4.
    let notice = "hisha match: 8 games over 3 openings: openings are played up to 2 times with each colour, and at \
                  a fixed node budget the engines replay the same games, which adds no information; give more \
                  openings (hisha book openings --count 4 -o openings.usi, then --openings openings.usi)";
    let (stderr, log) = run("nodes=10", "8", "nodes-8");
    assert_eq!(stderr.matches(notice).count(), 1, "once, on stderr: {stderr}");
    assert!(log.contains(notice), "and in the log: {log}");
    // As many games as openings with both colours: nothing replays.
    let (stderr, log) = run("nodes=10", "6", "nodes-6");
    assert!(!stderr.contains("openings:") && !log.contains("openings:"), "{stderr}");
    // At a clock, games differ.
    let (stderr, log) = run("byoyomi=1000", "8", "clock-8");
    assert!(!stderr.contains("openings:") && !log.contains("openings:"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resumed_or_merged_sprt_at_a_node_budget_that_used_up_its_openings_finishes_at_once() {
    let dir = temp_dir("replays-resume");
    let (openings, out) = (three_openings(&dir), dir.join("g.psn"));
    let (status, stdout, stderr) = sprt_match(&openings, &out, &[]);
    assert_eq!((status, stdout.matches("Finished game").count()), (Some(0), 6), "{stdout}{stderr}");
    let (status, resumed, stderr) = sprt_match(&openings, &out, &["--resume"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(resumed.matches("Finished game").count(), 0, "nothing left to play: {resumed}");
    assert!(resumed.contains(STOPPED) && resumed.contains("(6 games; nodes=300 each)"), "{resumed}");
    assert_eq!(state::load(&state::path_for(&out)).expect("state").games.len(), 6);
    // --merge with the SPRT says the same of the state file.
    let merged = hisha_match(&["--merge", s(&state::path_for(&out)), "--sprt", SPRT]);
    let merged = String::from_utf8_lossy(&merged.stdout);
    assert!(merged.contains(STOPPED) && merged.contains("(6 games; nodes=300 each)"), "{merged}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resumed_or_merged_sprt_at_a_node_budget_does_not_count_earlier_replays() {
    // 12 games without the SPRT: games 7 to 12 replay games 1 to 6.
    let dir = temp_dir("replays-earlier");
    let (openings, out) = (three_openings(&dir), dir.join("g.psn"));
    let args = ["--tc", "nodes=300", "--games", "12", "--openings", s(&openings), "--out", s(&out)];
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains("  Openings: 3 (each played 4 times)\n"));
    let merged = hisha_match(&["--merge", s(&state::path_for(&out)), "--sprt", SPRT]);
    let merged = String::from_utf8_lossy(&merged.stdout);
    assert!(merged.contains(STOPPED) && merged.contains("(6 games; nodes=300 each)"), "{merged}");
    assert!(merged.contains("  Openings: 3 (each played 2 times)\n"), "{merged}");
    let (status, resumed, stderr) = sprt_match(&openings, &out, &["--resume"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(resumed.matches("Finished game").count(), 0, "{resumed}");
    assert!(resumed.contains(STOPPED) && resumed.contains("(6 games; nodes=300 each)"), "{resumed}");
    let _ = std::fs::remove_dir_all(dir);
}
