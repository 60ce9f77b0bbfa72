//! Cross-implementation check with cshogi (PyPI; `.ci/run` installs it): KIF and CSA that hisha
//! writes are read by cshogi's parsers with identical moves, and KIF and CSA that cshogi's
//! exporters write are read by hisha identically. Skipped with one line when cshogi is missing,
//! except under `HISHA_REQUIRE_CROSSCHECKS=1` (see `tests/outside`).

use hisha::record::{Format, GameRecord, RecordWriter, Start, read_games};
use hisha::{Handicap, Position};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::path::Path;
use std::process::Command;

use crate::outside;
use crate::support::temp_dir;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/cshogi_records.py");

fn python(args: &[&str]) -> Vec<serde_like::Game> {
    let out = Command::new("python3").arg(SCRIPT).args(args).output().expect("python3 runs");
    assert!(
        out.status.success(),
        "cshogi script failed (is `python3 -m pip install cshogi` done? .ci/run does it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).lines().map(serde_like::parse).collect()
}

/// A tiny reader for the script's JSON lines (strings and string lists only).
mod serde_like {
    #[derive(Debug, Default)]
    pub struct Game {
        pub sfen: String,
        pub moves: Vec<String>,
        pub kif: String,
        pub csa: String,
    }

    fn string_at(s: &str, key: &str) -> String {
        let Some(i) = s.find(&format!("\"{key}\": \"")) else {
            return String::new();
        };
        let rest = &s[i + key.len() + 5..];
        rest[..rest.find('"').unwrap_or(0)].to_string()
    }

    pub fn parse(line: &str) -> Game {
        let moves = line
            .find("\"moves\": [")
            .map(|i| {
                let rest = &line[i + 10..];
                rest[..rest.find(']').unwrap_or(0)]
                    .split(", ")
                    .filter(|m| !m.is_empty())
                    .map(|m| m.trim_matches('"').to_string())
                    .collect()
            })
            .unwrap_or_default();
        Game { sfen: string_at(line, "sfen"), moves, kif: string_at(line, "kif"), csa: string_at(line, "csa") }
    }
}

fn random_game(rng: &mut StdRng, start: Start) -> GameRecord {
    let mut pos = start.position().expect("valid");
    let mut moves = Vec::new();
    for _ in 0..rng.random_range(20..100) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        pos.do_move(m);
        moves.push(m);
    }
    let mut rec = GameRecord::new(start, moves);
    rec.set_tag("Black", "hisha");
    rec.set_tag("White", "cshogi");
    rec
}

#[test]
fn cshogi_reads_what_hisha_writes() {
    if !outside::cshogi() {
        return;
    }
    let dir = temp_dir("cshogi-write");
    let mut rng = StdRng::seed_from_u64(9);
    // cshogi knows every handicap but the two 7-piece ones.
    let starts: Vec<Handicap> = Handicap::ALL
        .into_iter()
        .filter(|h| !matches!(h, Handicap::LeftSevenPiece | Handicap::RightSevenPiece))
        .collect();
    let games: Vec<GameRecord> =
        (0..40).map(|i| random_game(&mut rng, Start::Handicap(starts[i % starts.len()]))).collect();
    let mut files = Vec::new();
    for (i, g) in games.iter().enumerate() {
        for (f, ext) in [(Format::Kif, "kif"), (Format::Kifu, "kifu"), (Format::Csa, "csa")] {
            let path = dir.join(format!("g{i}.{ext}"));
            let mut w = RecordWriter::new(std::fs::File::create(&path).expect("create"), f, true);
            w.write(g).expect("write");
            files.push((i, path));
        }
    }
    let paths: Vec<String> = files.iter().map(|(_, p)| p.display().to_string()).collect();
    let args: Vec<&str> = std::iter::once("read").chain(paths.iter().map(String::as_str)).collect();
    let parsed = python(&args);
    assert_eq!(parsed.len(), files.len());
    for ((i, path), got) in files.iter().zip(&parsed) {
        let want: Vec<String> = games[*i].moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(got.moves, want, "{}", path.display());
        assert_eq!(
            Position::from_sfen(&got.sfen).map(|p| p.to_sfen()),
            Ok(games[*i].start.sfen()),
            "{}",
            path.display()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn hisha_reads_what_cshogi_writes() {
    if !outside::cshogi() {
        return;
    }
    let dir = temp_dir("cshogi-read");
    let games = python(&["write", &dir.display().to_string(), "5", "30"]);
    assert_eq!(games.len(), 30);
    for g in &games {
        for (path, format) in [(&g.kif, Format::Kif), (&g.csa, Format::Csa)] {
            let bytes = std::fs::read(Path::new(path)).expect("cshogi wrote it");
            let rec = read_games(&bytes, format).remove(0).unwrap_or_else(|e| panic!("{path}: {e}"));
            let moves: Vec<String> = rec.moves.iter().map(|m| m.mv.to_string()).collect();
            assert_eq!(moves, g.moves, "{path}");
            assert_eq!(rec.start.sfen(), Position::from_sfen(&g.sfen).expect("valid").to_sfen(), "{path}");
            assert_eq!(rec.tag("Black").map(|s| s.starts_with("black")), Some(true), "{path}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
