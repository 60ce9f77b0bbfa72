//! The positions on the current search path, root first, for repetitions. A counting filter
//! over the keys answers most "not on the path" questions without scanning the path: in long
//! problems the path is hundreds of plies deep and the scan, made for every child, took about
//! a quarter of the expansion's time (Asuka, 703 plies).

/// Filter slots (a power of two).
const SLOTS: usize = 1 << 12;

/// The keys of the positions on the path.
pub(super) struct Path {
    keys: Vec<u64>,
    /// How many keys on the path fall in each slot.
    counts: Box<[u16; SLOTS]>,
}

fn slot(key: u64) -> usize {
    key as usize & (SLOTS - 1)
}

impl Path {
    /// An empty path.
    pub fn new() -> Path {
        Path { keys: Vec::with_capacity(256), counts: Box::new([0; SLOTS]) }
    }

    /// Appends `key` (a position one ply deeper).
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.counts[slot(key)] += 1;
    }

    /// Removes the deepest position.
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.counts[slot(key)] -= 1;
        }
    }

    /// Empties the path.
    pub fn clear(&mut self) {
        while !self.keys.is_empty() {
            self.pop();
        }
    }

    /// The place of `key` on the path (0: the root), if it is there.
    pub fn find(&self, key: u64) -> Option<usize> {
        if self.counts[slot(key)] == 0 {
            return None;
        }
        self.keys.iter().position(|&k| k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_at_their_place_until_popped() {
        let mut p = Path::new();
        // 1 and 4097 share a filter slot; 2 does not.
        for key in [7, 1, 4097, 1] {
            p.push(key);
        }
        assert_eq!((p.find(7), p.find(1), p.find(4097), p.find(2)), (Some(0), Some(1), Some(2), None));
        p.pop();
        p.pop();
        assert_eq!((p.find(1), p.find(4097)), (Some(1), None));
        p.clear();
        assert_eq!((p.find(7), p.find(1)), (None, None));
        assert!(p.counts.iter().all(|&c| c == 0));
    }
}
