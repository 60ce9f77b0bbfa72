//! `--max-crashes N`: the games in a row, per engine, that it lost by crashing, stalling or failing
//! to start, in the order the games finished; the match stops when one engine reaches N.

/// Consecutive faulty games of the first and the second engine.
#[derive(Clone, Debug)]
pub struct CrashStreaks {
    limit: u32,
    streaks: [u32; 2],
}

impl CrashStreaks {
    /// Streaks that stop the match at `limit` (0: never).
    pub fn new(limit: u32) -> CrashStreaks {
        CrashStreaks { limit, streaks: [0; 2] }
    }

    /// Counts a finished game of engine `engine` (0 = first, 1 = second): a faulty game extends
    /// its streak, any other game ends it. True when the streak has just reached the limit.
    pub fn record(&mut self, engine: usize, faulty: bool) -> bool {
        let s = &mut self.streaks[engine];
        *s = if faulty { *s + 1 } else { 0 };
        self.limit > 0 && *s == self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_faults_in_a_row_reach_the_limit() {
        let mut s = CrashStreaks::new(3);
        assert!(!s.record(0, true));
        assert!(!s.record(0, true));
        assert!(!s.record(1, true), "the other engine has its own streak");
        assert!(!s.record(0, false), "a good game ends the streak");
        assert!(!s.record(0, true) && !s.record(0, true));
        assert!(s.record(0, true), "the third in a row");
        let mut never = CrashStreaks::new(0);
        assert!((0..10).all(|_| !never.record(1, true)), "0 never stops");
    }
}
