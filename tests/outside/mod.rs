//! Tools outside cargo that some tests cross-check against (cshogi from PyPI, Fairy-Stockfish and
//! gpsusi from Debian). A test that needs one asks [`available`] first: when the tool is missing
//! it prints one `skipped: <tool> not installed` line and the test passes, so the README's test
//! command works on a machine with only the Rust toolchain — unless `HISHA_REQUIRE_CROSSCHECKS=1`
//! is set (`.ci/run` sets it after installing every tool), where a missing tool fails the test.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The variable that turns a missing tool into a test failure.
pub const REQUIRE: &str = "HISHA_REQUIRE_CROSSCHECKS";

/// Debian's Fairy-Stockfish.
pub const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Debian's gpsshogi USI engine.
pub const GPSUSI: &str = "/usr/games/gpsusi";

/// True when `present`; otherwise prints `skipped: <tool> not installed (<how>)` and returns
/// false, or panics when [`REQUIRE`] is set to anything but `0` or empty.
pub fn available(tool: &str, present: bool, how: &str) -> bool {
    if present {
        return true;
    }
    let required = std::env::var(REQUIRE).is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(!required, "{tool} is not installed but {REQUIRE} is set ({how})");
    // Written to stderr directly: libtest captures `println!` of passing tests, not this, so the
    // line shows in a plain `cargo test` run.
    let _ = writeln!(std::io::stderr(), "skipped: {tool} not installed ({how})");
    false
}

/// Whether `python3` runs and imports cshogi (reporting as [`available`] does).
pub fn cshogi() -> bool {
    let present = Command::new("python3")
        .args(["-c", "import cshogi"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    available("cshogi", present, "python3 -m pip install cshogi")
}

/// Whether Debian's Fairy-Stockfish is installed (reporting as [`available`] does).
pub fn fairy_stockfish() -> bool {
    available("fairy-stockfish", Path::new(FAIRY_STOCKFISH).exists(), "apt-get install fairy-stockfish")
}

/// Whether Debian's gpsusi is installed (reporting as [`available`] does).
pub fn gpsusi() -> bool {
    available("gpsusi", Path::new(GPSUSI).exists(), "apt-get install gpsshogi")
}
