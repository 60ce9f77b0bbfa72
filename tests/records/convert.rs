//! `hisha convert` from the command line: formats detected from content and extension, `-` for
//! standard input and output, a summary with reasons on stderr, exit status 1 when anything was
//! skipped (a broken game, a missing file, an unknown format).

use hisha::record::{Format, read_games};
use std::io::Write;
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hisha-convert-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("dir");
    d
}

fn hisha(args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(stdin).expect("write");
    let out = child.wait_with_output().expect("exits");
    (out.status.code(), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

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
    assert!(stderr.contains("read 2 games, wrote 2 as kifu, skipped 0"), "{stderr}");
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
