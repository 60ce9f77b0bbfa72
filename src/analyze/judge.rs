//! How a played move is judged: the value of a score, the `loss` of a move against the engine's
//! best move, and the `mark` that the loss earns.
//!
//! - **Value**: a centipawn score is its value (clamped to ±[`CP_LIMIT`], below every mate); a mate
//!   is worth [`MATE_VALUE`] less its distance (`mate 5` = 29 995, `mate -4` = −29 996), and a
//!   position whose side to move has no legal move (mated) is −[`MATE_VALUE`].
//! - **Loss**: in position P the mover played M; the engine's best value in P (its first line) is
//!   `best`, and the value after M is the analysis of the next position, negated (that position is
//!   seen by the opponent). Both are clamped to ±[`LOSS_CAP`] (3000, where every game is decided:
//!   a mate counts as 3000, so that one mate missed does not outweigh a whole game in an average,
//!   as lichess caps its average loss), and `loss = max(0, best − after)`, from the mover's point
//!   of view. A played move that is the engine's own best move loses 0 by definition (the
//!   difference is then search noise between two depths, not a fault of the move).
//! - **Mark**: `loss` ≥ 100 is an inaccuracy, ≥ 300 a mistake, ≥ 600 a blunder ([`THRESHOLDS`]).
//!   Shogi scores run about twice chess's (hisha's pawn is ~100, a bishop ~900, and a piece taken
//!   is also a piece in the taker's hand), so the thresholds are twice the usual chess ones
//!   (50/100/300 would mark most moves of a sharp game at a fixed node count). A move that throws
//!   a mate away for a merely won position loses little (the game is still won); one that walks
//!   from an even position into a mate loses 3000: a blunder.

use crate::record::Score;
use serde::Serialize;

/// What a mate is worth (less its distance in plies).
pub(crate) const MATE_VALUE: i32 = 30_000;

/// Values are clamped to ±LOSS_CAP before a loss is taken.
pub(crate) const LOSS_CAP: i32 = 3000;

/// Centipawn scores are clamped to this, so that no centipawn score outranks a mate.
pub(crate) const CP_LIMIT: i32 = 29_000;

/// The least loss for each mark, smallest first: inaccuracy, mistake, blunder (centipawns).
pub const THRESHOLDS: [(i32, Mark); 3] = [(100, Mark::Inaccuracy), (300, Mark::Mistake), (600, Mark::Blunder)];

/// How bad a played move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Gave up at least 100 centipawns.
    Inaccuracy,
    /// Gave up at least 300.
    Mistake,
    /// Gave up at least 600 (walking into a mate from an even game gives up 3000).
    Blunder,
}

impl Mark {
    /// The mark's name, as the JSON writes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// Why a move played within the analysed plies has no loss (`not_judged` in the JSON, counted in
/// the summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NotJudged {
    /// The engine gave no score for the position the move was played from.
    NoScore,
    /// The engine gave no score for the position after the move.
    NoScoreAfter,
    /// The engine failed on the position after the move.
    EngineFailedAfter,
    /// The engine failed on the position the move was played from (it has no report).
    EngineFailed,
}

impl NotJudged {
    /// How the summary names it.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            NotJudged::NoScore | NotJudged::NoScoreAfter => "no score",
            NotJudged::EngineFailedAfter | NotJudged::EngineFailed => "engine failure",
        }
    }
}

/// The value of a score from the point of view it was given in (`None`: the side to move has no
/// legal move, so it is mated).
pub fn value(score: Option<Score>) -> i32 {
    match score {
        None => -MATE_VALUE,
        Some(Score::Cp(v)) => v.clamp(-CP_LIMIT, CP_LIMIT),
        Some(Score::Mate(n)) if n > 0 => MATE_VALUE - n.min(MATE_VALUE - CP_LIMIT - 1),
        Some(Score::Mate(n)) => -MATE_VALUE - n.max(-(MATE_VALUE - CP_LIMIT - 1)),
    }
}

/// The loss of a move: `best` is the engine's best value for the mover before it, `after` the
/// opponent's value of the position after it; `played_best` whether the move was the best move.
pub fn loss(best: i32, after: i32, played_best: bool) -> i32 {
    let capped = |v: i32| v.clamp(-LOSS_CAP, LOSS_CAP);
    if played_best { 0 } else { (capped(best) - capped(-after)).max(0) }
}

/// The mark a loss earns, if any.
pub fn mark(loss: i32) -> Option<Mark> {
    THRESHOLDS.iter().rev().find(|(least, _)| loss >= *least).map(|&(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_outrank_every_centipawn_score_and_shorter_mates_outrank_longer() {
        assert!(value(Some(Score::Mate(9))) > value(Some(Score::Cp(1_000_000))));
        assert!(value(Some(Score::Mate(3))) > value(Some(Score::Mate(9))));
        assert!(value(Some(Score::Mate(-9))) > value(Some(Score::Mate(-3))));
        assert!(value(Some(Score::Mate(-9))) < value(Some(Score::Cp(-1_000_000))));
        assert_eq!(value(None), -MATE_VALUE, "no legal move: mated");
    }

    #[test]
    fn loss_is_best_minus_the_negated_next_score_and_never_negative() {
        // Best +50 for the mover; the opponent then stands at +700: the move gave up 750.
        assert_eq!(loss(50, 700, false), 750);
        // The next search thinks better of the move than this one did: no loss, not a gain.
        assert_eq!(loss(50, -80, false), 0);
        assert_eq!(loss(50, 700, true), 0, "the best move loses nothing");
        // From mate in 3 to being mated in 2: capped at 3000 each way.
        assert_eq!(loss(value(Some(Score::Mate(3))), value(Some(Score::Mate(2))), false), 2 * LOSS_CAP);
        assert_eq!(loss(value(Some(Score::Mate(3))), value(Some(Score::Mate(-7))), false), 0, "a longer mate");
    }

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(mark(99), None);
        assert_eq!(mark(100), Some(Mark::Inaccuracy));
        assert_eq!(mark(299), Some(Mark::Inaccuracy));
        assert_eq!(mark(300), Some(Mark::Mistake));
        assert_eq!(mark(600), Some(Mark::Blunder));
        assert_eq!(mark(loss(0, value(Some(Score::Mate(5))), false)), Some(Mark::Blunder), "into a mate");
    }
}
