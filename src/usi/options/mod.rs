//! The engine's USI options (usi.md §4.1, §5): declarations printed after `usi`
//! ([`declarations`]), and typed values set by `setoption` (names are case-insensitive; bad values
//! are rejected with a reason and the old value is kept), each kept under its option's typed key.

mod declarations;

pub use declarations::OPTIONS;
use declarations::{Button, Check, Combo, Filename, OptionDecl, OptionKind, Spin};

use crate::engine::{BookPick, BookSettings, BookSource, EvalSource, Settings};

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

/// Current option values, by type, each at its key's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    checks: [bool; Check::COUNT],
    spins: [i64; Spin::COUNT],
    /// One of the option's declared values, as declared.
    combos: [&'static str; Combo::COUNT],
    /// Empty for `<empty>`.
    filenames: [String; Filename::COUNT],
}

impl Default for Options {
    fn default() -> Options {
        let mut o = Options {
            checks: [false; Check::COUNT],
            spins: [0; Spin::COUNT],
            combos: [""; Combo::COUNT],
            filenames: Default::default(),
        };
        // Every key has one declaration (declarations.rs: every_key_is_declared_once).
        for d in OPTIONS {
            match d.kind {
                OptionKind::Check(k, v) => o.checks[k as usize] = v,
                OptionKind::Spin(k, v, ..) => o.spins[k as usize] = v,
                OptionKind::Combo(k, v, _) => o.combos[k as usize] = v,
                OptionKind::Filename(k, v) => o.filenames[k as usize] = v.to_string(),
                OptionKind::Button(_) => {}
            }
        }
        o
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
    /// Sets `name` to `value` (checked against the declaration).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        let decl = OptionDecl::named(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let bad = |reason: String| OptionError::BadValue { name: decl.name, reason };
        let text = value.map(str::trim).unwrap_or("");
        match decl.kind {
            OptionKind::Button(Button::ClearHash) => return Ok(OptionEffect::ClearHash),
            OptionKind::Check(k, _) => {
                self.checks[k as usize] = match text.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad(format!("{text:?} is not true or false"))),
                }
            }
            OptionKind::Spin(k, _, lo, hi) => {
                let v: i64 = text.parse().map_err(|_| bad(format!("{text:?} is not a number")))?;
                if v < lo || v > hi {
                    return Err(bad(format!("{v} is outside {lo}..{hi}")));
                }
                self.spins[k as usize] = v;
            }
            OptionKind::Filename(k, _) => {
                self.filenames[k as usize] = match text {
                    "<empty>" => String::new(),
                    t => t.to_string(),
                }
            }
            OptionKind::Combo(k, _, vars) => match vars.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                Some(v) => self.combos[k as usize] = v,
                None => return Err(bad(format!("{text:?} is not one of {}", vars.join(", ")))),
            },
        }
        Ok(OptionEffect::Stored)
    }

    fn check(&self, key: Check) -> bool {
        self.checks[key as usize]
    }

    fn spin(&self, key: Spin) -> i64 {
        self.spins[key as usize]
    }

    fn combo(&self, key: Combo) -> &'static str {
        self.combos[key as usize]
    }

    fn filename(&self, key: Filename) -> &str {
        &self.filenames[key as usize]
    }

    /// The engine settings these values stand for.
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            hash_mib: self.spin(Spin::Hash).max(1) as usize,
            threads: self.spin(Spin::Threads).max(1) as usize,
            multipv: self.spin(Spin::MultiPv).max(1) as usize,
            draw_value: self.spin(Spin::DrawValue) as i32,
            // A declared value (declarations.rs: the_entering_king_rule_values_are_the_rules_usi_names).
            entering_king_rule: self.combo(Combo::EnteringKingRule).parse().unwrap_or_default(),
            max_moves_to_draw: self.spin(Spin::MaxMovesToDraw) as u32,
            resign_value: self.spin(Spin::ResignValue) as i32,
            network_delay: self.spin(Spin::NetworkDelay) as u64,
            byoyomi_margin: self.spin(Spin::ByoyomiMargin) as u64,
            minimum_thinking_time: self.spin(Spin::MinimumThinkingTime) as u64,
            slow_mover: self.spin(Spin::SlowMover) as u64,
            depth_limit: Some(self.spin(Spin::DepthLimit) as u32).filter(|&d| d > 0),
            nodes_limit: Some(self.spin(Spin::NodesLimit) as u64).filter(|&n| n > 0),
            book: BookSettings {
                source: match self.filename(Filename::BookFile) {
                    "" => BookSource::None,
                    "builtin" => BookSource::Builtin,
                    path => BookSource::File(path.into()),
                },
                enabled: self.check(Check::UseBook),
                last_move_number: self.spin(Spin::BookMoves) as u32,
                pick: match self.combo(Combo::BookPick) {
                    "best" => BookPick::Best,
                    "random" => BookPick::Random { margin: self.spin(Spin::BookEvalDiff) as i32 },
                    _ => BookPick::Weighted,
                },
                ignore_percent: self.spin(Spin::BookIgnoreRate) as u32,
            },
            eval: EvalSource::named(self.filename(Filename::EvalFile)),
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
        assert_eq!(set("Threads", "4").threads, 4);
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
        let mut o = Options::default();
        assert_eq!(o.set("BookPick", Some("random")).and(o.set("BookEvalDiff", Some("45"))), Ok(OptionEffect::Stored));
        assert_eq!(o.settings().book.pick, BookPick::Random { margin: 45 });
        assert_eq!(set("EnteringKingRule", "NoEnteringKing").entering_king_rule, EnteringKingRule::None);
        assert_eq!(set("EvalFile", "nets/nn.bin").eval, EvalSource::File("nets/nn.bin".into()));
        assert_eq!(set("EvalFile", "<empty>").eval, EvalSource::Builtin);
        assert_eq!(set("EvalFile", "linear").eval, EvalSource::Linear);
    }
}
