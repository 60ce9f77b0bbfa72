//! `hisha perft`, `hisha handicaps`, `hisha mate`, `hisha book build | openings` and `hisha bench
//! --evalfile` as a user runs them: output format, `--divide`, start positions (every form of a
//! position spec), `--help`, clear errors on bad input, and empty input an error, never a success
//! that did nothing. Also the Windows build, `hisha.exe`, under Wine (`cli_tools/windows.rs`).

mod outside;
mod support;
mod cli_tools {
    // The Windows build under Wine.
    mod windows;
    mod wine;
}

use std::process::Output;
use support::{hisha, hisha_text, s, temp_dir};

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// The number after `<label>: ` on `line`.
fn value(line: &str, label: &str) -> u64 {
    let rest = line.strip_prefix(label).and_then(|r| r.strip_prefix(": ")).unwrap_or_else(|| panic!("{line:?}"));
    rest.parse().unwrap_or_else(|_| panic!("{line:?}"))
}

/// Checks the three closing lines and returns the node count.
fn closing_lines(lines: &[String]) -> u64 {
    let n = lines.len();
    assert!(n >= 3, "{lines:?}");
    let nodes = value(&lines[n - 3], "Nodes searched");
    value(&lines[n - 2], "Time (ms)");
    value(&lines[n - 1], "Nodes/second");
    nodes
}

#[test]
fn perft_prints_the_three_closing_lines() {
    let out = hisha(&["perft", "3"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    // Startpos perft 3 = 25470 (tests/data/perft.txt: ak11's Qiita summary, YaneuraOu).
    assert_eq!(closing_lines(&lines), 25_470);
}

#[test]
fn perft_divide_prints_each_root_move_then_the_total() {
    let out = hisha(&["perft", "2", "--divide"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    let total = closing_lines(&lines);
    let moves = &lines[..lines.len() - 3];
    assert_eq!(moves.len(), 30, "one line per legal root move");
    let mut sum = 0;
    for line in moves {
        let (mv, count) = line.split_once(": ").unwrap_or_else(|| panic!("{line:?}"));
        assert!(hisha::Position::startpos().parse_usi_move(mv).is_ok(), "{mv} is a legal USI move");
        sum += count.parse::<u64>().unwrap_or_else(|_| panic!("{line:?}"));
    }
    assert_eq!((sum, total), (900, 900));
    assert!(lines.iter().any(|l| l == "7g7f: 30"));
}

#[test]
fn perft_from_a_handicap_or_an_sfen() {
    // Lance handicap perft 3 = 25530 (tests/data/perft.txt: cshogi and python-shogi agree).
    for name in ["lance", "香落ち", "Lance"] {
        assert_eq!(closing_lines(&stdout_lines(&hisha(&["perft", "3", "--handicap", name]))), 25_530, "{name}");
    }
    // Matsuri perft 2 = 28684 (YaneuraOu's unit test).
    let matsuri = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    assert_eq!(closing_lines(&stdout_lines(&hisha(&["perft", "2", "--sfen", matsuri]))), 28_684);
}

#[test]
fn perft_rejects_bad_input_with_a_message() {
    let out = hisha(&["perft", "2", "--sfen", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sfen board: 8 ranks instead of 9 (at byte 0)"), "{err}");
    let out = hisha(&["perft", "2", "--handicap", "queen"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"queen\" is not a position") && err.contains("hisha handicaps"), "{err}");
}

#[test]
fn perft_takes_a_position_with_moves_in_every_form() {
    // The position after 7g7f 3c3d, written out (checked by position_spec's unit test).
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let expected = closing_lines(&stdout_lines(&hisha(&["perft", "3", "--sfen", after])));
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let sfen_moves = format!("sfen {start} moves 7g7f 3c3d");
    let forms: [&[&str]; 4] = [
        &["perft", "3", "startpos", "moves", "7g7f", "3c3d"],
        &["perft", "3", "--sfen", "startpos moves 7g7f 3c3d"],
        &["perft", "3", "--sfen", &sfen_moves],
        &["perft", "3", "--handicap", "even moves 7g7f 3c3d"],
    ];
    for args in forms {
        let out = hisha(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(closing_lines(&stdout_lines(&out)), expected, "{args:?}");
    }
    // Lance handicap after White's 5a4b: the same count as from its SFEN.
    let lance = hisha(&["perft", "2", "lance", "moves", "5a4b"]);
    let sfen = hisha(&["perft", "2", "--sfen", "lnsg1gsn1/1r3k1b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2"]);
    assert!(lance.status.success() && sfen.status.success());
    assert_eq!(closing_lines(&stdout_lines(&lance)), closing_lines(&stdout_lines(&sfen)));
}

#[test]
fn an_illegal_move_in_a_position_is_named_with_its_number_and_rule() {
    for tool in [&["perft", "2"][..], &["mate"][..]] {
        let mut args = tool.to_vec();
        args.extend(["startpos", "moves", "7g7f", "3c3d", "8h2b", "2b2a"]);
        let out = hisha(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, "hisha: move 4 (2b2a) is illegal: the piece on the origin square is not yours\n", "{args:?}");
    }
}

#[test]
fn mate_takes_a_position_with_moves() {
    // White's king walks from 4a into 5a, where Black's gold drop on 5b mates (the pawn on 5c
    // guards it; the same position as tests/usi.rs finds_mate_in_one_and_resigns_when_mated).
    let out = hisha(&["mate", "sfen", "5k3/9/4P4/9/9/9/9/9/4K4", "w", "G", "1", "moves", "4a5a"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout_lines(&out)[0], "mate 1: G*5b");
}

#[test]
fn help_says_that_hisha_without_arguments_is_the_usi_engine() {
    for flag in ["--help", "-h"] {
        let out = hisha(&[flag]);
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains("`hisha` with no arguments is the USI engine"), "{flag}: {help}");
    }
}

/// Writes a small tsume suite to a fresh file and returns its path.
fn suite_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = temp_dir(name).join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// Black's gold drop on 5b mates in 1 (the pawn on 5c guards it).
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

#[test]
fn mate_bench_passes_when_every_problem_is_solved() {
    let path = suite_file("right.txt", &format!("{MATE_IN_ONE} 1 # right\n7lk/7p1/9/9/9/9/9/9/9 b Rg 1 nomate\n"));
    let out = hisha(&["mate", "--bench", &path.display().to_string()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout_lines(&out).contains(&"Solved: 2/2".to_string()));
    assert!(stdout_lines(&out).contains(&"Longest solved: 1 ply".to_string()), "{:?}", stdout_lines(&out));
}

#[test]
fn mate_bench_of_a_file_without_problems_exits_1() {
    for (name, text) in [("empty.txt", ""), ("comments.txt", "# only a comment\n\n")] {
        let path = suite_file(name, text);
        let (code, out, err) = hisha_text(&["mate", "--bench", s(&path)]);
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(!out.contains("Solved: 0/0"), "{name}: no pass is reported: {out}");
        assert_eq!(err, format!("hisha: {}: no problems in it\n", s(&path)));
    }
}

#[test]
fn book_build_from_no_game_exits_1_and_writes_no_book() {
    let dir = temp_dir("book-empty");
    let book = dir.join("book.db");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [0u8, 159, 146, 150, 1, 2, 3]).expect("write");
    let empty = dir.join("empty.kif");
    std::fs::write(&empty, "").expect("write");
    for input in [&junk, &empty] {
        let (code, _, err) = hisha_text(&["book", "build", s(input), "-o", s(&book)]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("hisha: no game could be read from the records: no book written"), "{err}");
        assert!(!book.exists(), "no empty book");
    }
    // Games, but no move played often enough: no book either.
    let games = dir.join("games.usi");
    std::fs::write(&games, "startpos moves 7g7f\n").expect("write");
    let (code, _, err) = hisha_text(&["book", "build", s(&games), "-o", s(&book), "--min-count", "2"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("1 game gave no position before ply 40 with a move played at least 2 times"), "{err}");
    assert!(!book.exists());
    // One game: counted in the singular.
    let (code, _, err) = hisha_text(&["book", "build", s(&games), "-o", s(&book)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 game -> 1 position in "), "{err}");
}

#[test]
fn book_openings_writes_no_carriage_returns_into_a_log() {
    let dir = temp_dir("openings-log");
    let out = dir.join("o.usi");
    let args =
        ["book", "openings", "-o", s(&out), "--plies", "2", "--count", "2", "--depth", "1", "--check-depth", "1"];
    let (code, _, err) = hisha_text(&args);
    assert_eq!(code, Some(0), "{err}");
    // stderr is a pipe here, as in a log: no redrawn count, one plain summary line.
    assert!(!err.contains('\r'), "{err:?}");
    assert!(err.ends_with(&format!("2 openings -> {}\n", s(&out))), "{err:?}");
}

#[test]
fn bench_evalfile_takes_a_folder_holding_nn_bin_as_the_usi_option_does() {
    let dir = temp_dir("bench-folder");
    let net = dir.join("nn.bin");
    let (code, _, err) = hisha_text(&["nnue", "random", "--seed", "3", s(&net)]);
    assert_eq!(code, Some(0), "{err}");
    let signature = |evalfile: &str| {
        let (code, out, err) = hisha_text(&["bench", "3", "--evalfile", evalfile]);
        assert_eq!(code, Some(0), "{evalfile}: {err}");
        out.lines().find(|l| l.starts_with("Bench: ")).map(str::to_string).expect("a signature")
    };
    assert_eq!(signature(s(&dir)), signature(s(&net)), "the folder's nn.bin is the net searched with");
    // A folder without nn.bin is an error that names the file looked for.
    let empty = temp_dir("bench-empty-folder");
    let (code, out, err) = hisha_text(&["bench", "3", "--evalfile", s(&empty)]);
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.contains(&format!("cannot read {}", s(&empty.join("nn.bin")))), "{err}");
}

#[test]
fn mate_bench_with_a_wrong_or_unknown_answer_exits_1_and_names_them() {
    // Line 2 is right; line 3 expects 3 plies on purpose (the mate is 1); line 4 (大駒煙, 45 plies,
    // tests/usi.rs HARD) cannot be solved in 2000 nodes, so it is unknown: not solved either.
    let text = format!(
        "# bench with faults\n{MATE_IN_ONE} 1 # right\n{MATE_IN_ONE} 3 # wrong on purpose\n\
         9/9/3R5/5k3/2B6/3r1B3/9/9/9 b 4g4s4n4l18p 1 45 # out of nodes\n"
    );
    let path = suite_file("faults.txt", &text);
    let out = hisha(&["mate", "--bench", &path.display().to_string(), "--nodes", "2000"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert!(lines[0].starts_with("ok      line   2:"), "{lines:?}");
    assert!(lines[1].starts_with("WRONG   line   3:      1 (expected      3)"), "{lines:?}");
    assert!(lines[2].starts_with("unknown line   4:      - (expected     45)"), "{lines:?}");
    assert!(lines.contains(&"Solved: 1/3".to_string()), "{lines:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.ends_with("2 of 3 problems not solved: line 3 (expected 3, got 1), line 4 (expected 45, got unknown)\n"),
        "{err}"
    );
}

#[test]
fn perft_help_says_the_last_ply_is_bulk_counted() {
    let out = hisha(&["perft", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("bulk counting"), "{help}");
    assert!(help.contains("--divide") && help.contains("--sfen") && help.contains("--handicap"), "{help}");
}

#[test]
fn handicaps_lists_sixteen_starts_with_id_names_and_sfen() {
    let out = hisha(&["handicaps"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 16);
    for (line, h) in lines.iter().zip(hisha::Handicap::ALL) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields, [h.id(), h.english(), h.kif_name(), h.sfen()]);
        assert_eq!(fields[0].parse::<hisha::Handicap>(), Ok(h));
        assert!(hisha::Position::from_sfen(fields[3]).is_ok());
    }
    assert_eq!(lines[1], "lance\tLance\t香落ち\tlnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
}
