//! `hisha analyze --svg` read as a shogi player reads it, checked on the SVG's structure (parsed
//! with roxmltree): the x axis spans exactly the `--plies` asked for and is labelled with ply
//! numbers, the legend names the colour of every mark that occurs, and the tooltips name the moves
//! in the summary's notation (KIF's for a KIF record). The games: the random-move sample game of
//! `tests/data` (many marks of every kind) and the bishop blunder of `tests/analyze.rs`.

use crate::support::records::written;
use crate::support::{hisha_text, line, s, temp_dir};
use hisha::Position;
use hisha::analyze::{THRESHOLDS, move_text};
use hisha::record::{Format, GameRecord, read_games};
use roxmltree::{Document, Node};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Nodes per position (as in `tests/analyze.rs`: enough to see a piece hang, cheap for CI).
const NODES: &str = "nodes=20000";

/// The sample game's 102 readable plies of random moves (its ply 103 leaves the king in check),
/// as a KIF file in `dir`.
fn sample_kif(dir: &Path) -> (GameRecord, std::path::PathBuf) {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/davis_sample.psn");
    let rec = match read_games(&std::fs::read(sample).expect("the sample"), Format::Psn).remove(0) {
        Ok(rec) => rec,
        Err(e) => *e.partial.clone().unwrap_or_else(|| panic!("{e}: no readable start")),
    };
    assert_eq!(rec.moves.len(), 102, "the sample's readable plies");
    let path = dir.join("sample.kif");
    std::fs::write(&path, written([&rec], Format::Kif)).expect("KIF written");
    (rec, path)
}

/// Runs `hisha analyze INPUT --svg --json ARGS…` in `dir`: the SVG's text, the JSON lines and
/// the summary.
fn analyse(dir: &Path, input: &Path, args: &[&str]) -> (String, Vec<Value>, String) {
    let (svg, json) = (dir.join("graph.svg"), dir.join("analysis.json"));
    let mut all = vec!["analyze", s(input), "--tc", NODES, "--quiet", "--svg", s(&svg), "--json", s(&json)];
    all.extend_from_slice(args);
    let (status, out, err) = hisha_text(&all);
    assert_eq!(status, Some(0), "hisha {all:?}\nstdout: {out}\nstderr: {err}");
    let lines = std::fs::read_to_string(&json).expect("JSON written");
    let lines = lines.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    (std::fs::read_to_string(&svg).expect("SVG written"), lines, out)
}

/// The group `<g class="CLASS">` of the graph.
fn group<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Node<'a, 'i> {
    doc.descendants()
        .find(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
        .unwrap_or_else(|| panic!("no <g class={class:?}> in the graph"))
}

/// A number attribute of `node`.
fn number(node: Node, name: &str) -> f64 {
    node.attribute(name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{name} of {node:?}"))
}

/// The text of `node`'s `<title>` child (its tooltip).
fn tooltip(node: Node) -> String {
    node.children().find(|c| c.has_tag_name("title")).and_then(|t| t.text()).unwrap_or("").to_string()
}

/// The marked moves of the JSON lines: (ply, mark).
fn marked(lines: &[Value]) -> Vec<(usize, String)> {
    lines.iter().filter_map(|l| Some((l["ply"].as_u64()? as usize, l["mark"].as_str()?.to_string()))).collect()
}

#[test]
fn analyze_svg_x_axis_spans_the_requested_plies_labelled_with_ply_numbers() {
    let dir = temp_dir("svg-plies");
    let (rec, input) = sample_kif(&dir);
    let (a, b) = (10usize, 25usize);
    assert!(rec.moves.len() > b + 20, "the game goes on after the range");
    let (text, _, _) = analyse(&dir, &input, &["--plies", &format!("{a}-{b}")]);
    let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let frame = group(&doc, "frame").children().find(|n| n.has_tag_name("rect")).expect("the frame");
    let (left, right) = (number(frame, "x"), number(frame, "x") + number(frame, "width"));
    // The x axis's labels are ply numbers, centred on their ticks.
    let labels: Vec<(f64, f64)> = group(&doc, "x-axis")
        .children()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| Some((n.text()?.parse::<f64>().ok()?, number(n, "x"))))
        .collect();
    assert!(labels.len() >= 4, "ply numbers on the x axis: {labels:?}");
    // The drawn span is the moves of plies A to B: from the position before ply A (A − 1 plies
    // played) to the one after ply B.
    let (lo, hi) = ((a - 1) as f64, b as f64);
    assert!(labels.iter().all(|&(ply, _)| (lo..=hi).contains(&ply)), "{labels:?}");
    let steps: BTreeSet<u64> = labels.windows(2).map(|w| (w[1].0 - w[0].0) as u64).collect();
    assert!(labels.first().is_some_and(|&(p, _)| p - lo < 5.0) && hi - labels[labels.len() - 1].0 < 5.0, "{labels:?}");
    assert!(steps.len() <= 2, "even steps (the last label may be the last ply): {labels:?}");
    // Where the labels put ply A − 1 and ply B: at the frame's edges.
    let (&(p0, x0), &(p1, x1)) = (labels.first().expect("a label"), labels.last().expect("a label"));
    let pixel = |ply: f64| x0 + (x1 - x0) * (ply - p0) / (p1 - p0);
    assert!((pixel(lo) - left).abs() < 1.0 && (pixel(hi) - right).abs() < 1.0, "{labels:?} in {left}..{right}");
    // The evaluation line runs from edge to edge, a point per position analysed.
    let line = doc.descendants().find(|n| n.has_tag_name("polyline")).expect("the evaluation line");
    let xs: Vec<f64> = line
        .attribute("points")
        .expect("points")
        .split_whitespace()
        .map(|p| p.split(',').next().and_then(|x| x.parse().ok()).expect("x,y"))
        .collect();
    assert_eq!(xs.len(), b - a + 2, "positions {lo} to {hi}");
    assert!((xs[0] - left).abs() < 0.1 && (xs[xs.len() - 1] - right).abs() < 0.1, "{xs:?} in {left}..{right}");
    // Pointing at a position names the ply that led to it.
    let plies: Vec<usize> = group(&doc, "positions")
        .children()
        .filter(|n| n.has_tag_name("rect"))
        .map(|n| {
            let tip = tooltip(n);
            tip.strip_prefix("ply ").and_then(|t| t.split(' ').next()?.parse().ok()).unwrap_or_else(|| panic!("{tip}"))
        })
        .collect();
    assert_eq!(plies, (a - 1..=b).collect::<Vec<_>>());
}

#[test]
fn analyze_svg_legend_names_the_colour_of_every_mark_that_occurs() {
    let dir = temp_dir("svg-legend");
    let (_, input) = sample_kif(&dir);
    // The whole game: its first 60 plies have inaccuracies and blunders only, at 20,000 nodes
    // with the search of 2026-12-06 (mistakes at plies 85, 95, 98 and 100).
    let (text, lines, _) = analyse(&dir, &input, &[]);
    let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // The legend: each dot followed by its text.
    let legend: Vec<(String, String)> = group(&doc, "legend")
        .children()
        .filter(|n| n.has_tag_name("circle"))
        .map(|dot| {
            let text = dot.next_siblings().find(|n| n.has_tag_name("text")).and_then(|t| t.text()).unwrap_or("");
            (dot.attribute("fill").unwrap_or("").to_string(), text.to_string())
        })
        .collect();
    let occurring: BTreeSet<String> = marked(&lines).into_iter().map(|(_, m)| m).collect();
    // A random-move game has every kind of mark.
    assert_eq!(occurring.len(), THRESHOLDS.len(), "{occurring:?}");
    for mark in &occurring {
        let (least, _) = THRESHOLDS.iter().find(|(_, m)| format!("{m:?}").to_lowercase() == *mark).expect("a mark");
        let entry = legend.iter().find(|(_, t)| t.starts_with(mark.as_str()));
        let entry = entry.unwrap_or_else(|| panic!("{mark} is not in the legend {legend:?}"));
        assert!(entry.1.contains(&least.to_string()), "{mark}'s least loss {least}: {entry:?}");
        // Every dot of that mark has the legend's colour.
        let dots: Vec<Node> = group(&doc, "marks")
            .children()
            .filter(|n| n.has_tag_name("circle") && tooltip(*n).contains(&format!(": {mark}, loss")))
            .collect();
        assert!(!dots.is_empty(), "{mark}: its dots");
        for dot in dots {
            assert_eq!(dot.attribute("fill"), Some(entry.0.as_str()), "{}", tooltip(dot));
        }
    }
}

#[test]
fn analyze_svg_tooltips_name_the_moves_in_the_summarys_kif_notation() {
    let dir = temp_dir("svg-notation");
    // The bishop blunder: ply 3 is Black's silver from 7i to 7h, `▲７八銀` in KIF's notation
    // (kif-csa.md: ▲ for Black, the square as a full-width file and a kanji rank, the piece).
    let blunder = dir.join("blunder.kif");
    std::fs::write(&blunder, written([&line(&["7g7f", "3c3d", "7i7h", "2b8h+"])], Format::Kif)).expect("written");
    let (text, _, summary) = analyse(&dir, &blunder, &[]);
    let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let tips: Vec<String> = group(&doc, "marks").children().filter(|n| n.has_tag_name("circle")).map(tooltip).collect();
    let tip = tips.iter().find(|t| t.starts_with("ply 3 ")).unwrap_or_else(|| panic!("{tips:?}"));
    assert!(tip.starts_with("ply 3 ▲７八銀: blunder, loss "), "{tip}");
    assert!(summary.contains("ply 3 ▲７八銀 ("), "the summary writes it alike: {summary}");
    // Every marked move of the sample game, each in the notation the summary uses for a KIF record.
    let (rec, input) = sample_kif(&dir);
    let (text, lines, _) = analyse(&dir, &input, &["--plies", "1-40"]);
    let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let tips: Vec<String> = group(&doc, "marks").children().filter(|n| n.has_tag_name("circle")).map(tooltip).collect();
    let marks = marked(&lines);
    assert_eq!(tips.len(), marks.len(), "{tips:?}");
    let mut pos = Position::startpos();
    let mut before = Vec::new();
    for m in &rec.moves {
        before.push(pos.clone());
        pos.do_move(m.mv);
    }
    for ((ply, mark), tip) in marks.iter().zip(&tips) {
        let kif = move_text(Format::Kif, &before[ply - 1], rec.moves[ply - 1].mv);
        assert!(tip.starts_with(&format!("ply {ply} {kif}: {mark}, loss ")), "{tip}");
    }
}
