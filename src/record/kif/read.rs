//! What KIF's header keys and terminal words mean when read (kif-csa.md §1); the reader is
//! `super::parse`, the writer `super::write`.

use crate::position::{GameResult, Position, Repetition, ResultReason, Winner};

/// Header keys and the tags they map to (the writer maps back, `super::header`).
pub(super) const TAGS: [(&str, &str); 10] = [
    ("開始日時", "Date"),
    ("終了日時", "GameEndTime"),
    ("棋戦", "Event"),
    ("場所", "Site"),
    ("戦型", "Opening"),
    ("持ち時間", "TimeControl"),
    ("先手持ち時間", "BlackTimeControl"),
    ("後手持ち時間", "WhiteTimeControl"),
    ("表題", "Title"),
    ("対局日", "Date"),
];

/// The result a terminal word gives at the final position. `反則勝ち` (the side to move wins by the
/// opponent's foul) is read as perpetual check when the position shows the opponent checking
/// perpetually, else as an illegal move.
pub(super) fn terminal(word: &str, pos: &Position) -> Option<GameResult> {
    let stm = pos.side_to_move();
    Some(match word {
        "投了" => GameResult::loss(stm, ResultReason::Resign),
        "詰み" | "詰" => GameResult::loss(stm, ResultReason::Checkmate),
        "切れ負け" | "時間切れ" => GameResult::loss(stm, ResultReason::Time),
        "千日手" => GameResult::draw(ResultReason::Repetition),
        "持将棋" | "最大手数超過" => GameResult::draw(ResultReason::MaxMoves),
        "入玉勝ち" | "勝ち宣言" => GameResult::win(stm, ResultReason::Declaration),
        "王手連続千日手" => GameResult::win(stm, ResultReason::PerpetualCheck),
        "反則勝ち" if pos.repetition(4) == Repetition::PerpetualCheckBy(!stm) => {
            GameResult::win(stm, ResultReason::PerpetualCheck)
        }
        "反則勝ち" => GameResult::win(stm, ResultReason::IllegalMove),
        "反則負け" => GameResult::loss(stm, ResultReason::IllegalMove),
        "中断" | "不詰" => GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt },
        "不戦勝" => GameResult::win(stm, ResultReason::Disconnect),
        "不戦敗" => GameResult::loss(stm, ResultReason::Disconnect),
        _ => return None,
    })
}
