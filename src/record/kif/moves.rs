//! KIF move text (kif-csa.md §1): `７六歩(77)`, `同　銀(31)`, `２二角成(88)`, `４五角打`, and the
//! reverse, resolved against the position.

use super::kanji;
use crate::position::Position;
use crate::types::{Move, MoveKind, Square};

/// Appends the destination: `７六`, or `同　` when it equals `prev_to`.
pub(crate) fn write_destination(s: &mut String, to: Square, prev_to: Option<Square>) {
    if prev_to == Some(to) {
        s.push_str("同　");
    } else {
        s.push(kanji::FILES[to.file().index()]);
        s.push(kanji::RANKS[to.rank().index()]);
    }
}

/// Appends the KIF text of `m` when the previous move went to `prev_to` (`None`: never `同`).
pub(crate) fn write_to(s: &mut String, pos: &Position, m: Move, prev_to: Option<Square>) {
    write_destination(s, m.to(), prev_to);
    match m.kind() {
        MoveKind::Drop { kind, .. } => {
            s.push_str(kanji::piece_name(kind));
            s.push('打');
        }
        MoveKind::Normal { from, promote, .. } => {
            let kind = pos.piece_on(from).map(|p| p.kind()).unwrap_or(crate::PieceKind::Pawn);
            s.push_str(kanji::piece_name(kind));
            if promote {
                s.push('成');
            }
            s.push('(');
            s.push((b'0' + from.file().number()) as char);
            s.push((b'0' + from.rank().number()) as char);
            s.push(')');
        }
    }
}

/// Reads a destination at the start of `s`: the square and the rest of the text.
pub(crate) fn read_destination(s: &str, prev_to: Option<Square>) -> Option<(Square, &str)> {
    let mut it = s.chars();
    let c1 = it.next()?;
    if c1 == '同' {
        let rest = it.as_str();
        return Some((prev_to?, rest.trim_start_matches(['　', ' '])));
    }
    let f = kanji::file_of(c1)?;
    let r = kanji::rank_of(it.next()?)?;
    let sq = Square::new(crate::types::File::new(f)?, crate::types::Rank::from_index(r as usize - 1)?);
    Some((sq, it.as_str().trim_start_matches(['　', ' '])))
}

/// Resolves KIF move text in `pos`. Returns `None` if it is not a well-formed move; the move may
/// still be illegal (the caller checks).
pub(crate) fn read(pos: &Position, text: &str) -> Option<Move> {
    let (m, kind) = parse(text, pos.last_move().map(|l| l.to()))?;
    // The written piece must be the one standing there.
    match m.from() {
        Some(from) => (pos.piece_on(from).map(|p| p.kind()) == Some(kind)).then_some(m),
        None => Some(m),
    }
}

/// Reads KIF move text without a position (`prev_to` stands for `同`): the move and the piece
/// kind written for it. Legality is not checked.
pub(crate) fn parse(text: &str, prev_to: Option<Square>) -> Option<(Move, crate::PieceKind)> {
    let (to, rest) = read_destination(text, prev_to)?;
    let (kind, n) = kanji::read_piece(rest)?;
    let rest = &rest[rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i)..];
    if let Some(after) = rest.strip_prefix('打') {
        return (after.trim().is_empty() && kind.is_hand_kind()).then(|| (Move::drop(kind, to), kind));
    }
    let (promote, rest) = match rest.strip_prefix("不成") {
        Some(r) => (false, r),
        None => match rest.strip_prefix('成') {
            Some(r) => (true, r),
            None => (false, rest),
        },
    };
    let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut digits = inner.chars().filter_map(|c| c.to_digit(10));
    let (f, r) = (digits.next()? as u8, digits.next()? as usize);
    if digits.next().is_some() {
        return None;
    }
    let from = Square::new(crate::types::File::new(f)?, crate::types::Rank::from_index(r.checked_sub(1)?)?);
    (from != to).then(|| (Move::normal(from, to, promote), kind))
}
