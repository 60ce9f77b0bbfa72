//! Game rules on a position with history (rules.md §4–§7): the illegal-move kinds, repetition
//! (*sennichite*) with perpetual check, entering-king declarations, and how a game ended.

use super::Position;
use crate::types::{Bitboard, Color, PieceKind};
use std::fmt;
use std::str::FromStr;

/// Why a move is illegal, named after the shogi rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalMoveKind {
    /// The origin square is empty.
    #[error("there is no piece on the origin square")]
    NoPiece,
    /// The piece on the origin square belongs to the opponent.
    #[error("the piece on the origin square is not yours")]
    NotYourPiece,
    /// The piece cannot reach the destination (wrong pattern or blocked).
    #[error("the piece cannot move there")]
    CannotReach,
    /// The destination holds a piece of the mover.
    #[error("the destination holds your own piece")]
    CaptureOwnPiece,
    /// A drop onto an occupied square.
    #[error("drop onto an occupied square")]
    DropOnOccupied,
    /// A drop of a piece not held in hand.
    #[error("that piece is not in hand")]
    NotInHand,
    /// Promotion by a piece that cannot promote, or outside the promotion zone.
    #[error("the piece cannot promote on this move")]
    CannotPromote,
    /// A pawn, lance or knight left where it could never move (dead piece, 行き所のない駒).
    #[error("the piece could never move from there (dead piece)")]
    DeadPiece,
    /// A second unpromoted pawn of the mover on one file (*nifu*, 二歩).
    #[error("two pawns on one file (nifu)")]
    Nifu,
    /// A pawn drop that checkmates (*uchifuzume*, 打ち歩詰め).
    #[error("pawn drop mate (uchifuzume)")]
    Uchifuzume,
    /// The mover's king is in check after the move (check ignored or self-check).
    #[error("leaves the king in check")]
    LeavesKingInCheck,
}

/// The repetition status of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The position has not repeated (often enough).
    None,
    /// Sennichite: a draw.
    Draw,
    /// Perpetual check: the given color gave check on every move of the cycle and loses.
    PerpetualCheckBy(Color),
}

/// The entering-king declaration rule in force (rules.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnteringKingRule {
    /// No declarations.
    None,
    /// JSA 24-point rule: ≥ 31 points wins, 24–30 draws.
    Point24,
    /// CSA 27-point rule: Black needs 28, White 27.
    #[default]
    Point27,
}

impl EnteringKingRule {
    /// Every rule, in the order the USI option `EnteringKingRule` lists them.
    pub const ALL: [EnteringKingRule; 3] =
        [EnteringKingRule::None, EnteringKingRule::Point24, EnteringKingRule::Point27];

    /// The rule's name as YaneuraOu's USI option `EnteringKingRule` spells it (usi.md §5): what
    /// [`fmt::Display`] writes and [`FromStr`] reads.
    fn usi_name(self) -> &'static str {
        match self {
            EnteringKingRule::None => "NoEnteringKing",
            EnteringKingRule::Point24 => "CSARule24",
            EnteringKingRule::Point27 => "CSARule27",
        }
    }

    /// The short name the match runner's `--entering-king-rule` also takes.
    fn short_name(self) -> &'static str {
        match self {
            EnteringKingRule::None => "none",
            EnteringKingRule::Point24 => "24",
            EnteringKingRule::Point27 => "27",
        }
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.usi_name())
    }
}

/// A text that names no entering-king rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown entering-king rule {0:?} (NoEnteringKing, CSARule24, CSARule27)")]
pub struct ParseEnteringKingRuleError(pub String);

impl FromStr for EnteringKingRule {
    type Err = ParseEnteringKingRuleError;

    /// Reads a rule by its USI name (`NoEnteringKing`, `CSARule24`, `CSARule27`) or its short name
    /// (`none`, `24`, `27`), in any case. YaneuraOu's `CSARule24H`, `CSARule27H` (handicap-aware)
    /// and `TryRule` are rules hisha does not play (rules.md §6.3): they are errors.
    fn from_str(s: &str) -> Result<EnteringKingRule, ParseEnteringKingRuleError> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.usi_name().eq_ignore_ascii_case(s) || r.short_name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseEnteringKingRuleError(s.to_string()))
    }
}

/// What a declaration (`bestmove win`) amounts to under a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclarationOutcome {
    /// The declarer wins.
    Win,
    /// The declarer draws (24-point rule with 24–30 points).
    Draw,
    /// The declaration is invalid (and loses), with the reason.
    Invalid(&'static str),
}

impl Position {
    /// The repetition status with `needed` occurrences of the current position making a
    /// repetition: 4 for the game rule (sennichite), 2 for the search's "first repetition".
    ///
    /// A repetition is perpetual check when one side gave check with every one of its moves since
    /// the first of those occurrences (that side loses); otherwise it is a draw.
    pub fn repetition(&self, needed: usize) -> Repetition {
        self.repetition_within(needed, usize::MAX)
    }

    /// [`Position::repetition`] looking back at most `max_plies` plies (the search uses a short
    /// window below its first plies, which compare with the whole game).
    pub(crate) fn repetition_within(&self, needed: usize, max_plies: usize) -> Repetition {
        let key = self.key();
        let hist = self.history();
        let n = hist.len();
        let limit = n.min(max_plies);
        let mut seen = 1;
        let mut distance = 0;
        let mut d = 4;
        while d <= limit {
            let s = &hist[n - d];
            if s.board_key ^ s.hand_key == key {
                seen += 1;
                distance = d;
                if seen >= needed {
                    break;
                }
            }
            d += 2;
        }
        if seen < needed {
            return Repetition::None;
        }
        // Over `distance` plies each side made distance / 2 moves.
        let moves = (distance / 2) as u16;
        let checks = self.state().continuous_checks;
        let mover = !self.side_to_move();
        if checks[mover.index()] >= moves {
            Repetition::PerpetualCheckBy(mover)
        } else if checks[(!mover).index()] >= moves {
            Repetition::PerpetualCheckBy(!mover)
        } else {
            Repetition::Draw
        }
    }

    /// Whether the side to move may declare an entering-king win under `rule`, and how it scores.
    pub fn declaration(&self, rule: EnteringKingRule) -> DeclarationOutcome {
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return DeclarationOutcome::Invalid("no king");
        };
        if rule == EnteringKingRule::None {
            return DeclarationOutcome::Invalid("declarations are disabled");
        }
        let camp = Bitboard::far_ranks(us, 3);
        if !camp.has(ksq) {
            return DeclarationOutcome::Invalid("the king is not in the enemy camp");
        }
        if self.in_check() {
            return DeclarationOutcome::Invalid("the king is in check");
        }
        if (self.pieces_of(us) & camp).without(ksq).count() < 10 {
            return DeclarationOutcome::Invalid("fewer than 10 pieces in the enemy camp");
        }
        let points = self.declaration_points(us);
        match rule {
            EnteringKingRule::Point27 => {
                let needed = if us == Color::Black { 28 } else { 27 };
                if points >= needed {
                    DeclarationOutcome::Win
                } else {
                    DeclarationOutcome::Invalid("not enough points")
                }
            }
            EnteringKingRule::Point24 => match points {
                31.. => DeclarationOutcome::Win,
                24..=30 => DeclarationOutcome::Draw,
                _ => DeclarationOutcome::Invalid("not enough points"),
            },
            EnteringKingRule::None => DeclarationOutcome::Invalid("declarations are disabled"),
        }
    }

    /// Declaration points of `c` (rules.md §6: rook/bishop 5, others 1) over its pieces in the
    /// enemy camp (king excluded) and in hand.
    pub(crate) fn declaration_points(&self, c: Color) -> u32 {
        let camp = Bitboard::far_ranks(c, 3);
        let ours = (self.pieces_of(c) & camp) - self.pieces_of_kind(PieceKind::King);
        let big = ours
            & (self.pieces_of_kind(PieceKind::Bishop)
                | self.pieces_of_kind(PieceKind::Rook)
                | self.pieces_of_kind(PieceKind::Horse)
                | self.pieces_of_kind(PieceKind::Dragon));
        let hand = self.hand(c);
        ours.count()
            + 4 * big.count()
            + hand.total()
            + 4 * (hand.count(PieceKind::Bishop) + hand.count(PieceKind::Rook))
    }
}

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Black (sente) won.
    Black,
    /// White (gote) won.
    White,
    /// Nobody: a draw.
    Draw,
    /// The game did not finish (interrupted or unknown).
    Unfinished,
}

impl Winner {
    /// The winner of color `c`.
    pub fn color(c: Color) -> Winner {
        match c {
            Color::Black => Winner::Black,
            Color::White => Winner::White,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultReason {
    /// The loser resigned.
    Resign,
    /// The loser was checkmated (or had no legal move).
    Checkmate,
    /// The loser ran out of time.
    Time,
    /// Fourfold repetition (draw).
    Repetition,
    /// Fourfold repetition with continuous checks: the checker lost.
    PerpetualCheck,
    /// The winner declared an entering-king win (or a 24-point draw).
    Declaration,
    /// The move limit was reached (draw).
    MaxMoves,
    /// The loser played an illegal move (or made a false declaration).
    IllegalMove,
    /// Adjudicated by score (resign or draw rule of a match runner).
    Adjudication,
    /// The loser's engine crashed, hung or disconnected.
    Disconnect,
    /// The game was stopped before it finished.
    Interrupt,
}

impl fmt::Display for ResultReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResultReason::Resign => "resignation",
            ResultReason::Checkmate => "checkmate",
            ResultReason::Time => "time forfeit",
            ResultReason::Repetition => "repetition",
            ResultReason::PerpetualCheck => "perpetual check",
            ResultReason::Declaration => "entering-king declaration",
            ResultReason::MaxMoves => "move limit",
            ResultReason::IllegalMove => "illegal move",
            ResultReason::Adjudication => "adjudication",
            ResultReason::Disconnect => "engine crash or disconnect",
            ResultReason::Interrupt => "interrupted",
        })
    }
}

/// How a game ended: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner (or draw, or unfinished).
    pub winner: Winner,
    /// The reason.
    pub reason: ResultReason,
}

impl GameResult {
    /// A win for `c`.
    pub fn win(c: Color, reason: ResultReason) -> GameResult {
        GameResult { winner: Winner::color(c), reason }
    }

    /// A loss for `c`.
    pub fn loss(c: Color, reason: ResultReason) -> GameResult {
        GameResult::win(!c, reason)
    }

    /// A draw.
    pub fn draw(reason: ResultReason) -> GameResult {
        GameResult { winner: Winner::Draw, reason }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Winner::Black => write!(f, "Black wins by {}", self.reason),
            Winner::White => write!(f, "White wins by {}", self.reason),
            Winner::Draw => write!(f, "draw by {}", self.reason),
            Winner::Unfinished => write!(f, "unfinished ({})", self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entering_king_rule_reads_by_its_usi_or_short_name_in_any_case() {
        // The spellings the USI option (YaneuraOu's combo values, usi.md §5) and the match
        // runner's `--entering-king-rule` (README) took before they shared this parser.
        let spellings = [
            (EnteringKingRule::None, ["NoEnteringKing", "noenteringking", "none", "NONE"]),
            (EnteringKingRule::Point24, ["CSARule24", "csarule24", "CSARULE24", "24"]),
            (EnteringKingRule::Point27, ["CSARule27", "csarule27", "CsaRule27", "27"]),
        ];
        for (rule, texts) in spellings {
            for text in texts {
                assert_eq!(text.parse::<EnteringKingRule>(), Ok(rule), "{text}");
            }
        }
        for rule in EnteringKingRule::ALL {
            assert_eq!(rule.to_string().parse::<EnteringKingRule>(), Ok(rule), "Display reads back");
        }
        assert_eq!(EnteringKingRule::Point24.to_string(), "CSARule24");
    }

    #[test]
    fn an_unknown_entering_king_rule_is_an_error_naming_it() {
        // YaneuraOu's rules hisha does not play (usi.md §5, rules.md §6.3) and plain mistakes.
        for text in ["TryRule", "CSARule24H", "CSARule27H", "", "28", " 27", "csarule"] {
            assert_eq!(text.parse::<EnteringKingRule>(), Err(ParseEnteringKingRuleError(text.to_string())), "{text:?}");
        }
        let e = "TryRule".parse::<EnteringKingRule>().expect_err("not a rule hisha plays");
        assert_eq!(e.to_string(), "unknown entering-king rule \"TryRule\" (NoEnteringKing, CSARule24, CSARule27)");
    }
}
