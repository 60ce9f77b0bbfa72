//! The table shared by threads: torn entries never verify, moves of any bits come out only if legal.

use super::*;
use std::sync::atomic::AtomicBool;

/// The result a writer stores for `key`: every field derived from the key, so that a reader
/// can tell whether what it found belongs to the key it asked for.
fn result_for(key: u64) -> Stored {
    let h = key.wrapping_mul(0x2545_F491_4F6C_DD1D);
    Stored {
        mv: Move::from_bits((h >> 8) as u16 | 1),
        score: (h >> 24) as i16 as Value / 4,
        eval: (h >> 40) as i16 as Value,
        depth: (h >> 56) as i32 & 63,
        bound: Bound::Exact,
    }
}

#[test]
fn a_torn_entry_with_one_writers_key_and_anothers_data_does_not_verify() {
    let tt = TranspositionTable::new(1);
    let (a, b) = (0x1111_2222_0000_0040u64, 0x3333_4444_0000_0040u64); // same bucket
    tt.store(a, 0, result_for(a));
    let bucket = &tt.buckets[tt.index(a)];
    let slot = (0..BUCKET).position(|j| bucket.read(j).0 == (a >> 32) as u32).expect("stored");
    // Writer B's data word lands after writer A's key word.
    let torn = Entry { mv: 0x0abc, score: 7, eval: -3, depth: 12, gen_bound: tt.generation() | 3 }.pack();
    bucket.data[slot].store(torn, Relaxed);
    assert!(tt.probe(a, 0).is_none(), "A's key with B's data must not verify as A");
    assert!(tt.probe(b, 0).is_none(), "nor as B");
}

#[test]
fn threads_storing_into_the_same_buckets_never_probe_another_keys_result() {
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let stores = AtomicU64::new(0);
    // 64 keys over 4 buckets: every store competes with other threads' stores.
    let keys: Vec<u64> = (0..64u64).map(|i| (i.wrapping_mul(0x9E37_79B9) << 32) | (i % 4) << 8).collect();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (tt, keys, stop, stores) = (&tt, &keys, &stop, &stores);
            s.spawn(move || {
                let mut i = t;
                while !stop.load(Relaxed) {
                    let key = keys[i % keys.len()];
                    tt.store(key, 0, result_for(key));
                    stores.fetch_add(1, Relaxed);
                    i += 7;
                }
            });
        }
        // Probe until the writers have stored a good while (however busy the machine is).
        let (mut hits, mut round) = (0u64, 0usize);
        let start = std::time::Instant::now();
        while stores.load(Relaxed) < 400_000 || hits < 10_000 {
            let key = keys[round % keys.len()];
            if let Some(hit) = tt.probe(key, 0) {
                let want = result_for(key);
                assert_eq!((hit.mv, hit.score, hit.eval, hit.depth), (want.mv, want.score, want.eval, want.depth));
                hits += 1;
            }
            round += 1;
            assert!(start.elapsed().as_secs() < 120, "{hits} hits, {} stores in 2 minutes", stores.load(Relaxed));
        }
        stop.store(true, Relaxed);
    });
}
