//! How book positions are found: by their canonical SFEN without the move number (board, side
//! to move, hands), hashed. Books written by YaneuraOu or hisha hold canonical SFEN, which is
//! checked and hashed as text without building a position, so a book of a million positions
//! loads in a fraction of the time; other SFEN is parsed and rewritten canonically first.

use crate::position::Position;
use crate::position::sfen::{format_setup, parse_setup};
use crate::types::{Color, File, PieceKind, Rank, Square};
use std::hash::{BuildHasher, Hasher};

/// True if `rank` is one canonical SFEN rank (pieces and maximal runs of empty squares, nine
/// squares wide).
fn canonical_rank(rank: &[u8]) -> bool {
    let (mut width, mut i, mut after_digit) = (0u32, 0, false);
    while i < rank.len() {
        let c = rank[i];
        match c {
            b'1'..=b'9' if !after_digit => {
                width += (c - b'0') as u32;
                after_digit = true;
                i += 1;
            }
            b'+' if matches!(
                rank.get(i + 1),
                Some(b'P' | b'L' | b'N' | b'S' | b'B' | b'R' | b'p' | b'l' | b'n' | b's' | b'b' | b'r')
            ) =>
            {
                width += 1;
                after_digit = false;
                i += 2;
            }
            b'P' | b'L' | b'N' | b'S' | b'G' | b'B' | b'R' | b'K' | b'p' | b'l' | b'n' | b's' | b'g' | b'b' | b'r'
            | b'k' => {
                width += 1;
                after_digit = false;
                i += 1;
            }
            _ => return false,
        }
    }
    width == 9
}

/// True if `hand` is a canonical SFEN hand: `-`, or pieces in R B G S N L P order (Black's, then
/// White's), a count before a piece only from 2 on.
fn canonical_hand(hand: &[u8]) -> bool {
    const ORDER: &[u8; 14] = b"RBGSNLPrbgsnlp";
    if hand == b"-" {
        return true;
    }
    let (mut next, mut i) = (0, 0);
    while i < hand.len() {
        let digits = hand[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let count = &hand[i..i + digits];
        if !count.is_empty() && (count[0] == b'0' || count == b"1" || digits > 2) {
            return false;
        }
        let Some(&letter) = hand.get(i + digits) else { return false };
        let Some(k) = ORDER.iter().position(|&c| c == letter) else { return false };
        if k < next {
            return false;
        }
        next = k + 1;
        i += digits + 1;
    }
    !hand.is_empty()
}

/// The "board side hand" part of `sfen` if it is canonical and well formed, `None` otherwise.
fn canonical_prefix(sfen: &str) -> Option<&str> {
    let mut fields = sfen.split(' ');
    let (board, side, hand) = (fields.next()?, fields.next()?, fields.next()?);
    let number_ok = match (fields.next(), fields.next()) {
        (None, _) => true,
        (Some(n), None) => !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()),
        _ => false,
    };
    let board_ok = board.split('/').count() == 9 && board.split('/').all(|r| canonical_rank(r.as_bytes()));
    let ok = number_ok && board_ok && matches!(side, "b" | "w") && canonical_hand(hand.as_bytes());
    ok.then(|| &sfen[..board.len() + side.len() + hand.len() + 2])
}

/// The hash of a canonical "board side hand" text (SipHash with fixed keys: the same in every run).
fn hash(prefix: &str) -> u64 {
    let mut h = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
    h.write(prefix.as_bytes());
    h.finish()
}

/// The key and canonical SFEN (with its move number) of a book's `sfen` line, or why it is not
/// a position and at which byte of `sfen`.
pub(super) fn of_sfen(text: &str) -> Result<(u64, String), (usize, String)> {
    let sfen = text.trim();
    if let Some(prefix) = canonical_prefix(sfen) {
        let full = if sfen.len() > prefix.len() { sfen.to_string() } else { format!("{sfen} 1") };
        return Ok((hash(prefix), full));
    }
    let leading = text.len() - text.trim_start().len();
    let setup = parse_setup(sfen).map_err(|e| (leading + e.offset, e.to_string()))?;
    let canonical = format_setup(&setup);
    let prefix = canonical_prefix(&canonical).ok_or_else(|| (leading, format!("not a position: {sfen:?}")))?;
    Ok((hash(prefix), canonical))
}

/// The key of a position (as [`of_sfen`] gives for its SFEN), written into a buffer on the stack.
pub(super) fn of_position(pos: &Position) -> u64 {
    let mut buf = [0u8; 192];
    let mut n = 0;
    let mut push = |b: u8| {
        buf[n] = b;
        n += 1;
    };
    for r in 0..9 {
        if r > 0 {
            push(b'/');
        }
        let mut empty = 0u8;
        for f in (1..=9).rev() {
            let (Some(file), Some(rank)) = (File::new(f), Rank::from_index(r)) else { continue };
            match pos.piece_on(Square::new(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        push(b'0' + empty);
                        empty = 0;
                    }
                    if p.kind().is_promoted() {
                        push(b'+');
                    }
                    let letter = p.kind().base_letter() as u8;
                    push(if p.color() == Color::Black { letter } else { letter.to_ascii_lowercase() });
                }
            }
        }
        if empty > 0 {
            push(b'0' + empty);
        }
    }
    push(b' ');
    push(pos.side_to_move().sfen_char() as u8);
    push(b' ');
    let hands = [pos.hand(Color::Black), pos.hand(Color::White)];
    if hands.iter().all(|h| h.is_empty()) {
        push(b'-');
    }
    for (h, c) in hands.iter().zip([Color::Black, Color::White]) {
        for k in PieceKind::SFEN_HAND_ORDER {
            let count = h.count(k);
            if count >= 10 {
                push(b'0' + (count / 10) as u8);
            }
            if count >= 2 {
                push(b'0' + (count % 10) as u8);
            }
            if count >= 1 {
                let letter = k.base_letter() as u8;
                push(if c == Color::Black { letter } else { letter.to_ascii_lowercase() });
            }
        }
    }
    std::str::from_utf8(&buf[..n]).map_or(0, hash)
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The map builder of [`KeyHasher`].
pub(super) type Keys = std::hash::BuildHasherDefault<KeyHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_sfen_is_hashed_as_text_and_other_sfen_is_rewritten_first() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let (k, s) = of_sfen(start).expect("valid");
        assert_eq!((k, s.as_str()), (of_position(&Position::startpos()), start));
        // Another move number is the same position.
        assert_eq!(of_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 77").map(|x| x.0), Ok(k));
        // Upper-case side, a hand in another order, a run of empty squares split in two: the
        // same key as the canonical text.
        let odd = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L W 3pbgnS 124";
        let canonical = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";
        assert_eq!(of_sfen(odd), of_sfen(canonical));
        assert_eq!(of_sfen(odd).map(|x| x.1), Ok(canonical.to_string()));
        assert_eq!(of_sfen("22k4/9/9/9/9/9/9/9/4K4 b - 1"), of_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1"));
        let pos = Position::from_sfen(canonical).expect("valid");
        assert_eq!(of_position(&pos), of_sfen(canonical).expect("valid").0);
        // The stack-buffer key agrees with the SFEN text along random games (promotions, hands).
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(2);
        for _ in 0..20 {
            let mut p = Position::startpos();
            for _ in 0..120 {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                p.do_move(legal[rand::Rng::random_range(&mut rng, 0..legal.len())]);
                assert_eq!(of_position(&p), of_sfen(&p.to_sfen()).expect("valid").0, "{}", p.to_sfen());
            }
        }
        for bad in ["nonsense", "9/9/9 b - 1", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"] {
            assert!(of_sfen(bad).is_err(), "{bad}");
        }
    }
}
