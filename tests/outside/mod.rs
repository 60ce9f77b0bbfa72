//! Tools outside cargo that some tests cross-check against (cshogi and python-shogi from PyPI,
//! tsshogi from npm, Fairy-Stockfish and gpsusi from Debian). A test that needs one asks [`available`] first: when the tool is missing
//! it prints one `skipped: <tool> not installed` line and the test passes, so the README's test
//! command works on a machine with only the Rust toolchain — unless `HISHA_REQUIRE_CROSSCHECKS=1`
//! is set (`.ci/run` sets it after installing every tool), where a missing tool fails the test.

#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
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
    python_module("cshogi", "cshogi", "python3 -m pip install cshogi")
}

/// Whether `python3` runs and imports `module` (reporting `tool` as [`available`] does).
fn python_module(tool: &str, module: &str, how: &str) -> bool {
    let present = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    available(tool, present, how)
}

/// Whether `python3` imports python-shogi (its module is `shogi`).
pub fn python_shogi() -> bool {
    python_module("python-shogi", "shogi.KIF", "python3 -m pip install python-shogi")
}

/// Where `.ci/run` installs npm packages, outside the repository: `$XDG_CACHE_HOME/hisha/node`,
/// else `~/.cache/hisha/node` (`npm install --prefix` puts them in its `node_modules`).
pub fn node_cache() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    cache.join("hisha").join("node")
}

/// `node` finding packages in NODE_PATH as set and then in [`node_cache`].
pub fn node() -> Command {
    let mut paths: Vec<PathBuf> =
        std::env::var_os("NODE_PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    paths.push(node_cache().join("node_modules"));
    let mut cmd = Command::new("node");
    cmd.env("NODE_PATH", std::env::join_paths(paths).unwrap_or_else(|_| OsString::new()));
    cmd
}

/// Whether `node` runs and finds tsshogi (reporting as [`available`] does).
pub fn tsshogi() -> bool {
    let present = node()
        .args(["-e", "require('tsshogi')"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let how = format!("npm install --prefix {} tsshogi", node_cache().display());
    available("tsshogi", present, &how)
}

/// Whether Debian's Fairy-Stockfish is installed (reporting as [`available`] does).
pub fn fairy_stockfish() -> bool {
    available("fairy-stockfish", Path::new(FAIRY_STOCKFISH).exists(), "apt-get install fairy-stockfish")
}

/// Whether Debian's gpsusi is installed (reporting as [`available`] does).
pub fn gpsusi() -> bool {
    available("gpsusi", Path::new(GPSUSI).exists(), "apt-get install gpsshogi")
}
