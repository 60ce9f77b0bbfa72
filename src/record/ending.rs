//! How a game's end looks from the side to move at the end, which is how KIF's terminal words,
//! KI2's `まで…` line and CSA's `%` words tell it: `投了`, `%TORYO` and `%TIME_UP` say the side to
//! move lost, `反則勝ち`, `入玉勝ち` and `%KACHI` that it won. Readers (cshogi, python-shogi,
//! tsshogi and the GUIs) take the winner from these words and whose turn it is, so a writer
//! first asks which of the two sides won, then picks the format's word for the reason.
//!
//! A match ends with the loser on move (resignation, checkmate, time, an illegal move, a crash)
//! or the winner on move (a declaration, the opponent's perpetual check); an adjudicated loser
//! resigns on its turn. A record read from elsewhere may hold any combination, e.g. a win on
//! time by the side to move; the formats have no word for that, and writers fall back to the
//! words that still name the right winner (see each format's writer).

use crate::position::{GameResult, ResultReason, Winner};
use crate::types::Color;

/// A game's end as seen from the side to move at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The side to move lost, for this reason.
    MoverLost(ResultReason),
    /// The side to move won, for this reason.
    MoverWon(ResultReason),
    /// A draw, for this reason.
    Draw(ResultReason),
    /// No result (the game was stopped).
    Unfinished,
}

impl Ending {
    /// How `r` looks with `to_move` on move at the end.
    pub(crate) fn new(r: &GameResult, to_move: Color) -> Ending {
        match r.winner {
            Winner::Draw => Ending::Draw(r.reason),
            Winner::Unfinished => Ending::Unfinished,
            w if w == Winner::color(to_move) => Ending::MoverWon(r.reason),
            _ => Ending::MoverLost(r.reason),
        }
    }

    /// True for a foul by the side that lost (an illegal move or a perpetual check), which
    /// KIF and KI2 tell as `反則負け` (the mover's) or `反則勝ち` (the mover's opponent's).
    pub(crate) fn is_foul(self) -> bool {
        matches!(
            self,
            Ending::MoverLost(ResultReason::IllegalMove | ResultReason::PerpetualCheck)
                | Ending::MoverWon(ResultReason::IllegalMove | ResultReason::PerpetualCheck)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ending_says_whether_the_side_to_move_won() {
        let white_resigns = GameResult::loss(Color::White, ResultReason::Resign);
        assert_eq!(Ending::new(&white_resigns, Color::White), Ending::MoverLost(ResultReason::Resign));
        assert_eq!(Ending::new(&white_resigns, Color::Black), Ending::MoverWon(ResultReason::Resign));
        let draw = GameResult::draw(ResultReason::Repetition);
        assert_eq!(Ending::new(&draw, Color::Black), Ending::Draw(ResultReason::Repetition));
        let stopped = GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt };
        assert_eq!(Ending::new(&stopped, Color::White), Ending::Unfinished);
        assert!(Ending::MoverWon(ResultReason::PerpetualCheck).is_foul());
        assert!(!Ending::MoverLost(ResultReason::Time).is_foul());
    }
}
