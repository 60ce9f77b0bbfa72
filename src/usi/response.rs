//! Engine → GUI messages (usi.md §4): printed by the engine and parsed by the match runner from
//! any engine, so parsing is tolerant: unknown lines (banners, `Unknown command` replies) become
//! [`UsiResponse::Other`], `info` fields may come in any order, and option names may hold spaces.

use std::fmt;
use std::str::FromStr;

/// A score in an `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoScore {
    /// `score cp <x>`.
    Cp(i32),
    /// `score mate <n>` (plies; negative = being mated).
    Mate(i32),
    /// `score mate +` (mating, length unknown).
    MatePlus,
    /// `score mate -` (being mated, length unknown).
    MateMinus,
}

impl InfoScore {
    /// The score of a search or book value (centipawns, or a mate distance near
    /// [`MATE`](crate::eval::MATE): `MATE - n` mates in `n` plies, `-MATE + n` is mated in `n`).
    pub(crate) fn of_value(v: i32) -> InfoScore {
        use crate::eval::{MATE, MATE_BOUND};
        if v >= MATE_BOUND {
            InfoScore::Mate(MATE - v.min(MATE))
        } else if v <= -MATE_BOUND {
            InfoScore::Mate(-(MATE + v.max(-MATE)))
        } else {
            InfoScore::Cp(v)
        }
    }
}

/// `lowerbound` / `upperbound` after a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoBound {
    /// `lowerbound`.
    Lower,
    /// `upperbound`.
    Upper,
}

/// The fields of an `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `time` (ms).
    pub time: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (per-mille).
    pub hashfull: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score …`.
    pub score: Option<InfoScore>,
    /// Bound after the score.
    pub bound: Option<InfoBound>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `pv …` (always printed last).
    pub pv: Vec<String>,
    /// `string …` (printed alone).
    pub string: Option<String>,
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    /// `checkmate <moves>`.
    Mate(Vec<String>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

/// A message from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiResponse {
    /// `id name …`.
    IdName(String),
    /// `id author …`.
    IdAuthor(String),
    /// `option name <id> type <t> …` (the part after `name`, kept as text).
    Option {
        /// The option name (may contain spaces).
        name: String,
        /// Everything from `type` on.
        spec: String,
    },
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <m> [ponder <m>]`, `bestmove resign`, `bestmove win`.
    BestMove {
        /// The move text or `resign` / `win`.
        mv: String,
        /// The ponder move, if any.
        ponder: Option<String>,
    },
    /// `info …`.
    Info(Info),
    /// `checkmate …`.
    Checkmate(Checkmate),
    /// Anything else (banners, `Unknown command: …`), kept verbatim.
    Other(String),
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(s) = &self.string {
            return write!(f, " string {s}");
        }
        let nums = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        match self.score {
            Some(InfoScore::Cp(x)) => write!(f, " score cp {x}")?,
            Some(InfoScore::Mate(n)) => write!(f, " score mate {n}")?,
            Some(InfoScore::MatePlus) => f.write_str(" score mate +")?,
            Some(InfoScore::MateMinus) => f.write_str(" score mate -")?,
            None => {}
        }
        match self.bound {
            Some(InfoBound::Lower) => f.write_str(" lowerbound")?,
            Some(InfoBound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        let nums =
            [("nodes", self.nodes), ("nps", self.nps), ("hashfull", self.hashfull.map(u64::from)), ("time", self.time)];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for UsiResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiResponse::IdName(s) => write!(f, "id name {s}"),
            UsiResponse::IdAuthor(s) => write!(f, "id author {s}"),
            UsiResponse::Option { name, spec } => write!(f, "option name {name} {spec}"),
            UsiResponse::UsiOk => f.write_str("usiok"),
            UsiResponse::ReadyOk => f.write_str("readyok"),
            UsiResponse::BestMove { mv, ponder: Some(p) } => write!(f, "bestmove {mv} ponder {p}"),
            UsiResponse::BestMove { mv, ponder: None } => write!(f, "bestmove {mv}"),
            UsiResponse::Info(i) => i.fmt(f),
            UsiResponse::Checkmate(Checkmate::Mate(moves)) => {
                write!(f, "checkmate {}", moves.join(" "))
            }
            UsiResponse::Checkmate(Checkmate::NoMate) => f.write_str("checkmate nomate"),
            UsiResponse::Checkmate(Checkmate::Timeout) => f.write_str("checkmate timeout"),
            UsiResponse::Checkmate(Checkmate::NotImplemented) => f.write_str("checkmate notimplemented"),
            UsiResponse::Other(s) => f.write_str(s),
        }
    }
}

fn parse_info(words: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    let num = |w: Option<&&str>| w.and_then(|s| s.parse::<u64>().ok());
    while i < words.len() {
        let next = words.get(i + 1);
        match words[i] {
            "string" => {
                info.string = Some(words[i + 1..].join(" "));
                break;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "depth" => info.depth = num(next).map(|v| v as u32),
            "seldepth" => info.seldepth = num(next).map(|v| v as u32),
            "time" => info.time = num(next),
            "nodes" => info.nodes = num(next),
            "nps" => info.nps = num(next),
            "hashfull" => info.hashfull = num(next).map(|v| v as u32),
            "multipv" => info.multipv = num(next).map(|v| v as u32),
            "currmove" => info.currmove = next.map(|s| s.to_string()),
            "lowerbound" | "upperbound" => {
                info.bound = Some(if words[i] == "lowerbound" { InfoBound::Lower } else { InfoBound::Upper });
                i += 1;
                continue;
            }
            "score" => {
                let kind = next.copied();
                let value = words.get(i + 2).copied().unwrap_or("");
                info.score = match (kind, value) {
                    (Some("cp"), v) => v.parse().ok().map(InfoScore::Cp),
                    (Some("mate"), "+" | "+0") => Some(InfoScore::MatePlus),
                    (Some("mate"), "-" | "-0") => Some(InfoScore::MateMinus),
                    (Some("mate"), v) => v.trim_start_matches('+').parse().ok().map(InfoScore::Mate),
                    _ => None,
                };
                i += 3;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

impl FromStr for UsiResponse {
    type Err = std::convert::Infallible;
    /// Never fails: unknown lines become [`UsiResponse::Other`].
    fn from_str(line: &str) -> Result<UsiResponse, Self::Err> {
        let line = line.trim_end_matches(['\r', '\n']);
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest_after = |n: usize| words.get(n..).map(|w| w.join(" ")).unwrap_or_default();
        Ok(match words.as_slice() {
            ["id", "name", ..] => UsiResponse::IdName(rest_after(2)),
            ["id", "author", ..] => UsiResponse::IdAuthor(rest_after(2)),
            ["option", "name", rest @ ..] => {
                let t = rest.iter().position(|&w| w == "type").unwrap_or(rest.len());
                UsiResponse::Option { name: rest[..t].join(" "), spec: rest[t..].join(" ") }
            }
            ["usiok"] => UsiResponse::UsiOk,
            ["readyok"] => UsiResponse::ReadyOk,
            ["bestmove", mv] => UsiResponse::BestMove { mv: mv.to_string(), ponder: None },
            ["bestmove", mv, "ponder", p, ..] => {
                UsiResponse::BestMove { mv: mv.to_string(), ponder: Some(p.to_string()) }
            }
            ["bestmove", mv, ..] => UsiResponse::BestMove { mv: mv.to_string(), ponder: None },
            ["info", rest @ ..] => UsiResponse::Info(parse_info(rest)),
            ["checkmate", "nomate"] => UsiResponse::Checkmate(Checkmate::NoMate),
            ["checkmate", "timeout"] => UsiResponse::Checkmate(Checkmate::Timeout),
            ["checkmate", "notimplemented"] => UsiResponse::Checkmate(Checkmate::NotImplemented),
            ["checkmate", moves @ ..] => {
                UsiResponse::Checkmate(Checkmate::Mate(moves.iter().map(|s| s.to_string()).collect()))
            }
            _ => UsiResponse::Other(line.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> UsiResponse {
        s.parse().unwrap_or_else(|e| match e {})
    }

    #[test]
    fn round_trips() {
        for line in [
            "id name hisha 0.1.0",
            "id author the hisha developers",
            "option name USI_Hash type spin default 64 min 1 max 65536",
            "option name Skill Level type spin default 20 min -20 max 20",
            "usiok",
            "readyok",
            "bestmove 7g7f ponder 3c3d",
            "bestmove resign",
            "bestmove win",
            "info depth 20 seldepth 27 multipv 1 score cp 85 nodes 1234567 nps 987654 hashfull 12 time 1250 pv 7g7f 3c3d 2g2f",
            "info depth 3 score mate -4 upperbound nodes 10 time 1 pv 1a1b",
            "info string hello world",
            "checkmate 2b2a+ 1a2a G*3b",
            "checkmate nomate",
            "checkmate timeout",
            "checkmate notimplemented",
        ] {
            assert_eq!(parse(line).to_string(), line);
        }
    }

    #[test]
    fn tolerant_of_other_engines() {
        assert!(matches!(parse("Fairy-Stockfish 14 by Fabian Fichter"), UsiResponse::Other(_)));
        assert!(matches!(parse("Unknown command: usinewgame"), UsiResponse::Other(_)));
        let UsiResponse::Option { name, .. } = parse("option name Use NNUE type check default true") else { panic!() };
        assert_eq!(name, "Use NNUE");
        let UsiResponse::Info(i) = parse("info nodes 5 score mate + pv 1a1b") else { panic!() };
        assert_eq!((i.score, i.nodes, i.pv.len()), (Some(InfoScore::MatePlus), Some(5), 1));
        let UsiResponse::Info(i) = parse("info score mate 3 depth 9 time 4") else { panic!() };
        assert_eq!((i.score, i.depth, i.time), (Some(InfoScore::Mate(3)), Some(9), Some(4)));
        assert_eq!(parse("bestmove 7g7f\r"), UsiResponse::BestMove { mv: "7g7f".into(), ponder: None });
    }
}
