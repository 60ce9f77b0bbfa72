//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! The key of a position is `board ^ hands`: `board` XORs one key per (piece, square) and keeps
//! the side to move in bit 0; `hands` *adds* one key per piece in hand, so a capture or drop is a
//! single addition or subtraction. All piece and hand keys have bit 0 clear.
//!
//! The keys come from a `const` SplitMix64 stream rather than `rand` so that the table is built by
//! the compiler (no run-time initialisation, no lazy statics in the hot path) and stays identical
//! across `rand` releases; the seed is fixed, so keys are reproducible.

use crate::types::{Color, Piece, PieceKind, Square};

const SEED: u64 = 0x6869_7368_615F_7A6B; // "hisha_zk"

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    board: [[u64; 81]; 28],
    hand: [[u64; 7]; 2],
}

const fn make_keys() -> Keys {
    let mut k = Keys { board: [[0; 81]; 28], hand: [[0; 7]; 2] };
    let mut state = SEED;
    let mut p = 0;
    while p < 28 {
        let mut sq = 0;
        while sq < 81 {
            let (s, v) = splitmix(state);
            state = s;
            k.board[p][sq] = v & !1;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 7 {
            let (s, v) = splitmix(state);
            state = s;
            k.hand[c][i] = v & !1;
            i += 1;
        }
        c += 1;
    }
    k
}

static KEYS: Keys = make_keys();

/// The key XOR-ed into the board key for `piece` on `sq`.
#[inline(always)]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.board[piece.index()][sq.index()]
}

/// The key added to the hand key for each `kind` that `c` holds.
#[inline(always)]
pub(crate) fn hand_key(c: Color, kind: PieceKind) -> u64 {
    KEYS.hand[c.index()][kind.index()]
}

/// The bit of the board key that says White is to move.
pub(crate) const SIDE_KEY: u64 = 1;
