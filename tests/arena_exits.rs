//! `hisha match` ends honestly (exit status 0 completed, 1 stopped by errors, 2 usage; see `hisha
//! match --help`): engines that fail their first handshake stop the match before anything is
//! written, an engine that crashes game after game stops it (and `--resume` continues), rejected
//! options and record files of other engines are reported before the first game.

mod support;

use hisha::record::Format;
use std::path::Path;
use std::process::Stdio;
use support::arena::*;
use support::{games, s, temp_dir};

/// `hisha match --quiet ARGS…` with stdout and stderr in one stream, in the order written: the
/// exit status and the text.
fn hisha_match_interleaved(args: &[String], dir: &Path) -> (Option<i32>, String) {
    let path = dir.join("terminal.txt");
    let file = std::fs::File::create(&path).expect("create");
    let status = support::hisha_command()
        .arg("match")
        .arg("--quiet")
        .args(args)
        .stdout(Stdio::from(file.try_clone().expect("clone")))
        .stderr(Stdio::from(file))
        .status()
        .expect("hisha runs");
    (status.code(), std::fs::read_to_string(&path).expect("terminal text"))
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// The files of `dir`, with their contents.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let p = e.expect("entry").path();
            (p.display().to_string(), std::fs::read(&p).expect("read"))
        })
        .collect();
    files.sort();
    files
}

/// A folder holding the record and state files of an earlier match (`g.psn`, `g.psn.state`).
fn folder_with_an_earlier_match(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let out = dir.join("g.psn");
    let run = hisha_match(&["--games", "2", "--tc", "nodes=300", "--out", s(&out)]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    dir
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_the_end_of_its_stderr_and_writes_nothing() {
    let dir = folder_with_an_earlier_match("nostart");
    let before = snapshot(&dir);
    let (out, log) = (dir.join("g.psn"), dir.join("g.log"));
    // It writes 8 lines to stderr and exits when it receives `usi`.
    let mut args = fake("broken", "nostart", "any", 0.0, "nodes=1");
    args.extend(strings(&["--out", s(&out), "--log", s(&log), "--usi-timeout", "20"]));
    let run = hisha_match(&args);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("engine broken failed its first handshake"), "{stderr}");
    assert!(stderr.contains("the end of its stderr:\n    fake: startup line 4\n"), "{stderr}");
    assert!(stderr.contains("    fake: startup line 8\n"), "{stderr}");
    assert!(!stderr.contains("startup line 3"), "only the last 5 lines: {stderr}");
    assert!(!String::from_utf8_lossy(&run.stdout).contains("Finished game"));
    assert_eq!(snapshot(&dir), before, "no record, state or log file created or modified");
}

#[test]
fn an_engine_that_exits_at_once_stops_the_match() {
    let dir = folder_with_an_earlier_match("false");
    let before = snapshot(&dir);
    let run = hisha_match(&["--engine", "name=f", "cmd=/bin/false", "--out", s(&dir.join("g.psn"))]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("engine f failed its first handshake"), "{stderr}");
    assert!(stderr.contains("it wrote nothing on stderr"), "{stderr}");
    assert_eq!(snapshot(&dir), before);
}

#[test]
fn an_engine_that_never_answers_usiok_stops_the_match_before_any_game() {
    let dir = temp_dir("nousiok");
    let (out, log) = (dir.join("g.psn"), dir.join("g.log"));
    let mut args = fake("mute", "nousiok", "any", 0.0, "nodes=1");
    args.extend(strings(&["--usi-timeout", "2", "--out", s(&out), "--log", s(&log)]));
    let run = hisha_match(&args);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr
            .contains("engine mute failed its first handshake (usi, usiok, isready, readyok): no usiok within 2000 ms")
    );
    assert!(snapshot(&dir).is_empty(), "nothing written");
}

#[test]
fn an_engine_that_crashes_in_every_game_stops_the_match_and_resume_continues_it() {
    let dir = temp_dir("crashes");
    let out = dir.join("c.psn");
    // It crashes after 4 moves in every game; one game at a time, so the first three in a row.
    let mut args = fake("crashy", "crash", "any", 0.0, "byoyomi=1000");
    args.extend(strings(&["--tc", "nodes=300", "--games", "8", "--concurrency", "1", "--opening-plies", "0"]));
    args.extend(strings(&["--usi-timeout", "20", "--out", s(&out)]));
    let run = hisha_match(&args);
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("stopped: crashy crashed, stalled or failed to start in 3 games in a row (--max-crashes 3)"),
        "{stderr}"
    );
    assert!(stderr.contains("3 games finished, 5 not played; --resume continues the match"), "{stderr}");
    assert_eq!(games(&out, Format::Psn).len(), 3, "the finished games are on disk");
    assert_eq!(hisha::arena::state::load(&dir.join("c.psn.state")).expect("state").games.len(), 3);
    // Resumed, never stopping for crashes: the other 5 games.
    args.extend(strings(&["--resume", "--max-crashes", "0"]));
    let resumed = hisha_match(&args);
    assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert_eq!(stdout.matches("Finished game").count(), 5, "{stdout}");
    assert!(stdout.contains("crashes/stalls: crashy 8, hisha 0"), "{stdout}");
    let mut rounds: Vec<usize> = games(&out, Format::Psn).iter().map(round).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>());
}

#[test]
fn resume_without_a_state_file_is_a_usage_error() {
    let dir = temp_dir("resume-nothing");
    let run = hisha_match(&["--resume", "--games", "2", "--out", s(&dir.join("g.psn"))]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--resume: there is no state file"));
    assert!(snapshot(&dir).is_empty(), "no new match was started");
}

/// `hisha match --quiet ARGS…` with Slurm's array variables set to `vars` (the others removed: the
/// tests may run inside a Slurm job).
fn hisha_match_in_slurm(args: &[&str], vars: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = support::hisha_command();
    for var in ["ID", "MIN", "MAX", "STEP", "COUNT"] {
        cmd.env_remove(format!("SLURM_ARRAY_TASK_{var}"));
    }
    cmd.arg("match").arg("--quiet").args(args).envs(vars.iter().copied()).output().expect("hisha runs")
}

#[test]
fn a_slurm_array_task_plays_its_shard_and_a_process_outside_one_is_a_usage_error() {
    let dir = temp_dir("shard-from-env");
    let out = dir.join("g.psn");
    let args = ["--games", "4", "--tc", "nodes=500", "--shard-from-env", "slurm", "--out", s(&out)];
    // Task 2 of `sbatch --array=1-2` (the variables Slurm 22.05.8 sets, src/array_task.rs): shard
    // 2 of 2, the second colour-swapped pair, games 3 and 4.
    let task_2_of_1_to_2 = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
    ];
    let run = hisha_match_in_slurm(&args, &task_2_of_1_to_2);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let mut rounds: Vec<usize> = games(&out, Format::Psn).iter().map(round).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [3, 4]);
    // Outside an array job: exit status 2, the variable named, nothing written.
    let elsewhere = temp_dir("shard-from-env-outside");
    let out = elsewhere.join("g.psn");
    let args = ["--games", "4", "--tc", "nodes=500", "--shard-from-env", "slurm", "--out", s(&out)];
    let run = hisha_match_in_slurm(&args, &[]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr,
        "hisha match: --shard-from-env slurm: SLURM_ARRAY_TASK_ID is not set: is this a task of an array job?\n"
    );
    assert!(snapshot(&elsewhere).is_empty(), "nothing written");
}

#[test]
fn no_games_and_no_concurrency_are_usage_errors() {
    for flag in ["--games", "--concurrency"] {
        let run = hisha_match(&[flag, "0"]);
        assert_eq!(run.status.code(), Some(2), "{flag} 0");
        assert!(String::from_utf8_lossy(&run.stderr).contains(&format!("invalid value '0' for '{flag}")));
    }
}

#[test]
fn a_new_match_on_a_record_file_of_other_engines_warns_and_names_the_file_first_and_last() {
    let dir = folder_with_an_earlier_match("others");
    let out = dir.join("g.psn");
    let mut args = fake("a", "good", "any", 0.0, "byoyomi=1000");
    args.extend(fake("b", "good", "any", 0.0, "byoyomi=1000"));
    args.extend(strings(&["--games", "2", "--max-plies", "30", "--usi-timeout", "20", "--out", s(&out)]));
    let (code, text) = hisha_match_interleaved(&args, &dir);
    assert_eq!(code, Some(0), "{text}");
    let warning = format!("hisha match: warning: {} already holds 2 games of other engines (", out.display());
    let lines: Vec<&str> = text.lines().collect();
    let first_game = lines.iter().position(|l| l.starts_with("Finished game")).expect("games");
    let warned = lines[..first_game].iter().find(|l| l.starts_with(&warning)).expect("a warning before the games");
    // The pairings in the order of the file (the earlier games finished in either order).
    assert!(warned.contains("hisha-1 vs hisha-2") && warned.contains("hisha-2 vs hisha-1"), "{warned}");
    let stdout: Vec<&str> = lines.iter().copied().filter(|l| !l.starts_with("hisha match: ")).collect();
    let note = format!("{} (after 2 games of other engines)", out.display());
    let heading = "=== hisha match a (byoyomi=1000) vs b (byoyomi=1000), ";
    assert!(stdout[0].starts_with(heading) && stdout[0].ends_with(&note), "{text}");
    assert_eq!(stdout.last().copied(), Some(format!("Records in {note}").as_str()), "{text}");
    assert_eq!(games(&out, Format::Psn).len(), 4, "appended");
    // The same engines again: their own games are not counted as other engines' games.
    let (_, again) = hisha_match_interleaved(&args, &dir);
    assert!(again.contains("already holds 2 games of other engines"), "still only hisha's 2: {again}");
    assert!(!again.contains("already holds 4"), "{again}");
}

#[test]
fn options_the_engine_rejects_are_reported_before_the_first_game() {
    let dir = temp_dir("options");
    let out = dir.join("g.psn");
    let args = strings(&[
        "--engine",
        "name=picky",
        "cmd=self",
        "option.NoSuchOption=1",
        "option.Threads=many",
        "option.multipv=1",
        "--games",
        "2",
        "--tc",
        "nodes=300",
        "--out",
        s(&out),
    ]);
    let (code, text) = hisha_match_interleaved(&args, &dir);
    assert_eq!(code, Some(0), "reported, not fatal: {text}");
    let first_game = text.find("Finished game").expect("games played");
    let before = &text[..first_game];
    assert!(
        before.contains("warning: option.NoSuchOption=1: picky does not list an option NoSuchOption (it lists: "),
        "{text}"
    );
    // hisha's own answer to a value it cannot use (src/engine.rs).
    assert!(before.contains("warning: picky answered its options with `info string error: option Threads:"), "{text}");
    assert!(!before.contains("option.multipv"), "option names compare without case: {text}");
}

#[test]
fn a_quoted_engine_spec_plays() {
    let dir = temp_dir("quoted");
    let out = dir.join("g.psn");
    let spec = format!("name=quoted cmd={} arg=good", fake_engine());
    let run = hisha_match(&["--engine", &spec, "--games", "2", "--tc", "nodes=300", "--out", s(&out)]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| [r.tag("Black"), r.tag("White")].contains(&Some("quoted"))));
}
