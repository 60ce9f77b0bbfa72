//! The adjudication settings of a match and the score adjudication they drive: resign when both
//! engines agree that one side is lost, draw when both scores stay near zero. An adjudicated
//! loser resigns on its own turn, right after the winner's move, so that every record format
//! can write the game as the loser's resignation (`投了`, `%TORYO`), which every reader takes
//! for a win of the other side; the formats have no word for a resignation by the side that has
//! just moved (record/ending.rs).

use crate::arena::settings::{GameSettings, ScoreRule};
use crate::position::{EnteringKingRule, GameResult, ResultReason};
use crate::types::Color;
use std::time::Duration;

/// Adjudication settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Draw after this many plies (counted from the start position, opening included).
    pub max_plies: u32,
    /// Resign adjudication: both engines agree by `cp` for `plies` moves each.
    pub resign: Option<ScoreRule>,
    /// Draw adjudication: both scores within ±`cp` for `plies` moves each.
    pub draw: Option<ScoreRule>,
    /// Entering-king rule for `bestmove win`.
    pub entering_king: EnteringKingRule,
    /// How long an untimed (nodes/depth) move may take before the engine is deemed stalled.
    pub stall: Duration,
}

impl Rules {
    /// The rules `settings` ask for.
    pub(crate) fn from_settings(settings: &GameSettings) -> Rules {
        Rules {
            max_plies: settings.max_plies,
            resign: settings.resign,
            draw: settings.draw,
            entering_king: settings.entering_king_rule,
            stall: Duration::from_secs(settings.stall_timeout),
        }
    }
}

/// The score streaks of one game: moves in a row of each side reporting a clear loss or win, and
/// moves in a row (both sides together) reporting a score near zero.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScoreStreaks {
    low: [u32; 2],
    high: [u32; 2],
    drawish: u32,
}

impl ScoreStreaks {
    /// Counts the score `cp` that `us` reported with its move; the adjudicated result once the
    /// streaks reach the rules' lengths (a draw takes precedence over a resignation). A win is
    /// adjudicated only after the winner's move, when the loser is on move: a streak the loser's
    /// own move completes waits for the winner's next score, which must agree too.
    pub(crate) fn count(&mut self, us: Color, cp: i32, rules: &Rules) -> Option<GameResult> {
        let i = us.index();
        let (resign, draw) = (rules.resign, rules.draw);
        self.low[i] = if resign.is_some_and(|r| cp <= -r.cp) { self.low[i] + 1 } else { 0 };
        self.high[i] = if resign.is_some_and(|r| cp >= r.cp) { self.high[i] + 1 } else { 0 };
        self.drawish = if draw.is_some_and(|r| cp.abs() <= r.cp) { self.drawish + 1 } else { 0 };
        if draw.is_some_and(|r| self.drawish >= 2 * r.plies) {
            return Some(GameResult::draw(ResultReason::Adjudication));
        }
        let n = resign?.plies;
        (self.high[i] >= n && self.low[1 - i] >= n).then(|| GameResult::win(us, ResultReason::Adjudication))
    }

    /// The record's note on an adjudicated `result` (a win or a draw by score), which the formats
    /// cannot say in their words: `White wins by adjudication: …`.
    pub(crate) fn note(result: &GameResult, rules: &Rules) -> String {
        match (result.winner, rules.resign, rules.draw) {
            (crate::position::Winner::Draw, _, Some(d)) => {
                format!(
                    "{result}: scores within ±{} cp for {} moves in a row (--draw {}:{})",
                    d.cp,
                    2 * d.plies,
                    d.cp,
                    d.plies
                )
            }
            (_, Some(r), _) => format!(
                "{result}: both engines' scores beyond {} cp for {} moves each (--resign {}:{})",
                r.cp, r.plies, r.cp, r.plies
            ),
            _ => result.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Winner;

    fn rules(resign: Option<(i32, u32)>, draw: Option<(i32, u32)>) -> Rules {
        let rule = |r: Option<(i32, u32)>| r.map(|(cp, plies)| ScoreRule { cp, plies });
        Rules {
            max_plies: 320,
            resign: rule(resign),
            draw: rule(draw),
            entering_king: EnteringKingRule::Point27,
            stall: Duration::from_secs(1),
        }
    }

    #[test]
    fn resignation_needs_both_engines_to_agree_for_the_plies_each() {
        let r = rules(Some((400, 2)), None);
        let mut s = ScoreStreaks::default();
        // Black says it is lost, White says it is winning: after two moves each, Black loses.
        assert_eq!(s.count(Color::Black, -500, &r), None);
        assert_eq!(s.count(Color::White, 500, &r), None);
        assert_eq!(s.count(Color::Black, -450, &r), None);
        let result = s.count(Color::White, 401, &r).expect("adjudicated");
        assert_eq!((result.winner, result.reason), (Winner::White, ResultReason::Adjudication));
        // A score inside the threshold ends the streak.
        let mut s = ScoreStreaks::default();
        for (c, cp) in [(Color::Black, -500), (Color::White, 500), (Color::Black, -399), (Color::White, 500)] {
            assert_eq!(s.count(c, cp, &r), None, "{c} {cp}");
        }
    }

    #[test]
    fn the_adjudicated_loser_is_on_move() {
        let r = rules(Some((400, 2)), None);
        let mut s = ScoreStreaks::default();
        for (c, cp) in [(Color::Black, 500), (Color::White, -500), (Color::Black, 450)] {
            assert_eq!(s.count(c, cp, &r), None, "{c} {cp}");
        }
        // White's second losing score completes both streaks, but White has just moved: it would
        // lose with Black on move, which no record format can write as a resignation.
        assert_eq!(s.count(Color::White, -450, &r), None);
        // After Black's next move, still winning, White (on move) loses.
        let result = s.count(Color::Black, 460, &r).expect("adjudicated");
        assert_eq!((result.winner, result.reason), (Winner::Black, ResultReason::Adjudication));
        let note = ScoreStreaks::note(&result, &r);
        assert_eq!(
            note,
            "Black wins by adjudication: both engines' scores beyond 400 cp for 2 moves each (--resign 400:2)"
        );
    }

    #[test]
    fn a_draw_needs_scores_near_zero_in_twice_the_plies_of_moves_in_a_row() {
        let r = rules(Some((400, 1)), Some((10, 2)));
        let mut s = ScoreStreaks::default();
        for cp in [5, -10, 0] {
            assert_eq!(s.count(Color::Black, cp, &r), None);
        }
        let result = s.count(Color::White, 10, &r).expect("four moves near zero");
        assert_eq!((result.winner, result.reason), (Winner::Draw, ResultReason::Adjudication));
        assert_eq!(rules(None, None).draw, None);
        assert_eq!(ScoreStreaks::default().count(Color::Black, 0, &rules(None, None)), None, "no rules, no result");
    }
}
