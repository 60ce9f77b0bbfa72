//! Time controls of `hisha match` and the clocks the runner keeps (rules.md §8).
//!
//! Written `byoyomi=MS`, `time=MS,byoyomi=MS`, `time=MS,inc=MS`, `time=MS` (sudden death),
//! `st=MS` (a fixed time per move, sent as byoyomi so that every engine accepts it), `nodes=N` or
//! `depth=N`.

pub use crate::record::{ParseTimeControlError, TimeControl};
use crate::types::Color;
use crate::usi::command::GoParams;

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
