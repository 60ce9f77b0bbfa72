//! A cache of refreshed halves for HalfKP, Stockfish's "Finny tables" (`AccumulatorCaches`): for
//! each perspective and own-king square, the half last computed there and the pieces (board and
//! hands) it was computed for. HalfKP recomputes a half after every move of the perspective's own
//! king; from the cached half for the king's new square only the pieces that differ since are
//! subtracted and added, instead of the 38 rows of a refresh from scratch. The sums wrap as the
//! refresh's do, so the result is the same to the bit.
//!
//! What the cache saves is the rows themselves (4.8 on average in `hisha bench 6` instead of
//! 38, fewer weight rows to load) and finding them: a refresh from scratch walks every piece of
//! the position ([`features::active`]), the cache compares the board eight squares at a time and
//! the hands. `hisha bench 6` less `bench 1`: 3.2 % fewer instructions (5,244 M → 5,077 M) and
//! 27 % fewer simulated first-level data-cache misses (cachegrind) with the shipped HalfKP-64
//! net.

use super::accumulator::Accumulator;
use super::bona_piece::{self, PIECE_LIST_LEN};
use super::features::{self, FeatureSet};
use super::network::Network;
use crate::position::Position;
use crate::types::{Color, Hand, Piece, PieceKind, Square};

/// Squares a king can stand on.
const KING_SQUARES: usize = 81;

/// The board as piece codes ([`Piece::code`], 0 for empty), by square index, padded with
/// empty squares to whole 8-byte words.
type Board = [u8; 88];

/// The pieces a cached half was computed for.
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    board: Board,
    hands: [Hand; 2],
}

impl Snapshot {
    fn of(pos: &Position) -> Snapshot {
        let mut board = [0; 88];
        for (code, piece) in board.iter_mut().zip(pos.squares()) {
            *code = piece.map_or(0, Piece::code);
        }
        Snapshot { board, hands: Color::ALL.map(|c| pos.hand(c)) }
    }
}

/// Up to [`PIECE_LIST_LEN`] input rows.
struct Rows {
    rows: [u32; PIECE_LIST_LEN],
    len: usize,
    /// More rows than fit were pushed (impossible with at most 38 pieces; then refresh anew).
    overflow: bool,
}

impl Rows {
    fn new() -> Rows {
        Rows { rows: [0; PIECE_LIST_LEN], len: 0, overflow: false }
    }

    #[inline(always)]
    fn push(&mut self, row: usize) {
        match self.rows.get_mut(self.len) {
            Some(slot) => {
                *slot = row as u32;
                self.len += 1;
            }
            None => self.overflow = true,
        }
    }

    fn as_slice(&self) -> &[u32] {
        &self.rows[..self.len]
    }
}

/// How [`RefreshCache::refresh`] computed a half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refreshed {
    /// From the cached half for the same king square, with the pieces that differ.
    FromCache,
    /// From scratch (no cached half yet, a different number of pieces, or not HalfKP).
    FromScratch,
}

/// One search thread's cached halves, for one net's shape.
pub(crate) struct RefreshCache {
    l1: usize,
    /// `KING_SQUARES` halves of `l1` sums per perspective.
    halves: Box<[i16]>,
    /// What each half was computed for (`None`: nothing cached yet).
    pieces: Box<[Option<Snapshot>]>,
}

impl RefreshCache {
    /// An empty cache for `net`'s shape.
    pub(crate) fn new(net: &Network) -> RefreshCache {
        let l1 = net.arch.l1;
        let slots = 2 * KING_SQUARES;
        RefreshCache {
            l1,
            halves: vec![0; slots * l1].into_boxed_slice(),
            pieces: vec![None; slots].into_boxed_slice(),
        }
    }

    /// Computes `perspective`'s half of `acc` for `pos` as [`Network::refresh_perspective`] does
    /// (`net` must be the net this cache was made for), from the cached half where there is one,
    /// and caches the result. Never inlined: inlined into the evaluator, where every accumulator
    /// update passes, it cost more than it saved (a first version, which compared the piece
    /// bitboards: 1.3 % more instructions in `hisha bench 6` than without a cache inlined, 0.6 %
    /// fewer out of line).
    #[inline(never)]
    pub(crate) fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        perspective: Color,
        acc: &mut Accumulator,
    ) -> Refreshed {
        let set = net.arch.features;
        if set != FeatureSet::HalfKP || net.arch.l1 != self.l1 {
            net.refresh_perspective(pos, perspective, acc);
            return Refreshed::FromScratch;
        }
        let king = features::king_square(pos, perspective, perspective);
        let slot = perspective.index() * KING_SQUARES + king;
        let p = perspective.index();
        let l1 = self.l1;
        let cached = &mut self.halves[slot * l1..][..l1];
        let mut how = Refreshed::FromScratch;
        let (mut sub, mut add) = (Rows::new(), Rows::new());
        let cached_before = match &mut self.pieces[slot] {
            Some(snapshot) => {
                catch_up(set, king, perspective, snapshot, pos, &mut sub, &mut add);
                true
            }
            empty => {
                *empty = Some(Snapshot::of(pos));
                false
            }
        };
        // The same number of pieces (the rest activate number 0 alike): the rows that differ.
        if cached_before && !sub.overflow && !add.overflow && sub.len == add.len {
            let weights = &net.ft_weights;
            net.kernel.accumulate(&mut acc.halves[p], cached, weights, l1, sub.as_slice(), add.as_slice());
            acc.kings[p] = king as u8;
            how = Refreshed::FromCache;
        } else {
            net.refresh_perspective(pos, perspective, acc);
        }
        cached.copy_from_slice(&acc.halves[p][..l1]);
        how
    }
}

/// Brings `snapshot` up to `pos`, pushing the rows of `perspective` (own king on relative square
/// `king`) that were active for the snapshot and are not for `pos` to `sub`, and the other way
/// round to `add`.
fn catch_up(
    set: FeatureSet,
    king: usize,
    perspective: Color,
    snapshot: &mut Snapshot,
    pos: &Position,
    sub: &mut Rows,
    add: &mut Rows,
) {
    let block = set.index(king, 0);
    // Kings have no HalfKP row (the own king stands where it stood: same slot).
    let row = |code: u8, sq: usize| {
        let piece = Piece::from_code(code).filter(|p| p.kind() != PieceKind::King)?;
        Some(block + bona_piece::board(perspective, piece, Square::from_index_unchecked(sq)) as usize)
    };
    let now = Snapshot::of(pos);
    for (word, (old, new)) in snapshot.board.chunks_exact(8).zip(now.board.chunks_exact(8)).enumerate() {
        let word_of = |bytes: &[u8]| bytes.iter().rev().fold(0u64, |w, &b| (w << 8) | u64::from(b));
        let mut differ = word_of(old) ^ word_of(new);
        while differ != 0 {
            let byte = differ.trailing_zeros() as usize / 8;
            differ &= !(0xFF << (8 * byte));
            let sq = 8 * word + byte;
            if let Some(r) = row(old[byte], sq) {
                sub.push(r);
            }
            if let Some(r) = row(new[byte], sq) {
                add.push(r);
            }
        }
    }
    for owner in Color::ALL {
        let (old, new) = (snapshot.hands[owner.index()], now.hands[owner.index()]);
        if old == new {
            continue;
        }
        for kind in PieceKind::HAND {
            let (had, has) = (old.count(kind), new.count(kind));
            if had == has {
                continue;
            }
            let first = block + bona_piece::hand(perspective, owner, kind, 0) as usize;
            for nth in has..had {
                sub.push(first + nth as usize);
            }
            for nth in had..has {
                add.push(first + nth as usize);
            }
        }
    }
    *snapshot = now;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{Architecture, Spread};
    use rand::{SeedableRng, rngs::StdRng};

    /// Every position of seeded random walks from the even start, a handicap (fewer pieces:
    /// number 0 rows) and the bench positions, refreshed through one cache kept across all of
    /// them, gives a fresh refresh's half, for both perspectives; most refreshes come from the
    /// cache, and a few from scratch.
    #[test]
    fn cached_refreshes_equal_fresh_ones_across_unrelated_positions() {
        let arch = Architecture { l1: 64, ..Architecture::HALFKP_256X2_32_32 };
        let net = Network::random(arch, 5, Spread::Full);
        let mut starts = vec![Position::startpos(), Position::handicap(crate::Handicap::TwoPiece)];
        starts.extend(crate::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()));
        let positions = crate::bench::random_walks(starts, 60, &mut StdRng::seed_from_u64(3));
        let mut cache = RefreshCache::new(&net);
        let (mut from_cache, mut from_scratch) = (0, 0);
        for pos in &positions {
            let mut fresh = Accumulator::default();
            net.refresh(pos, &mut fresh);
            let mut cached = Accumulator::default();
            for perspective in Color::ALL {
                match cache.refresh(&net, pos, perspective, &mut cached) {
                    Refreshed::FromCache => from_cache += 1,
                    Refreshed::FromScratch => from_scratch += 1,
                }
            }
            assert_eq!(cached, fresh, "{}", pos.to_sfen());
        }
        assert!(from_cache > 10 * from_scratch && from_scratch > 2, "{from_cache} from the cache, {from_scratch} anew");
    }

    /// K+P never recomputes a half on a king move: the cache passes every refresh through.
    #[test]
    fn k_plus_p_refreshes_from_scratch() {
        let arch = Architecture { l1: 32, ..Architecture::KP_256X2_32_32 };
        let net = Network::random(arch, 6, Spread::Full);
        let mut cache = RefreshCache::new(&net);
        let pos = Position::startpos();
        let (mut fresh, mut cached) = (Accumulator::default(), Accumulator::default());
        net.refresh(&pos, &mut fresh);
        for _ in 0..2 {
            for perspective in Color::ALL {
                assert_eq!(cache.refresh(&net, &pos, perspective, &mut cached), Refreshed::FromScratch);
            }
        }
        assert_eq!(cached, fresh);
    }
}
