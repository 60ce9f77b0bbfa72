//! `hisha.exe`, the Windows build, under Wine: built by `scripts/build-windows.sh` (a no-op when
//! it is up to date), copied into `<target>/wine/将棋 エンジン` and started there by `wine`, in
//! its own Wine prefix (`<target>/wine/prefix`, made on the first run, some seconds). Wine 8.0
//! (Debian 12) lacks `ProcessPrng`, which Rust's standard library imports from
//! `bcryptprimitives.dll` (every Windows 10 and later has it): when Wine cannot start the exe, the
//! stand-in DLL `tests/cli_tools/bcryptprimitives.c` is built with MinGW and put beside the
//! copied exe, for these tests only (never beside the exe the script builds).
//!
//! When wine, MinGW or rustup's Windows target is missing, the tests print one `skipped: wine or
//! the Windows target not installed` line and pass, unless `HISHA_REQUIRE_CROSSCHECKS=1` (see
//! `tests/outside`). [`SKIP`] set to a reason skips them even then: `.ci/run` sets it when it
//! could not install them.

use crate::outside;
use crate::support::s;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// Set to a reason, the variable that skips the Windows tests even under
/// `HISHA_REQUIRE_CROSSCHECKS=1` (`.ci/run` sets it when it could not install Wine or the target).
pub const SKIP: &str = "HISHA_SKIP_WINDOWS";

/// The Rust target of the Windows build.
const TARGET: &str = "x86_64-pc-windows-gnu";

/// What a user installs for these tests.
const HOW: &str = "apt-get install wine64 gcc-mingw-w64-x86-64; rustup target add x86_64-pc-windows-gnu";

/// `hisha.exe` ready to run under Wine.
pub struct WineHisha {
    /// The folder holding `hisha.exe` (and the stand-in DLL where Wine needs it).
    folder: PathBuf,
    /// The Wine prefix.
    prefix: PathBuf,
}

impl WineHisha {
    /// `wine hisha.exe ARGS…`, run in the exe's folder, quiet (no Wine diagnostics on stderr) and
    /// headless (no window, no dialog to install Mono or Gecko).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("wine");
        cmd.arg(self.folder.join("hisha.exe"))
            .args(args)
            .current_dir(&self.folder)
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("RUST_LOG");
        cmd
    }

    /// `wine hisha.exe ARGS…`, run to the end.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).stdin(Stdio::null()).output().expect("wine runs")
    }
}

/// The path a Windows program under Wine sees for `path` (an absolute Linux path): drive `Z:` is
/// the root, with backslashes, as a GUI on Windows writes paths.
pub fn windows_path(path: &Path) -> String {
    format!("Z:{}", s(path).replace('/', "\\"))
}

/// `hisha.exe` under Wine, set up once per test binary; `None`, after one `skipped:` line, when
/// Wine or the Windows target is not installed.
pub fn hisha_exe() -> Option<&'static WineHisha> {
    static WINE: OnceLock<Option<WineHisha>> = OnceLock::new();
    WINE.get_or_init(set_up).as_ref()
}

fn set_up() -> Option<WineHisha> {
    if let Some(why) = std::env::var_os(SKIP).filter(|v| !v.is_empty()) {
        // To stderr directly, as `outside::available` writes: libtest captures `eprintln!`.
        let line = format!("skipped: wine or the Windows target not installed ({SKIP}: {})", why.to_string_lossy());
        let _ = writeln!(std::io::stderr(), "{line}");
        return None;
    }
    let exe = match wine_and_exe() {
        Ok(exe) => exe,
        Err(how) => {
            outside::available("wine or the Windows target", false, &how);
            return None;
        }
    };
    let wine = target_dir().join("wine");
    // A folder named as users name theirs: with a space and Japanese.
    let hisha = WineHisha { folder: wine.join("将棋 エンジン"), prefix: wine.join("prefix") };
    std::fs::create_dir_all(&hisha.folder).unwrap_or_else(|e| panic!("{}: {e}", hisha.folder.display()));
    // A stand-in DLL of an earlier run would hide whether this Wine needs it.
    let process_prng = hisha.folder.join("bcryptprimitives.dll");
    let _ = std::fs::remove_file(&process_prng);
    put(&hisha.folder.join("hisha.exe"), |to| std::fs::copy(&exe, to).map(drop));
    // The first start also makes the prefix.
    if !starts(&hisha) {
        put(&process_prng, build_process_prng);
        assert!(starts(&hisha), "hisha.exe does not start under Wine, even with the stand-in bcryptprimitives.dll");
    }
    Some(hisha)
}

/// The built exe when `wine` runs; otherwise what is missing and how to install it.
fn wine_and_exe() -> Result<PathBuf, String> {
    let wine = Command::new("wine").arg("--version").stdin(Stdio::null()).output();
    if !wine.is_ok_and(|o| o.status.success()) {
        return Err(format!("no wine: {HOW}"));
    }
    build_exe()
}

/// The cargo target folder of this build (`<target>/<profile>/hisha` is the binary under test).
fn target_dir() -> PathBuf {
    let binary = Path::new(env!("CARGO_BIN_EXE_hisha"));
    binary.parent().and_then(Path::parent).expect("<target>/<profile>/hisha").to_path_buf()
}

/// Runs `scripts/build-windows.sh` into this build's target folder: the exe, or what is missing
/// when the script says the Windows target or MinGW is (its exit status 2). Fails on a build error.
fn build_exe() -> Result<PathBuf, String> {
    let target = target_dir();
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join("build-windows.sh"))
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(target.join(TARGET).join("release").join("hisha.exe")),
        Some(2) => Err(stderr.lines().map(str::trim).collect::<Vec<_>>().join("; ")),
        _ => panic!("scripts/build-windows.sh failed:\n{stderr}"),
    }
}

/// Whether `hisha.exe --version` runs and names hisha.
fn starts(hisha: &WineHisha) -> bool {
    let out = hisha.run(&["--version"]);
    out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("hisha ")
}

/// Writes `path` by `write` into a file of this process beside it, then renames it into place, so
/// that another test run still using the old file keeps it.
fn put(path: &Path, write: impl FnOnce(&Path) -> std::io::Result<()>) {
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".{}", std::process::id()));
    let partial = PathBuf::from(partial);
    write(&partial)
        .and_then(|()| std::fs::rename(&partial, path))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Builds the stand-in `bcryptprimitives.dll` as `dll` with MinGW.
fn build_process_prng(dll: &Path) -> std::io::Result<()> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("cli_tools").join("bcryptprimitives.c");
    let out = Command::new("x86_64-w64-mingw32-gcc")
        .args(["-shared", "-O2", "-o"])
        .arg(dll)
        .arg(&source)
        .arg("-lbcrypt")
        .output()
        .expect("MinGW's gcc runs (the exe was linked with it)");
    assert!(out.status.success(), "building {}: {}", source.display(), String::from_utf8_lossy(&out.stderr));
    Ok(())
}
