//! Why a solve ended and what it used, in one line for the user: `go mate` sends it as
//! `info string mate: …` and `hisha mate` writes it to stderr. A solve that stops before an
//! answer always says why; resources that run out on the way (the table filling up, proof
//! numbers overflowing, the node budget of a fact the mating line needs) are recovered and
//! counted here.

use std::fmt;

/// Why a solve ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MateEnd {
    /// Decided: no mate (within the ply limit), or a mate proven the shortest.
    #[default]
    Solved,
    /// The deadline passed.
    Deadline,
    /// The stop flag was raised (USI `stop`).
    Stopped,
    /// The node limit was reached.
    NodeLimit,
    /// A mate is proven but no line of its proven length could be built and replayed to
    /// checkmate.
    NoLine,
}

/// What a solve found, what it used and why it ended (see [`crate::mate::MateSolver::report`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateReport {
    /// Why it ended.
    pub end: MateEnd,
    /// The length of the mating line answered, if any.
    pub mate: Option<u32>,
    /// The shortest mate proven, in plies, if any (with or without a line).
    pub proven: Option<u32>,
    /// The ply limit given, if any ("no mate" then means none within it).
    pub max_ply: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Per mille of the table in use at the end.
    pub hashfull: u32,
    /// The table's size in MiB.
    pub table_mib: usize,
    /// Garbage collections of the table.
    pub gc_runs: u32,
    /// Times the proof and disproof numbers overflowed and were started afresh.
    pub number_resets: u32,
    /// The node budget a fact of the mating line needed at last (raised while facts ran out).
    pub fact_budget: u64,
}

impl fmt::Display for MateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("mate: ")?;
        let limit = match self.end {
            MateEnd::Solved => None,
            MateEnd::Deadline => Some("time limit reached"),
            MateEnd::Stopped => Some("stopped"),
            MateEnd::NodeLimit => Some("node limit reached"),
            MateEnd::NoLine => Some("the line of the shortest mate could not be built and verified"),
        };
        match (limit, self.mate, self.proven) {
            (None, Some(n), _) => write!(f, "solved: mate in {n} plies, proven shortest")?,
            (None, None, _) => match self.max_ply {
                Some(n) => write!(f, "solved: no mate within {n} plies")?,
                None => f.write_str("solved: no mate")?,
            },
            (Some(why), Some(n), _) => write!(f, "{why}: the mate in {n} plies found is not proven shortest")?,
            (Some(_), None, Some(p)) if self.end == MateEnd::NoLine => {
                write!(f, "a mate in {p} plies is proven but its line could not be built and verified")?
            }
            (Some(why), None, Some(p)) => write!(f, "{why} while building the line of a mate proven in {p} plies")?,
            (Some(why), None, None) => write!(f, "{why} before a proof or disproof")?,
        }
        write!(
            f,
            "; {} nodes, table {} MiB {}.{}% full, {} garbage collections, {} number resets, fact budget {}",
            self.nodes,
            self.table_mib,
            self.hashfull / 10,
            self.hashfull % 10,
            self.gc_runs,
            self.number_resets,
            self.fact_budget
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_is_named() {
        let base = MateReport { nodes: 42, hashfull: 905, table_mib: 1, gc_runs: 3, ..MateReport::default() };
        let text = |end, mate, proven| MateReport { end, mate, proven, ..base }.to_string();
        assert_eq!(
            text(MateEnd::Deadline, None, None),
            "mate: time limit reached before a proof or disproof; 42 nodes, table 1 MiB 90.5% full, \
             3 garbage collections, 0 number resets, fact budget 0"
        );
        assert!(text(MateEnd::Stopped, None, None).starts_with("mate: stopped before a proof"));
        assert!(text(MateEnd::NodeLimit, None, None).starts_with("mate: node limit reached before"));
        assert!(
            text(MateEnd::Deadline, Some(25), Some(25))
                .starts_with("mate: time limit reached: the mate in 25 plies found is not proven shortest;")
        );
        assert!(
            text(MateEnd::Stopped, None, Some(611))
                .starts_with("mate: stopped while building the line of a mate proven in 611 plies;")
        );
        assert!(
            text(MateEnd::NoLine, None, Some(23))
                .starts_with("mate: a mate in 23 plies is proven but its line could not be built and verified;")
        );
        assert!(text(MateEnd::NoLine, Some(25), Some(23)).starts_with(
            "mate: the line of the shortest mate could not be built and verified: the mate in 25 plies found"
        ));
        assert!(
            text(MateEnd::Solved, Some(23), Some(23)).starts_with("mate: solved: mate in 23 plies, proven shortest;")
        );
        assert!(text(MateEnd::Solved, None, None).starts_with("mate: solved: no mate;"));
        let within = MateReport { max_ply: Some(5), ..base };
        assert!(within.to_string().starts_with("mate: solved: no mate within 5 plies;"), "{within}");
    }
}
