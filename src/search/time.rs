//! Time management (usi.md §3.1, rules.md §8): turns the clocks of a `go` into a *soft* deadline
//! (do not start another iteration after it) and a *hard* deadline (stop the search), both in ms
//! from the start of our thinking. Pure functions: elapsed time is never read here, so every rule
//! is unit-tested without sleeping.
//!
//! * Byoyomi (`btime/wtime` + `byoyomi`): unused byoyomi does not carry over, so with no main time
//!   left the whole byoyomi is used; with main time left a slice of it is added.
//! * Fischer (`binc/winc`): the increment is credited before the move (usable = time + inc).
//! * Sudden death: a slice of the remaining time, never more than it allows.
//! * `movetime`: exactly that.
//!
//! `NetworkDelay` is kept back from every deadline; `MinimumThinkingTime` raises the soft one.

use super::limits::Limits;
use crate::types::Color;

/// Options that shape time use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Milliseconds kept back from every deadline for communication and process latency.
    pub network_delay: u64,
    /// The soft deadline is never below this (unless the hard one is).
    pub minimum_thinking_time: u64,
    /// Percentage scaling of the main-time slice (100 = normal).
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> TimeOptions {
        TimeOptions { network_delay: 60, minimum_thinking_time: 20, slow_mover: 100 }
    }
}

/// Deadlines in ms from the start of our thinking; `None` = no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Deadlines {
    /// Do not start a new iteration after this.
    pub soft: Option<u64>,
    /// Stop searching at this.
    pub hard: Option<u64>,
}

impl Deadlines {
    /// No time limit.
    pub(crate) const NONE: Deadlines = Deadlines { soft: None, hard: None };
}

/// The deadlines for `us` to move under `limits`. `move_number` (the game ply) lets the main-time
/// slice grow as the game nears its end.
pub fn deadlines(limits: &Limits, us: Color, move_number: u32, opts: &TimeOptions) -> Deadlines {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(opts.network_delay).max(1);
        return Deadlines { soft: Some(t), hard: Some(t) };
    }
    let Some(clock) = limits.clock else {
        return Deadlines::NONE;
    };
    let time = clock.time_of(us);
    let inc = clock.inc_of(us);
    let byoyomi = clock.byoyomi;
    // Everything we may use on this move before losing on time.
    let usable = time + inc + byoyomi;
    let hard_cap = usable.saturating_sub(opts.network_delay).max(1);
    if time == 0 && inc == 0 {
        // Byoyomi only (or a flag about to fall): use it all; unused byoyomi is lost anyway.
        return Deadlines { soft: Some(hard_cap), hard: Some(hard_cap) };
    }
    // A slice of the main time: about 1/40 early on, a larger share later (shogi games rarely
    // last beyond 150 moves per side).
    let moves_left = (50u64.saturating_sub(move_number as u64 / 4)).max(20);
    let slice = time / moves_left * opts.slow_mover / 100;
    let soft = (slice + inc * 9 / 10 + byoyomi).max(opts.minimum_thinking_time);
    let hard = (soft * 4).min(slice * 8 + inc + byoyomi).max(soft);
    Deadlines { soft: Some(soft.min(hard_cap)), hard: Some(hard.min(hard_cap)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(time: u64, inc: u64, byoyomi: u64) -> Limits {
        Limits { clock: Some(Clock { time: [time, time], inc: [inc, inc], byoyomi }), ..Limits::default() }
    }

    const OPTS: TimeOptions = TimeOptions { network_delay: 60, minimum_thinking_time: 20, slow_mover: 100 };

    #[test]
    fn byoyomi_only_uses_the_whole_byoyomi_minus_the_delay() {
        let d = deadlines(&clock(0, 0, 1000), Color::Black, 30, &OPTS);
        assert_eq!(d, Deadlines { soft: Some(940), hard: Some(940) });
        // With a tiny byoyomi something is still left to think.
        let d = deadlines(&clock(0, 0, 50), Color::White, 30, &OPTS);
        assert_eq!(d.hard, Some(1));
    }

    #[test]
    fn byoyomi_with_main_time_never_exceeds_time_plus_byoyomi() {
        for time in [0, 10, 1_000, 60_000, 600_000] {
            for move_number in [1, 80, 300] {
                let d = deadlines(&clock(time, 0, 10_000), Color::Black, move_number, &OPTS);
                let hard = d.hard.expect("timed");
                assert!(hard <= time + 10_000 - 60, "time {time}: hard {hard}");
                assert!(d.soft.expect("timed") <= hard);
                assert!(hard >= 10_000 - 60, "the byoyomi is always available");
            }
        }
    }

    #[test]
    fn fischer_credits_the_increment_before_the_move() {
        let d = deadlines(&clock(300_000, 10_000, 0), Color::Black, 1, &OPTS);
        let (soft, hard) = (d.soft.expect("timed"), d.hard.expect("timed"));
        assert!((9_000..30_000).contains(&soft), "{soft}");
        assert!(hard <= 310_000 - 60);
        // Almost no time left but the increment: still within time + inc.
        let d = deadlines(&clock(100, 2_000, 0), Color::White, 100, &OPTS);
        assert!(d.hard.expect("timed") <= 2_100 - 60);
    }

    #[test]
    fn sudden_death_with_100ms_left_still_answers_in_time() {
        let d = deadlines(&clock(100, 0, 0), Color::Black, 120, &OPTS);
        let hard = d.hard.expect("timed");
        assert!(hard <= 40, "{hard}");
        assert!(d.soft.expect("timed") <= hard);
        let d = deadlines(&clock(600_000, 0, 0), Color::Black, 1, &OPTS);
        assert!(d.hard.expect("timed") < 600_000 / 5);
    }

    #[test]
    fn movetime_and_unlimited() {
        let l = Limits { movetime: Some(500), ..Limits::default() };
        assert_eq!(deadlines(&l, Color::Black, 1, &OPTS), Deadlines { soft: Some(440), hard: Some(440) });
        assert_eq!(deadlines(&Limits::default(), Color::Black, 1, &OPTS), Deadlines::NONE);
        let l = Limits { depth: Some(5), ..Limits::default() };
        assert_eq!(deadlines(&l, Color::Black, 1, &OPTS), Deadlines::NONE);
    }

    #[test]
    fn minimum_thinking_time_raises_the_soft_deadline_only_within_the_hard_one() {
        let opts = TimeOptions { minimum_thinking_time: 5_000, ..OPTS };
        let d = deadlines(&clock(60_000, 0, 0), Color::Black, 1, &opts);
        assert_eq!(d.soft, Some(5_000));
        let d = deadlines(&clock(1_000, 0, 0), Color::Black, 1, &opts);
        assert!(d.soft <= d.hard && d.hard <= Some(940));
    }
}
