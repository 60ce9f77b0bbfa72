//! The `まで…` line that ends a KIF or KI2 game (kif-csa.md §1): `まで64手で後手の勝ち`,
//! `まで30手で千日手`, `まで80手で持将棋`, `まで12手で中断`, `まで99手で先手の入玉勝ち`,
//! `まで41手で後手の反則勝ち`, `まで41手で先手の反則負け`. These are the forms cshogi's KIF and KI2
//! readers take the winner from (its readers ignore KIF's terminal move words such as `投了`);
//! GUIs read them too. Reasons the line cannot tell (checkmate, time, …) come from KIF's terminal
//! word or hisha's `#hisha-result:` note.

use crate::position::{GameResult, ResultReason, Winner};
use crate::types::Color;

/// The name of a side: 先手/後手, or 下手/上手 in a handicap game.
fn side_name(c: Color, handicap: bool) -> &'static str {
    match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// The `まで…` line for a result after `moves` moves. A foul is told as the winner's `反則勝ち`,
/// or, with `foul_by_loser`, as the loser's `反則負け` (what KIF's terminal word `反則負け` says).
pub(crate) fn line(r: &GameResult, moves: usize, handicap: bool, foul_by_loser: bool) -> String {
    let winner = match r.winner {
        Winner::Black => Color::Black,
        Winner::White => Color::White,
        Winner::Draw if r.reason == ResultReason::Repetition => return format!("まで{moves}手で千日手"),
        Winner::Draw => return format!("まで{moves}手で持将棋"),
        Winner::Unfinished => return format!("まで{moves}手で中断"),
    };
    let tail = match r.reason {
        ResultReason::Declaration => format!("{}の入玉勝ち", side_name(winner, handicap)),
        ResultReason::PerpetualCheck | ResultReason::IllegalMove if foul_by_loser => {
            format!("{}の反則負け", side_name(!winner, handicap))
        }
        ResultReason::PerpetualCheck | ResultReason::IllegalMove => {
            format!("{}の反則勝ち", side_name(winner, handicap))
        }
        _ => format!("{}の勝ち", side_name(winner, handicap)),
    };
    format!("まで{moves}手で{tail}")
}

/// The result a `まで…` line states, also in the forms Kifu for Windows writes
/// (`時間切れにより後手の勝ち`, `詰みで先手の勝ち`); `None` when it names no outcome.
pub(crate) fn read(line: &str) -> Option<GameResult> {
    let text = line.trim();
    if text.contains("中断") {
        return Some(GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt });
    }
    if text.contains("千日手") && !text.contains("王手連続千日手") {
        return Some(GameResult::draw(ResultReason::Repetition));
    }
    if text.contains("持将棋") {
        return Some(GameResult::draw(ResultReason::MaxMoves));
    }
    let named = if text.contains("先手の") || text.contains("下手の") {
        Color::Black
    } else if text.contains("後手の") || text.contains("上手の") {
        Color::White
    } else {
        return None;
    };
    Some(if text.contains("反則負け") {
        GameResult::win(!named, ResultReason::IllegalMove)
    } else if text.contains("反則勝ち") {
        GameResult::win(named, ResultReason::IllegalMove)
    } else if text.contains("入玉") {
        GameResult::win(named, ResultReason::Declaration)
    } else if text.contains("時間切れ") {
        GameResult::win(named, ResultReason::Time)
    } else if text.contains("詰") {
        GameResult::win(named, ResultReason::Checkmate)
    } else if text.contains("勝ち") {
        GameResult::win(named, ResultReason::Resign)
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_winner_as_cshogi_reads_it() {
        let white_resign = GameResult::win(Color::White, ResultReason::Resign);
        assert_eq!(line(&white_resign, 64, false, false), "まで64手で後手の勝ち");
        assert_eq!(line(&white_resign, 64, true, false), "まで64手で上手の勝ち");
        let foul = GameResult::win(Color::Black, ResultReason::IllegalMove);
        assert_eq!(line(&foul, 41, false, false), "まで41手で先手の反則勝ち");
        assert_eq!(line(&foul, 41, false, true), "まで41手で後手の反則負け");
        assert_eq!(line(&GameResult::draw(ResultReason::Repetition), 30, false, false), "まで30手で千日手");
        assert_eq!(line(&GameResult::draw(ResultReason::MaxMoves), 256, false, false), "まで256手で持将棋");
        let stopped = GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt };
        assert_eq!(line(&stopped, 7, false, false), "まで7手で中断");
    }

    #[test]
    fn reading_the_line_gives_the_winner_also_of_a_foul_loss() {
        assert_eq!(read("まで41手で先手の反則負け"), Some(GameResult::win(Color::White, ResultReason::IllegalMove)));
        assert_eq!(read("まで64手で時間切れにより後手の勝ち"), Some(GameResult::win(Color::White, ResultReason::Time)));
        assert_eq!(read("まで5手で先手の勝ち"), Some(GameResult::win(Color::Black, ResultReason::Resign)));
        assert_eq!(read("まで99手で上手の入玉勝ち"), Some(GameResult::win(Color::White, ResultReason::Declaration)));
        assert_eq!(read("まで3手で"), None);
    }
}
