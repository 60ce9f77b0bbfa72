//! Garbage collection: when the table is nearly full, the entries worth least are freed so that
//! the numbers of the search in progress find room again (KomoringHeights collects the same
//! way); and, after the proof numbers overflowed, the numbers are forgotten while the facts
//! stay.

use super::{Entry, NO_MATE, Table, WORDS};

/// Work a disproof counts for beyond its own in garbage collection (KomoringHeights gives facts
/// 1000 too).
const FACT_BONUS: u64 = 1000;

/// Garbage collection runs when this share of the entries (per mille) is in use ...
const GC_FROM: usize = 900;
/// ... and frees about this share of them (per mille), those worth least (`Entry::keep_value`),
/// so that the numbers of the search in progress find room again.
const GC_FREES: usize = 333;
/// Entries sampled to find the value below which garbage collection frees.
const GC_SAMPLES: usize = 8192;
/// Entries swept between two questions whether to go on.
const GC_CHUNK: usize = 1 << 18;

impl Entry {
    /// What garbage collection keeps first: the work, plus a bonus for a fact (a disproof's work
    /// is worth more than numbers', a proof is kept while anything else is left: the mating line
    /// is read from the proofs).
    fn keep_value(&self) -> u64 {
        let bonus = if self.mate != NO_MATE {
            1 << 32
        } else if self.nomate != 0 {
            FACT_BONUS
        } else {
            0
        };
        self.work as u64 + bonus
    }
}

impl Table {
    /// True when garbage collection is due (see `GC_FROM`).
    pub fn needs_gc(&self) -> bool {
        self.used * 1000 >= self.capacity() * GC_FROM
    }

    /// The words of every entry.
    fn all_entries(&mut self) -> impl Iterator<Item = &mut [u64]> {
        let end = self.offset + self.capacity() * WORDS;
        self.words[self.offset..end].chunks_exact_mut(WORDS)
    }

    /// Frees about `GC_FREES` of the entries in use, those worth least: a sample of the entries
    /// gives the value at that rank, and every entry worth no more is freed. The sweep asks
    /// `go_on` every `GC_CHUNK` entries and ends early when it says no (a large table takes about
    /// 0.1 s per GiB: a deadline must not wait for it). Returns how many entries were freed.
    pub fn collect_garbage(&mut self, mut go_on: impl FnMut() -> bool) -> usize {
        // An odd stride samples every place in the clusters.
        let stride = (self.capacity() / GC_SAMPLES) | 1;
        let mut values: Vec<u64> = (0..self.capacity())
            .step_by(stride)
            .map(|i| Entry::load(&self.words[self.offset + i * WORDS..]))
            .filter(|e| e.work != 0)
            .map(|e| e.keep_value())
            .collect();
        if values.is_empty() {
            return 0;
        }
        let rank = (values.len() * GC_FREES / 1000).min(values.len() - 1);
        let threshold = *values.select_nth_unstable(rank).1;
        let mut freed = 0;
        for (i, w) in self.all_entries().enumerate() {
            if i % GC_CHUNK == GC_CHUNK - 1 && !go_on() {
                break;
            }
            let e = Entry::load(w);
            if e.work != 0 && e.keep_value() <= threshold {
                w.fill(0);
                freed += 1;
            }
        }
        self.used -= freed;
        freed
    }

    /// Forgets every proof and disproof number but keeps the facts: the search starts its numbers
    /// afresh (after they overflowed) with everything proven so far.
    pub fn forget_numbers(&mut self) {
        let mut freed = 0;
        for w in self.all_entries() {
            let mut e = Entry::load(w);
            if e.work == 0 {
                continue;
            }
            if e.has_fact() {
                (e.pn, e.dn) = (1, 1);
                e.save(w);
            } else {
                w.fill(0);
                freed += 1;
            }
        }
        self.used -= freed;
    }
}
