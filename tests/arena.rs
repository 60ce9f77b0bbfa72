//! `hisha match` with misbehaving engines: each fault is adjudicated with the right reason, the
//! games played beside it (2 at a time) are not affected, the faulty engine is restarted for its
//! next game, the match finishes, and every finished game is in the record file with a transcript
//! in the log.

mod support;

use hisha::position::{ResultReason, Winner};
use hisha::record::{Format, GameRecord};
use support::arena::*;
use support::{games, s, temp_dir};

/// What a fault match left behind.
struct FaultRun {
    records: Vec<GameRecord>,
    stdout: String,
}

/// Plays 4 games (2 at a time) of the fake engine in `mode` against hisha (`nodes=2000`). The fake
/// engine misbehaves only when playing White after 4 moves, i.e. in games 2 and 4; it plays Black
/// in games 1 and 3, which must end normally.
fn fault_match(mode: &str, seconds: f64, extra: &[&str]) -> FaultRun {
    let dir = temp_dir(&format!("{mode}-{seconds}"));
    // A generous handshake timeout: a busy machine can be slow to start a process.
    let usi_timeout = "20";
    let (out, log) = (dir.join("g.psn"), dir.join("g.log"));
    let openings = startpos_openings(&dir);
    let mut args = fake("fake", mode, "white", seconds, "byoyomi=300");
    let rest = [
        "--tc",
        "nodes=2000",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--max-plies",
        "16",
        "--usi-timeout",
        usi_timeout,
        "--openings",
        s(&openings),
        "--out",
        s(&out),
        "--log",
        s(&log),
    ];
    args.extend(rest.iter().chain(extra).map(|a| a.to_string()));
    let run = hisha_match(&args);
    assert!(run.status.success(), "{mode}: {}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(stdout.matches("Finished game").count(), 4, "{mode}: {stdout}");
    let records = games(&out, Format::Psn);
    let mut rounds: Vec<usize> = records.iter().map(round).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4], "{mode}: every game is in the record file");
    let state = hisha::arena::state::load(&dir.join("g.psn.state")).expect("state");
    assert_eq!(state.games.len(), 4, "{mode}: every game is in the state file");
    // Each game's transcript is in the log under the name the record gives.
    let log_text = std::fs::read_to_string(&log).expect("log written");
    for r in &records {
        let n = round(r);
        assert_eq!(r.tag("Transcript"), Some(format!("{}: game {n}", log.display()).as_str()));
        assert!(log_text.contains(&format!("[game {n} black ")), "{mode}: transcript of game {n}");
    }
    FaultRun { records, stdout }
}

/// Games 2 and 4 (fake engine White) were lost by the fake engine for `reason`; games 1 and 3 (fake
/// engine Black, misbehaving never) ended by the rules of the game.
fn faulty_games_lost(run: &FaultRun, reason: ResultReason) {
    for r in &run.records {
        let result = r.result.expect("finished");
        if round(r) % 2 == 0 {
            assert_eq!(r.tag("White"), Some("fake"));
            assert_eq!((result.winner, result.reason), (Winner::Black, reason), "{:?}", r.summary);
        } else {
            assert_eq!(r.tag("Black"), Some("fake"));
            assert!(normal_end(result.reason), "an unaffected game: {result:?} {:?}", r.summary);
            assert!(r.moves.len() >= 5, "played on past the fake engine's fourth move");
        }
    }
}

#[test]
fn a_crash_mid_game_loses_by_disconnect_and_the_engine_is_restarted() {
    let run = fault_match("crash", 0.0, &[]);
    faulty_games_lost(&run, ResultReason::Disconnect);
    assert!(run.stdout.contains("crashes/stalls: fake 2, hisha 0"), "{}", run.stdout);
}

#[test]
fn a_hung_engine_loses_on_time() {
    let run = fault_match("hang", 0.0, &["--time-margin", "100"]);
    faulty_games_lost(&run, ResultReason::Time);
    assert!(run.stdout.contains("Losses on time: fake 2, hisha 0"), "{}", run.stdout);
}

#[test]
fn an_answer_later_than_the_margin_loses_on_time_with_the_overrun_recorded() {
    // Allowance 300 ms + margin 100 ms; the answer comes after 1 s, before the runner gives up.
    let run = fault_match("late", 1.0, &["--time-margin", "100"]);
    faulty_games_lost(&run, ResultReason::Time);
    for r in run.records.iter().filter(|r| round(r) % 2 == 0) {
        assert!(r.summary.iter().any(|c| c.contains("overran its allowance by")), "{:?}", r.summary);
    }
}

#[test]
fn an_overrun_within_the_margin_is_noted_not_lost() {
    // Allowance 300 ms, margin 1000 ms, answers after 0.5 s: overruns of about 200 ms.
    let run = fault_match("late", 0.5, &["--time-margin", "1000"]);
    for r in &run.records {
        let result = r.result.expect("finished");
        assert!(normal_end(result.reason), "{result:?} {:?}", r.summary);
    }
    let noted = |r: &GameRecord| r.moves.iter().any(|m| m.comments.iter().any(|c| c.contains("within the margin")));
    assert!(run.records.iter().filter(|r| round(r) % 2 == 0).all(noted));
    assert!(run.stdout.contains("Largest overrun of the time allowance: fake "), "{}", run.stdout);
    assert!(run.stdout.contains("Losses on time: fake 0, hisha 0"), "{}", run.stdout);
}

#[test]
fn illegal_moves_lose() {
    faulty_games_lost(&fault_match("illegal", 0.0, &[]), ResultReason::IllegalMove);
}

/// The fake engine's answers in `mode` lose as illegal moves, and the summary of each game it lost
/// (the even games, where it plays White) quotes `why`.
fn illegal_answers_lose_saying(mode: &str, why: &str) {
    let run = fault_match(mode, 0.0, &[]);
    faulty_games_lost(&run, ResultReason::IllegalMove);
    for r in run.records.iter().filter(|r| round(r) % 2 == 0) {
        assert!(r.summary.iter().any(|c| c.contains(why)), "{:?}", r.summary);
    }
}

#[test]
fn garbage_lines_are_ignored_and_an_unparsable_move_loses() {
    illegal_answers_lose_saying("garbage", "\"xyzzy\"");
}

#[test]
fn a_false_declaration_loses() {
    illegal_answers_lose_saying("falsewin", "declared a win");
}

#[test]
fn a_missing_engine_command_is_an_error_before_the_match() {
    let dir = temp_dir("missing");
    let out = dir.join("g.psn");
    let run = hisha_match(&["--engine", "name=x", "cmd=/nonexistent/engine", "--out", s(&out)]);
    assert_eq!(run.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot find the command /nonexistent/engine"));
    assert!(!out.exists(), "nothing written");
}

#[test]
fn the_sprt_waits_for_evidence_then_accepts_h1_for_the_stronger_engine() {
    // hisha (nodes=2000) beats an engine that always plays its first legal move (nearly) every
    // game. At `elo0=0 elo1=50` (normalized) even a clean sweep adds only 0.182 per pair to the LLR
    // (fishtest's LLR_normalized of [0, 0, 0, 0, n]: 2.910 after 16 pairs, 3.091 after 17), so H1
    // cannot be accepted before game 34; the old normal approximation accepted after one pair.
    // One game at a time, so the match stops at the deciding game.
    let dir = temp_dir("sprt");
    let out = dir.join("g.psn");
    let mut args = vec!["--engine".to_string(), "hisha".into()];
    args.extend(fake("fake", "good", "any", 0.0, "nodes=1"));
    let rest = ["--tc", "nodes=2000", "--games", "80", "--concurrency", "1", "--max-plies", "400"];
    args.extend(rest.iter().map(|a| a.to_string()));
    args.extend(["--sprt".to_string(), "elo0=0 elo1=50".to_string(), "--out".to_string(), s(&out).to_string()]);
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let (before, after) = stdout.split_once("SPRT: H1 accepted (LLR ").expect("H1 accepted");
    let played = before.matches("Finished game").count();
    assert!(played >= 34 && played % 2 == 0, "decided after {played} games: {stdout}");
    assert_eq!(after.matches("Finished game").count(), 0, "one game at a time: {stdout}");
    assert!(
        stdout.contains("SPRT (normalized Elo [0, 50], alpha 0.05, beta 0.05): LLR +")
            && stdout.contains("in [-2.94, +2.94]: H1 accepted"),
        "{stdout}"
    );
    assert!(stdout.contains("Pentanomial [0, 1/2, 1, 3/2, 2]: [0, "), "{stdout}");
    assert!(stdout.contains(&format!("({} pairs)", played / 2)), "{stdout}");
    assert_eq!(games(&out, Format::Psn).len(), played);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_same_engine_match_does_not_decide_in_16_games() {
    // hisha against itself at a node budget: no evidence either way in 16 games, in either model
    // (the old normal approximation accepted H0 after the first pair).
    for model in ["normalized", "logistic"] {
        let dir = temp_dir(&format!("sprt-same-{model}"));
        let out = dir.join("g.psn");
        let sprt = format!("elo0=0 elo1=50 model={model}");
        let args = ["--tc", "nodes=300", "--games", "16", "--concurrency", "2", "--sprt", &sprt, "--out", s(&out)];
        let run = hisha_match(&args);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(!stdout.contains("SPRT: H"), "{model}: {stdout}");
        assert_eq!(stdout.matches("Finished game").count(), 16, "{model}: {stdout}");
        assert!(stdout.contains(&format!("SPRT ({model} Elo [0, 50]")), "{stdout}");
        assert!(stdout.contains(": undecided\n"), "{model}: {stdout}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Two fake engines that play their first legal move, with `extra` options; the records.
fn fakes_match(name: &str, scores: [i32; 2], extra: &[&str]) -> (Vec<GameRecord>, String, String) {
    let dir = temp_dir(name);
    let (out, log) = (dir.join("g.psn"), dir.join("g.log"));
    let mut args = fake_scoring("a", "good", "any", 0.0, "byoyomi=1000", scores[0]);
    args.extend(fake_scoring("b", "good", "any", 0.0, "byoyomi=1000", scores[1]));
    args.extend(["--out", s(&out), "--log", s(&log), "--usi-timeout", "20"].map(String::from));
    args.extend(extra.iter().map(|a| a.to_string()));
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let log_text = std::fs::read_to_string(&log).expect("log");
    (games(&out, Format::Psn), String::from_utf8_lossy(&run.stdout).into_owned(), log_text)
}

#[test]
fn score_adjudication_resigns_and_draws() {
    // a reports -500 and b +500 on every move: with --resign 400:3 the game is given to b once each
    // side has reported its score 3 times in a row, after b's move, so that a resigns on its turn:
    // after 6 engine moves when a plays Black, 7 when a plays White (its third score comes first).
    let (recs, _, _) =
        fakes_match("resign", [-500, 500], &["--games", "2", "--resign", "400:3", "--opening-plies", "0"]);
    for r in &recs {
        let result = r.result.expect("finished");
        let a_black = r.tag("Black") == Some("a");
        assert_eq!((result.winner, result.reason), (winner_against(a_black), ResultReason::Adjudication));
        assert_eq!(r.moves.len(), if a_black { 6 } else { 7 }, "the loser on move");
        let note = "wins by adjudication: both engines' scores beyond 400 cp for 3 moves each (--resign 400:3)";
        assert!(r.summary.iter().any(|c| c.contains(note)), "{:?}", r.summary);
        // The game's start and end to the second, in UTC: `2024/05/01 12:34:56 UTC`.
        for tag in ["GameStartTime", "GameEndTime"] {
            let t = r.tag(tag).unwrap_or_else(|| panic!("{tag}"));
            assert!(t.len() == 23 && t.ends_with(" UTC") && t.as_bytes()[13] == b':', "{tag} {t}");
        }
    }
    // Both report 0: with --draw 10:2 a draw after 2 moves each.
    let (recs, _, _) = fakes_match("draw", [0, 0], &["--games", "2", "--draw", "10:2", "--opening-plies", "0"]);
    for r in &recs {
        assert_eq!(r.result.map(|x| (x.winner, x.reason)), Some((Winner::Draw, ResultReason::Adjudication)));
        assert_eq!(r.moves.len(), 4);
    }
}

#[test]
fn engines_are_reused_unless_restarted_and_results_are_reported_every_n_games() {
    // Reused: each engine answers `usi` once for 4 games played one at a time.
    let common = ["--games", "4", "--concurrency", "1", "--max-plies", "30", "--report-every", "1"];
    let (recs, stdout, log) = fakes_match("reuse", [0, 0], &common);
    assert_eq!(recs.len(), 4);
    assert_eq!(log.matches("[a] > usi\n").count(), 1, "{log}");
    // Before the first game, each engine was started once for its check, and quit.
    assert_eq!(log.matches("[a (check)] > usi\n").count(), 1, "{log}");
    assert_eq!(log.matches("[b (check)] > quit\n").count(), 1, "{log}");
    assert_eq!(log.matches("> usinewgame").count(), 8, "each engine, each game");
    assert_eq!(log.matches("> gameover draw").count(), 8);
    // Engine stderr is in the log under the engine's game name, one line per game. It comes on
    // its own pipe, so on a loaded machine a line written as a 30 ms game ends can be filed under
    // the engine's next game (seen with both cores busy): count each engine's lines, not which
    // game each one is under.
    for engine in ["a", "b"] {
        let tagged = format!(" {engine}] stderr: fake: new game");
        let lines = log.lines().filter(|l| l.contains(&tagged) && l.contains("[game ")).count();
        assert_eq!(lines, 4, "{engine}: {log}");
    }
    // A results block after games 1, 2 and 3 (not 4, the end), and the final one.
    assert_eq!(stdout.matches("Results of a vs b").count(), 4, "{stdout}");
    // --restart: a new process for every game; here from a handicap position (White moves first).
    let (recs, _, log) =
        fakes_match("restart", [0, 0], &[&common[..], &["--restart", "--handicap", "2-piece"]].concat());
    assert_eq!(log.matches("[a] > usi\n").count(), 4, "{log}");
    let game_quits = log.lines().filter(|l| l.contains("[game ") && l.ends_with("> quit")).count();
    assert_eq!(game_quits, 8, "{log}");
    for r in &recs {
        assert_eq!(r.start, hisha::record::Start::Handicap(hisha::Handicap::TwoPiece));
        // Two engines that play hisha's first legal move repeat the position before ply 30.
        assert_eq!(r.result.map(|x| x.reason), Some(ResultReason::Repetition), "{:?}", r.summary);
        let start = r.start.position().expect("handicap position");
        assert_eq!(start.side_to_move(), hisha::Color::White);
        assert!(r.moves.first().is_some_and(|m| start.is_legal(m.mv)), "White moved first");
    }
}
