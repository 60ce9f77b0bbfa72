//! The df-pn table, sized in MiB: clusters of entries indexed by the board (pieces on the board
//! and side to move), each entry holding one attacker hand.
//!
//! An entry keeps the current proof and disproof numbers of its exact position, plus two facts
//! kept apart because they hold for different depths: the shortest mate proven (a proof of 9
//! plies is no disproof within 7) and for how many plies "no mate" has been proven (a disproof
//! within 7 is no disproof within 9). Facts are stored with proof pieces (the least hand the
//! proof needs) and disproof pieces (the most hand the disproof holds for), and read by hand
//! domination: a proof holds for every hand that has at least its pieces, a disproof for every
//! hand that has at most its pieces. Only path-independent facts are stored (see `search`).

use crate::types::Hand;
use crate::zeroed::ZeroedSlice;

mod gc;

/// Proof or disproof number meaning "infinite" (proved the other way). Numbers are 64-bit: in
/// long problems, transpositions make sums count the same subtrees many times over and 32 bits
/// overflow within a second (Asuka did after 136 k nodes).
pub const INF: u64 = 1 << 62;

/// "No mate" proven at every depth.
pub const NEVER: u16 = u16::MAX;

/// No proof known.
const NO_MATE: u16 = u16::MAX;

/// Entries per cluster.
const CLUSTER: usize = 4;
/// 64-bit words per entry.
const WORDS: usize = 4;
/// Bytes a cluster is aligned to (two cache lines, fetched together).
const ALIGN: usize = 128;

/// One entry, unpacked. In the table an entry is four words: the board key; hand (low half) and
/// work (high half, 0 for an empty entry); pn and dn (each packed in 32 bits, see `pack`); mate + 1
/// (0: no proof) and nomate.
#[derive(Clone, Copy, Debug)]
struct Entry {
    board: u64,
    hand: Hand,
    /// Nodes spent below this position (replacement priority); 0 marks an empty entry.
    work: u32,
    pn: u64,
    dn: u64,
    /// Shortest mate proven with `hand`, in plies (`NO_MATE`: none).
    mate: u16,
    /// No mate within this many plies is proven for `hand` (0: nothing; `NEVER`: none at all).
    nomate: u16,
}

impl Entry {
    fn load(w: &[u64]) -> Entry {
        Entry {
            board: w[0],
            hand: Hand::from_bits(w[1] as u32),
            work: (w[1] >> 32) as u32,
            pn: unpack(w[2] as u32),
            dn: unpack((w[2] >> 32) as u32),
            mate: (w[3] as u16).wrapping_sub(1),
            nomate: (w[3] >> 16) as u16,
        }
    }

    fn save(&self, w: &mut [u64]) {
        w[0] = self.board;
        w[1] = self.hand.bits() as u64 | (self.work as u64) << 32;
        w[2] = pack(self.pn) as u64 | (pack(self.dn) as u64) << 32;
        w[3] = self.mate.wrapping_add(1) as u64 | (self.nomate as u64) << 16;
    }

    fn has_fact(&self) -> bool {
        self.mate != NO_MATE || self.nomate != 0
    }

    /// Replacement priority: empty < numbers only < facts, then more work.
    fn priority(&self) -> u64 {
        if self.work == 0 {
            0
        } else if self.has_fact() {
            (1 << 33) + self.work as u64
        } else {
            self.work as u64
        }
    }
}

/// What the table knows of a position for a search with some plies left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Mate within `len` plies, with the proof pieces `hand`.
    Mate {
        /// Plies to mate.
        len: u16,
        /// Proof pieces.
        hand: Hand,
    },
    /// No mate within `depth` plies, with the disproof pieces `hand`.
    NoMate {
        /// Plies for which no mate is proven (`NEVER`: any).
        depth: u16,
        /// Disproof pieces.
        hand: Hand,
    },
    /// Not decided: the current numbers (1, 1 when never searched).
    Open {
        /// Proof number.
        pn: u64,
        /// Disproof number.
        dn: u64,
    },
}

/// The table: zeroed words (so a new table costs no writes), clusters aligned to `ALIGN`.
pub struct Table {
    words: ZeroedSlice<u64>,
    /// First word of cluster 0.
    offset: usize,
    mask: usize,
    /// Entries in use.
    used: usize,
}

impl Table {
    /// A table of about `mib` MiB (a power of two of clusters, at least one); when the system
    /// refuses that much memory, the largest power of two it grants.
    pub fn new(mib: usize) -> Table {
        let clusters = (mib.max(1).saturating_mul(1024 * 1024) / (CLUSTER * WORDS * 8)).max(1);
        Table::with_clusters(1usize << (usize::BITS - 1 - clusters.leading_zeros()))
    }

    /// A table of `clusters` (a power of two) clusters, or of half as many, a quarter, … as the
    /// system grants.
    fn with_clusters(mut clusters: usize) -> Table {
        let cluster_words = CLUSTER * WORDS;
        let words = loop {
            match ZeroedSlice::new(clusters * cluster_words + ALIGN / 8) {
                Some(words) => break words,
                None if clusters > 1 => clusters /= 2,
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u64; CLUSTER * WORDS]>()),
            }
        };
        let misalign = words.as_ptr() as usize % ALIGN;
        let offset = if misalign == 0 { 0 } else { (ALIGN - misalign) / 8 };
        Table { words, offset, mask: clusters - 1, used: 0 }
    }

    /// Forgets everything. Nothing to do for a table never written to; a table whose pages were
    /// provided ahead of use ([`Table::populate`]) is zeroed in place and keeps them; any other is
    /// replaced by a fresh zeroed allocation, whose pages the system provides (and zeroes) only
    /// when first touched, so that a large table `go mate` used only in part is not written over
    /// whole (the old allocation is released first: two tables never coexist).
    pub fn clear(&mut self) {
        if self.used == 0 {
            return;
        }
        if self.words.is_populated() {
            self.words.zero();
            self.used = 0;
        } else {
            let clusters = self.mask + 1;
            *self = Table::with_clusters(1);
            *self = Table::with_clusters(clusters);
        }
    }

    /// Has the system provide the table's pages now, on a thread of its own, rather than when
    /// first touched (see `crate::zeroed`), and keeps them from now on: for a table used on every
    /// move.
    pub fn populate(&mut self) {
        self.words.populate_in_background();
    }

    /// Waits until the pages asked for by [`Table::populate`] are there, or `deadline` passes;
    /// true if they are.
    pub fn wait_populated(&self, deadline: std::time::Instant) -> bool {
        self.words.wait_populated(deadline)
    }

    /// Lets go of the memory (for a table of one cluster), before a table of another size is
    /// made.
    pub fn release(&mut self) {
        *self = Table::with_clusters(1);
    }

    /// The table's size in MiB (rounded down).
    pub fn mib(&self) -> usize {
        (self.capacity() * WORDS * 8) >> 20
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        (self.mask + 1) * CLUSTER
    }

    /// Per mille of the entries in use.
    pub fn hashfull(&self) -> u32 {
        (self.used * 1000 / self.capacity()) as u32
    }

    fn cluster(&self, board: u64) -> usize {
        self.offset + ((board >> 20) as usize & self.mask) * CLUSTER * WORDS
    }

    /// Reads the clusters of `boards` in one tight loop (independent loads overlap their cache
    /// misses) so that they are in cache when `get` comes.
    pub fn touch(&self, boards: impl Iterator<Item = u64>) {
        let x = boards.fold(0u64, |x, b| x ^ self.words[self.cluster(b)]);
        std::hint::black_box(x);
    }

    fn entries(&self, board: u64) -> impl Iterator<Item = Entry> + '_ {
        let i = self.cluster(board);
        self.words[i..i + CLUSTER * WORDS].chunks_exact(WORDS).map(Entry::load)
    }

    /// What is known of (`board`, `hand`) for a search with `left` plies left.
    pub fn get(&self, board: u64, hand: Hand, left: u32) -> Known {
        let mut open = Known::Open { pn: 1, dn: 1 };
        let mut best: Option<Known> = None;
        for e in self.entries(board) {
            if e.board != board || e.work == 0 {
                continue;
            }
            if e.mate != NO_MATE && e.mate as u32 <= left && hand.dominates(e.hand) {
                if !matches!(best, Some(Known::Mate { len, .. }) if len <= e.mate) {
                    best = Some(Known::Mate { len: e.mate, hand: e.hand });
                }
            } else if e.nomate != 0 && e.nomate as u32 >= left && e.hand.dominates(hand) {
                if best.is_none() {
                    best = Some(Known::NoMate { depth: e.nomate, hand: e.hand });
                }
            } else if e.hand == hand {
                open = Known::Open { pn: e.pn.max(1), dn: e.dn.max(1) };
            }
        }
        best.unwrap_or(open)
    }

    /// Updates the entry for (`board`, `hand`), made if needed by replacing the cluster's least
    /// valuable entry.
    fn update(&mut self, board: u64, hand: Hand, f: impl FnOnce(&mut Entry)) {
        let i = self.cluster(board);
        let words = &mut self.words[i..i + CLUSTER * WORDS];
        let mut found = None;
        let mut victim = (u64::MAX, 0);
        for (j, w) in words.chunks_exact(WORDS).enumerate() {
            let e = Entry::load(w);
            if e.work != 0 && e.board == board && e.hand == hand {
                found = Some((j, e));
                break;
            }
            victim = victim.min((e.priority(), j));
        }
        let (j, mut e) = found.unwrap_or_else(|| {
            if victim.0 == 0 {
                self.used += 1;
            }
            (victim.1, Entry { board, hand, work: 1, pn: 1, dn: 1, mate: NO_MATE, nomate: 0 })
        });
        f(&mut e);
        e.save(&mut words[j * WORDS..(j + 1) * WORDS]);
    }

    /// Records the numbers of an undecided position.
    pub fn put_open(&mut self, board: u64, hand: Hand, pn: u64, dn: u64, work: u32) {
        self.update(board, hand, |e| {
            e.pn = pn;
            e.dn = dn;
            e.work = e.work.max(work).max(1);
        });
    }

    /// Records a mate within `len` plies for every hand that has at least `proof_hand`.
    pub fn put_mate(&mut self, board: u64, proof_hand: Hand, len: u16, work: u32) {
        self.update(board, proof_hand, |e| {
            e.mate = e.mate.min(len);
            e.work = e.work.max(work).max(1);
        });
    }

    /// Records no mate within `depth` plies for every hand that has at most `disproof_hand`.
    pub fn put_nomate(&mut self, board: u64, disproof_hand: Hand, depth: u16, work: u32) {
        if depth == 0 {
            return; // true of every position that is not mated already: nothing to learn
        }
        self.update(board, disproof_hand, |e| {
            e.nomate = e.nomate.max(depth);
            e.work = e.work.max(work).max(1);
        });
    }
}

/// A proof or disproof number in 32 bits: exact below 2^31, above it a 24-bit mantissa and its
/// shift (rounded down). Stored numbers only guide the search, so the rounding is harmless.
fn pack(x: u64) -> u32 {
    if x < 1 << 31 {
        return x as u32;
    }
    let shift = 64 - x.leading_zeros() - 24;
    1 << 31 | shift << 24 | (x >> shift) as u32 & 0xFF_FFFF
}

/// The number `pack` stored.
fn unpack(v: u32) -> u64 {
    if v < 1 << 31 { v as u64 } else { ((v & 0xFF_FFFF) as u64) << ((v >> 24) & 0x7F) }
}

#[cfg(test)]
mod tests;
