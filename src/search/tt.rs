//! Transposition table: a power-of-two array of five-entry, cache-line buckets sized in MiB, with
//! depth-and-age replacement and a `hashfull` estimate in per-mille.

use crate::eval::{MATE_BOUND, Value};
use crate::types::Move;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The true score is at most the stored one (fail low).
    Upper,
    /// The stored score is exact.
    Exact,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation (upper 6 bits) and bound (lower 2 bits; 0 = empty).
    gen_bound: u8,
}

const BUCKET: usize = 5;

/// Five 12-byte entries padded to one 64-byte cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// One search result as the table keeps it: what a probe finds and what a store writes.
#[derive(Clone, Copy, Debug)]
pub struct Stored {
    /// The best move, if any.
    pub mv: Option<Move>,
    /// The score, seen from the probing (or storing) ply.
    pub score: Value,
    /// The stored static evaluation.
    pub eval: Value,
    /// The stored depth.
    pub depth: i32,
    /// The bound type.
    pub bound: Bound,
}

impl Stored {
    /// True if the score alone settles a node searched with the window `(alpha, beta)`: exact,
    /// or a bound on the side of the window it proves.
    #[inline]
    pub fn cuts(&self, alpha: Value, beta: Value) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros()); // round down to a power of two
        TranspositionTable { buckets: vec![Bucket::default(); n], generation: 0 }
    }

    /// Size in MiB this table was built for (rounded down to a power of two of buckets).
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search (entries from older searches become preferred victims).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(4);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// Starts loading the bucket of `key` into the cache (a hint; does nothing elsewhere than
    /// x86-64), so that the probe of a child position does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = &self.buckets[self.index(key)] as *const Bucket as *const i8;
            // SAFETY: `_mm_prefetch` only hints the cache; it never faults and reads no data
            // into the program, and SSE is part of the x86-64 baseline.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; `ply` converts mate scores back to this node's distance.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        let check = (key >> 32) as u32;
        let bucket = &self.buckets[self.index(key)].0;
        let e = bucket.iter().find(|e| e.key == check && e.gen_bound & 3 != 0)?;
        let bound = match e.gen_bound & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Stored {
            mv: Move::from_bits(e.mv),
            score: score_from_tt(e.score as Value, ply),
            eval: e.eval as Value,
            depth: e.depth as i32,
            bound,
        })
    }

    /// Stores a result found at `ply`, replacing the shallowest or oldest entry of the bucket.
    #[inline]
    pub fn store(&mut self, key: u64, ply: u32, result: Stored) {
        let Stored { mv, score, eval, depth, bound } = result;
        let check = (key >> 32) as u32;
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.buckets[i].0;
        let age = |e: &Entry| (generation.wrapping_sub(e.gen_bound & !3) / 4) as i32;
        let slot = match bucket.iter().position(|e| e.key == check) {
            Some(j) => j,
            None => {
                let mut best = 0;
                let mut worst = i32::MAX;
                for (j, e) in bucket.iter().enumerate() {
                    let value = if e.gen_bound & 3 == 0 { i32::MIN } else { e.depth as i32 - 8 * age(e) };
                    if value < worst {
                        worst = value;
                        best = j;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        // Keep an existing move when the new result has none.
        let mv_bits = match mv {
            Some(m) => m.bits(),
            None if e.key == check => e.mv,
            None => 0,
        };
        let b = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        *e = Entry {
            key: check,
            mv: mv_bits,
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: generation | b,
        };
    }

    /// Per-mille of the entries of the first 200 buckets written in the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(200);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| b.0.iter().filter(|e| e.gen_bound & 3 != 0 && e.gen_bound & !3 == self.generation).count())
            .sum();
        (used * 1000 / (n * BUCKET)) as u32
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(v: Value, ply: u32) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

fn score_from_tt(v: Value, ply: u32) -> Value {
    if v >= MATE_BOUND {
        v - ply as Value
    } else if v <= -MATE_BOUND {
        v + ply as Value
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::mate_in;

    #[test]
    fn store_and_probe_round_trip_with_mate_distance() {
        let mut tt = TranspositionTable::new(1);
        let m = Move::from_bits(0x0123).expect("valid bits");
        let result = Stored { mv: Some(m), score: mate_in(7), eval: 42, depth: 9, bound: Bound::Exact };
        tt.store(0xDEAD_BEEF_0000_1234, 3, result);
        let hit = tt.probe(0xDEAD_BEEF_0000_1234, 3).expect("stored");
        assert_eq!((hit.mv, hit.score, hit.eval, hit.depth, hit.bound), (Some(m), mate_in(7), 42, 9, Bound::Exact));
        // Seen from two plies closer to the root the mate is two plies longer.
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_1234, 1).map(|h| h.score), Some(mate_in(7) + 2));
        assert!(tt.probe(0xBEEF_DEAD_0000_1234, 3).is_none());
    }

    #[test]
    fn a_stored_score_cuts_only_the_windows_its_bound_settles() {
        let stored = |score, bound| Stored { mv: None, score, eval: 0, depth: 1, bound };
        // Exact: settles any window.
        assert!(stored(0, Bound::Exact).cuts(100, 200));
        // A lower bound (fail high) settles a node only when it reaches beta.
        assert!(stored(200, Bound::Lower).cuts(100, 200));
        assert!(!stored(199, Bound::Lower).cuts(100, 200));
        // An upper bound (fail low) settles a node only when it is at most alpha.
        assert!(stored(100, Bound::Upper).cuts(100, 200));
        assert!(!stored(101, Bound::Upper).cuts(100, 200));
    }

    #[test]
    fn sizes_and_hashfull() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.size_mib(), 2);
        assert_eq!(tt.hashfull(), 0);
        tt.new_search();
        for k in 0..100_000u64 {
            let result = Stored { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Lower };
            tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, result);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
