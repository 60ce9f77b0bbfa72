//! The opening book from the outside: `hisha book build | show | openings` on the command line,
//! the files in `book/` made by those commands, and the engine's book options over USI (the book
//! is loaded on `isready`, never on `usi`; a missing or broken book is one warning). Also the
//! million-position load and lookup benchmark (ignored; run with
//! `cargo test --release --test book -- --ignored --nocapture`), which prints load time,
//! resident memory growth and lookups per second.

mod support;

use hisha::Position;
use hisha::book::{BUILTIN, Book, BookMove};
use hisha::record::{Format, GameRecord, RecordWriter, read_games};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::path::Path;
use std::time::{Duration, Instant};
use support::usi::{Engine, bestmove_of};
use support::{hisha_text, line, temp_dir};

const SEC: Duration = Duration::from_secs(1);

fn write(path: &Path, f: Format, games: &[GameRecord]) {
    let mut w = RecordWriter::new(std::fs::File::create(path).expect("create"), f, true);
    for g in games {
        w.write(g).expect("write");
    }
}

#[test]
fn the_default_book_is_what_book_build_makes_from_the_named_lines() {
    // book/README.md: `hisha book build book/lines.psn -o book/standard.db --max-ply 40`.
    let dir = temp_dir("standard");
    let out = dir.join("standard.db");
    let (code, _, err) =
        hisha_text(&["book", "build", "book/lines.psn", "-o", &out.display().to_string(), "--max-ply", "40"]);
    assert_eq!(code, Some(0), "{err}");
    let made = std::fs::read_to_string(&out).expect("written");
    assert_eq!(
        made,
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("book/standard.db")).expect("in repo")
    );
    assert_eq!(made, BUILTIN, "the binary carries book/standard.db");
    // Every named line is in it, and every opening of book/openings.psn reads.
    let lines = read_games(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("book/lines.psn")).expect("lines"),
        Format::Psn,
    );
    assert_eq!(lines.len(), 16);
    let book = Book::parse(&made).expect("valid");
    for l in lines {
        let l = l.expect("a legal line");
        assert!(l.tag("Opening").is_some());
        let first = l.moves[0].mv;
        assert!(book.probe(&Position::startpos()).iter().any(|m| m.mv == first), "{:?}", l.tag("Opening"));
    }
    let openings = read_games(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("book/openings.psn")).expect("openings"),
        Format::Psn,
    );
    assert_eq!(openings.len(), 100);
    assert!(openings.iter().all(|o| o.as_ref().is_ok_and(|o| o.moves.len() == 20 && o.tag("Opening").is_some())));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn book_build_reads_any_format_and_show_prints_the_moves() {
    let dir = temp_dir("build");
    let (kif, csa, psn2) = (dir.join("a.kif"), dir.join("b.csa"), dir.join("c.psn2"));
    let won = |mut g: GameRecord, w: hisha::position::Winner| {
        g.result = Some(hisha::position::GameResult { winner: w, reason: hisha::position::ResultReason::Resign });
        g
    };
    use hisha::position::Winner::{Black, White};
    write(&kif, Format::Kif, &[won(line(&["7g7f", "3c3d", "2g2f"]), Black), won(line(&["7g7f", "8c8d"]), White)]);
    write(&csa, Format::Csa, &[won(line(&["7g7f", "3c3d", "6g6f"]), Black)]);
    write(&psn2, Format::Psn2, &[won(line(&["2g2f", "8c8d"]), White)]);
    std::fs::write(dir.join("broken.usi"), "startpos moves 7g7e\n").expect("write");
    let book = dir.join("book.db");
    let (code, _, err) = hisha_text(&[
        "book",
        "build",
        &kif.display().to_string(),
        &csa.display().to_string(),
        &psn2.display().to_string(),
        &dir.join("broken.usi").display().to_string(),
        "-o",
        &book.display().to_string(),
        "--max-ply",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("4 games -> 3 positions") && err.contains("(1 skipped)"), "{err}");
    assert!(err.contains("broken.usi: game 1: line 1, column 16"), "{err}");
    let (code, out, err) = hisha_text(&["book", "show", &book.display().to_string(), "startpos"]);
    assert_eq!(code, Some(0), "{err}");
    // Values: win rate p = (points + 1/2) / (games + 1), 400·log10(p / (1 − p)) cp. 7g7f: played 3
    // times, won twice by Black: p = 0.625, 89 cp; its usual reply 3c3d. 2g2f: once, lost: p = 0.25,
    // -191 cp.
    assert_eq!(out, "7g7f 3c3d 89 0 3\n2g2f 8c8d -191 0 1\n");
    // After 7g7f: 8c8d won once for White (p = 0.75, 191 cp), 3c3d lost twice (p = 1/6, -280 cp).
    let (_, out, _) = hisha_text(&["book", "show", &book.display().to_string(), "startpos", "moves", "7g7f"]);
    assert_eq!(out, "8c8d none 191 0 1\n3c3d none -280 0 2\n");
    let (_, out, _) = hisha_text(&[
        "book",
        "show",
        &book.display().to_string(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL",
        "w",
        "-",
        "2",
    ]);
    assert_eq!(out.lines().count(), 2);
    // --min-count drops moves played less often.
    let (code, _, err) = hisha_text(&[
        "book",
        "build",
        &kif.display().to_string(),
        &csa.display().to_string(),
        "-o",
        &book.display().to_string(),
        "--min-count",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        Book::load(&book).map(|b| b.len()).map_err(|e| e.to_string()),
        Ok(2),
        "7g7f and then 3c3d were played twice"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn book_openings_are_deterministic_named_and_balanced() {
    let dir = temp_dir("openings");
    let run = |name: &str| {
        let out = dir.join(name);
        let (code, _, err) = hisha_text(&[
            "book",
            "openings",
            "-o",
            &out.display().to_string(),
            "--from",
            "book/lines.psn",
            "--plies",
            "10",
            "--count",
            "4",
            "--balance",
            "200",
            "--depth",
            "3",
            "--check-depth",
            "4",
            "--seed",
            "7",
        ]);
        assert_eq!(code, Some(0), "{err}");
        std::fs::read(out).expect("written")
    };
    let a = run("a.psn");
    assert_eq!(a, run("b.psn"), "the same seed gives the same openings");
    let games = read_games(&a, Format::Psn);
    assert_eq!(games.len(), 4);
    for g in games {
        let g = g.expect("reads");
        assert_eq!(g.moves.len(), 10);
        assert!(g.tag("Opening").is_some(), "named after its seed line");
        let score: i32 = g.summary[0]
            .strip_prefix("balance check: ")
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a balance note");
        assert!(score.abs() <= 200, "{score}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_book_is_loaded_on_isready_never_on_usi() {
    let dir = temp_dir("engine");
    let broken = dir.join("broken.db");
    std::fs::write(&broken, "#YANEURAOU-DB2016 1.00\nsfen not a position\n").expect("write");
    let mut e = Engine::start(&[]);
    e.send(&format!("setoption name BookFile value {}", broken.display()));
    e.send("usi");
    let lines = e.until("usiok", 5 * SEC);
    assert!(!lines.iter().any(|l| l.contains("book")), "nothing is loaded on usi: {lines:?}");
    e.send("isready");
    let lines = e.until("readyok", 5 * SEC);
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string warning: book not used")).count(), 1, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("line 2")), "the broken line is named: {lines:?}");
    // The same file again: no second warning; the engine plays on without a book.
    e.send("isready");
    let lines = e.until("readyok", 5 * SEC);
    assert!(!lines.iter().any(|l| l.contains("book")), "{lines:?}");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove", 10 * SEC);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "searched: {lines:?}");
    // A missing file: one warning too.
    e.send(&format!("setoption name BookFile value {}", dir.join("missing.db").display()));
    e.send("isready");
    let lines = e.until("readyok", 5 * SEC);
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string warning: book not used")).count(), 1, "{lines:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn book_moves_are_played_up_to_book_moves_and_not_with_an_empty_book_file() {
    let dir = temp_dir("limits");
    let book = dir.join("b.db");
    // A book move at the start and one at ply 3 (after 7g7f 3c3d).
    std::fs::write(
        &book,
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f none 0 0 1\n\
sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n1g1f none 0 0 1\n",
    )
    .expect("write");
    let mut e = Engine::start(&[]);
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.send("setoption name BookMoves value 2");
    e.handshake();
    e.send("position startpos");
    e.send("go byoyomi 1000");
    assert_eq!(bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line")), "9g9f");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 2");
    let lines = e.until("bestmove", 10 * SEC);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "ply 3 is past BookMoves 2: {lines:?}");
    e.send("setoption name BookMoves value 32");
    e.send("go depth 2");
    assert_eq!(bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line")), "1g1f");
    // An empty BookFile (as GUIs send it) means no book.
    e.send("setoption name BookFile value <empty>");
    e.send("isready");
    e.until("readyok", 5 * SEC);
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove", 10 * SEC);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "no book: {lines:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_book_file_in_a_japanese_folder_is_found_whether_its_path_comes_in_utf8_or_shift_jis() {
    // A folder name with an ASCII space and a full-width one (U+3000), as Japanese Windows users
    // name folders; the path sent as ShogiHome sends it (UTF-8) and as Shogidokoro and ShogiGUI
    // send it (Shift_JIS, the code page of Japanese Windows).
    let dir = temp_dir("japanese-path").join("将棋 ソフト\u{3000}定跡");
    std::fs::create_dir_all(&dir).expect("folder");
    let book = dir.join("定跡.db");
    std::fs::write(&book, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f none 0 0 1\n")
        .expect("write");
    let line = format!("setoption name BookFile value {}\r\n", book.display());
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&line);
    assert!(!unmappable, "{line}");
    for sent in [line.as_bytes(), &sjis[..]] {
        let mut e = Engine::start(&[]);
        e.send_raw(sent);
        e.handshake();
        assert!(!e.transcript.iter().any(|l| l.contains("warning")), "{:?}", e.transcript);
        e.send("position startpos");
        e.send("go depth 2");
        assert_eq!(bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line")), "9g9f", "the book's move");
    }
    let _ = std::fs::remove_dir_all(dir.parent().expect("temp folder"));
}

/// CPU time of this thread in ns (/proc/thread-self/schedstat): the machine is shared, so CPU
/// time is the steadier figure.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

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
    let path = temp_dir("big-book").join("book.db");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
    book.write(&mut f).expect("write");
    drop(f);
    drop(book);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let before = resident_kib();
    let (t, c) = (Instant::now(), cpu_ns());
    let loaded = Book::load(&path).expect("loads");
    let (load_ms, load_cpu_ms) = (t.elapsed().as_millis(), (cpu_ns() - c) / 1_000_000);
    let grew = resident_kib().saturating_sub(before);
    let (t, c) = (Instant::now(), cpu_ns());
    let mut found = 0;
    for p in &probes {
        found += (!loaded.probe(p).is_empty()) as usize;
    }
    let (wall_s, cpu_s) = (t.elapsed().as_secs_f64(), (cpu_ns() - c) as f64 / 1e9);
    println!(
        "book: {} positions, file {} MB, load {load_cpu_ms} ms CPU ({load_ms} ms wall), memory +{} MB, \
         {:.2} M lookups/s CPU ({:.2} M/s wall)",
        loaded.len(),
        size / 1_000_000,
        grew / 1024,
        probes.len() as f64 / cpu_s / 1e6,
        probes.len() as f64 / wall_s / 1e6
    );
    assert_eq!(found, probes.len());
    let _ = std::fs::remove_file(path);
}
