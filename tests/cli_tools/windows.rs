//! The Windows build (`scripts/build-windows.sh`) under Wine, as Shogidokoro and ShogiGUI run it
//! (issue 29): a USI session with CRLF line ends, `perft 5`, the `bench` signature, a two-game
//! `match` writing Shift_JIS KIF records, and `BookFile`/`EvalFile` paths with spaces and
//! Japanese sent in UTF-8 and in Shift_JIS. Where the answer is hisha's own, the Linux build
//! (the binary under test) gives the reference. Wine is not Windows: see `wine.rs`.

use super::wine::{hisha_exe, windows_path};
use crate::support::usi::{Engine, bestmove_of};
use crate::support::{after, games, s, temp_dir};
use hisha::Position;
use hisha::eval::nnue::{Architecture, FeatureSet, Network, Spread};
use hisha::record::{Format, game_path};
use std::process::Output;
use std::time::Duration;

/// Generous: Wine starts slowly, and the machine may be loaded; none of these measures speed.
const TIMEOUT: Duration = Duration::from_secs(60);

/// `line` without its `time` and `nps` fields, the only ones two runs of one search differ in.
fn without_timing(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if line.starts_with("info ") && (words[i] == "time" || words[i] == "nps") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// Sends `line` ended by CRLF, as Windows GUIs write lines.
fn send_crlf(e: &mut Engine, line: &[u8]) {
    e.send_raw(&[line, b"\r\n"].concat());
}

/// A GUI's session on `e`: `usi`, `isready`, `go depth 6` from the start without book, `quit`;
/// every line hisha printed, timings removed. Checks that it exits with 0 after `quit`.
fn gui_session(mut e: Engine) -> Vec<String> {
    let mut lines = Vec::new();
    for (command, answer) in [
        (&b"usi"[..], "usiok"),
        (b"setoption name UseBook value false", ""),
        (b"isready", "readyok"),
        (b"usinewgame", ""),
        (b"position startpos", ""),
        (b"go depth 6", "bestmove"),
    ] {
        send_crlf(&mut e, command);
        if !answer.is_empty() {
            lines.extend(e.until(answer, TIMEOUT));
        }
    }
    send_crlf(&mut e, b"quit");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0), "{lines:#?}");
    lines.iter().map(|l| without_timing(l)).collect()
}

#[test]
fn a_usi_session_with_crlf_lines_answers_as_the_linux_build_does() {
    let Some(wine) = hisha_exe() else { return };
    let windows = gui_session(Engine::spawn(wine.command(&[])));
    let best = windows.last().expect("a bestmove");
    assert!(best.starts_with("bestmove "), "{windows:#?}");
    let mv = bestmove_of(best);
    assert!(Position::startpos().parse_usi_move(&mv).is_ok(), "{mv} is not legal at the start");
    // One thread is deterministic: the same options, the same search, line for line.
    assert_eq!(windows, gui_session(Engine::start(&[])));
}

/// The count the perft suite gives for the start position at depth 5 (`tests/data/perft.txt`,
/// from shared/data/perft_public.tsv: 19,861,490, agreed by eight implementations).
fn startpos_perft_5() -> u64 {
    let suite = include_str!("../data/perft.txt");
    let startpos = suite.split("\nid ").find(|block| block.starts_with("startpos")).expect("startpos in perft.txt");
    let line = startpos.lines().find_map(|l| l.strip_prefix("perft 5 ")).expect("perft 5 of startpos");
    line.split_whitespace().next().and_then(|n| n.parse().ok()).expect("a count")
}

/// The number after `label` on a line of `out`'s stdout.
fn number_after(out: &Output, label: &str) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let line = stdout.lines().find_map(|l| l.strip_prefix(label)).unwrap_or_else(|| panic!("no {label:?}: {stdout}"));
    line.trim().parse().unwrap_or_else(|_| panic!("{label}{line}"))
}

#[test]
fn perft_5_from_the_start_counts_the_published_number() {
    let Some(wine) = hisha_exe() else { return };
    assert_eq!(number_after(&wine.run(&["perft", "5"]), "Nodes searched:"), startpos_perft_5());
}

#[test]
fn bench_prints_the_signature_of_the_linux_build() {
    let Some(wine) = hisha_exe() else { return };
    let mut linux = crate::support::hisha_command();
    linux.arg("bench");
    let windows = std::thread::spawn(|| wine.run(&["bench"]));
    let linux = linux.output().expect("hisha runs");
    let windows = windows.join().expect("wine runs");
    assert_eq!(number_after(&windows, "Bench:"), number_after(&linux, "Bench:"));
}

#[test]
fn a_two_game_match_writes_shift_jis_kif_records_of_the_linux_build_s_games() {
    let Some(wine) = hisha_exe() else { return };
    let args = ["match", "--quiet", "--games", "2", "--tc", "nodes=2000", "--concurrency", "1", "--out"];
    // Records into a folder named with a space and kanji, given as a Windows path.
    let windows_dir = temp_dir("wine-match").join("対局 棋譜");
    std::fs::create_dir_all(&windows_dir).expect("folder");
    let windows_out = windows_dir.join("games.kif");
    let run = wine.run(&[&args[..], &[&windows_path(&windows_out)]].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let linux_out = temp_dir("linux-match").join("games.kif");
    let run = crate::support::hisha(&[&args[..], &[s(&linux_out)]].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for n in 1..=2 {
        // KIF holds one game a file: games-0001.kif, games-0002.kif.
        let (windows, linux) = (game_path(&windows_out, n), game_path(&linux_out, n));
        let bytes = std::fs::read(&windows).unwrap_or_else(|e| panic!("{}: {e}", windows.display()));
        assert!(std::str::from_utf8(&bytes).is_err(), "{} is not UTF-8", windows.display());
        let text = encoding_rs::SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(&bytes)
            .unwrap_or_else(|| panic!("{} is not Shift_JIS", windows.display()));
        for header in ["先手：hisha-", "後手：hisha-", "手合割：平手"] {
            assert!(text.contains(header), "{header}: {text}");
        }
        let (windows, linux) = (games(&windows, Format::Kif), games(&linux, Format::Kif));
        assert_eq!(windows.len(), 1);
        let moves = |g: &hisha::record::GameRecord| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(&windows[0]), moves(&linux[0]), "game {n}: nodes=2000 plays as on Linux");
        assert_eq!(windows[0].result, linux[0].result, "game {n}");
    }
    for out in [windows_dir.parent(), linux_out.parent()].into_iter().flatten() {
        let _ = std::fs::remove_dir_all(out);
    }
}

/// The position of the searches below (out of the test book).
const MOVES: [&str; 2] = ["7g7f", "3c3d"];

/// A session that loads the book and the net of `setup` (lines sent as they are, CRLF ended), and
/// what it plays: the book's move at the start, and the search without book after [`MOVES`]
/// (`info` lines without timings, and the `bestmove`). Checks that nothing is reported wrong.
fn files_session(mut e: Engine, setup: &[Vec<u8>]) -> (String, Vec<String>) {
    for line in setup {
        send_crlf(&mut e, line);
    }
    send_crlf(&mut e, b"isready");
    let ready = e.until("readyok", TIMEOUT);
    assert!(!ready.iter().any(|l| l.contains("error") || l.contains("warning")), "{ready:#?}");
    send_crlf(&mut e, b"position startpos");
    send_crlf(&mut e, b"go depth 4");
    let book_move = bestmove_of(e.until("bestmove", TIMEOUT).last().expect("a bestmove"));
    send_crlf(&mut e, b"setoption name UseBook value false");
    send_crlf(&mut e, format!("position startpos moves {}", MOVES.join(" ")).as_bytes());
    send_crlf(&mut e, b"go depth 4");
    // A failed aspiration window is reported only once a search has run 1 s (search/root.rs): a
    // slow machine, or Wine under load, adds `lowerbound`/`upperbound` lines that a fast one
    // does not print. The lines of each finished depth and the move do not depend on time.
    let search = e
        .until("bestmove", TIMEOUT)
        .iter()
        .filter(|l| !l.contains(" lowerbound ") && !l.contains(" upperbound "))
        .map(|l| without_timing(l))
        .collect();
    (book_move, search)
}

/// `setoption name NAME value PATH` in UTF-8 and in Shift_JIS.
fn setoption_both_ways(name: &str, path: &str) -> [Vec<u8>; 2] {
    let line = format!("setoption name {name} value {path}");
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&line);
    assert!(!unmappable && sjis.as_ref() != line.as_bytes(), "{line}");
    [line.clone().into_bytes(), sjis.into_owned()]
}

#[test]
fn book_and_eval_files_in_a_japanese_folder_with_spaces_load_from_utf8_and_shift_jis_paths() {
    let Some(wine) = hisha_exe() else { return };
    // An ASCII space and a full-width one (U+3000), as Japanese Windows users name folders.
    let dir = temp_dir("wine-files").join("将棋 ソフト\u{3000}評価");
    std::fs::create_dir_all(&dir).expect("folder");
    let book = dir.join("定跡.db");
    // The book's one move, 9g9f, is not what hisha's search plays at the start.
    std::fs::write(&book, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f none 0 0 1\n")
        .expect("book");
    // A small random net: its searches differ from the built-in net's.
    let net = dir.join("nn.bin");
    let arch = Architecture { features: FeatureSet::HalfKP, l1: 32, l2: 32, l3: 32 };
    std::fs::write(&net, Network::random(arch, 29, Spread::Typical).to_bytes()).expect("net");

    let linux_setup = |book: &str, net: &str| {
        [format!("setoption name BookFile value {book}"), format!("setoption name EvalFile value {net}")]
            .map(String::into_bytes)
    };
    let (linux_book_move, with_net) = files_session(Engine::start(&[]), &linux_setup(s(&book), s(&net)));
    assert_eq!(linux_book_move, "9g9f");
    let (_, builtin) = files_session(Engine::start(&[]), &linux_setup(s(&book), "builtin"));
    assert_ne!(with_net, builtin, "the net decides what the search plays");
    assert!(after(&MOVES).parse_usi_move(&bestmove_of(with_net.last().expect("bestmove"))).is_ok());

    let [book_utf8, book_sjis] = setoption_both_ways("BookFile", &windows_path(&book));
    let [net_utf8, net_sjis] = setoption_both_ways("EvalFile", &windows_path(&net));
    for (encoding, setup) in [("UTF-8", [book_utf8, net_utf8]), ("Shift_JIS", [book_sjis, net_sjis])] {
        let (book_move, search) = files_session(Engine::spawn(wine.command(&[])), &setup);
        assert_eq!(book_move, "9g9f", "the book of a {encoding} path");
        assert_eq!(search, with_net, "the net of a {encoding} path");
    }
    let _ = std::fs::remove_dir_all(dir.parent().expect("temp folder"));
}
