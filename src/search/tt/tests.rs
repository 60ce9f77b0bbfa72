//! The table's store and probe round trip.

use super::*;
use crate::eval::mate_in;

#[test]
fn store_and_probe_round_trip_with_mate_distance() {
    let tt = TranspositionTable::new(1);
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
    let tt = TranspositionTable::new(2);
    assert_eq!(tt.size_mib(), 2);
    assert_eq!(tt.hashfull(), 0);
    tt.new_search();
    for k in 0..100_000u64 {
        let result = Stored { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Lower };
        tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, result);
    }
    assert!(tt.hashfull() > 500, "{}", tt.hashfull());
    let buckets = tt.buckets();
    let mut cleared = tt;
    cleared.clear();
    assert_eq!((cleared.size_mib(), cleared.hashfull()), (2, 0), "a cleared table is empty");
    assert!(cleared.probe(0x9E37_79B9_7F4A_7C15, 0).is_none());
    drop(cleared);
    let tt = TranspositionTable::with_buckets(buckets);
    assert_eq!((tt.size_mib(), tt.hashfull()), (2, 0), "a new table is empty");
}

#[test]
fn a_size_the_system_refuses_gives_the_largest_power_of_two_it_grants() {
    // 2^30 MiB = 2^50 bytes: more than the whole user address space of x86-64 and aarch64, which
    // no system grants (the old table aborted with "memory allocation of … bytes failed"). The
    // table halves until the system agrees; its pages are untouched, so this takes no memory.
    let tt = TranspositionTable::new(1 << 30);
    assert_eq!(TranspositionTable::wanted_mib(1 << 30), 1 << 30);
    assert!(tt.size_mib() < 1 << 30 && tt.size_mib().is_power_of_two(), "{} MiB", tt.size_mib());
    let result = Stored { mv: None, score: 5, eval: 0, depth: 1, bound: Bound::Exact };
    tt.store(0x1234_5678_9ABC_DEF0, 0, result);
    assert_eq!(tt.probe(0x1234_5678_9ABC_DEF0, 0).map(|h| h.score), Some(5));
}

#[test]
fn a_score_improves_on_the_evaluation_only_where_its_bound_allows() {
    let at = |score, bound| Stored { mv: None, score, eval: 0, depth: 3, bound };
    assert!(at(-50, Bound::Exact).improves_on(100));
    assert!(at(150, Bound::Lower).improves_on(100), "at least 150: better than 100");
    assert!(!at(50, Bound::Lower).improves_on(100), "at least 50 says nothing against 100");
    assert!(at(50, Bound::Upper).improves_on(100), "at most 50: better than 100");
    assert!(!at(150, Bound::Upper).improves_on(100));
}
