//! A time control as hisha writes it in a record's `TimeControl` tag and `hisha match --tc` takes
//! it (rules.md §8): `byoyomi=MS`, `time=MS,byoyomi=MS`, `time=MS,inc=MS`, `time=MS` (sudden
//! death), `st=MS` (a fixed time per move), `nodes=N` or `depth=N`. KIF and CSA writers turn it
//! into their own headers (`持ち時間`/`秒読み`, `$TIME`); the match runner's clocks keep it
//! (`client::tc`).

use std::fmt;
use std::str::FromStr;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Main time, Fischer increment and byoyomi (ms).
    Clock {
        /// Main time.
        time: u64,
        /// Increment per move, credited before the move.
        inc: u64,
        /// Byoyomi once main time is gone.
        byoyomi: u64,
    },
    /// A fixed time per move.
    MoveTime(u64),
    /// A node budget per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control {0:?}: use byoyomi=MS, time=MS,byoyomi=MS, time=MS,inc=MS, st=MS, nodes=N or depth=N")]
pub struct ParseTimeControlError(pub String);

impl TimeControl {
    /// Whether this is a fixed budget of work per move (a node or a depth limit) rather than a
    /// clock: a deterministic engine given the same position plays the same move, whatever the
    /// machine's speed.
    pub fn is_fixed_budget(self) -> bool {
        matches!(self, TimeControl::Nodes(_) | TimeControl::Depth(_))
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let err = || ParseTimeControlError(s.to_string());
        let (mut time, mut inc, mut byoyomi) = (None, None, None);
        for part in s.split(',') {
            let (k, v) = part.split_once('=').ok_or_else(err)?;
            let v: u64 = v.trim().parse().map_err(|_| err())?;
            match k.trim() {
                "st" | "movetime" => return Ok(TimeControl::MoveTime(v)),
                "nodes" => return Ok(TimeControl::Nodes(v)),
                "depth" => return Ok(TimeControl::Depth(u32::try_from(v).map_err(|_| err())?)),
                "time" => time = Some(v),
                "inc" => inc = Some(v),
                "byoyomi" => byoyomi = Some(v),
                _ => return Err(err()),
            }
        }
        if inc.is_some() && byoyomi.is_some() {
            return Err(err()); // USI has no byoyomi together with an increment
        }
        if time.is_none() && inc.is_none() && byoyomi.is_none() {
            return Err(err());
        }
        Ok(TimeControl::Clock { time: time.unwrap_or(0), inc: inc.unwrap_or(0), byoyomi: byoyomi.unwrap_or(0) })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { time: 0, inc: 0, byoyomi } => write!(f, "byoyomi={byoyomi}"),
            TimeControl::Clock { time, inc: 0, byoyomi: 0 } => write!(f, "time={time}"),
            TimeControl::Clock { time, inc: 0, byoyomi } => write!(f, "time={time},byoyomi={byoyomi}"),
            TimeControl::Clock { time, inc, .. } => write!(f, "time={time},inc={inc}"),
            TimeControl::MoveTime(ms) => write!(f, "st={ms}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for s in [
            "byoyomi=1000",
            "time=60000,byoyomi=1000",
            "time=60000,inc=1000",
            "time=300000",
            "st=500",
            "nodes=10000",
            "depth=6",
        ] {
            assert_eq!(s.parse::<TimeControl>().map(|t| t.to_string()), Ok(s.to_string()));
        }
        for bad in ["", "byoyomi", "time=1,inc=2,byoyomi=3", "fast", "nodes=x"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let budget = |s: &str| s.parse::<TimeControl>().map(TimeControl::is_fixed_budget);
        assert_eq!(budget("nodes=1000"), Ok(true));
        assert_eq!(budget("depth=4"), Ok(true));
        for clock in ["byoyomi=100", "time=1000,inc=10", "st=50"] {
            assert_eq!(budget(clock), Ok(false), "{clock}");
        }
    }
}
