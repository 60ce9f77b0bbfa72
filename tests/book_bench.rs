//! Book lookups at scale (ignored; run with `cargo test --release --test book_bench -- --ignored
//! --nocapture`): writes a one-million-position book, loads it, and times lookups. Prints load
//! time, resident memory growth and lookups per second.

use hisha::Position;
use hisha::book::{Book, BookMove};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::Instant;

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

#[test]
#[ignore = "writes a ~90 MB book and takes about a minute"]
fn a_million_positions() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut book = Book::default();
    let mut probes = Vec::new();
    while book.len() < 1_000_000 {
        let mut p = Position::startpos();
        for _ in 0..rng.random_range(10..60) {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            let mut snapshot = p.clone();
            snapshot.clear_history();
            book.insert(&snapshot, vec![BookMove { mv: m, ponder: None, value: 0, depth: 0, count: 1 }]);
            if probes.len() < 100_000 {
                probes.push(snapshot);
            }
            p.do_move(m);
        }
    }
    let path = std::env::temp_dir().join(format!("hisha-big-book-{}.db", std::process::id()));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
    book.write(&mut f).expect("write");
    drop(f);
    drop(book);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let before = resident_kib();
    let t = Instant::now();
    let loaded = Book::load(&path).expect("loads");
    let load_ms = t.elapsed().as_millis();
    let grew = resident_kib().saturating_sub(before);
    let t = Instant::now();
    let mut found = 0;
    for p in &probes {
        found += (!loaded.probe(p).is_empty()) as usize;
    }
    let per_sec = probes.len() as f64 / t.elapsed().as_secs_f64();
    println!(
        "book: {} positions, file {} MB, load {load_ms} ms, memory +{} MB, {:.1} M lookups/s",
        loaded.len(),
        size / 1_000_000,
        grew / 1024,
        per_sec / 1e6
    );
    assert_eq!(found, probes.len());
    let _ = std::fs::remove_file(path);
}
