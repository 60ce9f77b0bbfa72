//! An NNUE net in the search, as a user loads one: the USI option `EvalFile` (loaded on
//! `isready`, broken files refused with one `info string error`), `hisha bench --evalfile` and
//! `hisha nnue export` / `random`.

mod support;

use hisha::Position;
use hisha::eval::nnue::{Architecture, FeatureSet, Network, Spread};
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::usi::{Engine, run_piped};
use support::{hisha_text, s, temp_dir};

const TIMEOUT: Duration = Duration::from_secs(120);

/// A small random HalfKP net (8 MB: 32 transformer outputs) written to `dir/NAME`; random
/// weights of the typical spread make a legal (if weak) player whose scores differ from the
/// linear evaluation's.
fn random_net(dir: &Path, name: &str, seed: u64) -> (PathBuf, Network) {
    let arch = Architecture { features: FeatureSet::HalfKP, l1: 32, l2: 32, l3: 32 };
    let net = Network::random(arch, seed, Spread::Typical);
    let path = dir.join(name);
    std::fs::write(&path, net.to_bytes()).expect("temp file");
    (path, net)
}

/// What a search reports at its end: the last `info` line's depth, nodes, score and pv (not its
/// time), and the `bestmove` line.
#[derive(Debug, PartialEq, Eq)]
struct SearchEnd {
    info: String,
    bestmove: String,
}

/// The words of `line` from `key` to the next key of `keys` (or the end).
fn field(line: &str, key: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let keys = ["depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"];
    let Some(i) = words.iter().position(|w| *w == key) else { return String::new() };
    let end = words[i + 1..].iter().position(|w| keys.contains(w)).map_or(words.len(), |j| i + 1 + j);
    words[i + 1..end].join(" ")
}

/// Runs a USI session without book of `setup` lines, then `position` and `go`, and returns every
/// stdout line and the search's end.
fn session(setup: &[String], position: &str, go: &str) -> (Vec<String>, SearchEnd) {
    // No book: every answer comes from a search.
    let mut input = String::from("usi\nsetoption name UseBook value false\n");
    for line in setup {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str(&format!("{position}\n{go}\n"));
    let out = run_piped(&[], &input, TIMEOUT);
    assert_eq!(out.code, Some(0), "stderr: {}", out.stderr);
    let end = search_end(&out.stdout);
    (out.stdout, end)
}

/// The end of the last search in `lines`.
fn search_end(lines: &[String]) -> SearchEnd {
    let bestmove = lines.iter().rev().find(|l| l.starts_with("bestmove")).cloned().expect("a bestmove");
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).cloned().expect("an info line");
    assert!(!field(&last, "nodes").is_empty(), "not a search's line: {last}");
    let info = ["depth", "nodes", "score", "pv"].map(|k| format!("{k} {}", field(&last, k))).join(" ");
    SearchEnd { info, bestmove }
}

fn set_evalfile(path: &str) -> Vec<String> {
    vec![format!("setoption name EvalFile value {path}"), "isready".into()]
}

fn error_lines(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error")).collect()
}

const POSITION: &str = "position startpos moves 7g7f 3c3d 2g2f 8c8d";

#[test]
fn a_net_loaded_with_evalfile_plays_a_legal_move_deterministically_and_unlike_the_linear_eval() {
    let dir = temp_dir("nnue-evalfile");
    let (path, _) = random_net(&dir, "nn.bin", 7);
    let (lines, with_net) = session(&set_evalfile(s(&path)), POSITION, "go depth 6");
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "readyok"));
    let pos = support::after(&["7g7f", "3c3d", "2g2f", "8c8d"]);
    let best = support::usi::bestmove_of(&with_net.bestmove);
    assert!(pos.parse_usi_move(&best).is_ok(), "{best} is not legal in {}", pos.to_sfen());
    let (_, again) = session(&set_evalfile(s(&path)), POSITION, "go depth 6");
    assert_eq!(with_net, again, "one thread with a net is deterministic");
    let (_, linear) = session(&["isready".into()], POSITION, "go depth 6");
    assert_ne!(with_net.info, linear.info, "the net is what the search evaluates with");
}

#[test]
fn a_net_given_as_a_folder_is_read_from_its_nn_bin() {
    // YaneuraOu's EvalDir layout: a folder holding nn.bin.
    let dir = temp_dir("nnue-evaldir");
    let (path, _) = random_net(&dir, "nn.bin", 7);
    let (lines, by_folder) = session(&set_evalfile(s(&dir)), POSITION, "go depth 4");
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
    let (_, by_file) = session(&set_evalfile(s(&path)), POSITION, "go depth 4");
    assert_eq!(by_folder, by_file);
}

#[test]
fn the_net_is_loaded_on_isready_not_on_setoption() {
    let dir = temp_dir("nnue-on-isready");
    let missing = dir.join("missing.bin");
    // No isready after the setoption: the file is never read, so no error either.
    let setup = vec!["isready".into(), format!("setoption name EvalFile value {}", s(&missing))];
    let (lines, _) = session(&setup, POSITION, "go depth 2");
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
}

#[test]
fn a_net_is_shared_by_every_search_thread() {
    let dir = temp_dir("nnue-threads");
    let (path, _) = random_net(&dir, "nn.bin", 9);
    let mut setup = vec!["setoption name Threads value 3".to_string()];
    setup.extend(set_evalfile(s(&path)));
    let (lines, end) = session(&setup, POSITION, "go depth 7");
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
    let pos = support::after(&["7g7f", "3c3d", "2g2f", "8c8d"]);
    let best = support::usi::bestmove_of(&end.bestmove);
    assert!(pos.parse_usi_move(&best).is_ok(), "{best}");
}

#[test]
fn evalfile_with_a_missing_truncated_or_wrong_hash_file_is_one_error_and_the_previous_eval_stays() {
    let dir = temp_dir("nnue-broken");
    let (good, net) = random_net(&dir, "good.bin", 3);
    let bytes = net.to_bytes();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).expect("temp file");
    let wrong_hash = dir.join("wrong-hash.bin");
    let mut changed = bytes.clone();
    changed[4] ^= 0x55; // the header's architecture hash
    std::fs::write(&wrong_hash, changed).expect("temp file");
    let missing = dir.join("missing.bin");

    let (_, builtin) = session(&["isready".into()], POSITION, "go depth 5");
    let (_, linear) = session(&set_evalfile("linear"), POSITION, "go depth 5");
    let (_, with_net) = session(&set_evalfile(s(&good)), POSITION, "go depth 5");
    for (broken, says) in [(&missing, "cannot read"), (&truncated, "truncated"), (&wrong_hash, "hash mismatch")] {
        // From the built-in net, the linear evaluation and a net file: the evaluation in use stays.
        let starts = [
            (None, &builtin, "keeping the built-in net"),
            (Some("linear"), &linear, "keeping the linear evaluation"),
            (Some(s(&good)), &with_net, "keeping the net of"),
        ];
        for (before, expected, keeping) in starts {
            let mut setup = before.map_or_else(Vec::new, set_evalfile);
            setup.extend(set_evalfile(s(broken)));
            let (lines, end) = session(&setup, POSITION, "go depth 5");
            let errors = error_lines(&lines);
            assert_eq!(errors.len(), 1, "{lines:#?}");
            assert!(errors[0].contains(s(broken)) && errors[0].contains(says), "{}", errors[0]);
            assert!(errors[0].contains(keeping), "{}", errors[0]);
            let isready = setup.iter().filter(|l| *l == "isready").count();
            assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), isready, "{lines:#?}");
            assert_eq!(&end, expected, "{} after {before:?}", s(broken));
        }
    }
}

#[test]
fn a_net_rewritten_in_place_is_loaded_again_on_the_next_isready() {
    // A trainer re-writes nn.bin under the same name; the GUI sends isready again, not setoption.
    let dir = temp_dir("nnue-rewritten");
    let (path, first) = random_net(&dir, "nn.bin", 10);
    let (second_path, second) = random_net(&dir, "second.bin", 11);
    let (_, with_second) = session(&set_evalfile(s(&second_path)), POSITION, "go depth 5");
    let search = |engine: &mut Engine| {
        engine.send(POSITION);
        engine.send("go depth 5");
        search_end(&engine.until("bestmove", TIMEOUT))
    };
    let mut engine = Engine::start(&[]);
    engine.handshake();
    engine.send("setoption name UseBook value false");
    engine.send(&format!("setoption name EvalFile value {}", s(&path)));
    engine.send("isready");
    engine.until("readyok", TIMEOUT);
    let with_first = search(&mut engine);
    assert_ne!(with_first, with_second, "two nets, two searches");

    assert_ne!(first, second);
    std::fs::write(&path, second.to_bytes()).expect("temp file");
    // The file's time moves on even where the clock's resolution is coarse.
    let later = std::time::SystemTime::now() + Duration::from_secs(10);
    std::fs::File::options().write(true).open(&path).and_then(|f| f.set_modified(later)).expect("set mtime");
    engine.send("usinewgame");
    engine.send("isready");
    let lines = engine.until("readyok", TIMEOUT);
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
    assert_eq!(search(&mut engine), with_second, "the re-written net is the one searched with");
}

#[test]
fn evalfile_builtin_returns_to_the_built_in_evaluation() {
    let dir = temp_dir("nnue-back");
    let (path, _) = random_net(&dir, "nn.bin", 4);
    let (_, builtin) = session(&["isready".into()], POSITION, "go depth 5");
    let mut setup = set_evalfile(s(&path));
    setup.extend(set_evalfile("builtin"));
    let (_, back) = session(&setup, POSITION, "go depth 5");
    assert_eq!(back, builtin);
}

#[test]
fn evalfile_linear_selects_the_linear_evaluation_and_builtin_the_shipped_net() {
    let (_, builtin) = session(&["isready".into()], POSITION, "go depth 5");
    let (lines, linear) = session(&set_evalfile("linear"), POSITION, "go depth 5");
    assert!(error_lines(&lines).is_empty(), "{lines:#?}");
    assert_ne!(linear, builtin, "the shipped net searches another tree than the linear evaluation");
    let mut setup = set_evalfile("linear");
    setup.extend(set_evalfile("builtin"));
    let (_, back) = session(&setup, POSITION, "go depth 5");
    assert_eq!(back, builtin);
}

#[test]
fn bench_with_a_net_counts_the_same_nodes_every_run_and_others_than_the_builtin_eval() {
    let dir = temp_dir("nnue-bench");
    let (path, _) = random_net(&dir, "nn.bin", 5);
    let signature = |out: &str| out.lines().find(|l| l.starts_with("Bench: ")).map(str::to_string);
    let (code, a, err) = hisha_text(&["bench", "4", "--evalfile", s(&path)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(a.starts_with(&format!("Evaluation: {} (HalfKP(Friend) 32x2-32-32)", s(&path))), "{a}");
    let (_, b, _) = hisha_text(&["bench", "4", "--evalfile", s(&path)]);
    assert!(signature(&a).is_some());
    assert_eq!(signature(&a), signature(&b));
    let (_, builtin, _) = hisha_text(&["bench", "4"]);
    assert_ne!(signature(&a), signature(&builtin));
    let (code, linear, err) = hisha_text(&["bench", "4", "--evalfile", "linear"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(linear.starts_with("Evaluation: linear\n"), "{linear}");
    assert!(signature(&linear).is_some());
    assert_ne!(signature(&linear), signature(&builtin));
}

#[test]
fn bench_with_an_unreadable_net_fails_with_the_reason() {
    let dir = temp_dir("nnue-bench-missing");
    let missing = dir.join("missing.bin");
    let (code, out, err) = hisha_text(&["bench", "2", "--evalfile", s(&missing)]);
    assert_eq!(code, Some(1));
    assert!(out.is_empty(), "{out}");
    // The USI option's message: `EvalFile PATH: cannot read PATH: …`.
    assert!(
        err.starts_with("hisha: EvalFile ") && err.contains("cannot read ") && err.contains("missing.bin"),
        "{err}"
    );
}

#[test]
fn nnue_export_rewrites_a_net_that_reloads_to_the_same_evaluations() {
    let dir = temp_dir("nnue-export");
    let (input, net) = random_net(&dir, "in.bin", 6);
    let output = dir.join("out.bin");
    let (code, _, err) = hisha_text(&["nnue", "export", s(&input), s(&output)]);
    assert_eq!(code, Some(0), "{err}");
    let reloaded = Network::load_file(&output).expect("the exported net loads");
    assert_eq!(reloaded, net);
    for sfen in hisha::bench::POSITIONS {
        let pos = Position::from_sfen(sfen).expect("valid");
        assert_eq!(reloaded.evaluate_position(&pos), net.evaluate_position(&pos), "{sfen}");
    }
}

#[test]
fn nnue_export_refuses_a_broken_net_and_an_output_that_is_the_input() {
    let dir = temp_dir("nnue-export-refused");
    let (input, net) = random_net(&dir, "in.bin", 6);
    let (code, _, err) = hisha_text(&["nnue", "export", s(&input), s(&input)]);
    assert_eq!(code, Some(1));
    assert!(err.contains("the output is also an input"), "{err}");
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &net.to_bytes()[..1000]).expect("temp file");
    let output = dir.join("out.bin");
    let (code, _, err) = hisha_text(&["nnue", "export", s(&truncated), s(&output)]);
    assert_eq!(code, Some(1));
    assert!(err.contains("truncated.bin: truncated"), "{err}");
    assert!(!output.exists(), "nothing is written for a broken net");
}

#[test]
fn nnue_random_writes_the_seeded_random_net_of_the_standard_shape() {
    let dir = temp_dir("nnue-random");
    let output = dir.join("kp.bin");
    let (code, _, err) = hisha_text(&["nnue", "random", "--features", "kp", "--seed", "3", s(&output)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("K+P 256x2-32-32"), "{err}");
    let expected = Network::random(Architecture::KP_256X2_32_32, 3, Spread::Typical);
    assert_eq!(std::fs::read(&output).expect("written"), expected.to_bytes());
}
