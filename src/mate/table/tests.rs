//! Table tests.

use super::*;
use crate::types::PieceKind;

fn h(pawns: u32, golds: u32) -> Hand {
    Hand::EMPTY
        .with_count(PieceKind::Pawn, pawns)
        .and_then(|h| h.with_count(PieceKind::Gold, golds))
        .expect("counts in range")
}

#[test]
fn proofs_and_disproofs_are_kept_apart_by_depth() {
    let mut t = Table::new(1);
    t.put_mate(42, h(0, 1), 9, 10);
    t.put_nomate(42, h(0, 1), 7, 10);
    // A mate of 9 plies is not a mate within 7, and "no mate within 7" says nothing of 9.
    assert_eq!(t.get(42, h(0, 1), 7), Known::NoMate { depth: 7, hand: h(0, 1) });
    assert_eq!(t.get(42, h(0, 1), 9), Known::Mate { len: 9, hand: h(0, 1) });
    assert_eq!(t.get(42, h(0, 1), 8), Known::Open { pn: 1, dn: 1 });
}

#[test]
fn hand_domination() {
    let mut t = Table::new(1);
    t.put_mate(7, h(1, 1), 5, 1);
    t.put_nomate(9, h(2, 0), 11, 1);
    // More pieces than the proof needs: still mate. Fewer: not known.
    assert!(matches!(t.get(7, h(3, 2), 5), Known::Mate { len: 5, .. }));
    assert!(matches!(t.get(7, h(0, 2), 5), Known::Open { .. }));
    // Fewer pieces than the disproof allows: still no mate. More: not known.
    assert!(matches!(t.get(9, h(1, 0), 11), Known::NoMate { .. }));
    assert!(matches!(t.get(9, h(2, 1), 11), Known::Open { .. }));
}

#[test]
fn numbers_belong_to_the_exact_hand() {
    let mut t = Table::new(1);
    t.put_open(5, h(1, 0), 3, 4, 2);
    assert_eq!(t.get(5, h(1, 0), 10), Known::Open { pn: 3, dn: 4 });
    assert_eq!(t.get(5, h(2, 0), 10), Known::Open { pn: 1, dn: 1 });
}

#[test]
fn large_numbers_are_stored_to_24_significant_bits() {
    for x in [0, 1, (1 << 31) - 1, 1 << 31, 12_345_678_901, INF - 1, INF] {
        let back = unpack(pack(x));
        assert!(back <= x && x - back <= x >> 23, "{x} came back as {back}");
    }
    assert_eq!(unpack(pack(INF)), INF);
    let mut t = Table::new(1);
    t.put_open(5, h(1, 0), 3 << 40, 7, 2);
    assert_eq!(t.get(5, h(1, 0), 10), Known::Open { pn: 3 << 40, dn: 7 });
}

#[test]
fn clear_forgets_everything_and_keeps_the_size() {
    for mib in [1, 3, 4] {
        let mut t = Table::new(mib);
        let (len, mask) = (t.words.len(), t.mask);
        t.put_mate(7, h(1, 1), 5, 1);
        t.clear();
        assert_eq!((t.words.len(), t.mask), (len, mask), "{mib} MiB");
        assert_eq!(t.get(7, h(1, 1), 5), Known::Open { pn: 1, dn: 1 });
        assert_eq!(t.words.as_ptr().wrapping_add(t.offset) as usize % ALIGN, 0);
    }
}

/// A table of `mib` MiB with every entry in use: entry `j` of cluster `c` has the board `c << 20 |
/// j`; every 16th entry holds a mate, every 16th another a disproof, the rest numbers; the work
/// grows with the cluster.
fn full_table(mib: usize) -> Table {
    let mut t = Table::new(mib);
    for c in 0..(t.mask + 1) as u64 {
        for j in 0..CLUSTER as u64 {
            let (board, work) = (c << 20 | j, c as u32 + 1);
            match (c * 4 + j) % 16 {
                0 => t.put_mate(board, h(1, 0), 3, work),
                1 => t.put_nomate(board, h(1, 0), 5, work),
                _ => t.put_open(board, h(1, 0), 2, 3, work),
            }
        }
    }
    t
}

#[test]
fn hashfull_counts_the_entries_in_use() {
    let mut t = Table::new(1);
    assert_eq!(t.hashfull(), 0);
    for i in 0..t.capacity() as u64 / 8 {
        t.put_open(i << 20, h(0, 0), 1, 1, 1); // one entry in each of the first clusters
    }
    assert_eq!(t.hashfull(), 125);
    t.put_open(0, h(0, 0), 5, 5, 9); // the same position: no new entry
    assert_eq!(t.hashfull(), 125);
    assert_eq!(full_table(1).hashfull(), 1000);
}

#[test]
fn garbage_collection_frees_the_entries_worth_least_and_keeps_proofs() {
    let mut t = full_table(1);
    assert!(t.needs_gc());
    let freed = t.collect_garbage(|| true);
    // About a third of the entries, from the sample's rank on.
    let share = freed * 1000 / t.capacity();
    assert!((300..=400).contains(&share), "freed {freed} of {}", t.capacity());
    assert_eq!(t.hashfull() as usize, (t.capacity() - freed) * 1000 / t.capacity());
    assert!(!t.needs_gc());
    let clusters = t.mask as u64 + 1;
    // Clusters with a proof (entry 0) and a disproof (entry 1): every fourth.
    for c in [0, 4, clusters / 4 - 4, clusters / 2, clusters - 4] {
        // Every proof stays; numbers and disproofs of little work go, those of much work stay.
        assert!(matches!(t.get(c << 20, h(1, 0), 3), Known::Mate { len: 3, .. }), "cluster {c}");
        let numbers = t.get(c << 20 | 2, h(1, 0), 9);
        let disproof = t.get(c << 20 | 1, h(1, 0), 5);
        if c < clusters / 4 {
            assert_eq!(numbers, Known::Open { pn: 1, dn: 1 }, "cluster {c}");
        } else {
            assert_eq!(numbers, Known::Open { pn: 2, dn: 3 }, "cluster {c}");
            assert!(matches!(disproof, Known::NoMate { depth: 5, .. }), "cluster {c}");
        }
    }
}

#[test]
fn garbage_collection_ends_early_when_told() {
    let mut t = full_table(32); // 2^20 entries: four chunks
    let mut asked = 0;
    let freed = t.collect_garbage(|| {
        asked += 1;
        false
    });
    assert_eq!(asked, 1);
    assert!(freed > 0 && freed < 1 << 18, "freed {freed}");
    assert_eq!(t.hashfull() as usize, (t.capacity() - freed) * 1000 / t.capacity());
    // Numbers of little work in the first chunk are gone, in the second they are not yet.
    let (first, second) = ((1 << 14) << 20 | 2, ((1 << 16) + 4) << 20 | 2);
    assert_eq!(t.get(first, h(1, 0), 9), Known::Open { pn: 1, dn: 1 });
    assert_eq!(t.get(second, h(1, 0), 9), Known::Open { pn: 2, dn: 3 });
    t.collect_garbage(|| true);
    assert_eq!(t.get(second, h(1, 0), 9), Known::Open { pn: 1, dn: 1 });
}

#[test]
fn forgetting_the_numbers_keeps_the_facts() {
    let mut t = Table::new(1);
    t.put_open(5, h(1, 0), 40, 50, 7);
    t.put_mate(6, h(1, 0), 9, 7);
    t.put_nomate(7, h(1, 0), 11, 7);
    t.put_open(7, h(1, 0), 60, 70, 7); // numbers beside a fact: for deeper searches
    t.forget_numbers();
    assert_eq!(t.get(5, h(1, 0), 9), Known::Open { pn: 1, dn: 1 });
    assert!(matches!(t.get(6, h(1, 0), 9), Known::Mate { len: 9, .. }));
    assert!(matches!(t.get(7, h(1, 0), 11), Known::NoMate { depth: 11, .. }));
    assert_eq!(t.get(7, h(1, 0), 13), Known::Open { pn: 1, dn: 1 });
    assert_eq!(t.hashfull(), 0); // two entries of 32 768 (rounded down)
    assert_eq!(t.used, 2);
}

#[test]
fn a_clear_forgets_in_place_where_the_pages_were_provided_and_by_a_fresh_table_elsewhere() {
    for populated in [false, true] {
        let mut t = Table::new(4);
        if populated {
            t.populate();
        }
        let words = t.words.as_ptr();
        t.clear();
        assert_eq!(t.words.as_ptr(), words, "nothing to forget: nothing done");
        t.put_mate(42, h(0, 1), 9, 10);
        assert_eq!(t.hashfull(), 0, "one entry of many");
        t.clear();
        assert_eq!(t.get(42, h(0, 1), 9), Known::Open { pn: 1, dn: 1 }, "forgotten");
        assert_eq!(t.used, 0);
        // A populated table keeps its memory and its pages (another is given back to the system,
        // which may hand the same addresses out again: not asserted).
        if populated {
            assert_eq!(t.words.as_ptr(), words);
        }
        assert_eq!(t.words.is_populated(), populated);
    }
}
