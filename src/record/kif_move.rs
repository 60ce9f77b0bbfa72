//! KIF move text (kif-csa.md §1): `７六歩(77)`, `同　銀(31)`, `２二角成(88)`, `４五角打`, and the
//! reverse, resolved against the position.

use super::kanji;
use crate::position::Position;
use crate::types::{Move, MoveKind, Square};

/// The destination text: `７六`, or `同　` when it equals `prev_to`.
pub(super) fn destination(to: Square, prev_to: Option<Square>) -> String {
    if prev_to == Some(to) {
        "同　".to_string()
    } else {
        format!("{}{}", kanji::FILES[to.file().index()], kanji::RANKS[to.rank().index()])
    }
}

/// The KIF text of the legal move `m` (without padding).
pub(super) fn write(pos: &Position, m: Move) -> String {
    write_after(pos, m, pos.last_move().map(|l| l.to()))
}

/// The KIF text of `m` when the previous move went to `prev_to` (`None`: never write `同`).
pub(super) fn write_after(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    match m.kind() {
        MoveKind::Drop { kind, to } => {
            format!("{}{}打", destination(to, prev_to), kanji::piece_name(kind))
        }
        MoveKind::Normal { from, to, promote } => {
            let kind = pos.piece_on(from).map(|p| p.kind()).unwrap_or(crate::PieceKind::Pawn);
            format!(
                "{}{}{}({}{})",
                destination(to, prev_to),
                kanji::piece_name(kind),
                if promote { "成" } else { "" },
                from.file().number(),
                from.rank().number()
            )
        }
    }
}

/// Reads a destination at the start of `s`: the square and the number of characters used.
pub(super) fn read_destination(s: &str, prev_to: Option<Square>) -> Option<(Square, usize)> {
    let mut it = s.chars();
    let c1 = it.next()?;
    if c1 == '同' {
        let used = if matches!(it.next(), Some('　' | ' ')) { 2 } else { 1 };
        return Some((prev_to?, used));
    }
    let f = kanji::file_of(c1)?;
    let r = kanji::rank_of(it.next()?)?;
    Some((Square::new(crate::types::File::new(f)?, crate::types::Rank::from_index(r as usize - 1)?), 2))
}

/// Resolves KIF move text in `pos`. Returns `None` if it is not a well-formed move; the move may
/// still be illegal (the caller checks with `Position::check_move`).
pub(super) fn read(pos: &Position, text: &str) -> Option<Move> {
    let prev_to = pos.last_move().map(|l| l.to());
    let (to, used) = read_destination(text, prev_to)?;
    let rest: String = text.chars().skip(used).collect();
    let rest = rest.trim_start_matches(['　', ' ']);
    let (kind, n) = kanji::read_piece(rest)?;
    let rest: String = rest.chars().skip(n).collect();
    if let Some(after) = rest.strip_prefix('打') {
        if !after.trim().is_empty() {
            return None;
        }
        return kind.is_hand_kind().then(|| Move::drop(kind, to));
    }
    let (promote, rest) = if let Some(r) = rest.strip_prefix("不成") {
        (false, r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (true, r)
    } else {
        (false, rest.as_str())
    };
    let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
    let digits: Vec<u8> = inner.chars().filter_map(|c| c.to_digit(10).map(|d| d as u8)).collect();
    let [f, r] = digits[..] else { return None };
    let from = Square::new(crate::types::File::new(f)?, crate::types::Rank::from_index((r as usize).checked_sub(1)?)?);
    // The written piece must be the one standing there.
    if pos.piece_on(from).map(|p| p.kind()) != Some(kind) {
        return None;
    }
    Some(Move::normal(from, to, promote))
}
