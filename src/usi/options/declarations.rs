//! The options hisha declares after `usi` (usi.md §4.1, §5), in the order it prints them: each
//! with its USI name, its type, default and range, and the typed key its value is kept under (a
//! key of the option's type, so a value is read back by a name the compiler checks, as the type
//! it has).

/// An enum of option keys with `COUNT`, how many there are (`key as usize` is below it).
macro_rules! option_keys {
    ($(#[$doc:meta])* $name:ident { $($(#[$key_doc:meta])* $key:ident,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$key_doc])* $key,)*
        }

        impl $name {
            /// How many keys there are: `key as usize` is below it, the index of the key's value.
            pub const COUNT: usize = [$(stringify!($key),)*].len();
        }
    };
}

option_keys! {
    /// The `check` options (true or false).
    Check {
        /// `USI_Ponder`.
        Ponder,
        /// `UseBook`.
        UseBook,
    }
}

option_keys! {
    /// The `spin` options (an integer in a range).
    Spin {
        /// `USI_Hash`.
        Hash,
        /// `Threads`.
        Threads,
        /// `MultiPV`.
        MultiPv,
        /// `NetworkDelay`.
        NetworkDelay,
        /// `ByoyomiMargin`.
        ByoyomiMargin,
        /// `MinimumThinkingTime`.
        MinimumThinkingTime,
        /// `SlowMover`.
        SlowMover,
        /// `ResignValue`.
        ResignValue,
        /// `DrawValue`.
        DrawValue,
        /// `MaxMovesToDraw`.
        MaxMovesToDraw,
        /// `DepthLimit`.
        DepthLimit,
        /// `NodesLimit`.
        NodesLimit,
        /// `BookMoves`.
        BookMoves,
        /// `BookEvalDiff`.
        BookEvalDiff,
        /// `BookIgnoreRate`.
        BookIgnoreRate,
    }
}

option_keys! {
    /// The `combo` options (one of the declared values).
    Combo {
        /// `EnteringKingRule`.
        EnteringKingRule,
        /// `BookPick`.
        BookPick,
    }
}

option_keys! {
    /// The `filename` options (free text, a path).
    Filename {
        /// `BookFile`.
        BookFile,
        /// `EvalFile`.
        EvalFile,
    }
}

/// The `button` options (no value: pressing one does something; no value is kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// `ClearHash`.
    ClearHash,
}

/// The type of an option, with its key and its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check` with its default.
    Check(Check, bool),
    /// `spin` with default, min and max.
    Spin(Spin, i64, i64, i64),
    /// `combo` with default and the allowed values.
    Combo(Combo, &'static str, &'static [&'static str]),
    /// `filename` (free text, a path) with its default.
    Filename(Filename, &'static str),
    /// `button` (no value).
    Button(Button),
}

/// A declared option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Name as declared.
    pub name: &'static str,
    /// Type, key, default and range.
    pub kind: OptionKind,
}

/// Every option hisha declares.
pub const OPTIONS: &[OptionDecl] = &[
    // transposition table size in MiB (allocated on isready)
    OptionDecl { name: "USI_Hash", kind: OptionKind::Spin(Spin::Hash, 64, 1, 65536) },
    // the GUI may send go ponder (hisha never ponders on its own)
    OptionDecl { name: "USI_Ponder", kind: OptionKind::Check(Check::Ponder, true) },
    // search threads (Lazy SMP; started on setoption and isready)
    OptionDecl { name: "Threads", kind: OptionKind::Spin(Spin::Threads, 1, 1, 256) },
    // number of best lines reported in analysis
    OptionDecl { name: "MultiPV", kind: OptionKind::Spin(Spin::MultiPv, 1, 1, 600) },
    // ms kept back from every deadline (process and GUI latency)
    OptionDecl { name: "NetworkDelay", kind: OptionKind::Spin(Spin::NetworkDelay, 60, 0, 10000) },
    // extra ms kept back when playing on byoyomi
    OptionDecl { name: "ByoyomiMargin", kind: OptionKind::Spin(Spin::ByoyomiMargin, 0, 0, 10000) },
    // never plan to think less than this (ms)
    OptionDecl { name: "MinimumThinkingTime", kind: OptionKind::Spin(Spin::MinimumThinkingTime, 20, 0, 60000) },
    // percent scaling of the main-time share per move
    OptionDecl { name: "SlowMover", kind: OptionKind::Spin(Spin::SlowMover, 100, 10, 1000) },
    // resign when the score is at or below minus this (99999 = never)
    OptionDecl { name: "ResignValue", kind: OptionKind::Spin(Spin::ResignValue, 99999, 0, 99999) },
    // score of a draw for hisha, in centipawns
    OptionDecl { name: "DrawValue", kind: OptionKind::Spin(Spin::DrawValue, 0, -3000, 3000) },
    // game length in plies after which the game is a draw (0 = none)
    OptionDecl { name: "MaxMovesToDraw", kind: OptionKind::Spin(Spin::MaxMovesToDraw, 0, 0, 100000) },
    // entering-king declaration rule (bestmove win); the values are the rules' names
    // (position::EnteringKingRule's Display)
    OptionDecl {
        name: "EnteringKingRule",
        kind: OptionKind::Combo(Combo::EnteringKingRule, "CSARule27", &["NoEnteringKing", "CSARule24", "CSARule27"]),
    },
    // maximum search depth for every go (0 = none)
    OptionDecl { name: "DepthLimit", kind: OptionKind::Spin(Spin::DepthLimit, 0, 0, 120) },
    // maximum nodes for every go (0 = none)
    OptionDecl { name: "NodesLimit", kind: OptionKind::Spin(Spin::NodesLimit, 0, 0, i64::MAX) },
    // YaneuraOu-format book (`builtin` = hisha's own; empty = none), loaded on isready
    OptionDecl { name: "BookFile", kind: OptionKind::Filename(Filename::BookFile, "builtin") },
    // play book moves
    OptionDecl { name: "UseBook", kind: OptionKind::Check(Check::UseBook, true) },
    // use the book up to this game ply
    OptionDecl { name: "BookMoves", kind: OptionKind::Spin(Spin::BookMoves, 32, 0, 10000) },
    // book move choice: best value, weighted by count, or random within BookEvalDiff of the best
    OptionDecl {
        name: "BookPick",
        kind: OptionKind::Combo(Combo::BookPick, "weighted", &["best", "weighted", "random"]),
    },
    // centipawns below the best a random book move may be
    OptionDecl { name: "BookEvalDiff", kind: OptionKind::Spin(Spin::BookEvalDiff, 30, 0, 10000) },
    // percent of book positions where hisha searches instead (variety)
    OptionDecl { name: "BookIgnoreRate", kind: OptionKind::Spin(Spin::BookIgnoreRate, 0, 0, 100) },
    // empty the transposition table
    OptionDecl { name: "ClearHash", kind: OptionKind::Button(Button::ClearHash) },
    // YaneuraOu-format nn.bin (or a folder holding one), loaded on isready; `builtin` or empty =
    // the built-in net; `linear`: the linear evaluation
    OptionDecl { name: "EvalFile", kind: OptionKind::Filename(Filename::EvalFile, "builtin") },
];

impl OptionDecl {
    /// The option `name` (any case).
    pub fn named(name: &str) -> Option<&'static OptionDecl> {
        OPTIONS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// The `option …` line for `usi`.
    pub fn usi_line(&self) -> String {
        match self.kind {
            OptionKind::Check(_, d) => format!("option name {} type check default {d}", self.name),
            OptionKind::Spin(_, d, lo, hi) => {
                format!("option name {} type spin default {d} min {lo} max {hi}", self.name)
            }
            OptionKind::Combo(_, d, vars) => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!("option name {} type combo default {d} {}", self.name, vars.join(" "))
            }
            OptionKind::Button(_) => format!("option name {} type button", self.name),
            OptionKind::Filename(_, d) => {
                format!("option name {} type filename default {}", self.name, if d.is_empty() { "<empty>" } else { d })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::EnteringKingRule;

    /// The key of a declaration, as its type and index.
    fn key(kind: OptionKind) -> (&'static str, usize) {
        match kind {
            OptionKind::Check(k, _) => ("check", k as usize),
            OptionKind::Spin(k, ..) => ("spin", k as usize),
            OptionKind::Combo(k, ..) => ("combo", k as usize),
            OptionKind::Filename(k, _) => ("filename", k as usize),
            OptionKind::Button(k) => ("button", k as usize),
        }
    }

    #[test]
    fn every_key_is_declared_once() {
        // A key without a declaration would have no default and could never be set.
        let mut declared: Vec<(&str, usize)> = OPTIONS.iter().map(|d| key(d.kind)).collect();
        declared.sort();
        let indices = |kind, n: usize| (0..n).map(move |i| (kind, i));
        let mut every: Vec<(&str, usize)> = indices("check", Check::COUNT)
            .chain(indices("spin", Spin::COUNT))
            .chain(indices("combo", Combo::COUNT))
            .chain(indices("filename", Filename::COUNT))
            .chain([("button", Button::ClearHash as usize)])
            .collect();
        every.sort();
        assert_eq!(declared, every);
        let names: std::collections::HashSet<String> = OPTIONS.iter().map(|d| d.name.to_ascii_lowercase()).collect();
        assert_eq!(names.len(), OPTIONS.len(), "names differ in more than case");
        assert_eq!(OptionDecl::named("usi_HASH").map(|d| d.name), Some("USI_Hash"));
        assert_eq!(OptionDecl::named("USI_Hashh"), None);
    }

    #[test]
    fn the_entering_king_rule_values_are_the_rules_usi_names() {
        let decl = OptionDecl::named("EnteringKingRule").map(|d| d.kind);
        let Some(OptionKind::Combo(Combo::EnteringKingRule, default, vars)) = decl else {
            panic!("EnteringKingRule is a combo: {decl:?}")
        };
        let names: Vec<String> = EnteringKingRule::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(vars, names, "each declared value is a rule's name, which parses back to it");
        assert_eq!(default, EnteringKingRule::default().to_string());
    }

    #[test]
    fn the_readme_lists_every_option_with_its_default() {
        let readme = include_str!("../../../README.md");
        for d in OPTIONS {
            let default = match d.kind {
                OptionKind::Check(_, b) => b.to_string(),
                OptionKind::Spin(_, v, ..) => v.to_string(),
                OptionKind::Combo(_, v, _) | OptionKind::Filename(_, v) => v.to_string(),
                OptionKind::Button(_) => String::new(),
            };
            let row = format!("| `{}` | ", d.name);
            let line = readme.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("{} is missing", d.name));
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cells.get(3), Some(&default.as_str()), "{line}");
        }
    }

    #[test]
    fn declarations_are_well_formed() {
        for d in OPTIONS {
            let line = d.usi_line();
            assert!(line.starts_with(&format!("option name {} type ", d.name)), "{line}");
            match d.kind {
                OptionKind::Spin(_, v, lo, hi) => assert!(lo <= v && v <= hi, "{line}"),
                OptionKind::Combo(_, v, vars) => assert!(vars.contains(&v), "{line}"),
                _ => {}
            }
        }
    }
}
