//! Transposition table: a power-of-two array of five-entry, cache-line buckets sized in MiB, with
//! depth-and-age replacement and a `hashfull` estimate in per-mille.
//!
//! The table is shared by the search threads without locks (Lazy SMP). Each entry is two atomic
//! words: its 64 bits of data and its 32-bit key check stored XORed with both halves of the data
//! (the scheme of Crafty, Stockfish before 2014 and YaneuraOu). Two threads writing one entry at
//! once may leave the key of one with the data of the other: such a torn entry no longer verifies
//! against either key, so a probe misses instead of reading it. What a probe returns is still only
//! a hint: the move is checked for legality before it is played (`ordering.rs`).

use crate::eval::{MATE_BOUND, Value};
use crate::types::Move;
use crate::zeroed::{Zeroable, ZeroedSlice};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The true score is at most the stored one (fail low).
    Upper,
    /// The stored score is exact.
    Exact,
}

/// One stored search result, unpacked from an entry's data word.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation (upper 6 bits) and bound (lower 2 bits; 0 = empty).
    gen_bound: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.gen_bound as u64) << 56
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            gen_bound: (data >> 56) as u8,
        }
    }
}

/// What the key word holds besides the key check: both halves of the data folded together.
#[inline(always)]
fn fold(data: u64) -> u32 {
    data as u32 ^ (data >> 32) as u32
}

const BUCKET: usize = 5;

/// Five entries (key words, then data words) in one 64-byte cache line.
#[derive(Debug)]
#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU32; BUCKET],
    data: [AtomicU64; BUCKET],
}

// SAFETY: a bucket is atomic integers only (all zero: five empty entries), aligned to 64 bytes.
#[allow(unsafe_code)]
unsafe impl Zeroable for Bucket {}

impl Bucket {
    /// Entry `j`'s key check (as verified by its data) and its data.
    #[inline(always)]
    fn read(&self, j: usize) -> (u32, Entry) {
        let data = self.data[j].load(Relaxed);
        (self.keys[j].load(Relaxed) ^ fold(data), Entry::unpack(data))
    }

    #[inline(always)]
    fn write(&self, j: usize, check: u32, e: Entry) {
        let data = e.pack();
        self.keys[j].store(check ^ fold(data), Relaxed);
        self.data[j].store(data, Relaxed);
    }
}

/// One search result as the table keeps it: what a probe finds and what a store writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stored {
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
    /// True if the score is a better estimate of the node's value than `eval`: exact, or a
    /// bound beyond `eval` on its side (a lower bound above it, an upper bound below it).
    #[inline(always)]
    pub(crate) fn improves_on(&self, eval: Value) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score > eval,
            Bound::Upper => self.score < eval,
        }
    }

    /// True if the score alone settles a node searched with the window `(alpha, beta)`: exact,
    /// or a bound on the side of the window it proves.
    #[inline]
    pub(crate) fn cuts(&self, alpha: Value, beta: Value) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The transposition table. Every method takes `&self`: the search threads share one table.
///
/// Its memory comes zeroed from the system ([`ZeroedSlice`]): a new table costs nothing until the
/// search touches it. The engine's table asks for its pages ahead of use
/// ([`TranspositionTable::populate`]) and is cleared in place ([`TranspositionTable::clear`]),
/// so that no game's first moves wait for the system to provide them.
pub(crate) struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (a power of two of buckets, at least one); when the system
    /// refuses that much memory, the largest power of two it grants (half, a quarter, …):
    /// [`TranspositionTable::size_mib`] says what it got.
    pub(crate) fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::with_buckets(TranspositionTable::buckets_for(mib))
    }

    /// The buckets of a table of about `mib` MiB: the largest power of two that fits, at least one.
    fn buckets_for(mib: usize) -> usize {
        let n = (mib.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        1usize << (usize::BITS - 1 - n.leading_zeros())
    }

    /// The MiB of a table of about `mib` MiB when the system grants it all.
    pub(crate) fn wanted_mib(mib: usize) -> usize {
        TranspositionTable::buckets_for(mib) * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// A table of `buckets` (a power of two) buckets, or of as many of half, a quarter, … as the
    /// system grants.
    pub(crate) fn with_buckets(mut buckets: usize) -> TranspositionTable {
        loop {
            match ZeroedSlice::new(buckets) {
                Some(buckets) => return TranspositionTable { buckets, generation: AtomicU8::new(0) },
                None if buckets > 1 => buckets /= 2,
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()),
            }
        }
    }

    /// A table of one bucket: what a searcher holds while its table is replaced.
    pub(crate) fn placeholder() -> TranspositionTable {
        TranspositionTable::with_buckets(1)
    }

    /// Has the system provide the table's pages now, on a thread of its own, rather than when
    /// the search first touches each (see `crate::zeroed`); the table may be used meanwhile.
    pub(crate) fn populate(&mut self) {
        self.buckets.populate_in_background();
    }

    /// Waits until the pages asked for by [`TranspositionTable::populate`] are there, or
    /// `deadline` passes; true if they are.
    pub(crate) fn wait_populated(&self, deadline: std::time::Instant) -> bool {
        self.buckets.wait_populated(deadline)
    }

    /// Forgets every entry, in place: the pages stay the table's.
    pub(crate) fn clear(&mut self) {
        self.buckets.zero();
        *self.generation.get_mut() = 0;
    }

    /// Its number of buckets.
    pub(crate) fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// Size in MiB this table was built for (rounded down to a power of two of buckets).
    pub(crate) fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Starts a new search (entries from older searches become preferred victims).
    pub(crate) fn new_search(&self) {
        self.generation.store(self.generation().wrapping_add(4), Relaxed);
    }

    #[inline(always)]
    fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// Starts loading the bucket of `key` into the cache (a hint; does nothing elsewhere than
    /// x86-64), so that the probe of a child position does not wait for memory.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
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
    pub(crate) fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        let check = (key >> 32) as u32;
        let bucket = &self.buckets[self.index(key)];
        let e = (0..BUCKET).map(|j| bucket.read(j)).find(|(k, e)| *k == check && e.gen_bound & 3 != 0)?.1;
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
    pub(crate) fn store(&self, key: u64, ply: u32, result: Stored) {
        let Stored { mv, score, eval, depth, bound } = result;
        let check = (key >> 32) as u32;
        let generation = self.generation();
        let bucket = &self.buckets[self.index(key)];
        let entries: [(u32, Entry); BUCKET] = std::array::from_fn(|j| bucket.read(j));
        let age = |e: &Entry| (generation.wrapping_sub(e.gen_bound & !3) / 4) as i32;
        let slot = match entries.iter().position(|(k, _)| *k == check) {
            Some(j) => j,
            None => {
                let mut best = 0;
                let mut worst = i32::MAX;
                for (j, (_, e)) in entries.iter().enumerate() {
                    let value = if e.gen_bound & 3 == 0 { i32::MIN } else { e.depth as i32 - 8 * age(e) };
                    if value < worst {
                        worst = value;
                        best = j;
                    }
                }
                best
            }
        };
        let (old_key, old) = entries[slot];
        // Keep an existing move when the new result has none.
        let mv_bits = match mv {
            Some(m) => m.bits(),
            None if old_key == check => old.mv,
            None => 0,
        };
        let b = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let entry = Entry {
            mv: mv_bits,
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: generation | b,
        };
        bucket.write(slot, check, entry);
    }

    /// Entries in use in the whole table (tests).
    #[cfg(test)]
    pub(crate) fn entries(&self) -> usize {
        self.buckets.iter().map(|b| (0..BUCKET).filter(|&j| b.read(j).1.gen_bound & 3 != 0).count()).sum()
    }

    /// Per-mille of the entries of the first 200 buckets written in the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(200);
        let generation = self.generation();
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                (0..BUCKET)
                    .map(|j| b.read(j).1)
                    .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound & !3 == generation)
                    .count()
            })
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
mod sharing_tests;
#[cfg(test)]
mod tests;
