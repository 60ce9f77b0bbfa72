//! `hisha match` end to end: misbehaving engines are adjudicated with the right reason while the
//! match finishes and every game reaches the record file; self-play records read back with
//! hisha's reader and cshogi's; resume, shards and merge.

use hisha::position::{ResultReason, Winner};
use hisha::record::{Format, read_games};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fake_engine.py");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("dir");
    d
}

fn hisha_match(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hisha")).arg("match").arg("--quiet").args(args).output().expect("hisha runs")
}

fn games(path: &Path, format: Format) -> Vec<hisha::record::GameRecord> {
    read_games(&std::fs::read(path).expect("record file"), format)
        .into_iter()
        .map(|g| g.expect("readable game"))
        .collect()
}

/// Plays two games of `mode` against hisha and returns the records.
fn fault(mode: &str, extra: &[&str]) -> Vec<hisha::record::GameRecord> {
    let dir = temp(mode);
    let out = dir.join("g.psn");
    let engine = format!("arg={mode}");
    let mut args = vec![
        "--engine",
        "name=fake",
        "cmd=python3",
        &format!("arg={FAKE}"),
        &engine,
        "--games",
        "2",
        "--tc",
        "byoyomi=300",
        "--time-margin",
        "100",
        "--usi-timeout",
        "2",
        "--out",
        out.to_str().expect("utf-8 path"),
        "--log",
        "",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    let log = dir.join("g.log");
    let n = args.len();
    args[n - 1] = log.display().to_string();
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = hisha_match(&refs);
    assert!(run.status.success(), "{mode}: {}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(stdout.matches("Finished game").count(), 2, "{mode}: {stdout}");
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), 2, "{mode}: every game is in the record file");
    let log_text = std::fs::read_to_string(&log).expect("log written");
    // The transcript names the game; an engine that never starts has only its handshake.
    let marker = if mode == "nousiok" { "[fake] > usi" } else { "[game 1 " };
    assert!(log_text.contains(marker), "{mode}: {log_text}");
    recs
}

fn fake_lost_both(recs: &[hisha::record::GameRecord], reason: ResultReason) {
    for r in recs {
        let result = r.result.expect("finished");
        let fake_black = r.tag("Black") == Some("fake");
        let expected = if fake_black { Winner::White } else { Winner::Black };
        assert_eq!((result.winner, result.reason), (expected, reason), "{:?}", r.summary);
    }
}

#[test]
fn crash_mid_game_loses_by_disconnect() {
    fake_lost_both(&fault("crash", &[]), ResultReason::Disconnect);
}

#[test]
fn a_hung_engine_loses_on_time() {
    fake_lost_both(&fault("hang", &[]), ResultReason::Time);
}

#[test]
fn a_late_answer_loses_on_time() {
    fake_lost_both(&fault("late", &[]), ResultReason::Time);
}

#[test]
fn illegal_moves_garbage_and_false_declarations_lose() {
    fake_lost_both(&fault("illegal", &[]), ResultReason::IllegalMove);
    fake_lost_both(&fault("garbage", &[]), ResultReason::IllegalMove);
    fake_lost_both(&fault("falsewin", &[]), ResultReason::IllegalMove);
}

#[test]
fn an_engine_that_never_answers_usiok_forfeits() {
    fake_lost_both(&fault("nousiok", &[]), ResultReason::Disconnect);
}

#[test]
fn self_play_records_read_back_by_hisha_and_cshogi() {
    let dir = temp("selfplay");
    let psn = dir.join("s.psn");
    let csa = dir.join("s.csa");
    let run = hisha_match(&[
        "--games",
        "4",
        "--tc",
        "nodes=3000",
        "--concurrency",
        "2",
        "--out",
        psn.to_str().expect("path"),
        "--out",
        csa.to_str().expect("path"),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("Results of hisha-1 vs hisha-2 (4 games)"), "{stdout}");
    let a = games(&psn, Format::Psn);
    let b = games(&csa, Format::Csa);
    assert_eq!(a.len(), 4);
    for (x, y) in a.iter().zip(&b) {
        let moves = |r: &hisha::record::GameRecord| r.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>();
        assert_eq!(moves(x), moves(y));
        assert!(x.result.is_some());
    }
    // cshogi reads the CSA file with the same moves.
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/cshogi_records.py"))
        .args(["read", csa.to_str().expect("path")])
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    for (line, rec) in lines.iter().zip(&a) {
        let first = rec.moves.first().map(|m| m.mv.to_string()).unwrap_or_default();
        assert!(line.contains(&format!("\"moves\": [\"{first}\"")), "{line}");
        assert!(
            line.contains(&format!("\"{}\"]", rec.moves.last().map(|m| m.mv.to_string()).unwrap_or_default())),
            "{line}"
        );
    }
}

#[test]
fn resume_shards_and_merge() {
    let dir = temp("resume");
    let out = dir.join("r.psn");
    let o = out.to_str().expect("path");
    assert!(hisha_match(&["--games", "2", "--tc", "nodes=1000", "--out", o]).status.success());
    let run = hisha_match(&["--games", "4", "--tc", "nodes=1000", "--out", o, "--resume"]);
    assert!(run.status.success());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(stdout.matches("Finished game").count(), 2, "only the missing games: {stdout}");
    assert_eq!(games(&out, Format::Psn).len(), 4);
    // A new match on the same file appends its games and keeps the earlier state beside.
    assert!(hisha_match(&["--games", "2", "--tc", "nodes=1000", "--out", o]).status.success());
    assert_eq!(games(&out, Format::Psn).len(), 6);
    assert_eq!(hisha::arena::state::load(&dir.join("r.psn.state.1")).expect("kept").games.len(), 4);
    assert_eq!(hisha::arena::state::load(&dir.join("r.psn.state")).expect("new").games.len(), 2);
    // Two shards of a 4-game match, merged.
    let (s1, s2) = (dir.join("a.psn"), dir.join("b.psn"));
    for (shard, path) in [("1/2", &s1), ("2/2", &s2)] {
        let run = hisha_match(&[
            "--games",
            "4",
            "--tc",
            "nodes=1000",
            "--shard",
            shard,
            "--out",
            path.to_str().expect("path"),
        ]);
        assert!(run.status.success());
        assert_eq!(games(path, Format::Psn).len(), 2);
    }
    let merged = Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(["match", "--merge"])
        .arg(dir.join("a.psn.state"))
        .arg(dir.join("b.psn.state"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&merged.stdout);
    assert!(text.contains("(4 games)") && text.contains("2 pairs"), "{text}");
}
