//! Time controls of `hisha match` and the clocks the runner keeps (rules.md §8).
//!
//! Written `byoyomi=MS`, `time=MS,byoyomi=MS`, `time=MS,inc=MS`, `time=MS` (sudden death),
//! `st=MS` (a fixed time per move, sent as byoyomi so that every engine accepts it), `nodes=N` or
//! `depth=N`.

use crate::types::Color;
use crate::usi::command::GoParams;
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

/// The runner's clocks for one game (each side may have its own control).
#[derive(Clone, Debug)]
pub(crate) struct Clocks {
    tc: [TimeControl; 2],
    remaining: [u64; 2],
}

/// How a move fared against its clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// Milliseconds beyond the allowance (0 if within it).
    pub overrun_ms: u64,
    /// The overrun exceeded the margin: the move loses on time.
    pub lost_on_time: bool,
}

impl Clocks {
    /// Fresh clocks for Black's and White's controls.
    pub(crate) fn new(black: TimeControl, white: TimeControl) -> Clocks {
        let main = |tc: TimeControl| {
            if let TimeControl::Clock { time, .. } = tc { time } else { 0 }
        };
        Clocks { tc: [black, white], remaining: [main(black), main(white)] }
    }

    /// The `go` command for `to_move` with the clocks as they stand.
    pub(crate) fn go(&self, to_move: Color) -> GoParams {
        let mut g = GoParams::default();
        match self.tc[to_move.index()] {
            TimeControl::Clock { inc, byoyomi, .. } => {
                g.btime = Some(self.remaining[0]);
                g.wtime = Some(self.remaining[1]);
                if inc > 0 {
                    let inc_of = |c: usize| {
                        if let TimeControl::Clock { inc, .. } = self.tc[c] { inc } else { 0 }
                    };
                    g.binc = Some(inc_of(0));
                    g.winc = Some(inc_of(1));
                } else {
                    g.byoyomi = Some(byoyomi);
                }
            }
            TimeControl::MoveTime(ms) => {
                g.btime = Some(0);
                g.wtime = Some(0);
                g.byoyomi = Some(ms);
            }
            TimeControl::Nodes(n) => g.nodes = Some(n),
            TimeControl::Depth(d) => g.depth = Some(d),
        }
        g
    }

    /// How long `c` may think on this move before losing on time (`None`: untimed).
    pub(crate) fn allowance(&self, c: Color) -> Option<u64> {
        match self.tc[c.index()] {
            TimeControl::Clock { inc, byoyomi, .. } => Some(self.remaining[c.index()] + inc + byoyomi),
            TimeControl::MoveTime(ms) => Some(ms),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// Charges `elapsed_ms` to `c` and judges it with `margin_ms` of tolerance.
    pub(crate) fn charge(&mut self, c: Color, elapsed_ms: u64, margin_ms: u64) -> Verdict {
        let allowance = self.allowance(c);
        if let TimeControl::Clock { inc, .. } = self.tc[c.index()] {
            let r = &mut self.remaining[c.index()];
            *r = (*r + inc).saturating_sub(elapsed_ms);
        }
        match allowance {
            Some(a) if elapsed_ms > a => {
                Verdict { overrun_ms: elapsed_ms - a, lost_on_time: elapsed_ms > a + margin_ms }
            }
            _ => Verdict { overrun_ms: 0, lost_on_time: false },
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
    }

    #[test]
    fn byoyomi_clock_and_time_loss() {
        let tc: TimeControl = "time=1000,byoyomi=500".parse().expect("valid");
        let mut c = Clocks::new(tc, tc);
        assert_eq!(c.go(Color::Black).to_string(), "go btime 1000 wtime 1000 byoyomi 500");
        assert_eq!(c.allowance(Color::Black), Some(1500));
        assert_eq!(c.charge(Color::Black, 1200, 100), Verdict { overrun_ms: 0, lost_on_time: false });
        // Main time is gone; byoyomi does not carry over.
        assert_eq!(c.allowance(Color::Black), Some(500));
        assert_eq!(c.charge(Color::Black, 560, 100), Verdict { overrun_ms: 60, lost_on_time: false });
        assert_eq!(c.charge(Color::Black, 700, 100), Verdict { overrun_ms: 200, lost_on_time: true });
    }

    #[test]
    fn fischer_credits_the_increment() {
        let tc: TimeControl = "time=1000,inc=300".parse().expect("valid");
        let mut c = Clocks::new(tc, tc);
        assert_eq!(c.go(Color::White).to_string(), "go btime 1000 wtime 1000 binc 300 winc 300");
        c.charge(Color::White, 200, 0);
        assert_eq!(c.allowance(Color::White), Some(1100 + 300));
    }

    #[test]
    fn fixed_time_is_sent_as_byoyomi() {
        let c = Clocks::new(TimeControl::MoveTime(250), TimeControl::Nodes(1000));
        assert_eq!(c.go(Color::Black).to_string(), "go btime 0 wtime 0 byoyomi 250");
        assert_eq!(c.go(Color::White).to_string(), "go nodes 1000");
        assert_eq!(c.allowance(Color::White), None);
    }
}
