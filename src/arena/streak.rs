//! `--max-crashes N`: the games in a row, per engine, that it lost by crashing, stalling or failing
//! to start, in the order the games finished; the match stops when one engine reaches N (a
//! tournament drops that engine instead).

/// An engine that reached the limit: why the match stops.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{engine} crashed, stalled or failed to start in {limit} games in a row (--max-crashes {limit})")]
pub struct CrashLimit {
    /// The engine's name.
    pub engine: String,
    /// `--max-crashes`.
    pub limit: u32,
}

/// Consecutive faulty games of each engine.
#[derive(Clone, Debug)]
pub(crate) struct CrashStreaks {
    limit: u32,
    streaks: Vec<u32>,
}

impl CrashStreaks {
    /// Streaks of `engines` engines that stop at `limit` (0: never).
    pub(crate) fn new(limit: u32, engines: usize) -> CrashStreaks {
        CrashStreaks { limit, streaks: vec![0; engines] }
    }

    /// Counts a finished game of engine `engine` (its index, named `name`): a faulty
    /// game extends its streak, any other game ends it. The limit when the streak has just reached
    /// it.
    pub(crate) fn record(&mut self, engine: usize, name: &str, faulty: bool) -> Option<CrashLimit> {
        let s = &mut self.streaks[engine];
        *s = if faulty { *s + 1 } else { 0 };
        (self.limit > 0 && *s == self.limit).then(|| CrashLimit { engine: name.to_string(), limit: self.limit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_faults_in_a_row_reach_the_limit() {
        let mut s = CrashStreaks::new(3, 2);
        assert_eq!(s.record(0, "a", true), None);
        assert_eq!(s.record(0, "a", true), None);
        assert_eq!(s.record(1, "b", true), None, "the other engine has its own streak");
        assert_eq!(s.record(0, "a", false), None, "a good game ends the streak");
        assert!(s.record(0, "a", true).is_none() && s.record(0, "a", true).is_none());
        let stop = s.record(0, "a", true).expect("the third in a row");
        assert_eq!(stop.to_string(), "a crashed, stalled or failed to start in 3 games in a row (--max-crashes 3)");
        let mut never = CrashStreaks::new(0, 2);
        assert!((0..10).all(|_| never.record(1, "b", true).is_none()), "0 never stops");
    }
}
