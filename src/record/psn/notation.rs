//! Western move notation (psn.md §1–§3): writing the full extended form (`P7g-7f`, `B8hx2b+`,
//! `N*4e`, `S4c-5b=`), and reading every variant and abbreviation of PSN-1998 and PSN Draft 1 by
//! matching against the legal moves.

use crate::position::Position;
use crate::record::error::RecordErrorKind;
use crate::record::promotion::could_promote;
use crate::types::{Move, MoveKind, PieceKind, Square};
use std::fmt::Write as _;

/// The full extended notation of the legal move `m` in `pos`.
pub fn write(pos: &Position, m: Move) -> String {
    let mut s = String::with_capacity(8);
    write_to(&mut s, pos, m);
    s
}

/// Appends the full extended notation of the legal move `m` in `pos`.
pub(crate) fn write_to(s: &mut String, pos: &Position, m: Move) {
    match m.kind() {
        MoveKind::Drop { kind, to } => {
            let _ = write!(s, "{}*{to}", kind.base_letter());
        }
        MoveKind::Normal { from, to, promote } => {
            if let Some(k) = pos.piece_on(from).map(|p| p.kind()) {
                if k.is_promoted() {
                    s.push('+');
                }
                s.push(k.base_letter());
            }
            let sep = if pos.piece_on(to).is_some() { 'x' } else { '-' };
            let _ = write!(s, "{from}{sep}{to}");
            if promote {
                s.push('+');
            } else if could_promote(pos, m) {
                s.push('=');
            }
        }
    }
}

/// The parts of a written move.
#[derive(Debug, Default)]
struct Parsed {
    promoted_piece: bool,
    piece: Option<PieceKind>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to_file: Option<u8>,
    to_rank: Option<u8>,
    capture: bool,
    plain: bool,
    drop: bool,
    promote: Option<bool>,
    capture_last: bool,
}

fn parse(text: &str) -> Option<Parsed> {
    // Moves are short ASCII; work on a copy on the stack.
    if !text.is_ascii() || text.len() > 14 {
        return None;
    }
    let mut buf = [0u8; 16];
    let mut len = text.len();
    buf[..len].copy_from_slice(text.as_bytes());
    // `xG` / `x+G` (maybe with a suffix, `xB+`): capture the piece that just moved.
    if buf[0] == b'x' && len <= 4 {
        buf.copy_within(1..len, 0);
        len -= 1;
        let at = if len >= 2 && matches!(buf[len - 1], b'+' | b'=') && buf[len - 2].is_ascii_uppercase() {
            len - 1
        } else {
            len
        };
        buf.copy_within(at..len, at + 1);
        buf[at] = b'x';
        len += 1;
    }
    let chars = &buf[..len];
    let mut p = Parsed::default();
    let mut i = 0;
    if chars.get(i) == Some(&b'+') {
        p.promoted_piece = true;
        i += 1;
    }
    let letter = *chars.get(i)?;
    p.piece = Some(PieceKind::from_base_letter(letter as char).filter(|_| letter.is_ascii_uppercase())?);
    i += 1;
    let mut body = &chars[i..];
    match body.last() {
        Some(b'+') => {
            p.promote = Some(true);
            body = &body[..body.len() - 1];
        }
        Some(b'=') => {
            p.promote = Some(false);
            body = &body[..body.len() - 1];
        }
        _ => {}
    }
    if body == b"x" {
        p.capture_last = true;
        return Some(p);
    }
    let sep = body.iter().position(|c| matches!(c, b'-' | b'x' | b'*' | b'\''));
    let (origin, dest): (&[u8], &[u8]) = match sep {
        Some(s) => {
            match body[s] {
                b'x' => p.capture = true,
                b'-' => p.plain = true,
                _ => p.drop = true,
            }
            (&body[..s], &body[s + 1..])
        }
        None if body.len() >= 2
            && body[body.len() - 2].is_ascii_digit()
            && body[body.len() - 1].is_ascii_lowercase() =>
        {
            (&body[..body.len() - 2], &body[body.len() - 2..])
        }
        None => (&[], body),
    };
    let coords = |cs: &[u8]| -> Option<(Option<u8>, Option<u8>)> {
        let (mut f, mut r) = (None, None);
        for &c in cs {
            match c {
                b'1'..=b'9' if f.is_none() && r.is_none() => f = Some(c - b'0'),
                b'a'..=b'i' if r.is_none() => r = Some(c - b'a' + 1),
                _ => return None,
            }
        }
        Some((f, r))
    };
    (p.from_file, p.from_rank) = coords(origin)?;
    (p.to_file, p.to_rank) = coords(dest)?;
    Some(p)
}

/// When the text names a move completely (origin and destination, or a drop), the rule that move
/// breaks.
fn named_rule(pos: &Position, p: &Parsed) -> Option<crate::position::IllegalMoveKind> {
    let to = square(p.to_file, p.to_rank)?;
    let m = match (square(p.from_file, p.from_rank), p.piece) {
        (Some(from), _) => Move::normal(from, to, p.promote == Some(true)),
        (None, Some(k)) if p.drop && k.is_hand_kind() => Move::drop(k, to),
        _ => return None,
    };
    pos.check_move(m).err()
}

fn matches_square(sq: Square, file: Option<u8>, rank: Option<u8>) -> bool {
    file.is_none_or(|f| sq.file().number() == f) && rank.is_none_or(|r| sq.rank().number() == r)
}

fn square(f: Option<u8>, r: Option<u8>) -> Option<Square> {
    Some(Square::new(crate::types::File::new(f?)?, crate::types::Rank::from_index(r?.checked_sub(1)? as usize)?))
}

/// The move a fully written text names (origin and destination, or a drop), when it is legal and
/// every part of the text agrees with it: the common case, decided without generating moves.
fn exact(pos: &Position, p: &Parsed) -> Option<Move> {
    let (to, kind) = (square(p.to_file, p.to_rank)?, p.piece?);
    if p.capture_last {
        return None;
    }
    let Some(from) = square(p.from_file, p.from_rank) else {
        if !(p.drop && !p.promoted_piece && p.promote != Some(true) && kind.is_hand_kind()) {
            return None;
        }
        let m = Move::drop(kind, to);
        return pos.is_legal(m).then_some(m);
    };
    let piece = pos.piece_on(from)?.kind();
    let kind_ok =
        if p.promoted_piece { kind.promoted() == Some(piece) } else { piece == kind || kind.promoted() == Some(piece) };
    let capture = pos.piece_on(to).is_some();
    if p.drop || !kind_ok || (p.capture && !capture) || (p.plain && capture) {
        return None;
    }
    let promote = p.promote == Some(true) && !piece.is_promoted();
    let m = Move::normal(from, to, promote);
    if pos.is_legal(m) {
        return Some(m);
    }
    // No suffix (or `=`) on a move that must promote: the compulsory promotion.
    let forced = Move::normal(from, to, true);
    (!promote && pos.is_legal(forced)).then_some(forced)
}

/// Resolves written move `text` against the legal moves of `pos`. `last_to` is the destination
/// of the previous move (for `Gx`). `ply` is only used in errors.
pub fn read(pos: &Position, text: &str, last_to: Option<Square>, ply: usize) -> Result<Move, RecordErrorKind> {
    let p = parse(text).ok_or_else(|| RecordErrorKind::Syntax(format!("not a move: {text:?}")))?;
    if let Some(m) = exact(pos, &p) {
        return Ok(m);
    }
    let illegal = || RecordErrorKind::IllegalMove { ply, text: text.to_string(), rule: named_rule(pos, &p) };
    let base = p.piece.ok_or_else(illegal)?;
    let legal = pos.legal_moves();
    let kind_ok = |m: &Move, promoted: bool| {
        let k = match pos.moved_piece(*m) {
            Some(pc) => pc.kind(),
            None => return false,
        };
        if promoted { base.promoted() == Some(k) } else { k == base }
    };
    let fits = |m: &Move| -> bool {
        let to = m.to();
        if !matches_square(to, p.to_file, p.to_rank) {
            return false;
        }
        let capture = pos.piece_on(to).is_some() && !m.is_drop();
        match m.kind() {
            MoveKind::Drop { .. } => {
                if p.capture || p.plain || p.from_file.is_some() || p.from_rank.is_some() || p.promote == Some(true) {
                    return false;
                }
            }
            MoveKind::Normal { from, promote, .. } => {
                if p.drop
                    || (p.capture && !capture)
                    || (p.plain && capture)
                    || !matches_square(from, p.from_file, p.from_rank)
                {
                    return false;
                }
                let already_promoted = pos.piece_on(from).is_some_and(|pc| pc.kind().is_promoted());
                let wants = p.promote == Some(true) && !already_promoted;
                // No suffix or `=` on a move that must promote: accept the compulsory promotion.
                let compulsory = promote && !legal.contains(&Move::normal(from, to, false));
                if promote != wants && !compulsory {
                    return false;
                }
            }
        }
        true
    };
    let pick = |promoted: bool| -> Vec<Move> {
        let candidates: Vec<Move> = legal.iter().copied().filter(|m| kind_ok(m, promoted)).collect();
        if p.capture_last {
            let on_last: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|m| Some(m.to()) == last_to && pos.piece_on(m.to()).is_some())
                .collect();
            if !on_last.is_empty() {
                return on_last;
            }
            return candidates.into_iter().filter(|m| !m.is_drop() && pos.piece_on(m.to()).is_some()).collect();
        }
        candidates.into_iter().filter(fits).collect()
    };
    let mut found = pick(p.promoted_piece);
    if found.is_empty() && !p.promoted_piece {
        found = pick(true); // a promoted piece written without its `+`
    }
    // `Gx` with several promotion choices on the same capture: prefer the plain one unless `+`.
    if found.len() > 1 && p.capture_last {
        let want = p.promote == Some(true);
        let narrowed: Vec<Move> = found.iter().copied().filter(|m| m.is_promotion() == want).collect();
        if !narrowed.is_empty() {
            found = narrowed;
        }
    }
    RecordErrorKind::one_move(&found, ply, text, illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::after;

    fn read_usi(pos: &Position, text: &str) -> Result<String, RecordErrorKind> {
        read(pos, text, pos.last_move().map(|m| m.to()), 1).map(|m| m.to_string())
    }

    #[test]
    fn writes_the_full_extended_form() {
        let p = after(&["7g7f", "3c3d"]);
        let w = |m: &str| write(&p, p.parse_usi_move(m).expect("legal"));
        assert_eq!(w("2g2f"), "P2g-2f");
        assert_eq!(w("8h2b+"), "B8hx2b+");
        assert_eq!(w("8h2b"), "B8hx2b=");
        let q = after(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert_eq!(write(&q, q.parse_usi_move("B*4e").expect("legal")), "B*4e");
    }

    #[test]
    fn reads_every_abbreviation() {
        let p = after(&["7g7f", "3c3d"]);
        assert_eq!(read_usi(&p, "P2g-2f"), Ok("2g2f".into()));
        assert_eq!(read_usi(&p, "P2f"), Ok("2g2f".into()));
        assert_eq!(read_usi(&p, "P2g2f"), Ok("2g2f".into()));
        assert_eq!(read_usi(&p, "Pg2f"), Ok("2g2f".into()));
        assert_eq!(read_usi(&p, "B8hx2b+"), Ok("8h2b+".into()));
        assert_eq!(read_usi(&p, "Bx2b+"), Ok("8h2b+".into()));
        assert_eq!(read_usi(&p, "B2b+"), Ok("8h2b+".into()));
        assert_eq!(read_usi(&p, "B8hx2b="), Ok("8h2b".into()));
        assert_eq!(read_usi(&p, "B8hx2b"), Ok("8h2b".into()));
        assert!(matches!(read(&p, "G5h", None, 3), Err(RecordErrorKind::Ambiguous { .. })));
        assert!(matches!(read(&p, "R2a", None, 3), Err(RecordErrorKind::IllegalMove { .. })));
        // Capture the piece that just moved.
        let q = after(&["7g7f", "3c3d", "8h2b+"]);
        assert_eq!(read_usi(&q, "Sx"), Ok("3a2b".into()));
        assert_eq!(read_usi(&q, "xS"), Ok("3a2b".into()));
        assert_eq!(read_usi(&q, "xS="), Ok("3a2b".into()));
        // A drop written without `*`, PSN-1998's apostrophe, a promoted piece without `+`.
        let r = after(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert_eq!(read_usi(&r, "B4e"), Ok("B*4e".into()));
        assert_eq!(read_usi(&r, "B'4e"), Ok("B*4e".into()));
        let s = after(&["7g7f", "3c3d", "8h2b+", "4a3b"]);
        assert_eq!(read_usi(&s, "B3a"), Ok("2b3a".into()), "a horse written as B");
        assert_eq!(read_usi(&s, "+B2bx3a"), Ok("2b3a".into()));
        assert!(read_usi(&s, "+B2b-3a").is_err(), "- says no capture, but 3a holds a silver");
        assert_eq!(read_usi(&s, "+B3a+"), Ok("2b3a".into()), "a trailing + on a promoted piece is ignored");
    }

    #[test]
    fn compulsory_promotion_is_accepted_without_a_suffix() {
        let p = Position::from_sfen("4k4/P8/9/9/9/9/9/9/4K4 b - 1").expect("valid");
        assert_eq!(read_usi(&p, "P9a"), Ok("9b9a+".into()));
        assert_eq!(read_usi(&p, "P9b-9a+"), Ok("9b9a+".into()));
    }
}
