//! `hisha match` end to end: self-play records read back by hisha and cshogi; tournaments
//! (`arena_match/tournament.rs`); crash safety (a
//! killed runner, Ctrl-C once and twice); resume, shards and merge, also as a Slurm array job
//! (`arena_match/slurm.rs`); openings used up at a node budget (`arena_match/replays.rs`); and short matches against the real Debian engines (Fairy-Stockfish
//! here and in CI; gpsusi with `--ignored`). The tools outside cargo (cshogi, Fairy-Stockfish,
//! gpsusi, Slurm) are skipped with one line when missing, except under
//! `HISHA_REQUIRE_CROSSCHECKS=1` (see `tests/outside`).

mod outside;
mod support;
mod arena_match {
    // Shards of a match as a Slurm array job, on a private single-node Slurm.
    mod slurm;
    mod slurm_cluster;
    // Openings used up at a node budget: the notice, the SPRT's stop, resume and merge.
    mod replays;
    // Tournaments: round-robin, gauntlet, shards, a dropped engine.
    mod tournament;
}

use crossbeam_channel::{Receiver, unbounded};
use hisha::arena::state;
use hisha::record::Format;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::arena::*;
use support::{games, s, temp_dir};

#[test]
fn self_play_records_read_back_by_hisha_and_cshogi() {
    let dir = temp_dir("selfplay");
    let (psn, csa, psn2) = (dir.join("s.psn"), dir.join("s.csa"), dir.join("s.psn2"));
    let outs = ["--out", s(&psn), "--out", s(&csa), "--out", s(&psn2)];
    let run = hisha_match(&[&["--games", "4", "--tc", "nodes=3000", "--concurrency", "2"][..], &outs].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("Results of hisha-1 vs hisha-2 (4 games; nodes=3000 each)"), "{stdout}");
    let a = games(&psn, Format::Psn);
    let b = games(&csa, Format::Csa);
    assert_eq!(a.len(), 4);
    assert_eq!(games(&psn2, Format::Psn2).len(), 4);
    let moves = |r: &hisha::record::GameRecord| r.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(moves(x), moves(y));
        assert!(x.result.is_some());
        assert!(x.moves.len() > 20, "the built-in openings (20 plies) and then the engines");
    }
    // cshogi reads the CSA file with the same moves.
    if !outside::cshogi() {
        return;
    }
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/cshogi_records.py"))
        .args(["read", s(&csa)])
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    for (line, rec) in lines.iter().zip(&a) {
        let quoted: Vec<String> = moves(rec).iter().map(|m| format!("\"{m}\"")).collect();
        assert!(line.contains(&format!("\"moves\": [{}]", quoted.join(", "))), "{line}");
    }
}

/// A running `hisha match` whose stdout lines arrive on a channel.
struct Running {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Running {
    fn start(args: &[&str], env: Option<(&str, &Path)>) -> Running {
        let mut cmd = support::hisha_command();
        cmd.arg("match").arg("--quiet").args(args).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some((k, v)) = env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("hisha runs");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Running { child, lines, seen: Vec::new() }
    }

    /// Waits until `n` games have finished.
    fn wait_finished(&mut self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.finished() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            self.seen.push(self.lines.recv_timeout(left).expect("games finish"));
        }
    }

    fn finished(&self) -> usize {
        self.seen.iter().filter(|l| l.starts_with("Finished game")).count()
    }

    fn interrupt(&self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().expect("kill runs").success());
    }

    /// Waits for the exit (at most `limit`) and returns the exit code and every stdout line.
    fn wait(mut self, limit: Duration) -> (Option<i32>, Vec<String>) {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                self.seen.extend(self.lines.iter());
                return (status.code(), self.seen);
            }
            assert!(Instant::now() < deadline, "hisha match did not stop in {limit:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The records and state lines agree and hold exactly the games announced as finished.
fn consistent(out: &Path, finished: usize) {
    let recs = games(out, Format::Psn);
    assert_eq!(recs.len(), finished, "one record per finished game");
    let st = state::load(&state::path_for(out)).expect("state");
    let mut a: Vec<usize> = recs.iter().map(round).collect();
    let mut b: Vec<usize> = st.games.iter().map(|g| g.number).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

#[test]
fn a_killed_runner_loses_only_the_games_in_progress_and_resume_completes_the_match() {
    let dir = temp_dir("killed");
    let out = dir.join("k.psn");
    let args = ["--games", "8", "--tc", "nodes=5000", "--max-plies", "60", "--concurrency", "2", "--out", s(&out)];
    let mut run = Running::start(&args, None);
    run.wait_finished(2);
    run.child.kill().expect("kill -9");
    let (_, lines) = run.wait(Duration::from_secs(10));
    let finished = lines.iter().filter(|l| l.starts_with("Finished game")).count();
    assert!(finished < 8, "killed before the end");
    consistent(&out, finished);
    let resumed = hisha_match(&[&args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(String::from_utf8_lossy(&resumed.stdout).matches("Finished game").count(), 8 - finished);
    let mut rounds: Vec<usize> = games(&out, Format::Psn).iter().map(round).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>(), "every game once");
}

/// A match of 40 games of a few seconds each (100 plies of 40,000 nodes), two at a time, into
/// `c.psn` in a fresh folder `name`, once its first game has finished: on a quiet machine no
/// third game finishes between the first one's line and a Ctrl-C sent then (at 5,000 nodes,
/// after the search's pruning changes of stop 35, four games took one second and a test failed).
fn slow_match_after_one_game(name: &str) -> (PathBuf, Running) {
    let out = temp_dir(name).join("c.psn");
    let args = ["--games", "40", "--tc", "nodes=40000", "--max-plies", "100", "--concurrency", "2", "--out", s(&out)];
    let mut run = Running::start(&args, None);
    run.wait_finished(1);
    (out, run)
}

#[test]
fn ctrl_c_once_finishes_the_running_games() {
    let (out, run) = slow_match_after_one_game("ctrlc1");
    run.interrupt();
    let (code, lines) = run.wait(Duration::from_secs(60));
    assert_eq!(code, Some(130), "interrupted, after the running games: {lines:?}");
    let finished = lines.iter().filter(|l| l.starts_with("Finished game")).count();
    // The first game, and at most the two that were running (or starting) at the Ctrl-C.
    assert!((1..=3).contains(&finished), "{lines:?}");
    let results = format!("Results of hisha-1 vs hisha-2 ({finished} game");
    assert!(lines.iter().any(|l| l.starts_with(&results)), "{lines:?}");
    consistent(&out, finished);
}

#[test]
fn ctrl_c_twice_tells_the_results_of_the_games_written() {
    let (out, run) = slow_match_after_one_game("ctrlc2r");
    run.interrupt();
    std::thread::sleep(Duration::from_millis(200));
    run.interrupt();
    let (code, lines) = run.wait(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{lines:?}");
    let finished = lines.iter().filter(|l| l.starts_with("Finished game")).count();
    let results = format!("Results of hisha-1 vs hisha-2 ({finished} game");
    assert_eq!(lines.iter().filter(|l| l.starts_with(&results)).count(), 1, "{lines:?}");
    consistent(&out, finished);
}

fn alive(pid: &str) -> bool {
    // A zombie (exited, not yet reaped by its new parent) is not running.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

#[test]
fn ctrl_c_twice_stops_at_once_and_kills_the_engines() {
    let dir = temp_dir("ctrlc2");
    let (out, pids) = (dir.join("c.psn"), dir.join("pids"));
    std::fs::create_dir_all(&pids).expect("dir");
    // Two engines that hang after 4 moves each, with 20 s per move: games that would last long.
    let mut args = fake("slow-a", "hang", "any", 0.0, "byoyomi=20000");
    args.extend(fake("slow-b", "hang", "any", 0.0, "byoyomi=20000"));
    args.extend(["--games", "4", "--concurrency", "2", "--out", s(&out)].map(String::from));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = Running::start(&refs, Some(("FAKE_PID_DIR", &pids)));
    let deadline = Instant::now() + Duration::from_secs(30);
    // One process of each engine for the check before the match (it quits), then four for the games.
    while std::fs::read_dir(&pids).expect("dir").count() < 6 {
        assert!(Instant::now() < deadline, "six engines start");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    run.interrupt();
    std::thread::sleep(Duration::from_millis(200));
    run.interrupt();
    let (code, lines) = run.wait(Duration::from_secs(5));
    assert_eq!(code, Some(130), "{lines:?}");
    let engines: Vec<String> = std::fs::read_dir(&pids)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for pid in &engines {
        assert!(!alive(pid), "engine {pid} was killed");
    }
    assert!(!out.exists() || games(&out, Format::Psn).is_empty(), "no game had finished");
    assert!(!lines.iter().any(|l| l.starts_with("Results of")), "no results to tell: {lines:?}");
}

#[test]
fn one_file_per_game_outputs_are_named_as_written_and_an_earlier_runs_files_kept_aside() {
    let dir = temp_dir("kif-set");
    let out = dir.join("g.kif");
    let o = s(&out);
    let run = hisha_match(&["--games", "4", "--tc", "nodes=100", "--out", o]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains(&format!("records in {} (one file per game)", s(&dir.join("g-NNNN.kif")))), "{stdout}");
    let last = format!("Records in {} … {}", s(&dir.join("g-0001.kif")), s(&dir.join("g-0004.kif")));
    assert!(stdout.trim_end().ends_with(&last), "{stdout}");
    // A shorter new match: the 4 files of the earlier one are kept aside, none stays in the set.
    let run = hisha_match(&["--games", "2", "--tc", "nodes=100", "--out", o]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("the 4 game files of an earlier match"), "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected = ["g-0001.kif", "g-0001.kif.1", "g-0002.kif", "g-0002.kif.1", "g-0003.kif.1", "g-0004.kif.1"];
    assert_eq!(names, [&expected[..], &["g.kif.state", "g.kif.state.1"]].concat());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.trim_end().ends_with(&format!("… {}", s(&dir.join("g-0002.kif")))), "{stdout}");
    // An output whose extension names no format is refused before anything is played.
    let run = hisha_match(&["--games", "2", "--tc", "nodes=100", "--out", s(&dir.join("g.xyz"))]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no record format has this extension"));
    assert!(!dir.join("g.xyz").exists() && !dir.join("g.xyz.state").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resume_shards_and_merge() {
    let dir = temp_dir("resume");
    let out = dir.join("r.psn");
    let o = s(&out);
    assert!(hisha_match(&["--games", "2", "--tc", "nodes=1000", "--out", o]).status.success());
    let run = hisha_match(&["--games", "4", "--tc", "nodes=1000", "--out", o, "--resume"]);
    assert!(run.status.success());
    assert_eq!(String::from_utf8_lossy(&run.stdout).matches("Finished game").count(), 2, "only the missing games");
    assert_eq!(games(&out, Format::Psn).len(), 4);
    // Resuming with other engines is refused.
    let other = hisha_match(&["--engine", "name=x", "cmd=self", "--games", "6", "--out", o, "--resume"]);
    assert_eq!(other.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&other.stderr).contains("is a match of hisha-1 vs hisha-2"));
    // So is resuming with another time control, other openings or other engine options, each
    // named; nothing is played or written then.
    let refused = |extra: &[&str], said: &[&str]| {
        let run = hisha_match(&[&["--games", "10", "--out", o, "--resume"], extra].concat());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {stderr}");
        for line in said {
            assert!(stderr.contains(line), "{extra:?}: {stderr}");
        }
        assert_eq!(games(&out, Format::Psn).len(), 4, "{extra:?}: nothing played");
    };
    refused(
        &["--tc", "byoyomi=100"],
        &["is a match with other settings", "hisha-1: the time control was nodes=1000, now byoyomi=100"],
    );
    refused(&["--tc", "nodes=1000", "--seed", "7"], &["the openings were built-in book/openings.psn, 24 plies #"]);
    refused(&["--tc", "nodes=1000", "--opening-plies", "8"], &[", now built-in book/openings.psn, 8 plies #"]);
    let with_hash =
        ["--engine", "name=hisha-1", "cmd=self", "option.USI_Hash=32", "--engine", "name=hisha-2", "cmd=self"];
    refused(
        &[&with_hash[..], &["--tc", "nodes=1000"]].concat(),
        &["hisha-1: the engine was `", " option.USI_Hash=32`"],
    );
    // The same engines, time control and openings resume, and --games may grow.
    let plain = [&with_hash[..3], &with_hash[4..]].concat();
    let same = hisha_match(&[&plain[..], &["--tc", "nodes=1000", "--games", "6", "--out", o, "--resume"]].concat());
    assert_eq!(same.status.code(), Some(0), "{}", String::from_utf8_lossy(&same.stderr));
    assert_eq!(String::from_utf8_lossy(&same.stdout).matches("Finished game").count(), 2, "games 5 and 6");
    // A new match on the same file appends its games and keeps the earlier state beside.
    assert!(hisha_match(&["--games", "2", "--tc", "nodes=1000", "--out", o]).status.success());
    assert_eq!(games(&out, Format::Psn).len(), 8);
    assert_eq!(state::load(&dir.join("r.psn.state.1")).expect("kept").games.len(), 6);
    assert_eq!(state::load(&dir.join("r.psn.state")).expect("new").games.len(), 2);
    // Two shards of a 4-game match, merged: results, and records in game order.
    let (s1, s2) = (dir.join("a.psn"), dir.join("b.psn"));
    for (shard, path) in [("1/2", &s1), ("2/2", &s2)] {
        let run = hisha_match(&["--games", "4", "--tc", "nodes=1000", "--shard", shard, "--out", s(path)]);
        assert!(run.status.success());
        assert_eq!(games(path, Format::Psn).len(), 2);
    }
    let rounds = |p: &Path| {
        let mut r: Vec<usize> = games(p, Format::Psn).iter().map(round).collect();
        r.sort_unstable();
        r
    };
    assert_eq!((rounds(&s1), rounds(&s2)), (vec![1, 2], vec![3, 4]), "pair 1 in shard 1, pair 2 in shard 2");
    let all = dir.join("all.kif");
    let (a_state, b_state) = (dir.join("a.psn.state"), dir.join("b.psn.state"));
    let merged = hisha_match(&["--merge", s(&b_state), s(&a_state), "--out", s(&all)]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let text = String::from_utf8_lossy(&merged.stdout);
    assert!(text.contains("Results of hisha-1 vs hisha-2 (4 games; nodes=1000 each)"), "{text}");
    assert!(text.contains("(2 pairs)"), "{text}");
    // KIF holds one game per file: all-0001.kif … all-0004.kif.
    for n in 1..=4 {
        assert_eq!(games(&hisha::record::game_path(&all, n), Format::Kif).len(), 1, "game {n}");
    }
    // A shard given twice is refused.
    let twice = hisha_match(&["--merge", s(&a_state), s(&a_state)]);
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is in both"));
    // A shard of the same pairing at another time control is another match.
    let c = dir.join("c.psn");
    assert!(hisha_match(&["--games", "4", "--tc", "nodes=900", "--shard", "2/2", "--out", s(&c)]).status.success());
    let mixed = hisha_match(&["--merge", s(&a_state), s(&dir.join("c.psn.state"))]);
    assert_eq!(mixed.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        stderr.contains("are matches with other settings") && stderr.contains("was nodes=1000, now nodes=900"),
        "{stderr}"
    );
}

/// Fairy-Stockfish 11.1 from Debian (`.ci/run` installs it): its banner line, its `Unknown
/// command: gameover …` replies and its option names with spaces do not disturb the match.
#[test]
fn fairy_stockfish_plays_a_short_match() {
    if !outside::fairy_stockfish() {
        return;
    }
    let dir = temp_dir("fsf");
    let (out, log) = (dir.join("f.psn"), dir.join("f.log"));
    // One game at a time, so that the engines are reused and read the replies to `gameover`.
    let run = hisha_match(&[
        "--engine",
        "fairy-stockfish",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--tc",
        "byoyomi=150",
        "--time-margin",
        "1000",
        "--max-plies",
        "36",
        "--out",
        s(&out),
        "--log",
        s(&log),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("Losses on time: fairy-stockfish 0, hisha 0; illegal moves: fairy-stockfish 0, hisha 0; crashes/stalls: fairy-stockfish 0, hisha 0"), "{stdout}");
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.moves.len() > 20 && normal_end(r.result.expect("finished").reason)));
    let log_text = std::fs::read_to_string(&log).expect("log");
    assert!(log_text.contains("] < Fairy-Stockfish 11.1"), "the banner");
    assert!(log_text.contains("> setoption name Move Overhead value 30"), "an option name with spaces");
    assert!(log_text.contains("< Unknown command: gameover"), "its reply to gameover");
}

/// gpsusi from Debian (`apt-get install gpsshogi`): slow to start, byoyomi of whole seconds only.
/// About a minute: `cargo test --release --test arena_match -- --ignored gpsusi`.
#[test]
#[ignore]
fn gpsusi_plays_a_short_match() {
    if !outside::gpsusi() {
        return;
    }
    let dir = temp_dir("gps");
    let out = dir.join("g.psn");
    let args = ["--engine", "gpsusi", "--tc", "byoyomi=1000", "--games", "2", "--max-plies", "36", "--out", s(&out)];
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains(
            "Losses on time: gpsusi 0, hisha 0; illegal moves: gpsusi 0, hisha 0; crashes/stalls: gpsusi 0, hisha 0"
        ),
        "{stdout}"
    );
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.tag("TimeControl") == Some("byoyomi=1000")));
}
