//! The df-pn table: proof and disproof numbers per position, with the mate distance of proven
//! positions, in a fixed-size array sized in MiB (two-entry buckets, replace the less searched).

/// Proof or disproof number meaning "infinite" (proved the other way).
pub const INF: u32 = u32::MAX / 4;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    key: u64,
    /// Proof number (0 = mate proven).
    pub pn: u32,
    /// Disproof number (0 = no mate).
    pub dn: u32,
    /// Plies to mate when proven.
    pub dist: u16,
    /// Plies that were left to search when the entry was made (a disproof only holds for at
    /// most that many plies).
    pub left: u16,
    /// Nodes spent below this position (replacement priority).
    pub work: u32,
}

/// The table.
pub struct Table {
    slots: Vec<Entry>,
}

impl Table {
    /// A table of about `mib` MiB.
    pub fn new(mib: usize) -> Table {
        let n = (mib.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(2);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table { slots: vec![Entry::default(); n] }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = Entry::default());
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 2)
    }

    /// The entry for `key`, if stored.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = self.index(key);
        self.slots[i..i + 2].iter().find(|e| e.key == key && (e.pn | e.dn) != 0).copied()
    }

    /// Stores `pn`, `dn` (and `dist` when proven) for `key`.
    pub fn put(&mut self, key: u64, pn: u32, dn: u32, dist: u16, left: u16, work: u32) {
        let i = self.index(key);
        let pair = &mut self.slots[i..i + 2];
        let slot = match pair.iter().position(|e| e.key == key) {
            Some(j) => j,
            None => {
                // Keep proofs and disproofs and heavily searched entries.
                let value = |e: &Entry| {
                    if e.pn == 0 || e.dn == 0 { u64::MAX } else { e.work as u64 }
                };
                if value(&pair[0]) <= value(&pair[1]) { 0 } else { 1 }
            }
        };
        pair[slot] = Entry { key, pn, dn, dist, left, work };
    }
}
