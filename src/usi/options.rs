//! The engine's USI options (usi.md §4.1, §5): declarations printed after `usi`, and typed values
//! set by `setoption` (names are case-insensitive; bad values are rejected with a reason and the
//! old value is kept).

use crate::position::EnteringKingRule;
use crate::search::{SearchOptions, TimeOptions};

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
    /// What it does (for the README and `--help`).
    pub doc: &'static str,
}

/// Every option hisha declares.
pub const OPTIONS: &[OptionDecl] = &[
    OptionDecl {
        name: "USI_Hash",
        kind: OptionKind::Spin(64, 1, 65536),
        doc: "transposition table size in MiB (allocated on isready)",
    },
    OptionDecl {
        name: "USI_Ponder",
        kind: OptionKind::Check(true),
        doc: "the GUI may send go ponder (hisha never ponders on its own)",
    },
    OptionDecl {
        name: "Threads",
        kind: OptionKind::Spin(1, 1, 256),
        doc: "search threads (the search uses one thread; more are accepted)",
    },
    OptionDecl { name: "MultiPV", kind: OptionKind::Spin(1, 1, 600), doc: "number of best lines reported in analysis" },
    OptionDecl {
        name: "NetworkDelay",
        kind: OptionKind::Spin(60, 0, 10000),
        doc: "ms kept back from every deadline (process and GUI latency)",
    },
    OptionDecl {
        name: "ByoyomiMargin",
        kind: OptionKind::Spin(0, 0, 10000),
        doc: "extra ms kept back when playing on byoyomi",
    },
    OptionDecl {
        name: "MinimumThinkingTime",
        kind: OptionKind::Spin(20, 0, 60000),
        doc: "never plan to think less than this (ms)",
    },
    OptionDecl {
        name: "SlowMover",
        kind: OptionKind::Spin(100, 10, 1000),
        doc: "percent scaling of the main-time share per move",
    },
    OptionDecl {
        name: "ResignValue",
        kind: OptionKind::Spin(99999, 0, 99999),
        doc: "resign when the score is at or below minus this (99999 = never)",
    },
    OptionDecl {
        name: "DrawValue",
        kind: OptionKind::Spin(0, -3000, 3000),
        doc: "score of a draw for hisha, in centipawns",
    },
    OptionDecl {
        name: "MaxMovesToDraw",
        kind: OptionKind::Spin(0, 0, 100000),
        doc: "game length in plies after which the game is a draw (0 = none)",
    },
    OptionDecl {
        name: "EnteringKingRule",
        kind: OptionKind::Combo("CSARule27", &["NoEnteringKing", "CSARule24", "CSARule27"]),
        doc: "entering-king declaration rule (bestmove win)",
    },
    OptionDecl {
        name: "DepthLimit",
        kind: OptionKind::Spin(0, 0, 120),
        doc: "maximum search depth for every go (0 = none)",
    },
    OptionDecl {
        name: "NodesLimit",
        kind: OptionKind::Spin(0, 0, i64::MAX),
        doc: "maximum nodes for every go (0 = none)",
    },
    OptionDecl {
        name: "BookFile",
        kind: OptionKind::Filename("builtin"),
        doc: "YaneuraOu-format book (`builtin` = hisha's own; empty = none), loaded on isready",
    },
    OptionDecl { name: "UseBook", kind: OptionKind::Check(true), doc: "play book moves" },
    OptionDecl { name: "BookMoves", kind: OptionKind::Spin(32, 0, 10000), doc: "use the book up to this game ply" },
    OptionDecl {
        name: "BookPick",
        kind: OptionKind::Combo("weighted", &["best", "weighted", "random"]),
        doc: "book move choice: best value, weighted by count, or random within BookEvalDiff of the best",
    },
    OptionDecl {
        name: "BookEvalDiff",
        kind: OptionKind::Spin(30, 0, 10000),
        doc: "centipawns below the best a random book move may be",
    },
    OptionDecl {
        name: "BookIgnoreRate",
        kind: OptionKind::Spin(0, 0, 100),
        doc: "percent of book positions where hisha searches instead (variety)",
    },
    OptionDecl { name: "ClearHash", kind: OptionKind::Button, doc: "empty the transposition table" },
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

    /// `USI_Hash` in MiB.
    pub fn hash_mib(&self) -> usize {
        self.int("USI_Hash").max(1) as usize
    }

    /// `BookFile` (`builtin`, a path, or empty for none).
    pub fn book_file(&self) -> &str {
        self.text("BookFile")
    }

    /// `UseBook`.
    pub fn use_book(&self) -> bool {
        matches!(Options::index("UseBook").map(|i| &self.values[i]), Some(Value::Bool(true)))
    }

    /// `BookMoves`.
    pub fn book_moves(&self) -> u32 {
        self.int("BookMoves") as u32
    }

    /// `BookIgnoreRate` in percent.
    pub fn book_ignore_rate(&self) -> u32 {
        self.int("BookIgnoreRate") as u32
    }

    /// How to pick among book moves.
    pub fn book_pick(&self) -> crate::book::Pick {
        match self.text("BookPick") {
            "best" => crate::book::Pick::Best,
            "random" => crate::book::Pick::Random { margin: self.int("BookEvalDiff") as i32 },
            _ => crate::book::Pick::Weighted,
        }
    }

    /// `DepthLimit` (None = no limit).
    pub fn depth_limit(&self) -> Option<u32> {
        Some(self.int("DepthLimit") as u32).filter(|&d| d > 0)
    }

    /// `NodesLimit` (None = no limit).
    pub fn nodes_limit(&self) -> Option<u64> {
        Some(self.int("NodesLimit") as u64).filter(|&n| n > 0)
    }

    /// The entering-king rule.
    pub fn entering_king_rule(&self) -> EnteringKingRule {
        match self.text("EnteringKingRule") {
            "NoEnteringKing" => EnteringKingRule::None,
            "CSARule24" => EnteringKingRule::Point24,
            _ => EnteringKingRule::Point27,
        }
    }

    /// The search settings; `byoyomi` says whether the coming move is played on byoyomi.
    pub fn search_options(&self, byoyomi: bool) -> SearchOptions {
        let margin = if byoyomi { self.int("ByoyomiMargin") } else { 0 };
        SearchOptions {
            multipv: self.int("MultiPV").max(1) as usize,
            draw_value: self.int("DrawValue") as i32,
            entering_king_rule: self.entering_king_rule(),
            max_moves_to_draw: self.int("MaxMovesToDraw") as u32,
            resign_value: self.int("ResignValue") as i32,
            time: TimeOptions {
                network_delay: (self.int("NetworkDelay") + margin) as u64,
                minimum_thinking_time: self.int("MinimumThinkingTime") as u64,
                slow_mover: self.int("SlowMover") as u64,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("usi_hash", Some("256")), Ok(OptionEffect::Stored));
        assert_eq!(o.hash_mib(), 256);
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert!(o.set("USI_Hash", Some("lots")).is_err());
        assert_eq!(o.hash_mib(), 256, "a rejected value keeps the old one");
        assert_eq!(o.set("enteringkingrule", Some("csarule24")), Ok(OptionEffect::Stored));
        assert_eq!(o.entering_king_rule(), EnteringKingRule::Point24);
        assert!(o.set("EnteringKingRule", Some("TryRule")).is_err());
        assert_eq!(o.set("USI_Ponder", Some("FALSE")), Ok(OptionEffect::Stored));
        assert!(o.set("USI_Ponder", Some("maybe")).is_err());
        assert_eq!(o.set("ClearHash", None), Ok(OptionEffect::ClearHash));
        assert_eq!(o.set("Nonsense", Some("1")), Err(OptionError::Unknown("Nonsense".into())));
    }

    #[test]
    fn byoyomi_margin_adds_to_the_network_delay_on_byoyomi_only() {
        let mut o = Options::default();
        o.set("NetworkDelay", Some("100")).expect("valid");
        o.set("ByoyomiMargin", Some("50")).expect("valid");
        assert_eq!(o.search_options(true).time.network_delay, 150);
        assert_eq!(o.search_options(false).time.network_delay, 100);
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
