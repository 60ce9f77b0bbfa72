//! What a `go` command asks for, as plain data (usi.md §3.1).

use crate::types::{Color, Move};

/// The clocks sent with `go`: remaining main time, increments and byoyomi, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining main time of Black and White.
    pub time: [u64; 2],
    /// Fischer increment of Black and White, credited before the move.
    pub inc: [u64; 2],
    /// Byoyomi per move once main time is gone (one value for both sides).
    pub byoyomi: u64,
}

impl Clock {
    /// Remaining main time of `c`.
    pub(crate) fn time_of(&self, c: Color) -> u64 {
        self.time[c.index()]
    }

    /// Increment of `c`.
    pub(crate) fn inc_of(&self, c: Color) -> u64 {
        self.inc[c.index()]
    }
}

/// Search limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move in ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Game clocks, if any were sent.
    pub clock: Option<Clock>,
    /// Search only these root moves (`go searchmoves …`, for analysis); empty = every move.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// True if the search ends only on `stop` (or on `ponderhit` turning it into a timed search).
    pub(crate) fn waits_for_stop(&self) -> bool {
        self.infinite || self.ponder
    }
}
