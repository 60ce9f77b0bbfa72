//! `hisha analyze` as a user runs it: the bishop blunder of `7g7f 3c3d 7i7h 2b8h+` found, the
//! JSON lines (one per position, the issue's fields), annotated KIF and CSA read back by hisha (and
//! by cshogi when it is installed), the SVG graph parsed as XML, outputs that are inputs refused,
//! `--plies`, results independent of `--concurrency`, and the exit statuses. Node counts are small
//! (the searches are the cost of these tests).

mod outside;
mod support;
mod analyze {
    // `--svg` read as a shogi player reads it.
    mod svg;
}

use hisha::record::{Format, GameRecord, RecordWriter, Start, notation};
use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{after, games, hisha_text, line, s, temp_dir};

/// The game of the issue: Black's silver leaves 7i, the bishop on 8h is undefended, and White's
/// bishop takes it and promotes.
const BLUNDER: [&str; 4] = ["7g7f", "3c3d", "7i7h", "2b8h+"];

/// Nodes per position: enough for hisha to see a bishop hang (one ply), small enough for CI.
const NODES: &str = "nodes=20000";

/// Writes `rec` as `format` to `dir/NAME`.
fn write_record(dir: &Path, name: &str, rec: &GameRecord, format: Format) -> PathBuf {
    let path = dir.join(name);
    let mut w = RecordWriter::new(Vec::new(), format, true);
    w.write(rec).expect("written to memory");
    std::fs::write(&path, w.into_inner()).expect("record written");
    path
}

/// The JSON lines of a file, each parsed.
fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("JSON written");
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// Runs `hisha analyze ARGS…`, expecting exit status `code`; its stdout.
fn analyze(args: &[&str], code: i32) -> String {
    let mut all = vec!["analyze", "--tc", NODES, "--quiet"];
    all.extend_from_slice(args);
    let (status, out, err) = hisha_text(&all);
    assert_eq!(status, Some(code), "hisha {all:?}\nstdout: {out}\nstderr: {err}");
    out
}

/// The blunder game as a USI-lines file in a fresh folder, and JSON lines of its analysis.
fn blunder_analysis(name: &str, extra: &[&str]) -> (PathBuf, Vec<Value>) {
    let dir = temp_dir(name);
    let input = write_record(&dir, "game.usi", &line(&BLUNDER), Format::Usi);
    let json = dir.join("analysis.json");
    let mut args = vec![s(&input), "--json", s(&json)];
    args.extend_from_slice(extra);
    analyze(&args, 0);
    (dir, json_lines(&json))
}

#[test]
fn analyze_marks_the_undefended_bishop_move_a_blunder_with_the_largest_loss() {
    let (_, lines) = blunder_analysis("blunder", &["--concurrency", "2"]);
    let at = |ply: u64| lines.iter().find(|l| l["ply"] == ply).unwrap_or_else(|| panic!("ply {ply}: {lines:?}"));
    let blunder = at(3);
    assert_eq!(blunder["move"], "7i7h");
    assert_eq!(blunder["mark"], "blunder", "{blunder}");
    assert_ne!(blunder["best"], "7i7h", "the engine prefers another move: {blunder}");
    let loss = |l: &Value| l["loss"].as_i64();
    let largest = loss(blunder).expect("the blunder has a loss");
    for l in lines.iter().filter(|l| l["ply"] != 3) {
        assert!(loss(l).is_none_or(|other| other < largest), "7i7h's loss {largest} is the largest: {l}");
    }
    // White's capture is what the engine plays too: no loss.
    assert_eq!(at(4)["best"], "2b8h+");
    assert_eq!(loss(at(4)), Some(0));
}

#[test]
fn analyze_json_has_one_object_per_position_with_the_issues_fields() {
    let (_, lines) = blunder_analysis("json", &[]);
    assert_eq!(lines.len(), BLUNDER.len() + 1, "every position, the last one included: {lines:?}");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["game"], 1);
        assert_eq!(l["ply"], i as u64 + 1);
        assert_eq!(l["sfen"], after(&BLUNDER[..i]).to_sfen(), "{l}");
        match BLUNDER.get(i) {
            Some(m) => assert_eq!(l["move"], *m),
            None => assert!(l.get("move").is_none(), "no move after the last: {l}"),
        }
        let pv: Vec<&str> = l["pv"].as_array().expect("pv list").iter().filter_map(Value::as_str).collect();
        assert_eq!(Some(&pv[0]), l["best"].as_str().as_ref(), "the PV starts with the best move: {l}");
        assert!(l["score"].is_i64() != l["mate"].is_i64(), "a score or a mate: {l}");
        assert!(l.get("loss").is_some() && l.get("mark").is_some(), "{l}");
        assert_eq!(l["loss"].is_null(), i == BLUNDER.len(), "a loss for every move played: {l}");
    }
    // Black's view: after White wins the bishop, Black is behind.
    assert!(lines[4]["score"].as_i64().is_some_and(|v| v < -500), "{}", lines[4]);
}

#[test]
fn analyze_results_do_not_depend_on_concurrency() {
    let (_, one) = blunder_analysis("one-process", &["--concurrency", "1"]);
    let (_, two) = blunder_analysis("two-processes", &["--concurrency", "2"]);
    assert_eq!(one, two, "every position is searched from a fresh hash at a fixed node count");
}

#[test]
fn analyze_plies_limits_the_moves_judged() {
    let (_, lines) = blunder_analysis("plies", &["--plies", "3-3"]);
    let plies: Vec<u64> = lines.iter().filter_map(|l| l["ply"].as_u64()).collect();
    assert_eq!(plies, [3, 4], "ply 3's position, and the one after it for its loss");
    assert_eq!(lines[0]["mark"], "blunder");
}

/// The moves of the main line, in USI.
fn moves_of(rec: &GameRecord) -> Vec<String> {
    rec.moves.iter().map(|m| m.mv.to_string()).collect()
}

#[test]
fn annotated_kif_ki2_and_csa_read_back_with_the_same_moves_and_the_engine_scores() {
    let dir = temp_dir("annotated");
    let input = write_record(&dir, "game.psn", &line(&BLUNDER), Format::Psn);
    let mut scores_read = Vec::new();
    for format in [Format::Kif, Format::Csa, Format::Ki2u] {
        let out = dir.join(format!("annotated.{}", format.extension()));
        analyze(&[s(&input), "-o", s(&out)], 0);
        let back = games(&out, format);
        scores_read.push(back[0].moves.iter().map(|m| m.engine.score).collect::<Vec<_>>());
        if format != Format::Csa {
            // ShogiGUI's analysis lines (what kifu viewers graph), one per move, not its game lines.
            let text = std::fs::read(&out).expect("annotated record");
            let text = hisha::record::decode_text(&text);
            assert_eq!(text.matches("\n**解析 0 候補1 ").count(), BLUNDER.len(), "{text}");
            assert!(!text.contains("**対局"), "{text}");
            assert!(back[0].moves.iter().all(|m| m.engine.analysis), "read back as analysis");
        }
        assert_eq!(back.len(), 1);
        assert_eq!(moves_of(&back[0]), BLUNDER, "{format}");
        assert_eq!(back[0].start, Start::default());
        for m in &back[0].moves {
            assert!(m.engine.score.is_some(), "{format}: every move carries the score after it: {m:?}");
            assert!(m.comments.iter().any(|c| c.starts_with("analyze:")), "{format}: {m:?}");
        }
        let third = &back[0].moves[2];
        assert!(third.comments.iter().any(|c| c.contains("blunder")), "{format}: {third:?}");
        // cshogi reads KIF and CSA, not KI2.
        if format != Format::Ki2u && outside::cshogi() {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/cshogi_records.py");
            let run = std::process::Command::new("python3").args([script, "read", s(&out)]).output();
            let run = run.expect("python3 runs");
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            let text = String::from_utf8_lossy(&run.stdout);
            let game: Value = serde_json::from_str(text.lines().next().unwrap_or("")).expect("one JSON line");
            assert_eq!(game["moves"], serde_json::json!(BLUNDER), "cshogi reads {format} with the same moves");
        }
    }
    // KIF and KI2 keep Black's view and CSA a sign convention of its own: read back, all give the
    // mover's score after each move.
    assert_eq!(scores_read[0], scores_read[1], "the same scores from KIF and CSA");
    assert_eq!(scores_read[0], scores_read[2], "the same scores from KIF and KI2");
}

#[test]
fn analyze_summary_names_the_largest_swing_in_the_records_notation() {
    let dir = temp_dir("summary");
    let input = write_record(&dir, "game.psn", &line(&BLUNDER), Format::Psn);
    let out = analyze(&[s(&input)], 0);
    let before = after(&BLUNDER[..2]);
    let written = notation::write(&before, before.parse_usi_move("7i7h").expect("legal"));
    let black = out.lines().find(|l| l.trim_start().starts_with("Black")).unwrap_or_else(|| panic!("{out}"));
    assert!(black.contains("1 blunder"), "{black}");
    assert!(black.contains(&format!("largest: ply 3 {written} (")), "PSN notation {written:?}: {black}");
    assert!(black.contains("2 moves, average loss"), "{black}");
    // The same game from a CSA record: 7i7h is Black's silver from 79 to 78, `+7978GI` in CSA
    // notation (kif-csa.md §2: sign, from, to, the piece after the move).
    let csa = write_record(&dir, "game.csa", &line(&BLUNDER), Format::Csa);
    let out = analyze(&[s(&csa)], 0);
    let black = out.lines().find(|l| l.trim_start().starts_with("Black")).unwrap_or_else(|| panic!("{out}"));
    assert!(black.contains("largest: ply 3 +7978GI ("), "CSA notation: {black}");
}

#[test]
fn analyze_svg_parses_as_xml_with_a_dot_per_marked_move() {
    let dir = temp_dir("svg");
    let input = write_record(&dir, "game.usi", &line(&BLUNDER), Format::Usi);
    let (svg, json) = (dir.join("graph.svg"), dir.join("a.json"));
    analyze(&[s(&input), "--svg", s(&svg), "--json", s(&json)], 0);
    let text = std::fs::read_to_string(&svg).expect("SVG written");
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let marked = json_lines(&json).iter().filter(|l| !l["mark"].is_null()).count();
    let marks = doc.descendants().find(|n| n.attribute("class") == Some("marks")).expect("the marks' group");
    let dots = marks.children().filter(|n| n.has_tag_name("circle")).count();
    assert!(marked >= 1);
    assert_eq!(dots, marked, "one dot per marked move");
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("polyline")).count(), 1, "one score line");
    // One file per game in a folder.
    let folder = dir.join("graphs/");
    analyze(&[s(&input), s(&input), "--svg", s(&folder)], 0);
    for n in [1, 2] {
        assert!(folder.join(format!("game-000{n}.svg")).is_file(), "game {n}");
    }
}

#[test]
fn analyze_refuses_an_output_that_is_also_an_input() {
    let dir = temp_dir("refuse");
    let input = write_record(&dir, "game.kif", &line(&BLUNDER), Format::Kif);
    let before = std::fs::read(&input).expect("input");
    for flag in ["-o", "--json", "--svg"] {
        let (status, _, err) = hisha_text(&["analyze", s(&input), flag, s(&input)]);
        assert_eq!(status, Some(2), "{flag}: {err}");
        assert!(err.contains("the output is also an input"), "{flag}: {err}");
        assert_eq!(std::fs::read(&input).expect("input"), before, "{flag}: the input is left as it was");
    }
}

#[test]
fn analyze_exits_1_when_an_input_is_unreadable_or_the_engine_fails() {
    let dir = temp_dir("failures");
    let input = write_record(&dir, "game.usi", &line(&BLUNDER[..1]), Format::Usi);
    let missing = dir.join("missing.kif");
    let out = analyze(&[s(&input), s(&missing)], 1);
    assert!(out.contains("game 1:"), "the readable game is still analysed: {out}");
    let (status, _, err) = hisha_text(&["analyze", s(&input), "--engine", "name=none", "cmd=/nonexistent/engine"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("cannot start"), "{err}");
}

#[test]
fn analyze_with_no_game_in_its_inputs_exits_1_and_writes_nothing() {
    let dir = temp_dir("no-games");
    let json = dir.join("a.json");
    let empty = dir.join("empty.kif");
    std::fs::write(&empty, "").expect("write");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [0u8, 159, 146, 150, 1, 2, 3]).expect("write");
    for input in [&empty, &junk] {
        let (status, out, err) = hisha_text(&["analyze", s(input), "--json", s(&json), "--quiet"]);
        assert_eq!(status, Some(1), "{out}\n{err}");
        assert!(err.contains("no game to analyse in the inputs (nothing written)"), "{err}");
        assert!(!json.exists(), "no empty JSON is written");
    }
}

#[test]
fn analyze_refuses_an_output_it_cannot_write_before_any_search() {
    let dir = temp_dir("unwritable");
    let input = write_record(&dir, "game.usi", &line(&BLUNDER[..1]), Format::Usi);
    let nowhere = dir.join("missing-folder").join("out");
    // An engine that cannot start: had the search come first, its failures would be reported.
    let engine = ["--engine", "name=none", "cmd=/nonexistent/engine"];
    for flag in ["-o", "--json", "--svg"] {
        let mut args = vec!["analyze", s(&input), flag, s(&nowhere)];
        args.extend(engine);
        let (status, _, err) = hisha_text(&args);
        assert_eq!(status, Some(2), "{flag}: {err}");
        assert!(err.contains("missing-folder") && !err.contains("cannot start"), "{flag}: {err}");
    }
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "nothing left beside the input");
}

#[test]
fn analyze_says_which_games_stop_without_an_ending() {
    let dir = temp_dir("no-ending");
    // `#KIF version=2.0 …`, 手合割, the column header and two moves: the last line is line 5.
    let input = write_record(&dir, "game.kifu", &line(&BLUNDER[..2]), Format::Kifu);
    let (status, out, err) = hisha_text(&["analyze", s(&input), "--tc", NODES, "--quiet"]);
    assert_eq!(status, Some(0), "a warning is no failure: {err}");
    assert!(out.contains("no result"), "{out}");
    assert!(err.contains("game.kifu: game 1: line 5: the game stops without an ending"), "{err}");
}

#[test]
fn analyze_reports_the_positions_an_engine_crashed_on_and_exits_1() {
    let dir = temp_dir("crash");
    let input = write_record(&dir, "game.usi", &line(&BLUNDER[..2]), Format::Usi);
    let json = dir.join("a.json");
    let engine = format!("cmd={}", support::arena::fake_engine());
    // The fake engine exits as soon as it is asked to move (after 0 moves of its game).
    let args = ["analyze", s(&input), "--json", s(&json), "--engine", "name=crasher", &engine, "arg=crash", "arg=0"];
    let (status, out, err) = hisha_text(&args);
    assert_eq!(status, Some(1), "{out}\n{err}");
    assert!(out.contains("3 positions not analysed"), "{out}");
    assert_eq!(err.matches("the engine exited").count(), 3, "each position reported: {err}");
    assert_eq!(json_lines(&json).len(), 0, "failed positions are left out of the JSON");
}

#[test]
fn analyze_multipv_adds_the_further_lines_as_alternatives() {
    let (_, lines) = blunder_analysis("multipv", &["--plies", "3-3", "--multipv", "3"]);
    let first = &lines[0];
    let alternatives = first["alternatives"].as_array().unwrap_or_else(|| panic!("{first}"));
    // Up to two: a search stopped inside an iteration can report as its new first line a move
    // that was line 2 or 3 before, which is then listed once.
    assert!((1..=2).contains(&alternatives.len()), "{first}");
    let pos = after(&BLUNDER[..2]);
    let mut moves: Vec<&str> = alternatives.iter().filter_map(|a| a["best"].as_str()).collect();
    moves.push(first["best"].as_str().expect("best"));
    for m in &moves {
        assert!(pos.parse_usi_move(m).is_ok(), "{m} is legal");
    }
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), alternatives.len() + 1, "every move listed once: {first}");
}

#[test]
fn analyze_counts_the_moves_it_could_not_judge() {
    // The fake engine (examples/fake_engine.rs, SCORE `none`) gives no score: no move can be
    // judged, and the summary and the JSON say so instead of judging none in silence.
    let dir = temp_dir("not-judged");
    let input = write_record(&dir, "game.usi", &line(&BLUNDER), Format::Usi);
    let json = dir.join("a.json");
    let engine = format!("cmd={}", support::arena::fake_engine());
    let mute = ["--engine", "name=mute", &engine, "arg=good", "arg=4", "arg=any", "arg=0", "arg=none"];
    let mut args = vec![s(&input), "--json", s(&json)];
    args.extend_from_slice(&mute);
    let out = analyze(&args, 0);
    for side in ["Black", "White"] {
        let summary = out.lines().find(|l| l.trim_start().starts_with(side)).unwrap_or_else(|| panic!("{out}"));
        assert!(summary.contains(": 0 moves (2 not judged: no score), average loss 0"), "{summary}");
    }
    let lines = json_lines(&json);
    assert_eq!(lines.len(), BLUNDER.len() + 1);
    for (i, l) in lines.iter().enumerate() {
        let expected = if i < BLUNDER.len() { serde_json::json!("no_score") } else { Value::Null };
        assert_eq!(l.get("not_judged").cloned().unwrap_or(Value::Null), expected, "{l}");
    }
}

#[test]
fn analyze_at_100_nodes_judges_every_move() {
    // A game hisha played against itself at 3000 nodes a move. At 100 nodes a search used to end
    // inside its first iteration without an info line in most middle-game positions: 23 of its
    // 52 moves were judged, and nothing said so.
    let moves = "6i7h 3c3d 7g7f 4a3b 5i6i 5a4a 2g2f 7c7d 2f2e 8a7c 3i4h 2b8h+ 7i8h B*3c 8h7g 8c8d 3g3f \
                 3a4b 6i7i 8d8e 2i3g 7a6b 4h5i 7c6e 3g4e 3c5e 4g4f 6e7g+ 8i7g 5e4f 4i3h 8e8f 8g8f 4f2h+ \
                 3h2h R*3i B*3g 8b8f P*8g 8f7f B*8c 6a5b 8c6a+ 7f3f 4e5c+ 6b5c 7g6e 3f3g+ 6e5c 5b5c 2h3g \
                 3i5i+";
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let dir = temp_dir("nodes-100");
    let input = write_record(&dir, "game.usi", &line(&moves), Format::Usi);
    let json = dir.join("a.json");
    let (status, out, err) = hisha_text(&["analyze", "--tc", "nodes=100", "--quiet", s(&input), "--json", s(&json)]);
    assert_eq!(status, Some(0), "{out}\n{err}");
    assert!(out.contains("Black (?): 26 moves, ") && out.contains("White (?): 26 moves, "), "{out}");
    let judged = json_lines(&json).iter().filter(|l| l["loss"].is_i64()).count();
    assert_eq!(judged, moves.len(), "{out}");
}
