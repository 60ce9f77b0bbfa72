//! Hand arithmetic for proof and disproof pieces: the attacker's hand a proof needs at least
//! (proof pieces) or a disproof holds for at most (disproof pieces), combined piece kind by kind.

use crate::types::{Hand, PieceKind};

/// The hand that holds every piece of every kind (the largest hand: "any hand").
pub fn full() -> Hand {
    PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| with(h, k, k.set_count() as u32))
}

fn with(h: Hand, k: PieceKind, n: u32) -> Hand {
    h.with_count(k, n.min(k.set_count() as u32)).unwrap_or(h)
}

/// Kind by kind, the larger count of `a` and `b`.
pub fn max(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| with(h, k, a.count(k).max(b.count(k))))
}

/// Kind by kind, the smaller count of `a` and `b`.
pub fn min(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| with(h, k, a.count(k).min(b.count(k))))
}

/// `h` with one more `k` (capped at the number of such pieces in a set).
pub fn plus(h: Hand, k: PieceKind) -> Hand {
    h.added(k).unwrap_or(h)
}

/// `h` with one `k` fewer (none stays none).
pub fn minus(h: Hand, k: PieceKind) -> Hand {
    h.removed(k).unwrap_or(h)
}

/// `h` with no piece of the kinds `of` lacks: a disproof may not assume pieces the attacker did
/// not have, because a new kind in hand adds new drops.
pub fn only_kinds_of(h: Hand, of: Hand) -> Hand {
    PieceKind::HAND.iter().fold(h, |acc, &k| if of.has(k) { acc } else { with(acc, k, 0) })
}

/// `h` raised to `of`'s count for every kind in `kinds` (a proof must keep the defender without
/// those kinds, and the pieces are the attacker's or the defender's: holding as many as now keeps
/// the defender's count at zero).
pub fn raise_to(h: Hand, of: Hand, kinds: impl Iterator<Item = PieceKind>) -> Hand {
    kinds.fold(h, |acc, k| with(acc, k, acc.count(k).max(of.count(k))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> Hand {
        let mut h = Hand::EMPTY;
        let mut n = 0;
        for c in s.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d;
                continue;
            }
            let k = PieceKind::from_base_letter(c).expect("letter");
            for _ in 0..n.max(1) {
                h = plus(h, k);
            }
            n = 0;
        }
        h
    }

    #[test]
    fn min_max_plus_minus() {
        assert_eq!(max(hand("2PG"), hand("PSR")), hand("2PGSR"));
        assert_eq!(min(hand("2PG"), hand("3PSR")), hand("2P"));
        assert_eq!(minus(hand("P"), PieceKind::Gold), hand("P"));
        assert_eq!(plus(hand("2R"), PieceKind::Rook), hand("2R"));
        assert_eq!(only_kinds_of(hand("3P2G"), hand("PS")), hand("3P"));
        assert!(full().dominates(hand("18P4L4N4S2B2R4G")));
        assert_eq!(raise_to(hand("P"), hand("3P2G"), [PieceKind::Pawn, PieceKind::Gold].into_iter()), hand("3P2G"));
    }
}
