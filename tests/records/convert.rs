//! `hisha convert` from the command line: formats detected from content and extension, `-` for
//! standard input and output, a summary with reasons on stderr, exit status 1 when anything was
//! skipped (a broken game, a missing, empty or unreadable input, an unknown format), `.txt` as USI
//! lines, and `--keep-partial`. What it does to outputs is in `convert_outputs.rs`.

use crate::support::{hisha_with_stdin as hisha, temp_dir};
use hisha::record::{Format, read_games};

#[test]
fn convert_reports_skipped_games_and_files_and_fails() {
    let dir = temp_dir("skip");
    let input = dir.join("in.usi");
    std::fs::write(
        &input,
        "startpos moves 7g7f 3c3d\nstartpos moves 7g7e\nsfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n",
    )
    .expect("write");
    let unknown = dir.join("notes.txt");
    std::fs::write(&unknown, "just some text\n").expect("write");
    let out = dir.join("out.csa");
    let (code, _, stderr) = hisha(
        &[
            "convert",
            &input.display().to_string(),
            &dir.join("missing.kif").display().to_string(),
            &unknown.display().to_string(),
            "-o",
            &out.display().to_string(),
        ],
        b"",
    );
    assert_eq!(code, Some(1), "anything skipped fails the run: {stderr}");
    assert!(stderr.contains("in.usi: game 2: line 2, column 16: ply 1: illegal move 7g7e"), "{stderr}");
    assert!(stderr.contains("missing.kif: "), "{stderr}");
    assert!(stderr.contains("notes.txt: not a record format hisha knows"), "{stderr}");
    assert!(
        stderr.contains(
            "read 2 games, wrote 2 as csa, skipped 3 (1 file not readable, 1 illegal move, 1 unknown format)"
        ),
        "{stderr}"
    );
    let back = read_games(&std::fs::read(&out).expect("written"), Format::Csa);
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(Result::is_ok));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_reads_standard_input_and_writes_standard_output() {
    let psn = "[Sente \"a\"]\n[Gote \"b\"]\n1.P7g-7f 2.P3c-3d 3.Resigns\n\n[Sente \"c\"]\n1.P2g-2f\n";
    let (code, stdout, stderr) = hisha(&["convert", "-", "--to", "kifu"], psn.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("read 2 games (1 without an ending), wrote 2 as kifu, skipped 0"), "{stderr}");
    assert!(stderr.contains("standard input: game 2: line 6: the game stops without an ending"), "{stderr}");
    let text = String::from_utf8(stdout.clone()).expect("KIFU is UTF-8");
    assert!(text.starts_with("#KIF version=2.0 encoding=UTF-8\n"), "{text}");
    assert!(text.contains("   3 投了"), "{text}");
    let back = read_games(&stdout, Format::Kif);
    assert_eq!(back.len(), 2);
    // And back to PSN2 through a pipe, with --from.
    let (code, psn2, stderr) = hisha(&["convert", "-", "--from", "kif", "--to", "psn2"], &stdout);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(psn2.starts_with(b"\xEF\xBB\xBF[Black \"a\"]\n[White \"b\"]\n"), "{}", String::from_utf8_lossy(&psn2));
}

#[test]
fn convert_says_an_input_is_empty_or_unreadable_and_fails() {
    let dir = temp_dir("empty");
    let (empty, blank) = (dir.join("empty.psn"), dir.join("blank.kif"));
    std::fs::write(&empty, "").expect("write");
    std::fs::write(&blank, "\n  \r\n\n").expect("write");
    let folder = dir.join("folder.psn");
    std::fs::create_dir_all(&folder).expect("dir");
    let s = |p: &std::path::Path| p.display().to_string();
    let (code, stdout, stderr) = hisha(&["convert", &s(&empty), &s(&blank), &s(&folder), "--to", "usi"], b"");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("empty.psn: empty, no games (skipped)"), "{stderr}");
    assert!(stderr.contains("blank.kif: empty, no games (skipped)"), "{stderr}");
    assert!(stderr.contains("folder.psn: is a folder (skipped)"), "{stderr}");
    assert!(
        stderr.contains("read 0 games, wrote 0 as usi, skipped 3 (2 empty input, 1 file not readable)"),
        "{stderr}"
    );
    // Standard input, empty, and a file with --from that holds no game.
    let (code, _, stderr) = hisha(&["convert", "-"], b"");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("standard input: empty, no games (skipped)"), "{stderr}");
    std::fs::write(&empty, "'only a comment\n").expect("write");
    let (code, _, stderr) = hisha(&["convert", &s(&empty), "--from", "csa"], b"");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("empty.psn: no games in it (skipped)"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_writes_usi_lines_for_a_txt_output_as_its_help_says() {
    let dir = temp_dir("txt");
    let out = dir.join("lines.txt");
    let psn = "[Sente \"a\"]\n1.P7g-7f 2.P3c-3d 3.Resigns\n";
    let (code, _, stderr) = hisha(&["convert", "-", "-o", &out.display().to_string()], psn.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("wrote 1 as usi"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).expect("written"), "startpos moves 7g7f 3c3d\n");
    let (code, help, _) = hisha(&["help", "convert"], b"");
    assert_eq!(code, Some(0));
    assert!(String::from_utf8_lossy(&help).contains(".txt for USI lines"), "{}", String::from_utf8_lossy(&help));
    let _ = std::fs::remove_dir_all(dir);
}

/// One game per format whose fifth move is illegal (Black's 7g pawn moved at ply 1).
const BROKEN: [(&str, &str); 7] = [
    ("psn", "[Sente \"a\"]\n1.P7g-7f 2.P3c-3d 3.P2g-2f 4.P8c-8d 5.P7g-7f 6.P8d-8e\n"),
    ("psn2", "[Black \"a\"]\n[White \"b\"]\n1.7g7f\n2.3c3d\n3.2g2f\n4.8c8d\n5.7g7f\n6.8d8e\n"),
    ("kifu", "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n   5 ７六歩(77)\n"),
    ("ki2", "手合割：平手\n▲７六歩　△３四歩　▲２六歩　△８四歩　▲７五銀　△８五歩\n"),
    ("csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n+7776FU\n-8485FU\n"),
    ("usi", "startpos moves 7g7f 3c3d 2g2f 8c8d 7g7f 8d8e\n"),
    ("kif", "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n   5 ７六歩(77)\n"),
];

#[test]
fn keep_partial_keeps_the_moves_before_an_unreadable_move_in_every_format() {
    let dir = temp_dir("partial");
    for (ext, text) in BROKEN {
        let input = dir.join(format!("broken.{ext}"));
        let bytes =
            if ext == "kif" { encoding_rs::SHIFT_JIS.encode(text).0.into_owned() } else { text.as_bytes().to_vec() };
        std::fs::write(&input, bytes).expect("write");
        let input = input.display().to_string();
        // Without the option the game is skipped, and the message says what the option would keep.
        let (code, stdout, stderr) = hisha(&["convert", &input, "--to", "usi"], b"");
        assert_eq!((code, stdout.len()), (Some(1), 0), "{ext}: {stderr}");
        assert!(stderr.contains("(skipped; --keep-partial keeps its first 4 moves)"), "{ext}: {stderr}");
        // With it: the first four moves, exit status 0, and the cut counted in the summary.
        let (code, stdout, stderr) = hisha(&["convert", &input, "--to", "usi", "--keep-partial"], b"");
        assert_eq!(code, Some(0), "{ext}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&stdout), "startpos moves 7g7f 3c3d 2g2f 8c8d\n", "{ext}");
        assert!(stderr.contains("(cut: kept its first 4 moves)"), "{ext}: {stderr}");
        assert!(
            stderr.contains("read 0 games, cut 1 (kept up to the error), wrote 1 as usi, skipped 0"),
            "{ext}: {stderr}"
        );
    }
    // In PSN the cut game says where and why it was cut, and that it is unfinished.
    let input = dir.join("broken.usi").display().to_string();
    let (code, stdout, stderr) = hisha(&["convert", &input, "--to", "psn", "--keep-partial"], b"");
    assert_eq!(code, Some(0), "{stderr}");
    let psn = String::from_utf8_lossy(&stdout);
    assert!(
        psn.contains(
            "{hisha: the record breaks off here, the rest is unreadable (line 1, column 36: ply 5: illegal move 7g7f"
        ),
        "{psn}"
    );
    let back = read_games(&stdout, Format::Psn).remove(0).expect("reads");
    assert_eq!(back.moves.len(), 4);
    assert_eq!(back.result.map(|r| r.winner), Some(hisha::position::Winner::Unfinished));
    let _ = std::fs::remove_dir_all(dir);
}
