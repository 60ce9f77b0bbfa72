//! The engine's USI options (usi.md §4.1, §5): declarations printed after `usi`, and typed values
//! set by `setoption` (names are case-insensitive; bad values are rejected with a reason and the
//! old value is kept).

use crate::engine::{BookPick, BookSettings, BookSource, EvalSource, Settings};

/// The type and range of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check` (true/false).
    Check(bool),
    /// `spin` with default, min and max.
    Spin(i64, i64, i64),
    /// `combo` with default and the allowed values.
    Combo(&'static str, &'static [&'static str]),
    /// `filename` (free text, a path).
    Filename(&'static str),
    /// `button` (no value).
    Button,
}

/// A declared option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Name as declared.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
}

/// Every option hisha declares.
pub const OPTIONS: &[OptionDecl] = &[
    // transposition table size in MiB (allocated on isready)
    OptionDecl { name: "USI_Hash", kind: OptionKind::Spin(64, 1, 65536) },
    // the GUI may send go ponder (hisha never ponders on its own)
    OptionDecl { name: "USI_Ponder", kind: OptionKind::Check(true) },
    // search threads (Lazy SMP; started on setoption and isready)
    OptionDecl { name: "Threads", kind: OptionKind::Spin(1, 1, 256) },
    // number of best lines reported in analysis
    OptionDecl { name: "MultiPV", kind: OptionKind::Spin(1, 1, 600) },
    // ms kept back from every deadline (process and GUI latency)
    OptionDecl { name: "NetworkDelay", kind: OptionKind::Spin(60, 0, 10000) },
    // extra ms kept back when playing on byoyomi
    OptionDecl { name: "ByoyomiMargin", kind: OptionKind::Spin(0, 0, 10000) },
    // never plan to think less than this (ms)
    OptionDecl { name: "MinimumThinkingTime", kind: OptionKind::Spin(20, 0, 60000) },
    // percent scaling of the main-time share per move
    OptionDecl { name: "SlowMover", kind: OptionKind::Spin(100, 10, 1000) },
    // resign when the score is at or below minus this (99999 = never)
    OptionDecl { name: "ResignValue", kind: OptionKind::Spin(99999, 0, 99999) },
    // score of a draw for hisha, in centipawns
    OptionDecl { name: "DrawValue", kind: OptionKind::Spin(0, -3000, 3000) },
    // game length in plies after which the game is a draw (0 = none)
    OptionDecl { name: "MaxMovesToDraw", kind: OptionKind::Spin(0, 0, 100000) },
    // entering-king declaration rule (bestmove win)
    OptionDecl {
        name: "EnteringKingRule",
        kind: OptionKind::Combo("CSARule27", &["NoEnteringKing", "CSARule24", "CSARule27"]),
    },
    // maximum search depth for every go (0 = none)
    OptionDecl { name: "DepthLimit", kind: OptionKind::Spin(0, 0, 120) },
    // maximum nodes for every go (0 = none)
    OptionDecl { name: "NodesLimit", kind: OptionKind::Spin(0, 0, i64::MAX) },
    // YaneuraOu-format book (`builtin` = hisha's own; empty = none), loaded on isready
    OptionDecl { name: "BookFile", kind: OptionKind::Filename("builtin") },
    // play book moves
    OptionDecl { name: "UseBook", kind: OptionKind::Check(true) },
    // use the book up to this game ply
    OptionDecl { name: "BookMoves", kind: OptionKind::Spin(32, 0, 10000) },
    // book move choice: best value, weighted by count, or random within BookEvalDiff of the best
    OptionDecl { name: "BookPick", kind: OptionKind::Combo("weighted", &["best", "weighted", "random"]) },
    // centipawns below the best a random book move may be
    OptionDecl { name: "BookEvalDiff", kind: OptionKind::Spin(30, 0, 10000) },
    // percent of book positions where hisha searches instead (variety)
    OptionDecl { name: "BookIgnoreRate", kind: OptionKind::Spin(0, 0, 100) },
    // empty the transposition table
    OptionDecl { name: "ClearHash", kind: OptionKind::Button },
    // YaneuraOu-format nn.bin (or a folder holding one), loaded on isready; `builtin` or empty =
    // the built-in net; `linear`: the linear evaluation
    OptionDecl { name: "EvalFile", kind: OptionKind::Filename("builtin") },
];

impl OptionDecl {
    /// The `option …` line for `usi`.
    pub fn usi_line(&self) -> String {
        match self.kind {
            OptionKind::Check(d) => format!("option name {} type check default {d}", self.name),
            OptionKind::Spin(d, lo, hi) => format!("option name {} type spin default {d} min {lo} max {hi}", self.name),
            OptionKind::Combo(d, vars) => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!("option name {} type combo default {d} {}", self.name, vars.join(" "))
            }
            OptionKind::Button => format!("option name {} type button", self.name),
            OptionKind::Filename(d) => {
                format!("option name {} type filename default {}", self.name, if d.is_empty() { "<empty>" } else { d })
            }
        }
    }
}

/// A rejected `setoption`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// The value does not fit the option.
    #[error("option {name}: {reason}")]
    BadValue {
        /// Option name.
        name: &'static str,
        /// Why.
        reason: String,
    },
}

/// The value of one option.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
    None,
}

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    values: Vec<Value>,
}

impl Default for Options {
    fn default() -> Options {
        let values = OPTIONS
            .iter()
            .map(|d| match d.kind {
                OptionKind::Check(b) => Value::Bool(b),
                OptionKind::Spin(v, ..) => Value::Int(v),
                OptionKind::Combo(v, _) => Value::Text(v.to_string()),
                OptionKind::Filename(v) => Value::Text(v.to_string()),
                OptionKind::Button => Value::None,
            })
            .collect();
        Options { values }
    }
}

/// What a successful `setoption` asks the engine to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// Nothing beyond storing the value.
    Stored,
    /// The `ClearHash` button was pressed.
    ClearHash,
}

impl Options {
    fn index(name: &str) -> Option<usize> {
        OPTIONS.iter().position(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// Sets `name` to `value` (checked against the declaration).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        let i = Options::index(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let decl = OPTIONS[i];
        let bad = |reason: String| OptionError::BadValue { name: decl.name, reason };
        let text = value.map(str::trim).unwrap_or("");
        self.values[i] = match decl.kind {
            OptionKind::Button => {
                return Ok(if decl.name == "ClearHash" { OptionEffect::ClearHash } else { OptionEffect::Stored });
            }
            OptionKind::Check(_) => match text.to_ascii_lowercase().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(bad(format!("{text:?} is not true or false"))),
            },
            OptionKind::Spin(_, lo, hi) => {
                let v: i64 = text.parse().map_err(|_| bad(format!("{text:?} is not a number")))?;
                if v < lo || v > hi {
                    return Err(bad(format!("{v} is outside {lo}..{hi}")));
                }
                Value::Int(v)
            }
            OptionKind::Filename(_) => Value::Text(match text {
                "<empty>" => String::new(),
                t => t.to_string(),
            }),
            OptionKind::Combo(_, vars) => match vars.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                Some(v) => Value::Text(v.to_string()),
                None => return Err(bad(format!("{text:?} is not one of {}", vars.join(", ")))),
            },
        };
        Ok(OptionEffect::Stored)
    }

    fn int(&self, name: &str) -> i64 {
        match Options::index(name).map(|i| &self.values[i]) {
            Some(Value::Int(v)) => *v,
            _ => 0,
        }
    }

    fn text(&self, name: &str) -> &str {
        match Options::index(name).map(|i| &self.values[i]) {
            Some(Value::Text(v)) => v,
            _ => "",
        }
    }

    fn check(&self, name: &str) -> bool {
        matches!(Options::index(name).map(|i| &self.values[i]), Some(Value::Bool(true)))
    }

    /// The engine settings these values stand for.
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            hash_mib: self.int("USI_Hash").max(1) as usize,
            threads: self.int("Threads").max(1) as usize,
            multipv: self.int("MultiPV").max(1) as usize,
            draw_value: self.int("DrawValue") as i32,
            // A declared value (the test below checks that each one parses).
            entering_king_rule: self.text("EnteringKingRule").parse().unwrap_or_default(),
            max_moves_to_draw: self.int("MaxMovesToDraw") as u32,
            resign_value: self.int("ResignValue") as i32,
            network_delay: self.int("NetworkDelay") as u64,
            byoyomi_margin: self.int("ByoyomiMargin") as u64,
            minimum_thinking_time: self.int("MinimumThinkingTime") as u64,
            slow_mover: self.int("SlowMover") as u64,
            depth_limit: Some(self.int("DepthLimit") as u32).filter(|&d| d > 0),
            nodes_limit: Some(self.int("NodesLimit") as u64).filter(|&n| n > 0),
            book: BookSettings {
                source: match self.text("BookFile") {
                    "" => BookSource::None,
                    "builtin" => BookSource::Builtin,
                    path => BookSource::File(path.into()),
                },
                enabled: self.check("UseBook"),
                last_move_number: self.int("BookMoves") as u32,
                pick: match self.text("BookPick") {
                    "best" => BookPick::Best,
                    "random" => BookPick::Random { margin: self.int("BookEvalDiff") as i32 },
                    _ => BookPick::Weighted,
                },
                ignore_percent: self.int("BookIgnoreRate") as u32,
            },
            eval: EvalSource::named(self.text("EvalFile")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::EnteringKingRule;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("usi_hash", Some("256")), Ok(OptionEffect::Stored));
        assert_eq!(o.settings().hash_mib, 256);
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert!(o.set("USI_Hash", Some("lots")).is_err());
        assert_eq!(o.settings().hash_mib, 256, "a rejected value keeps the old one");
        assert_eq!(o.set("enteringkingrule", Some("csarule24")), Ok(OptionEffect::Stored));
        assert_eq!(o.settings().entering_king_rule, EnteringKingRule::Point24);
        assert!(o.set("EnteringKingRule", Some("TryRule")).is_err());
        assert_eq!(o.set("USI_Ponder", Some("FALSE")), Ok(OptionEffect::Stored));
        assert!(o.set("USI_Ponder", Some("maybe")).is_err());
        assert_eq!(o.set("ClearHash", None), Ok(OptionEffect::ClearHash));
        assert_eq!(o.set("Nonsense", Some("1")), Err(OptionError::Unknown("Nonsense".into())));
    }

    #[test]
    fn the_declared_defaults_are_these_settings() {
        let s = Options::default().settings();
        let book = BookSettings {
            source: BookSource::Builtin,
            enabled: true,
            last_move_number: 32,
            pick: BookPick::Weighted,
            ignore_percent: 0,
        };
        // The unit tests' settings are these defaults but for a smaller table, no resignation
        // and no book.
        let expected = Settings { hash_mib: 64, resign_value: 99999, book, ..Settings::for_tests() };
        assert_eq!(s, expected);
    }

    #[test]
    fn every_option_with_an_effect_reaches_the_settings() {
        let set = |name: &str, value: &str| {
            let mut o = Options::default();
            o.set(name, Some(value)).unwrap_or_else(|e| panic!("{name}: {e}"));
            o.settings()
        };
        assert_eq!(set("MultiPV", "3").multipv, 3);
        assert_eq!(set("DrawValue", "-50").draw_value, -50);
        assert_eq!(set("MaxMovesToDraw", "256").max_moves_to_draw, 256);
        assert_eq!(set("ResignValue", "3000").resign_value, 3000);
        assert_eq!(set("NetworkDelay", "100").network_delay, 100);
        assert_eq!(set("ByoyomiMargin", "50").byoyomi_margin, 50);
        assert_eq!(set("MinimumThinkingTime", "500").minimum_thinking_time, 500);
        assert_eq!(set("SlowMover", "50").slow_mover, 50);
        assert_eq!(set("DepthLimit", "7").depth_limit, Some(7));
        assert_eq!(set("NodesLimit", "1000").nodes_limit, Some(1000));
        assert_eq!(set("BookFile", "<empty>").book.source, BookSource::None);
        assert_eq!(set("BookFile", "my.db").book.source, BookSource::File("my.db".into()));
        assert!(!set("UseBook", "false").book.enabled);
        assert_eq!(set("BookMoves", "10").book.last_move_number, 10);
        assert_eq!(set("BookPick", "best").book.pick, BookPick::Best);
        assert_eq!(set("BookPick", "random").book.pick, BookPick::Random { margin: 30 });
        assert_eq!(set("BookIgnoreRate", "25").book.ignore_percent, 25);
        assert_eq!(set("EnteringKingRule", "NoEnteringKing").entering_king_rule, EnteringKingRule::None);
        assert_eq!(set("EvalFile", "nets/nn.bin").eval, EvalSource::File("nets/nn.bin".into()));
        assert_eq!(set("EvalFile", "<empty>").eval, EvalSource::Builtin);
        assert_eq!(set("EvalFile", "linear").eval, EvalSource::Linear);
    }

    #[test]
    fn the_readme_lists_every_option_with_its_default() {
        let readme = include_str!("../../README.md");
        for d in OPTIONS {
            let default = match d.kind {
                OptionKind::Check(b) => b.to_string(),
                OptionKind::Spin(v, ..) => v.to_string(),
                OptionKind::Combo(v, _) | OptionKind::Filename(v) => v.to_string(),
                OptionKind::Button => String::new(),
            };
            let row = format!("| `{}` | ", d.name);
            let line = readme.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("{} is missing", d.name));
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cells.get(3), Some(&default.as_str()), "{line}");
        }
    }

    #[test]
    fn the_entering_king_rule_values_are_the_rules_usi_names() {
        let decl = OPTIONS.iter().find(|d| d.name == "EnteringKingRule").map(|d| d.kind);
        let Some(OptionKind::Combo(default, vars)) = decl else { panic!("EnteringKingRule is a combo: {decl:?}") };
        let names: Vec<String> = EnteringKingRule::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(vars, names, "each declared value is a rule's name, which parses back to it");
        assert_eq!(default, EnteringKingRule::default().to_string());
    }

    #[test]
    fn declarations_are_well_formed() {
        for d in OPTIONS {
            let line = d.usi_line();
            assert!(line.starts_with(&format!("option name {} type ", d.name)), "{line}");
            if let OptionKind::Spin(v, lo, hi) = d.kind {
                assert!(lo <= v && v <= hi, "{line}");
            }
        }
    }
}
