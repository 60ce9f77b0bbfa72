//! The `まで…` line that ends a KIF or KI2 game (kif-csa.md §1): `まで64手で後手の勝ち`,
//! `まで30手で千日手`, `まで80手で持将棋`, `まで12手で中断`, `まで99手で先手の入玉勝ち`,
//! `まで41手で後手の反則勝ち`, `まで41手で先手の反則負け`. cshogi's KIF and KI2 readers and
//! python-shogi's KIF reader take the winner from it (they ignore most of KIF's terminal words);
//! tsshogi reads KI2's result only from it, and only from its last words with the side to move:
//! `…の勝ち` is the side to move resigning, `…の反則勝ち` and `…の入玉勝ち` the side to move
//! winning, `…の反則負け` the side to move losing (tsshogi src/kakinoki.ts, `readEndOfGame`).
//! Reasons the line cannot tell (checkmate, time, …) come from KIF's terminal word or hisha's
//! `#hisha-result:` note.

use crate::position::{GameResult, ResultReason, Winner};
use crate::record::ending::Ending;
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

/// What a `まで…` line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Summary {
    /// `…で先手の勝ち`: the side named won.
    Win(Color),
    /// `…で先手の入玉勝ち`: the side named won by declaring.
    EnteringKingWin(Color),
    /// `…で先手の反則勝ち`: the side named won by the other's foul.
    FoulWin(Color),
    /// `…で先手の反則負け`: the side named lost by its foul.
    FoulLoss(Color),
    /// `…で千日手`.
    Repetition,
    /// `…で持将棋`, the draw every reader knows.
    Draw,
    /// `…で中断`.
    Interrupted,
}

impl Summary {
    /// The line KIF writes for `ending` with `to_move` on move at the end. KIF's terminal word
    /// says how; the line only has to name the winner in the forms cshogi and python-shogi read:
    /// python-shogi knows `…の勝ち` but not `…の入玉勝ち`, and no terminal `入玉勝ち` or `不戦勝`
    /// (python-shogi shogi/KIF.py, `RESULT_RE` and `MOVE_RE`), so every win but a foul is
    /// `…の勝ち`.
    pub(crate) fn kif(ending: Ending, to_move: Color) -> Summary {
        match ending {
            e if e.is_foul() => Summary::ki2(e, to_move),
            Ending::MoverWon(_) => Summary::Win(to_move),
            _ => Summary::ki2(ending, to_move),
        }
    }

    /// The line KI2 writes for `ending` with `to_move` on move at the end: the only place its
    /// result is, so a win of the side to move must be a `入玉勝ち` or a `反則勝ち` for tsshogi to
    /// read the winner (its `…の勝ち` is the side to move resigning).
    pub(crate) fn ki2(ending: Ending, to_move: Color) -> Summary {
        match ending {
            e if e.is_foul() && matches!(e, Ending::MoverLost(_)) => Summary::FoulLoss(to_move),
            Ending::MoverLost(_) => Summary::Win(!to_move),
            Ending::MoverWon(ResultReason::Declaration) => Summary::EnteringKingWin(to_move),
            Ending::MoverWon(_) => Summary::FoulWin(to_move),
            Ending::Draw(ResultReason::Repetition) => Summary::Repetition,
            Ending::Draw(_) => Summary::Draw,
            Ending::Unfinished => Summary::Interrupted,
        }
    }

    /// The line after `moves` moves.
    pub(crate) fn line(self, moves: usize, handicap: bool) -> String {
        let name = |c| side_name(c, handicap);
        let tail = match self {
            Summary::Win(c) => format!("{}の勝ち", name(c)),
            Summary::EnteringKingWin(c) => format!("{}の入玉勝ち", name(c)),
            Summary::FoulWin(c) => format!("{}の反則勝ち", name(c)),
            Summary::FoulLoss(c) => format!("{}の反則負け", name(c)),
            Summary::Repetition => "千日手".to_string(),
            Summary::Draw => "持将棋".to_string(),
            Summary::Interrupted => "中断".to_string(),
        };
        format!("まで{moves}手で{tail}")
    }
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
    fn the_line_names_the_winner_as_cshogi_and_tsshogi_read_it() {
        let black = Color::Black;
        let line = |ending, kif: bool| {
            let s = if kif { Summary::kif(ending, black) } else { Summary::ki2(ending, black) };
            s.line(64, false)
        };
        // Black on move lost: the winner named (cshogi), and tsshogi's resignation by the mover.
        assert_eq!(line(Ending::MoverLost(ResultReason::Time), false), "まで64手で後手の勝ち");
        assert_eq!(line(Ending::MoverLost(ResultReason::IllegalMove), false), "まで64手で先手の反則負け");
        // Black on move won: KI2 can only say so as a foul or a declaration.
        assert_eq!(line(Ending::MoverWon(ResultReason::Adjudication), false), "まで64手で先手の反則勝ち");
        assert_eq!(line(Ending::MoverWon(ResultReason::Declaration), false), "まで64手で先手の入玉勝ち");
        assert_eq!(line(Ending::MoverWon(ResultReason::Declaration), true), "まで64手で先手の勝ち");
        assert_eq!(line(Ending::MoverWon(ResultReason::PerpetualCheck), true), "まで64手で先手の反則勝ち");
        assert_eq!(line(Ending::MoverWon(ResultReason::Adjudication), true), "まで64手で先手の勝ち");
        assert_eq!(line(Ending::Draw(ResultReason::Repetition), true), "まで64手で千日手");
        assert_eq!(line(Ending::Draw(ResultReason::Adjudication), false), "まで64手で持将棋");
        assert_eq!(line(Ending::Unfinished, false), "まで64手で中断");
        assert_eq!(Summary::Win(Color::White).line(7, true), "まで7手で上手の勝ち");
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
