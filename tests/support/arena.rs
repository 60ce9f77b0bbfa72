//! Helpers for the `hisha match` tests: the fake engine, running a match, reading its records.

use hisha::position::{ResultReason, Winner};
use hisha::record::GameRecord;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The fake USI engine (`examples/fake_engine.rs`): `<target>/<profile>/examples/fake_engine`,
/// beside the hisha binary under test. While cargo runs the tests (`CARGO` is set), it is built
/// once per test binary in the tests' profile (a no-op when it is up to date; `cargo test --test
/// arena` alone does not build examples).
pub fn fake_engine() -> &'static str {
    static FAKE: OnceLock<String> = OnceLock::new();
    FAKE.get_or_init(|| {
        let profile_dir = Path::new(env!("CARGO_BIN_EXE_hisha")).parent().expect("<target>/<profile>");
        let exe = profile_dir.join("examples").join(format!("fake_engine{}", std::env::consts::EXE_SUFFIX));
        if let Some(cargo) = std::env::var_os("CARGO") {
            // `debug` holds the test profile's builds (`cargo test`), `release` the release ones.
            let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
                Some("debug") | None => "test",
                Some(other) => other,
            };
            let target_dir = profile_dir.parent().expect("<target>");
            let built = Command::new(cargo)
                .args(["build", "--quiet", "--example", "fake_engine", "--profile", profile, "--target-dir"])
                .arg(target_dir)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo runs");
            assert!(built.success(), "cargo build --example fake_engine --profile {profile} failed");
        }
        assert!(exe.is_file(), "{} is missing: cargo build --example fake_engine", exe.display());
        exe.to_str().expect("utf-8 path").to_string()
    })
}

/// `hisha match --quiet ARGS…`, run to the end.
pub fn hisha_match<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    super::hisha_command().arg("match").arg("--quiet").args(args).output().expect("hisha runs")
}

/// The game number of a record (its `Round` tag).
pub fn round(r: &GameRecord) -> usize {
    r.tag("Round").and_then(|n| n.parse().ok()).expect("Round tag")
}

/// The `--engine` words of the fake engine: `MODE` after 4 moves when playing `side`, with its own
/// time control `tc`.
pub fn fake(name: &str, mode: &str, side: &str, seconds: f64, tc: &str) -> Vec<String> {
    fake_scoring(name, mode, side, seconds, tc, 0)
}

/// [`fake`], reporting `score cp SCORE` with every move.
pub fn fake_scoring(name: &str, mode: &str, side: &str, seconds: f64, tc: &str, score: i32) -> Vec<String> {
    fake_saying(name, mode, side, seconds, tc, &score.to_string())
}

/// [`fake`] with the fake engine's SCORE argument as given (`none`: it reports no score).
pub fn fake_saying(name: &str, mode: &str, side: &str, seconds: f64, tc: &str, score: &str) -> Vec<String> {
    [
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={}", fake_engine()),
        format!("arg={mode}"),
        "arg=4".into(),
        format!("arg={side}"),
        format!("arg={seconds}"),
        format!("arg={score}"),
        format!("tc={tc}"),
    ]
    .into()
}

/// Reasons that end a game by its rules (not by an engine's fault or an interruption).
pub fn normal_end(reason: ResultReason) -> bool {
    !matches!(
        reason,
        ResultReason::Time | ResultReason::IllegalMove | ResultReason::Disconnect | ResultReason::Interrupt
    )
}

/// The winner when `loser_is_black` lost.
pub fn winner_against(loser_is_black: bool) -> Winner {
    if loser_is_black { Winner::White } else { Winner::Black }
}

/// A file of one opening: the start position (so that the fake engine's moves are predictable).
pub fn startpos_openings(dir: &Path) -> PathBuf {
    let p = dir.join("openings.txt");
    std::fs::write(&p, "startpos\n").expect("write");
    p
}
