//! Cross-check with three independent readers: every way a game of `hisha match` ends, written in
//! CSA, KIF, KIFU, KI2 and KI2U, is read by cshogi, python-shogi (PyPI) and tsshogi (npm, the
//! record library inside ShogiHome) with the winner the match named. Each is skipped, with one
//! line, where it is not installed (see tests/outside/mod.rs). With `HISHA_READERS_TABLE=1` the
//! test prints README's table of endings, words and readers.
//!
//! Where a reader cannot tell the winner of a word, the expected reading says so and why
//! (`expected`); README's table shows the same.

use crate::outside;
use crate::support::records::written;
use crate::support::{play, temp_dir};
use hisha::position::{DeclarationOutcome, EnteringKingRule, GameResult, Repetition, ResultReason, Winner};
use hisha::record::{Format, GameRecord, Start};
use hisha::{Color, Position};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts");

/// How a game ends: where it starts, its moves and the result the match names.
struct Ending {
    name: &'static str,
    sfen: Option<&'static str>,
    moves: String,
    result: GameResult,
}

fn ending(name: &'static str, sfen: Option<&'static str>, moves: &str, result: GameResult) -> Ending {
    Ending { name, sfen, moves: moves.to_string(), result }
}

// Positions where the endings are real (checked in `the_endings_are_real`).
/// Black drops a gold on 5b, guarded by the pawn on 5c: mate.
const BLACK_MATES: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// The same, turned round: White mates with G*5h.
const WHITE_MATES: &str = "4k4/9/9/9/9/9/4p4/9/4K4 w g 1";
/// Black's king in White's camp with ten pieces worth 26 points there and two pawns in hand:
/// 28 points, a win by the 27-point rule and a draw by the 24-point rule (rules.md).
const BLACK_DECLARES: &str = "RRBBGGGG1/4K4/PP7/9/9/9/9/9/4k4 b 2P 1";
/// The same, turned round, for White (27 points needed, 28 held).
const WHITE_DECLARES: &str = "4K4/9/9/9/9/9/7pp/4k4/1ggggbbrr w 2p 1";
/// Black's rook checks White's king back and forth between the 4th and 5th files.
const ROOK_CHECKS: &str = "5k3/9/9/9/9/9/9/4R4/K8 b - 1";

fn endings() -> Vec<Ending> {
    use ResultReason::*;
    let (black, white) = (Color::Black, Color::White);
    let stopped = GameResult { winner: Winner::Unfinished, reason: Interrupt };
    let cycle = |n: usize| vec!["2h3h 8b7b 3h2h 7b8b"; n].join(" ");
    let checks = |n: usize| vec!["5h4h 4a5a 4h5h 5a4a"; n].join(" ");
    vec![
        ending("checkmate (Black mates)", Some(BLACK_MATES), "G*5b", GameResult::loss(white, Checkmate)),
        ending("checkmate (White mates)", Some(WHITE_MATES), "G*5h", GameResult::loss(black, Checkmate)),
        ending("resignation (White resigns)", None, "7g7f 3c3d 2g2f", GameResult::loss(white, Resign)),
        ending("resignation (Black resigns)", None, "7g7f 3c3d", GameResult::loss(black, Resign)),
        ending("adjudicated win (Black wins)", None, "7g7f 3c3d 2g2f", GameResult::loss(white, Adjudication)),
        ending("adjudicated win (White wins)", None, "7g7f 3c3d", GameResult::loss(black, Adjudication)),
        ending("adjudicated win, winner on move*", None, "7g7f 3c3d", GameResult::win(black, Adjudication)),
        ending("time loss", None, "7g7f 3c3d 2g2f", GameResult::loss(white, Time)),
        ending("illegal move or false declaration", None, "7g7f", GameResult::loss(white, IllegalMove)),
        ending("crash or disconnect", None, "7g7f 3c3d", GameResult::loss(black, Disconnect)),
        ending("crash before the game, loser not on move", None, "", GameResult::loss(white, Disconnect)),
        ending("entering-king win (Black)", Some(BLACK_DECLARES), "", GameResult::win(black, Declaration)),
        ending("entering-king win (White)", Some(WHITE_DECLARES), "", GameResult::win(white, Declaration)),
        ending("repetition draw", None, &cycle(3), GameResult::draw(Repetition)),
        ending(
            "perpetual-check loss, checker on move",
            Some(ROOK_CHECKS),
            &checks(3),
            GameResult::loss(black, PerpetualCheck),
        ),
        ending(
            "perpetual-check loss, checked side on move",
            Some(ROOK_CHECKS),
            &format!("{} 5h4h", checks(3)),
            GameResult::loss(black, PerpetualCheck),
        ),
        ending("move-limit draw", None, "7g7f 3c3d", GameResult::draw(MaxMoves)),
        ending("adjudicated draw", None, "7g7f 3c3d", GameResult::draw(Adjudication)),
        ending("entering-king draw (24-point rule)", Some(BLACK_DECLARES), "", GameResult::draw(Declaration)),
        ending("interrupted", None, "7g7f 3c3d", stopped),
    ]
}

impl Ending {
    fn start(&self) -> Start {
        self.sfen.map_or_else(Start::default, |s| Start::from_sfen(s).expect("valid"))
    }

    fn position(&self) -> Position {
        let mut pos = self.start().position().expect("valid");
        let moves: Vec<&str> = self.moves.split_whitespace().collect();
        play(&mut pos, &moves);
        pos
    }

    fn record(&self) -> GameRecord {
        let mut pos = self.start().position().expect("valid");
        let moves: Vec<&str> = self.moves.split_whitespace().collect();
        let mut rec = GameRecord::new(self.start(), play(&mut pos, &moves));
        rec.result = Some(self.result);
        rec
    }
}

#[test]
fn the_endings_are_real() {
    let by_name: HashMap<&str, Position> = endings().iter().map(|e| (e.name, e.position())).collect();
    for name in ["checkmate (Black mates)", "checkmate (White mates)"] {
        assert!(!by_name[name].has_legal_move(), "{name}");
    }
    for name in ["entering-king win (Black)", "entering-king win (White)"] {
        assert_eq!(by_name[name].declaration(EnteringKingRule::Point27), DeclarationOutcome::Win, "{name}");
    }
    let draw = &by_name["entering-king draw (24-point rule)"];
    assert_eq!(draw.declaration(EnteringKingRule::Point24), DeclarationOutcome::Draw);
    assert_eq!(by_name["repetition draw"].repetition(4), Repetition::Draw);
    for name in ["perpetual-check loss, checker on move", "perpetual-check loss, checked side on move"] {
        assert_eq!(by_name[name].repetition(4), Repetition::PerpetualCheckBy(Color::Black), "{name}");
    }
}

/// The formats a match writes its results in, and the readers of each (python-shogi has no KI2
/// reader).
const FORMATS: [Format; 5] = [Format::Csa, Format::Kif, Format::Kifu, Format::Ki2, Format::Ki2u];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    Cshogi,
    PythonShogi,
    Tsshogi,
}

impl Reader {
    fn name(self) -> &'static str {
        match self {
            Reader::Cshogi => "cshogi",
            Reader::PythonShogi => "python-shogi",
            Reader::Tsshogi => "tsshogi",
        }
    }

    fn reads(self, f: Format) -> bool {
        self != Reader::PythonShogi || !matches!(f, Format::Ki2 | Format::Ki2u)
    }
}

/// The words that end the record: CSA's `%` line, KIF's terminal word and `まで…` line, KI2's
/// `まで…` line.
fn words(text: &str, f: Format) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if f == Format::Csa {
        return lines.iter().find(|l| l.starts_with('%')).map_or(String::new(), |l| format!("`{l}`"));
    }
    let Some(i) = lines.iter().position(|l| l.starts_with("まで")) else { return String::new() };
    let tail = lines[i].split_once("手で").map_or(lines[i], |(_, t)| t);
    match f {
        Format::Kif | Format::Kifu => {
            let word = lines[i - 1].split_whitespace().nth(1).unwrap_or("");
            format!("`{word}`, `…{tail}`")
        }
        _ => format!("`…{tail}`"),
    }
}

/// What a reader's answer should be for the match's winner, and why where it cannot be the
/// winner: `(expected, note)`. `tsshogi_fixed` is tsshogi ≥ 2.3.2, which reads CSA's
/// `%±ILLEGAL_ACTION` as the standard says (sunfish-shogi/tsshogi#136; earlier versions name the
/// other side).
fn expected(reader: Reader, f: Format, e: &Ending, text: &str, tsshogi_fixed: bool) -> (String, Option<&'static str>) {
    let name = |w: Winner| match w {
        Winner::Black => "black",
        Winner::White => "white",
        Winner::Draw => "draw",
        Winner::Unfinished => "none",
    };
    let winner = e.result.winner;
    let csa_word = if f == Format::Csa { words(text, f) } else { String::new() };
    match reader {
        // python-shogi's `win` is `-` for every game without a winner.
        Reader::PythonShogi if matches!(winner, Winner::Draw | Winner::Unfinished) => ("nowinner".into(), None),
        Reader::PythonShogi if csa_word == "`%KACHI`" => {
            ("nowinner".into(), Some("python-shogi's CSA reader knows no `%KACHI`"))
        }
        Reader::Cshogi if matches!(f, Format::Ki2 | Format::Ki2u) && e.sfen.is_some() && !e.moves.is_empty() => {
            ("error".into(), Some("cshogi's KI2 reader reads no board diagram (only `手合割`): it fails on the moves"))
        }
        Reader::Cshogi if f == Format::Csa && winner == Winner::Unfinished => {
            ("draw".into(), Some("cshogi's CSA `win` has no value for no result"))
        }
        Reader::Tsshogi if csa_word.contains("ILLEGAL_ACTION") && !tsshogi_fixed => {
            let other = if winner == Winner::Black { "white" } else { "black" };
            (other.into(), Some("tsshogi before 2.3.2 reads `%±ILLEGAL_ACTION` the wrong way round"))
        }
        _ => (name(winner).into(), None),
    }
}

/// Runs a reader over `files`; its answer per file and, for tsshogi, its version.
fn read_winners(reader: Reader, files: &[PathBuf]) -> (HashMap<PathBuf, String>, Option<String>) {
    let mut cmd = match reader {
        Reader::Tsshogi => {
            let mut c = outside::node();
            c.arg(Path::new(SCRIPTS).join("tsshogi_winners.cjs"));
            c
        }
        _ => {
            let mut c = Command::new("python3");
            c.arg(Path::new(SCRIPTS).join("record_winners.py")).arg(reader.name());
            c
        }
    };
    let out = cmd.args(files).output().expect("the reader runs");
    assert!(out.status.success(), "{}: {}", reader.name(), String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut version = None;
    let mut winners = HashMap::new();
    for line in stdout.lines() {
        let (first, last) = line.rsplit_once(' ').unwrap_or((line, ""));
        if first == "version" {
            version = Some(last.to_string());
        } else {
            winners.insert(PathBuf::from(first), last.to_string());
        }
    }
    (winners, version)
}

/// `2.3.2` or later.
fn at_least_2_3_2(version: &str) -> bool {
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    parts.as_slice() >= [2, 3, 2].as_slice()
}

#[test]
fn cshogi_python_shogi_and_tsshogi_read_the_winner_of_every_ending() {
    let readers: Vec<Reader> = [
        (Reader::Cshogi, outside::cshogi()),
        (Reader::PythonShogi, outside::python_shogi()),
        (Reader::Tsshogi, outside::tsshogi()),
    ]
    .into_iter()
    .filter_map(|(r, present)| present.then_some(r))
    .collect();
    let dir = temp_dir("readers-results");
    let endings = endings();
    let mut files = Vec::new();
    for (i, e) in endings.iter().enumerate() {
        let rec = e.record();
        for f in FORMATS {
            let path = dir.join(format!("{i:02}.{}", f.extension()));
            let bytes = written([&rec], f);
            std::fs::write(&path, &bytes).expect("write");
            let text = if matches!(f, Format::Kif | Format::Ki2) {
                hisha::record::decode_text(&bytes).into_owned()
            } else {
                String::from_utf8(bytes).expect("UTF-8")
            };
            files.push((i, f, path, text));
        }
    }
    let mut answers = HashMap::new();
    let mut tsshogi_fixed = true;
    for &r in &readers {
        let paths: Vec<PathBuf> = files.iter().filter(|(_, f, ..)| r.reads(*f)).map(|(.., p, _)| p.clone()).collect();
        let (winners, version) = read_winners(r, &paths);
        if let Some(v) = version {
            tsshogi_fixed = at_least_2_3_2(&v);
        }
        answers.insert(r.name(), winners);
    }
    let mut wrong = Vec::new();
    let mut notes = Vec::new();
    let mut marks: HashMap<(usize, Format), Vec<String>> = HashMap::new();
    for (i, f, path, text) in &files {
        let e = &endings[*i];
        for &r in readers.iter().filter(|r| r.reads(*f)) {
            let got = answers[r.name()].get(path).map_or("(no answer)", String::as_str);
            let got = if got.starts_with("error") { "error" } else { got };
            let (want, note) = expected(r, *f, e, text, tsshogi_fixed);
            if got != want {
                wrong.push(format!(
                    "{} in {f} ({}): {} read {got}, expected {want}",
                    e.name,
                    words(text, *f),
                    r.name()
                ));
            }
            if let Some(n) = note {
                notes.push(format!("{} in {f}: {n}", e.name));
                marks.entry((*i, *f)).or_default().push(format!("{}: {got}", r.name()));
            }
        }
    }
    if std::env::var("HISHA_READERS_TABLE").is_ok_and(|v| v == "1") {
        eprintln!("{}", table(&endings, &files, &marks));
    }
    assert!(wrong.is_empty(), "{} wrong readings:\n{}\n(known: {notes:?})", wrong.len(), wrong.join("\n"));
    let _ = std::fs::remove_dir_all(dir);
}

/// README's table: per ending, the words each format group ends with, and the readers that do
/// not read the match's winner from them (what they read instead).
fn table(
    endings: &[Ending],
    files: &[(usize, Format, PathBuf, String)],
    marks: &HashMap<(usize, Format), Vec<String>>,
) -> String {
    let mut s = String::from("| ending | CSA | KIF, KIFU | KI2, KI2U |\n|---|---|---|---|\n");
    for (i, e) in endings.iter().enumerate() {
        let cell = |f: Format| {
            let text = files.iter().find(|(j, g, ..)| *j == i && *g == f).map_or("", |(.., text)| text.as_str());
            match marks.get(&(i, f)) {
                Some(m) => format!("{} ({})", words(text, f), m.join(", ")),
                None => words(text, f),
            }
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            e.name,
            cell(Format::Csa),
            cell(Format::Kif),
            cell(Format::Ki2)
        ));
    }
    s
}
