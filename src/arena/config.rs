//! Engine definitions for `hisha match`: `engines/*.toml` files and `--engine key=value …` specs.
//!
//! A file holds `name`, `command` (relative paths resolve against the file's folder; `"self"` is
//! the running hisha), `args`, `dir` (working directory), `tc` (this engine's own time control) and
//! an `[options]` table of USI options (names may contain spaces). On the command line:
//! `--engine name=N cmd=PATH [arg=A]… [dir=D] [option.X=V]… [tc=TC]`, or `--engine NAME` for
//! `engines/NAME.toml`.

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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    dir: Option<String>,
    tc: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

/// A bad engine definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine definition {source_name}: {reason}")]
pub struct ConfigError {
    /// The file or command-line spec.
    pub source_name: String,
    /// What is wrong.
    pub reason: String,
}

fn err(source_name: &str, reason: impl Into<String>) -> ConfigError {
    ConfigError { source_name: source_name.to_string(), reason: reason.into() }
}

/// The running hisha binary (for `command = "self"` and the default engine).
pub fn self_command() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("hisha"))
}

fn resolve(base: &Path, p: &str) -> PathBuf {
    if p == "self" {
        return self_command();
    }
    let path = PathBuf::from(p);
    // Bare names (`fairy-stockfish`) are looked up on PATH by the OS; paths are relative to the file.
    if path.is_absolute() || !p.contains('/') { path } else { base.join(path) }
}

impl EngineConfig {
    /// hisha itself with default options.
    pub fn hisha() -> EngineConfig {
        EngineConfig {
            name: "hisha".into(),
            command: self_command(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            tc: None,
        }
    }

    /// Reads a `.toml` engine definition.
    pub fn from_file(path: &Path) -> Result<EngineConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| err(&shown, e.to_string()))?;
        let f: File = toml::from_str(&text).map_err(|e| err(&shown, e.to_string()))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let options = f
            .options
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    toml::Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, v)
            })
            .collect();
        let tc = f.tc.map(|t| t.parse::<TimeControl>().map_err(|e| err(&shown, e.to_string()))).transpose()?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(EngineConfig {
            name: f.name.unwrap_or(stem),
            command: resolve(&base, &f.command),
            args: f.args,
            dir: f.dir.map(|d| resolve(&base, &d)),
            options,
            tc,
        })
    }

    /// Builds a definition from `--engine` words: `NAME` (a file in `engines_dir`) or `key=value`s.
    pub fn from_spec(words: &[String], engines_dir: &Path) -> Result<EngineConfig, ConfigError> {
        let shown = words.join(" ");
        if let [single] = words {
            if !single.contains('=') {
                let file = engines_dir.join(format!("{single}.toml"));
                return EngineConfig::from_file(&file);
            }
        }
        let mut c = EngineConfig {
            name: String::new(),
            command: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            tc: None,
        };
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| err(&shown, format!("{w:?} is not key=value")))?;
            match k {
                "name" => c.name = v.to_string(),
                "cmd" | "command" => c.command = resolve(Path::new("."), v),
                "arg" => c.args.push(v.to_string()),
                "dir" => c.dir = Some(PathBuf::from(v)),
                "tc" => {
                    c.tc = Some(v.parse().map_err(|e: super::tc::ParseTimeControlError| err(&shown, e.to_string()))?)
                }
                "conf" | "config" => return EngineConfig::from_file(Path::new(v)),
                _ => match k.strip_prefix("option.") {
                    Some(name) => c.options.push((name.to_string(), v.to_string())),
                    None => return Err(err(&shown, format!("unknown key {k:?}"))),
                },
            }
        }
        if c.command.as_os_str().is_empty() {
            return Err(err(&shown, "cmd=PATH is required"));
        }
        if c.name.is_empty() {
            c.name = c.command.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "engine".into());
        }
        Ok(c)
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
        let dir = std::env::temp_dir().join(format!("hisha-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("my engine.toml");
        std::fs::write(&file, "command = \"bin/eng\"\nargs = [\"--usi\"]\ntc = \"st=100\"\n[options]\nUSI_Hash = 32\n\"Use Book\" = false\n").expect("write");
        let c = EngineConfig::from_file(&file).expect("valid");
        assert_eq!(c.name, "my engine");
        assert_eq!(c.command, dir.join("bin/eng"));
        assert_eq!(
            c.options,
            vec![("USI_Hash".to_string(), "32".to_string()), ("Use Book".to_string(), "false".to_string())]
        );
        assert_eq!(c.tc, Some(TimeControl::MoveTime(100)));
        std::fs::write(&file, "command = \"x\"\nbogus = 1\n").expect("write");
        assert!(EngineConfig::from_file(&file).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
