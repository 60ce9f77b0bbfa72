//! What `hisha convert` does to its outputs: an output that is also an input is refused (also
//! through a symlink, a hard link or standard input), an existing output is replaced whole or not
//! at all, several games for a KIF, KIFU or KI2 file are refused unless `--split` writes one file
//! each, and a reader closing standard output early ends the run quietly. Exit statuses: 0 done,
//! 1 something skipped, 2 refused or failed (the output left as it was).

use crate::support::{hisha_command, hisha_with_stdin as hisha, s, temp_dir};
use hisha::record::{Format, read_games};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

const TWO_GAMES: &str = "[Sente \"a\"]\n1.P7g-7f 2.P3c-3d 3.Resigns\n\n[Sente \"c\"]\n1.P2g-2f\n";

/// The names in `dir`, sorted (temporary files included).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn convert_refuses_an_output_that_is_also_an_input() {
    let dir = temp_dir("same");
    let input = dir.join("x.psn");
    std::fs::write(&input, TWO_GAMES).expect("write");
    let refused = |args: &[&str], stdin: Stdio| {
        let out = hisha_command().args(args).stdin(stdin).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("the output is also an input"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&input).expect("still there"), TWO_GAMES, "{args:?}");
    };
    refused(&["convert", s(&input), "-o", s(&input)], Stdio::null());
    refused(&["convert", s(&input), "-o", s(&dir.join(".").join("x.psn"))], Stdio::null());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&input, dir.join("link.psn")).expect("symlink");
        std::fs::hard_link(&input, dir.join("hard.psn")).expect("hard link");
        refused(&["convert", s(&dir.join("link.psn")), "-o", s(&input)], Stdio::null());
        refused(&["convert", s(&input), "-o", s(&dir.join("hard.psn"))], Stdio::null());
        // `hisha convert - -o x.psn < x.psn`.
        refused(&["convert", "-", "-o", s(&input)], Stdio::from(std::fs::File::open(&input).expect("open")));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_refuses_several_games_for_one_kif_file_and_leaves_it_as_it_was() {
    let dir = temp_dir("several");
    let (input, out) = (dir.join("in.psn"), dir.join("out.kif"));
    std::fs::write(&input, TWO_GAMES).expect("write");
    std::fs::write(&out, "an earlier file").expect("write");
    for f in ["kif", "kifu", "ki2"] {
        let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&out), "--to", f], b"");
        assert_eq!(code, Some(2), "{stderr}");
        let want =
            format!("{f} holds one game per file, and the input has more than one (nothing written): --split writes");
        assert!(stderr.contains(&want), "{stderr}");
        assert!(stderr.contains("out-0001.kif, ") && stderr.contains("out-0002.kif, … instead"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&out).expect("kept"), "an earlier file");
        assert_eq!(names(&dir), ["in.psn", "out.kif"], "no temporary file left");
    }
    // One game is fine.
    let one = dir.join("one.psn");
    std::fs::write(&one, "[Sente \"a\"]\n1.P7g-7f 2.Resigns\n").expect("write");
    let (code, _, stderr) = hisha(&["convert", s(&one), "-o", s(&out)], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(read_games(&std::fs::read(&out).expect("written"), Format::Kif).len(), 1);
    // Standard output redirected to a file is a file too; a pipe is not (see convert.rs).
    let redirected = dir.join("redirected.kif");
    let run = hisha_command()
        .args(["convert", s(&input), "--to", "kif"])
        .stdout(Stdio::from(std::fs::File::create(&redirected).expect("create")))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("standard output: kif holds one game per file"), "{stderr}");
    assert_eq!(std::fs::read(&redirected).expect("exists").len(), 0, "nothing written");
    // A device is a stream too (and is never replaced by a file).
    #[cfg(unix)]
    {
        let (code, _, stderr) = hisha(&["convert", s(&input), "--to", "kif", "-o", "/dev/null"], b"");
        assert_eq!(code, Some(0), "{stderr}");
        assert!(std::fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_split_writes_one_numbered_file_per_game_beside_the_output() {
    let dir = temp_dir("split");
    let input = dir.join("in.psn");
    std::fs::write(&input, TWO_GAMES).expect("write");
    let base = dir.join("games.kif");
    let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&base), "--split"], b"");
    assert_eq!(code, Some(0), "{stderr}");
    let (first, second) = (dir.join("games-0001.kif"), dir.join("games-0002.kif"));
    // The second game has no ending: its reader says so, and counts it.
    let want = format!(
        "read 2 games (1 without an ending), wrote 2 as kif in 2 files ({} … {}), skipped 0",
        s(&first),
        s(&second)
    );
    assert!(stderr.contains(&want), "{stderr}");
    assert_eq!(names(&dir), ["games-0001.kif", "games-0002.kif", "in.psn"]);
    for (path, moves) in [(&first, 2), (&second, 1)] {
        let games = read_games(&std::fs::read(path).expect("written"), Format::Kif);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].as_ref().expect("reads").moves.len(), moves);
    }
    // A game file that is now an input is not written over; the given name itself is no output.
    let (code, _, stderr) = hisha(&["convert", s(&second), s(&input), "-o", s(&base), "--split"], b"");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("games-0002.kif: the output is also an input"), "{stderr}");
    std::fs::write(&base, std::fs::read(&first).expect("read")).expect("write");
    let (code, _, stderr) = hisha(&["convert", s(&base), "-o", s(&base), "--split", "--to", "ki2"], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("wrote 1 as ki2 in 1 file"), "{stderr}");
    let ki2 = read_games(&std::fs::read(&first).expect("rewritten"), Format::Ki2);
    assert_eq!(ki2[0].as_ref().expect("KI2 now").moves.len(), 2);
    // The earlier run's second file is no game of this one: removed, and named.
    assert!(stderr.contains(&format!("removed {}: left by an earlier run", s(&second))), "{stderr}");
    assert_eq!(names(&dir), ["games-0001.kif", "games.kif", "in.psn"]);
    // --split needs a file name to number.
    let (code, _, stderr) = hisha(&["convert", s(&input), "--split", "--to", "kif"], b"");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--split writes files named after the output: give one with -o NAME.kif"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_output_whose_extension_names_no_format_is_refused_unless_to_says_one() {
    let dir = temp_dir("xyz");
    let input = dir.join("in.psn");
    std::fs::write(&input, TWO_GAMES).expect("write");
    let out = dir.join("out.xyz");
    let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&out)], b"");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("out.xyz: no record format has this extension"), "{stderr}");
    assert!(!out.exists(), "nothing written");
    let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&out), "--to", "csa"], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(read_games(&std::fs::read(&out).expect("written"), Format::Csa).len(), 2);
    // Standard output and devices are streams: PSN.
    let (code, stdout, _) = hisha(&["convert", s(&input)], b"");
    assert_eq!(code, Some(0));
    assert!(String::from_utf8_lossy(&stdout).contains("[Result"), "standard output gets PSN");
    assert_eq!(hisha(&["convert", s(&input), "-o", "/dev/null"], b"").0, Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_exit_statuses_are_0_done_1_skipped_2_refused() {
    let dir = temp_dir("status");
    let (good, bad) = (dir.join("good.usi"), dir.join("bad.usi"));
    std::fs::write(&good, "startpos moves 7g7f\n").expect("write");
    std::fs::write(&bad, "startpos moves 7g7e\n").expect("write");
    let out = dir.join("out.csa");
    assert_eq!(hisha(&["convert", s(&good), "-o", s(&out)], b"").0, Some(0));
    assert_eq!(hisha(&["convert", s(&good), s(&bad), "-o", s(&out)], b"").0, Some(1));
    assert_eq!(read_games(&std::fs::read(&out).expect("written"), Format::Csa).len(), 1, "1: written all the same");
    assert_eq!(hisha(&["convert", s(&good), "-o", s(&good)], b"").0, Some(2));
    assert_eq!(hisha(&["convert", s(&good), "--to", "nonsense"], b"").0, Some(2), "usage error");
    let missing_folder = dir.join("no such folder").join("out.psn");
    let (code, _, stderr) = hisha(&["convert", s(&good), "-o", s(&missing_folder)], b"");
    assert_eq!(code, Some(2), "an output that cannot be written: {stderr}");
    assert!(stderr.contains("out.psn: "), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_ends_quietly_when_standard_output_is_closed() {
    let dir = temp_dir("pipe");
    let input = dir.join("big.usi");
    // About 1 MB of output: far more than a pipe holds, so hisha is still writing when it closes.
    let line = "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f\n";
    std::fs::write(&input, line.repeat(12_000)).expect("write");
    let mut child = hisha_command()
        .args(["convert", s(&input), "--to", "usi"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    {
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        out.read_line(&mut first).expect("one line");
        // Dropping the reader closes the pipe, as `| head -1` does.
    }
    let done = child.wait_with_output().expect("exits");
    assert_eq!(first, line);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "nothing said, no `Broken pipe`: {stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_writes_ki2_as_shift_jis_and_ki2u_as_utf8() {
    let dir = temp_dir("ki2");
    let input = dir.join("in.psn");
    std::fs::write(&input, "[Sente \"a\"]\n1.P7g-7f 2.P3c-3d 3.Resigns\n").expect("write");
    for (name, to, utf8) in [("out.ki2", None, false), ("out.ki2u", None, true), ("other.txt", Some("ki2u"), true)] {
        let out = dir.join(name);
        let mut args = vec!["convert", s(&input), "-o", s(&out)];
        args.extend(to.map(|t| ["--to", t]).into_iter().flatten());
        let (code, _, stderr) = hisha(&args, b"");
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let bytes = std::fs::read(&out).expect("written");
        let text = hisha::record::decode_text(&bytes);
        assert!(text.contains("▲７六歩") && text.contains("まで2手で後手の勝ち\n"), "{name}: {text}");
        assert_eq!(std::str::from_utf8(&bytes).is_ok(), utf8, "{name}");
        let games = read_games(&bytes, Format::Ki2);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].as_ref().expect("reads").moves.len(), 2);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shift_jis_outputs_warn_of_the_characters_they_lose_and_name_the_utf8_format() {
    // Shift_JIS has no `ü` and no emoji: a .kif holds `M&#252;ller &#128512;`, which no reader
    // turns back, so the run says so once and names .kifu; a .kifu keeps the name.
    let dir = temp_dir("convert-shift-jis");
    let input = dir.join("in.psn");
    std::fs::write(&input, "[Sente \"Müller 😀\"]\n[Gote \"Tanaka ü\"]\n1.P7g-7f\n").expect("write");
    let kif = dir.join("out.kif");
    let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&kif)], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("Shift_JIS, which has no 'ü', '😀'") && stderr.contains(".kifu"), "{stderr}");
    assert_eq!(stderr.matches("Shift_JIS").count(), 1, "one warning: {stderr}");
    let ki2 = dir.join("out.ki2");
    let (_, _, stderr) = hisha(&["convert", s(&input), "-o", s(&ki2)], b"");
    assert!(stderr.contains("KI2 files are Shift_JIS") && stderr.contains(".ki2u"), "{stderr}");
    let kifu = dir.join("out.kifu");
    let (code, _, stderr) = hisha(&["convert", s(&input), "-o", s(&kifu)], b"");
    assert_eq!(code, Some(0));
    assert!(!stderr.contains("Shift_JIS"), "{stderr}");
    let back = read_games(&std::fs::read(&kifu).expect("written"), Format::Kifu);
    assert_eq!(back[0].as_ref().expect("reads").tag("Black"), Some("Müller 😀"));
    let _ = std::fs::remove_dir_all(dir);
}
