//! Engine definitions for `hisha match`: `engines/*.toml` files and `--engine key=value …` specs.
//!
//! A file holds `name`, `command` (relative paths resolve against the file's folder; `"self"` is
//! the running hisha), `args`, `dir` (working directory), `tc` (this engine's own time control),
//! `usi_timeout` (seconds for `usiok`/`readyok`, for engines that load slowly), `time_margin`
//! (milliseconds of tolerance on its clock, for engines with a coarse clock) and an `[options]`
//! table of USI options (names may contain spaces), sent in file order. On the command line:
//! `--engine name=N cmd=PATH [arg=A]… [dir=D] [option.X=V]… [tc=TC] [usi_timeout=S] [time_margin=MS]`,
//! `--engine NAME` for `engines/NAME.toml` (the definitions shipped in `engines/` are built in, so
//! they work from any folder), or `--engine PATH.toml`.

use super::tc::TimeControl;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How to run one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Display name (records, results).
    pub name: String,
    /// Executable.
    pub command: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// USI options sent after `usiok`, in order.
    pub options: Vec<(String, String)>,
    /// This engine's time control (overrides `--tc`).
    pub tc: Option<TimeControl>,
    /// Seconds to wait for `usiok` and `readyok` (overrides `--usi-timeout`).
    pub usi_timeout: Option<u64>,
    /// Milliseconds a move may exceed its allowance before it loses (overrides `--time-margin`).
    pub time_margin: Option<u64>,
}

/// The definitions shipped in `engines/`, built in: (name, file text).
const BUILTIN: [(&str, &str); 3] = [
    ("hisha", include_str!("../../engines/hisha.toml")),
    ("fairy-stockfish", include_str!("../../engines/fairy-stockfish.toml")),
    ("gpsusi", include_str!("../../engines/gpsusi.toml")),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    dir: Option<String>,
    tc: Option<toml::Spanned<String>>,
    usi_timeout: Option<u64>,
    time_margin: Option<u64>,
    #[serde(default)]
    options: BTreeMap<toml::Spanned<String>, toml::Value>,
}

/// A bad engine definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine definition {source_name}: {}{reason}", at.map(|(l, c)| format!("line {l}, column {c}: ")).unwrap_or_default())]
pub struct ConfigError {
    /// The file or command-line spec.
    pub source_name: String,
    /// For an error in a file's text: the 1-based line and column (in characters) it is about.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub reason: String,
}

fn err(source_name: &str, reason: impl Into<String>) -> ConfigError {
    ConfigError { source_name: source_name.to_string(), at: None, reason: reason.into() }
}

/// An error at byte `at` of a definition's `text`.
fn err_in_text(source_name: &str, text: &str, at: usize, reason: impl Into<String>) -> ConfigError {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let place = (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1);
    ConfigError { at: Some(place), ..err(source_name, reason) }
}

/// The running hisha binary (for `command = "self"` and the default engine).
fn self_command() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("hisha"))
}

/// Resolves a path from a definition: `self`, a bare name (looked up on PATH by the OS), an absolute
/// path, or a path relative to `base` (made absolute, so that it does not depend on `dir`).
fn resolve(base: &Path, p: &str) -> PathBuf {
    if p == "self" {
        return self_command();
    }
    let path = PathBuf::from(p);
    // Bare names (`fairy-stockfish`) are looked up on PATH by the OS; paths are relative to the file.
    if path.is_absolute() || !p.contains('/') {
        return path;
    }
    let joined = base.join(path);
    std::path::absolute(&joined).unwrap_or(joined)
}

/// The keys of a command-line spec (besides `option.X`).
const KEYS: [&str; 10] = ["name", "cmd", "command", "arg", "dir", "tc", "usi_timeout", "time_margin", "conf", "config"];

/// Whether `s` starts with `KEY=` for a key of a command-line spec.
fn starts_with_key(s: &str) -> bool {
    s.split_once('=').is_some_and(|(k, _)| KEYS.contains(&k) || k.starts_with("option."))
}

/// The `key=value` pairs of one word: a quoted spec (`--engine "name=q cmd=self"`) holds several,
/// separated where blanks are followed by a known key and `=`; elsewhere a value keeps its blanks
/// (`option.Skill Level=5`, `name=My Engine`).
fn split_pairs(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in word.char_indices() {
        if c.is_whitespace() && i >= start {
            let rest = word[i..].trim_start();
            if starts_with_key(rest) {
                parts.push(word[start..i].trim());
                start = word.len() - rest.len();
            }
        }
    }
    parts.push(word[start..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

impl EngineConfig {
    /// The engine `name` run as `command` without arguments, options or settings of its own.
    fn new(name: &str, command: PathBuf) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            command,
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            tc: None,
            usi_timeout: None,
            time_margin: None,
        }
    }

    /// hisha itself with default options.
    pub(crate) fn hisha() -> EngineConfig {
        EngineConfig::new("hisha", self_command())
    }

    /// Whether the executable exists (a path, or a bare name on `PATH`).
    pub(crate) fn command_found(&self) -> bool {
        let cmd = &self.command;
        if cmd.components().count() > 1 || cmd.is_absolute() {
            cmd.is_file()
        } else {
            std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
        }
    }

    /// Threads the engine uses: its `Threads` or `Thread` option, else 1.
    pub(crate) fn threads(&self) -> usize {
        let is_threads = |k: &str| k.eq_ignore_ascii_case("Threads") || k.eq_ignore_ascii_case("Thread");
        let threads = self.options.iter().find(|(k, _)| is_threads(k)).and_then(|(_, v)| v.trim().parse().ok());
        threads.unwrap_or(1).max(1)
    }

    /// Reads a `.toml` engine definition.
    fn from_file(path: &Path) -> Result<EngineConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| err(&shown, e.to_string()))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        EngineConfig::from_toml(&text, &base, &stem, &shown)
    }

    /// Parses a definition's text (`shown` names it in errors); relative paths resolve against
    /// `base`, the name defaults to `stem`.
    pub fn from_toml(text: &str, base: &Path, stem: &str, shown: &str) -> Result<EngineConfig, ConfigError> {
        let f: File = toml::from_str(text).map_err(|e| {
            // Errors without a place (a missing key) are about the whole file: its start.
            let at = e.span().map_or(0, |s| s.start);
            err_in_text(shown, text, at, e.message().trim_end())
        })?;
        let mut options: Vec<_> = f.options.into_iter().collect();
        options.sort_by_key(|(k, _)| k.span().start);
        let options = options
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    toml::Value::String(s) => s,
                    other => other.to_string(),
                };
                (k.into_inner(), v)
            })
            .collect();
        let tc =
            f.tc.map(|t| {
                t.get_ref().parse::<TimeControl>().map_err(|e| err_in_text(shown, text, t.span().start, e.to_string()))
            })
            .transpose()?;
        Ok(EngineConfig {
            name: f.name.unwrap_or_else(|| stem.to_string()),
            command: resolve(base, &f.command),
            args: f.args,
            dir: f.dir.map(|d| resolve(base, &d)),
            options,
            tc,
            usi_timeout: f.usi_timeout,
            time_margin: f.time_margin,
        })
    }

    /// The definition `NAME`: `engines_dir/NAME.toml` if it exists, else the built-in copy of the
    /// file shipped in `engines/`.
    fn named(name: &str, engines_dir: &Path) -> Result<EngineConfig, ConfigError> {
        let file = engines_dir.join(format!("{name}.toml"));
        if file.exists() {
            return EngineConfig::from_file(&file);
        }
        match BUILTIN.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => EngineConfig::from_toml(text, Path::new("."), name, &format!("built-in {name}.toml")),
            None => {
                let known: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                let reason = format!("no such file (built in: {})", known.join(", "));
                Err(err(&file.display().to_string(), reason))
            }
        }
    }

    /// Builds a definition from `--engine` words: `NAME` (a file in `engines_dir` or a built-in
    /// definition), `PATH.toml`, `conf=PATH.toml`, or `key=value`s (a word holding several, as in a
    /// quoted spec, is split: see [`split_pairs`]). `key=value`s after a definition change it:
    /// `fairy-stockfish tc=byoyomi=100 option.Hash=16` (an option replaces the definition's option
    /// of that name, an `arg` adds an argument).
    pub(crate) fn from_spec(words: &[String], engines_dir: &Path) -> Result<EngineConfig, ConfigError> {
        let words: Vec<String> = words.iter().flat_map(|w| split_pairs(w)).map(String::from).collect();
        let shown = words.join(" ");
        let is_base = |w: &String| !w.contains('=') || w.starts_with("conf=") || w.starts_with("config=");
        let mut bases = words.iter().filter(|w| is_base(w));
        let mut c = match (bases.next(), bases.next()) {
            (Some(_), Some(_)) => return Err(err(&shown, "give one definition (NAME, PATH.toml or conf=PATH)")),
            (Some(base), None) => match base.split_once('=') {
                Some((_, file)) => EngineConfig::from_file(Path::new(file))?,
                None if base.ends_with(".toml") => EngineConfig::from_file(Path::new(base))?,
                None => EngineConfig::named(base, engines_dir)?,
            },
            (None, _) => EngineConfig::new("", PathBuf::new()),
        };
        for w in words.iter().filter(|w| !is_base(w)) {
            let (k, v) = w.split_once('=').ok_or_else(|| err(&shown, format!("{w:?} is not key=value")))?;
            c.set(k, v).map_err(|reason| err(&shown, reason))?;
        }
        if c.command.as_os_str().is_empty() {
            return Err(err(&shown, "cmd=PATH is required"));
        }
        if c.name.is_empty() {
            c.name = c.command.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "engine".into());
        }
        Ok(c)
    }

    /// Sets `key` of a command-line spec to `value`; why not, if it cannot.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "name" => self.name = value.to_string(),
            "cmd" | "command" => self.command = resolve(Path::new("."), value),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "tc" => self.tc = Some(value.parse().map_err(|e: super::tc::ParseTimeControlError| e.to_string())?),
            "usi_timeout" => self.usi_timeout = Some(value.parse().map_err(|_| format!("bad usi_timeout {value:?}"))?),
            "time_margin" => self.time_margin = Some(value.parse().map_err(|_| format!("bad time_margin {value:?}"))?),
            _ => {
                let name = key.strip_prefix("option.").ok_or_else(|| format!("unknown key {key:?}"))?;
                match self.options.iter_mut().find(|(k, _)| k == name) {
                    Some((_, v)) => *v = value.to_string(),
                    None => self.options.push((name.to_string(), value.to_string())),
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_specs() {
        let words: Vec<String> =
            ["name=fsf", "cmd=/usr/games/fairy-stockfish", "option.Skill Level=5", "tc=byoyomi=200", "arg=--x"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let c = EngineConfig::from_spec(&words, Path::new("engines")).expect("valid");
        assert_eq!(c.name, "fsf");
        assert_eq!(c.options, vec![("Skill Level".to_string(), "5".to_string())]);
        assert_eq!(c.tc, Some(TimeControl::Clock { time: 0, inc: 0, byoyomi: 200 }));
        assert_eq!(c.args, vec!["--x".to_string()]);
        assert!(EngineConfig::from_spec(&["name=x".to_string()], Path::new("engines")).is_err());
        assert!(EngineConfig::from_spec(&["bogus=1".to_string(), "cmd=x".to_string()], Path::new("engines")).is_err());
    }

    #[test]
    fn toml_files_resolve_relative_paths() {
        let dir = crate::testing::temp_dir("config");
        let file = dir.join("my engine.toml");
        let text = "command = \"bin/eng\"\nargs = [\"--usi\"]\ntc = \"st=100\"\nusi_timeout = 30\n\
                    [options]\nUSI_Hash = 32\n\"Use Book\" = false\nEvalDir = \"eval\"\n";
        std::fs::write(&file, text).expect("write");
        let c = EngineConfig::from_file(&file).expect("valid");
        assert_eq!(c.name, "my engine");
        assert!(c.command.is_absolute() && c.command.ends_with("bin/eng"), "{:?}", c.command);
        assert_eq!(c.usi_timeout, Some(30));
        let options: Vec<(&str, &str)> = c.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(options, [("USI_Hash", "32"), ("Use Book", "false"), ("EvalDir", "eval")], "file order");
        let same = EngineConfig::from_spec(&[file.display().to_string()], Path::new("nowhere")).expect("valid");
        assert_eq!(same, c, "--engine PATH.toml");
        assert_eq!(c.tc, Some(TimeControl::MoveTime(100)));
        std::fs::write(&file, "command = \"x\"\nbogus = 1\n").expect("write");
        assert!(EngineConfig::from_file(&file).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_quoted_spec_is_split_into_its_pairs() {
        assert_eq!(split_pairs("name=q cmd=self"), ["name=q", "cmd=self"]);
        assert_eq!(
            split_pairs(" name=My Engine  option.Skill Level=5 arg=-x y"),
            ["name=My Engine", "option.Skill Level=5", "arg=-x y"]
        );
        let quoted = EngineConfig::from_spec(&["name=q cmd=self tc=byoyomi=200".into()], Path::new("engines"));
        let c = quoted.expect("valid");
        assert_eq!(
            (c.name.as_str(), c.command, c.tc),
            ("q", self_command(), Some(TimeControl::Clock { time: 0, inc: 0, byoyomi: 200 }))
        );
    }

    #[test]
    fn words_after_a_definition_change_it() {
        let nowhere = Path::new("/nonexistent-engines-dir");
        let spec =
            |words: &[&str]| EngineConfig::from_spec(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>(), nowhere);
        let fsf = spec(&["fairy-stockfish", "tc=byoyomi=100", "option.Hash=16", "option.Skill Level=3", "name=fsf"])
            .expect("valid");
        assert_eq!((fsf.name.as_str(), fsf.tc), ("fsf", Some(TimeControl::Clock { time: 0, inc: 0, byoyomi: 100 })));
        assert_eq!(fsf.command, PathBuf::from("/usr/games/fairy-stockfish"), "the built-in definition's");
        let options: Vec<(&str, &str)> = fsf.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            options,
            [("Threads", "1"), ("Hash", "16"), ("Move Overhead", "30"), ("Skill Level", "3")],
            "Hash replaced in place, Skill Level added"
        );
        let quoted = spec(&["gpsusi usi_timeout=5"]).expect("a quoted spec");
        assert_eq!((quoted.name.as_str(), quoted.usi_timeout), ("gpsusi", Some(5)));
        let two = spec(&["gpsusi", "fairy-stockfish"]).expect_err("two definitions");
        assert!(two.to_string().ends_with("give one definition (NAME, PATH.toml or conf=PATH)"), "{two}");
        assert!(spec(&["gpsusi", "tc=fast"]).is_err(), "a bad value is refused");
        assert!(spec(&["no-such-engine", "tc=nodes=1"]).is_err());
    }

    #[test]
    fn toml_errors_name_line_and_column() {
        let at = |text: &str| EngineConfig::from_toml(text, Path::new("."), "e", "e.toml").expect_err("broken").at;
        assert_eq!(at("command = \"x\"\nbogus = 1\n"), Some((2, 1)), "an unknown key");
        assert_eq!(at("command = \"x\"\ntc = \"fast\"\n"), Some((2, 6)), "a bad time control");
        assert_eq!(at("# 駒\ncommand = \"x\"\nusi_timeout = \"ten\""), Some((3, 15)), "a string for a number");
        assert_eq!(at("command = \"x\"\n[options\n"), Some((2, 9)), "broken syntax");
        assert_eq!(at("name = \"x\"\n"), Some((1, 1)), "a missing key: the file's start");
        let e = EngineConfig::from_toml("command = 1", Path::new("."), "e", "e.toml").expect_err("not a string");
        assert!(e.to_string().starts_with("engine definition e.toml: line 1, column 11: "), "{e}");
        assert_eq!(EngineConfig::from_spec(&["bogus=1".to_string()], Path::new(".")).expect_err("bad").at, None);
    }

    #[test]
    fn shipped_definitions_are_built_in() {
        let nowhere = Path::new("/nonexistent-engines-dir");
        let fsf = EngineConfig::from_spec(&["fairy-stockfish".to_string()], nowhere).expect("built in");
        assert_eq!(fsf.command, PathBuf::from("/usr/games/fairy-stockfish"));
        assert!(fsf.options.iter().any(|(k, _)| k == "Move Overhead"));
        let gps = EngineConfig::named("gpsusi", nowhere).expect("built in");
        assert_eq!(gps.tc, Some(TimeControl::Clock { time: 0, inc: 0, byoyomi: 1000 }));
        assert_eq!((gps.usi_timeout, gps.time_margin), (Some(60), Some(1000)));
        assert_eq!(EngineConfig::named("hisha", nowhere).expect("built in").command, self_command());
        let missing = EngineConfig::named("no-such-engine", nowhere).expect_err("unknown");
        assert!(missing.reason.contains("fairy-stockfish"), "{missing}");
    }
}
