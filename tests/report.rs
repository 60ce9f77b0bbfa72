//! `hisha match --report FILE.html`: the page parses as XHTML, lists every game with its result,
//! length and score graph, carries the same W/D/L as the records, is rewritten every
//! `--report-every` games, covers resumed and merged matches, renders without scores, and is
//! refused onto a file the match reads or writes.

mod support;

use hisha::position::Winner;
use hisha::record::{Format, GameRecord};
use roxmltree::{Document, Node};
use std::path::Path;
use std::time::{Duration, Instant};
use support::arena::{fake, fake_saying, fake_scoring, hisha_match, round};
use support::{games, hisha_command, s, temp_dir};

/// The page parsed as XML (it is XHTML, with the HTML5 `<!DOCTYPE html>`).
fn parse(text: &str) -> Document<'_> {
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..roxmltree::ParsingOptions::default() };
    Document::parse_with_options(text, options)
        .unwrap_or_else(|e| panic!("the page does not parse as XML: {e}\n{text}"))
}

/// The page's text, checked to parse.
fn page(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text);
    text
}

/// The text of each cell of each row of the table with `class`, header rows left out.
fn rows(doc: &Document, class: &str) -> Vec<Vec<String>> {
    let table = doc
        .descendants()
        .find(|n| n.has_tag_name("table") && n.attribute("class") == Some(class))
        .unwrap_or_else(|| panic!("no table {class}"));
    table
        .children()
        .filter(|r| r.has_tag_name("tr") && r.children().any(|c| c.has_tag_name("td")))
        .map(|r| r.children().filter(Node::is_element).map(cell_text).collect())
        .collect()
}

/// The text of a cell, leaving out the titles of SVG drawings (a cell's graph keeps its own text).
fn cell_text(n: Node) -> String {
    n.descendants()
        .filter(|d| d.is_text() && !d.ancestors().any(|a| a.has_tag_name("title")))
        .filter_map(|d| d.text())
        .collect()
}

/// The rows of the games table, each with the number of SVG drawings in it.
fn game_rows(doc: &Document) -> Vec<(Vec<String>, usize)> {
    let table = doc.descendants().find(|n| n.has_tag_name("table") && n.attribute("class") == Some("graph"));
    let table = table.expect("a games table");
    table
        .children()
        .filter(|r| r.has_tag_name("tr") && r.children().any(|c| c.has_tag_name("td")))
        .map(|r| {
            let cells = r.children().filter(Node::is_element).map(|c| c.text().unwrap_or("").to_string()).collect();
            (cells, r.descendants().filter(|d| d.has_tag_name("svg")).count())
        })
        .collect()
}

/// `1-0`, `0-1`, `½-½` or `*` for a record's result.
fn result_text(r: &GameRecord) -> &'static str {
    match r.result.map(|x| x.winner) {
        Some(Winner::Black) => "1-0",
        Some(Winner::White) => "0-1",
        Some(Winner::Draw) => "½-½",
        _ => "*",
    }
}

/// Checks that the games table lists `recs` (in game order), each with its graph.
fn lists_the_records(doc: &Document, recs: &[GameRecord]) {
    let listed = game_rows(doc);
    assert_eq!(listed.len(), recs.len(), "one row per game");
    let mut recs: Vec<&GameRecord> = recs.iter().collect();
    recs.sort_by_key(|r| round(r));
    for ((cells, svgs), r) in listed.iter().zip(recs) {
        let expected =
            [round(r).to_string(), r.tag("Black").expect("Black").into(), r.tag("White").expect("White").into()];
        assert_eq!(cells[..3], expected, "{cells:?}");
        assert_eq!(cells[3], result_text(r), "{cells:?}");
        assert_eq!(cells[5], r.moves.len().to_string(), "plies of game {}: {cells:?}", round(r));
        assert_eq!(*svgs, 1, "a graph in the row of game {}", round(r));
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_match_report_lists_every_game_with_its_graph_and_the_records_results() {
    // hisha (nodes=2000) against the fake engine, which plays its first legal move: hisha wins.
    let dir = temp_dir("report-page");
    let (out, report) = (dir.join("g.psn"), dir.join("report.html"));
    let mut args = fake("fake", "good", "any", 0.0, "nodes=1");
    args.extend(strings(&["--tc", "nodes=2000", "--games", "4", "--concurrency", "2", "--max-plies", "400"]));
    args.extend(strings(&["--out", s(&out), "--report", s(&report), "--sprt", "elo0=0 elo1=5"]));
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains(&format!("Report page in {}", s(&report))));
    let recs = games(&out, Format::Psn);
    let text = page(&report);
    let doc = parse(&text);
    lists_the_records(&doc, &recs);
    // W/D/L per engine, counted from the records.
    for name in ["hisha", "fake"] {
        let won = |r: &&GameRecord| match r.result.map(|x| x.winner) {
            Some(Winner::Black) => r.tag("Black") == Some(name),
            Some(Winner::White) => r.tag("White") == Some(name),
            _ => false,
        };
        let wins = recs.iter().filter(won).count();
        let draws = recs.iter().filter(|r| r.result.map(|x| x.winner) == Some(Winner::Draw)).count();
        let row = rows(&doc, "results").into_iter().find(|r| r[0] == name).expect("a row per engine");
        assert_eq!(row[1..5], [4, wins, 4 - wins - draws, draws].map(|n| n.to_string()), "{name}: {row:?}");
    }
    assert!(text.contains("Elo of fake"), "the first engine's Elo is plotted");
    assert_eq!(text.matches("<svg").count(), 5, "the Elo plot and one graph per game");
    assert!(text.contains("<polyline"), "hisha reports scores, so the graphs have lines");
    assert!(text.contains("match finished: 4 games in this run"), "{text}");
    // Two pairs lost by the fake engine: LLR -0.04 (fishtest's LLR_normalized of [2, 0, 0, 0, 0]
    // at [0, 5]), undecided, as the text block says; the page names the model, the bounds, the
    // pentanomial counts and each engine's time control.
    let stats = rows(&doc, "stats");
    let row = |name: &str| stats.iter().find(|r| r[0] == name).unwrap_or_else(|| panic!("a {name} row: {stats:?}"));
    let sprt = row("SPRT (normalized Elo [0, 5], alpha 0.05, beta 0.05)");
    assert_eq!(sprt[1], "LLR -0.04 in [-2.94, +2.94]: undecided");
    assert_eq!(row("Pentanomial [0, ½, 1, 1½, 2]")[1], "[2, 0, 0, 0, 0] (2 pairs)");
    assert_eq!(row("Time control")[1], "fake nodes=1, hisha nodes=2000");
    assert!(row("Elo of fake [95 % interval]")[1].starts_with("-inf [-"), "{stats:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("LLR -0.04 in [-2.94, +2.94]: undecided"), "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Two fake engines answering each move after its fourth `late` seconds late (untimed, so
/// never lost on time), with the `--engine` words of each.
fn slow_fakes(late: f64) -> Vec<String> {
    let mut args = fake("a", "late", "any", late, "nodes=1");
    args.extend(fake("b", "late", "any", late, "nodes=1"));
    args
}

#[test]
fn report_every_rewrites_the_page_while_the_match_runs() {
    let dir = temp_dir("report-every");
    let (out, report) = (dir.join("g.psn"), dir.join("live.html"));
    let mut args = slow_fakes(0.3);
    let rest =
        ["--games", "4", "--concurrency", "1", "--max-plies", "16", "--opening-plies", "0", "--report-every", "2"];
    args.extend(strings(&rest));
    args.extend(strings(&["--out", s(&out), "--report", s(&report), "--quiet"]));
    let mut child = hisha_command()
        .arg("match")
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("hisha runs");
    // The page appears after game 2; games 3 and 4 take seconds more (late answers).
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut first = None;
    while first.is_none() && Instant::now() < deadline {
        if report.exists() {
            first = Some(page(&report));
        } else if child.try_wait().expect("wait").is_some() {
            break;
        } else {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let status = child.wait().expect("the match ends");
    assert!(status.success());
    let first = first.expect("a page was written during the match");
    assert!(first.contains("match in progress: 2 of the 4 games of this run finished"), "{first}");
    assert!(first.contains("<meta http-equiv=\"refresh\""), "a page in progress reloads itself: {first}");
    assert_eq!(game_rows(&parse(&first)).len(), 2, "{first}");
    let last = page(&report);
    assert!(!last.contains("http-equiv=\"refresh\""), "the final page stays: {last}");
    lists_the_records(&parse(&last), &games(&out, Format::Psn));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_page_that_cannot_be_written_at_the_end_fails_the_match_with_its_records_complete() {
    let dir = temp_dir("report-gone");
    let (out, folder) = (dir.join("g.psn"), dir.join("pages"));
    std::fs::create_dir(&folder).expect("mkdir");
    let report = folder.join("r.html");
    let mut args = slow_fakes(0.3);
    args.extend(strings(&["--games", "2", "--concurrency", "1", "--max-plies", "16", "--opening-plies", "0"]));
    args.extend(strings(&["--out", s(&out), "--report", s(&report), "--quiet"]));
    let mut command = hisha_command();
    command.arg("match").args(&args).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let child = command.spawn().expect("hisha runs");
    // Once the state file exists the checks are passed; the games then take seconds (late answers).
    let state = dir.join("g.psn.state");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !state.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::remove_dir_all(&folder).expect("the page's folder removed");
    let run = child.wait_with_output().expect("the match ends");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "a file that cannot be written: {stderr}");
    assert!(stderr.contains(&format!("hisha match: {}: ", s(&report))), "{stderr}");
    assert_eq!(games(&out, Format::Psn).len(), 2, "the records are complete");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_report_onto_a_file_the_match_reads_or_writes_or_into_no_folder_is_refused() {
    let dir = temp_dir("report-refused");
    let (out, openings) = (dir.join("g.psn"), dir.join("openings.txt"));
    std::fs::write(&openings, "startpos\n").expect("write");
    let engines = slow_fakes(0.0);
    for (report, what) in [(&out, "the record output"), (&openings, "the openings file")] {
        let mut args = engines.clone();
        args.extend(strings(&["--out", s(&out), "--openings", s(&openings), "--report", s(report)]));
        let run = hisha_match(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("--report {}: that is {what}", s(report))), "{stderr}");
        assert!(stderr.contains("write the page to another file"), "{stderr}");
        assert!(!out.exists(), "nothing played");
        assert_eq!(std::fs::read_to_string(&openings).ok().as_deref(), Some("startpos\n"), "the input is intact");
    }
    // A page that could not be written at the end is refused before the match, too.
    for (report, why) in [(dir.join("none").join("r.html"), "there is no folder"), (dir.clone(), "is a folder")] {
        let mut args = engines.clone();
        args.extend(strings(&["--out", s(&out), "--report", s(&report)]));
        let run = hisha_match(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("--report {}: {why}", s(&report))), "{stderr}");
        assert!(!out.exists(), "nothing played");
    }
    let state = dir.join("g.psn.state");
    std::fs::write(&state, "# hisha match state v1\n").expect("write");
    let run = hisha_match(&strings(&["--merge", s(&state), "--report", s(&state)]));
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("that is a state file to merge"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_report_renders_when_the_engines_sent_no_scores_and_escapes_their_names() {
    let dir = temp_dir("report-no-scores");
    let (out, report) = (dir.join("g.psn"), dir.join("r.html"));
    let mut args = fake_saying("<a> & b", "good", "any", 0.0, "nodes=1", "none");
    args.extend(fake_saying("c", "good", "any", 0.0, "nodes=1", "none"));
    args.extend(strings(&["--games", "2", "--max-plies", "12", "--opening-plies", "0"]));
    args.extend(strings(&["--out", s(&out), "--report", s(&report)]));
    let run = hisha_match(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = page(&report);
    let doc = parse(&text);
    lists_the_records(&doc, &games(&out, Format::Psn));
    assert_eq!(text.matches("no scores").count(), 2, "each game's graph says so");
    let table = doc.descendants().find(|n| n.attribute("class") == Some("graph")).expect("games table");
    assert_eq!(table.descendants().filter(|n| n.has_tag_name("polyline")).count(), 0, "no score line is drawn");
    let names: Vec<String> = rows(&doc, "results").into_iter().map(|r| r[0].clone()).collect();
    assert_eq!(names, ["<a> & b", "c"], "the name as given, escaped in the page");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resumed_and_merged_matches_report_every_game_and_say_which_have_times() {
    let dir = temp_dir("report-resume");
    let (out, report, merged) = (dir.join("g.psn"), dir.join("r.html"), dir.join("merged.html"));
    let mut args = fake_scoring("a", "good", "any", 0.0, "nodes=1", 150);
    args.extend(fake_scoring("b", "good", "any", 0.0, "nodes=1", -40));
    args.extend(strings(&["--max-plies", "12", "--opening-plies", "0", "--out", s(&out), "--report", s(&report)]));
    let first = hisha_match(&[&args[..], &strings(&["--games", "2"])].concat());
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let resumed = hisha_match(&[&args[..], &strings(&["--games", "4", "--resume"])].concat());
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let recs = games(&out, Format::Psn);
    assert_eq!(recs.len(), 4);
    let text = page(&report);
    lists_the_records(&parse(&text), &recs);
    assert!(text.contains("From the 2 games played in this run; the other 2 games are left out"), "{text}");
    let state = dir.join("g.psn.state");
    let merge = hisha_match(&strings(&["--merge", s(&state), "--report", s(&merged)]));
    assert!(merge.status.success(), "{}", String::from_utf8_lossy(&merge.stderr));
    let text = page(&merged);
    lists_the_records(&parse(&text), &recs);
    assert!(text.contains("read from 1 state file;"), "{text}");
    assert!(text.contains("No timed moves."), "merged records keep whole seconds only: {text}");
    assert!(text.matches("<polyline").count() >= 4, "each game's scores (and the Elo line unless a sweep)");
    // Without the records, the page still lists the games (without details) and says why.
    std::fs::remove_file(&out).expect("remove");
    let merge = hisha_match(&strings(&["--merge", s(&state), "--report", s(&merged)]));
    assert!(merge.status.success(), "{}", String::from_utf8_lossy(&merge.stderr));
    let text = page(&merged);
    let rows = game_rows(&parse(&text));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|(cells, svgs)| cells[5] == "?" && *svgs == 0), "{rows:?}");
    assert!(text.contains("listed without their records"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}
