//! File tools: merge shard files (keeping games whole), hold out a fraction of whole games,
//! shuffle records for trainers that read files in order, and convert between records and the
//! linear tuner's TSV (`SFEN<TAB>score<TAB>result`, read by `examples/tune_eval.rs` and
//! `examples/label_with_engine.py`).

use crate::store::{self, GameSpan};
use hisha::Position;
use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Records and their games, read from one or more files.
pub struct Games {
    /// Every record, file after file.
    pub records: Vec<PackedSfenValue>,
    /// Every game, renumbered `0..` in file order.
    pub games: Vec<GameSpan>,
}

/// Reads and concatenates `paths`, each with its index (or games guessed from the plies).
pub fn read_all(paths: &[PathBuf]) -> Result<Games, String> {
    let mut all = Games { records: Vec::new(), games: Vec::new() };
    for path in paths {
        let records = store::read_records(path)?;
        let games = store::read_games(path, &records)?;
        let offset = all.records.len();
        for g in games {
            let id = all.games.len() as u64;
            all.games.push(GameSpan { id, start: g.start + offset, len: g.len });
        }
        all.records.extend(records);
    }
    Ok(all)
}

/// Whether game number `ordinal` belongs to the held-out `fraction` (a fixed pseudo-random
/// choice per `seed` and ordinal: SplitMix64 of both).
pub fn is_held_out(seed: u64, ordinal: u64, fraction: f64) -> bool {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(ordinal).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// Splits games into (kept, held out).
pub fn split(games: &[GameSpan], seed: u64, fraction: f64) -> (Vec<GameSpan>, Vec<GameSpan>) {
    games.iter().partition(|g| !is_held_out(seed, g.id, fraction))
}

/// What `merge` does.
pub struct MergeOptions {
    /// Input files.
    pub inputs: Vec<PathBuf>,
    /// Output file (must not exist).
    pub out: PathBuf,
    /// Fraction of whole games to write to `holdout_out` instead.
    pub holdout: f64,
    /// Where held-out games go.
    pub holdout_out: Option<PathBuf>,
    /// Shuffle the output's records (it then has no index).
    pub shuffle: bool,
    /// Seed of the held-out choice and the shuffle.
    pub seed: u64,
}

/// Merges, holds out and shuffles as `opts` says.
pub fn merge(opts: &MergeOptions) -> Result<(), String> {
    let all = read_all(&opts.inputs)?;
    let (kept, held) = match (&opts.holdout_out, opts.holdout > 0.0) {
        (Some(_), true) => split(&all.games, opts.seed, opts.holdout),
        (None, false) => (all.games.clone(), Vec::new()),
        _ => return Err("--holdout and --holdout-out go together".into()),
    };
    if let Some(path) = &opts.holdout_out {
        store::write_file(path, &all.records, Some(&renumber(&held)))?;
        let n: usize = held.iter().map(|g| g.len).sum();
        eprintln!("{}: {} games, {n} records", path.display(), held.len());
    }
    let n: usize = kept.iter().map(|g| g.len).sum();
    if opts.shuffle {
        let mut records: Vec<PackedSfenValue> =
            kept.iter().flat_map(|g| all.records[g.start..g.start + g.len].iter().copied()).collect();
        records.shuffle(&mut StdRng::seed_from_u64(opts.seed));
        store::write_file(&opts.out, &records, None)?;
        eprintln!("{}: {n} records from {} games, shuffled (no index)", opts.out.display(), kept.len());
    } else {
        store::write_file(&opts.out, &all.records, Some(&renumber(&kept)))?;
        eprintln!("{}: {} games, {n} records", opts.out.display(), kept.len());
    }
    Ok(())
}

/// The same spans with ids `0..` (the ids of a merged file).
fn renumber(games: &[GameSpan]) -> Vec<GameSpan> {
    games.iter().enumerate().map(|(i, g)| GameSpan { id: i as u64, ..*g }).collect()
}

/// One TSV line: the record and Black's result (to tell games apart).
fn parse_tsv_line(line: &str) -> Result<(PackedSfenValue, i8, u32), String> {
    let mut fields = line.split('\t');
    let (Some(sfen), Some(score), Some(result), None) = (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected SFEN<TAB>score<TAB>result".into());
    };
    let pos = Position::from_sfen(sfen).map_err(|e| format!("column 1: {e}"))?;
    let score: i32 =
        score.parse().map_err(|_| format!("column {}: score {score:?} is not a number", sfen.len() + 2))?;
    let result: i8 = match result {
        "1" => 1,
        "0" => 0,
        "-1" => -1,
        _ => return Err(format!("column {}: result {result:?} is not 1, 0 or -1", line.len() - result.len() + 1)),
    };
    let packed = PackedSfen::pack(&pos).map_err(|e| format!("column 1: {e}"))?;
    let game_ply = (pos.move_number().saturating_sub(1)).min(u16::MAX.into()) as u16;
    let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    let record = PackedSfenValue { sfen: packed, score, mv: 0, game_ply, game_result: result, padding: 0 };
    let black_result = if pos.side_to_move() == hisha::Color::Black { result } else { -result };
    Ok((record, black_result, pos.move_number()))
}

/// Converts the linear tuner's TSV (`SFEN<TAB>score<TAB>result`, side to move's view, games
/// written whole one after another) into records with an index of games. The TSV has no game
/// marks: a new game starts where the move number does not grow or Black's result changes (within
/// a game the kept positions' move numbers grow and Black's result is fixed). The move is not
/// recorded (0). A last line without its newline (a file still being written) is left out.
pub fn convert_tsv(input: &Path, out: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut records = Vec::new();
    let mut games: Vec<GameSpan> = Vec::new();
    let mut last: Option<(i8, u32)> = None;
    let mut partial = false;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let Some(line) = line.strip_suffix('\n') else {
            partial = true;
            break;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let (record, black_result, number) =
            parse_tsv_line(line).map_err(|e| format!("{}: line {}, {e}", input.display(), n + 1))?;
        match (games.last_mut(), last) {
            (Some(g), Some((r, m))) if r == black_result && m < number => g.len += 1,
            _ => games.push(GameSpan { id: games.len() as u64, start: records.len(), len: 1 }),
        }
        last = Some((black_result, number));
        records.push(record);
    }
    if partial {
        eprintln!("{}: the last line has no newline (still being written?): left out", input.display());
    }
    store::write_file(out, &records, Some(&games))?;
    eprintln!("{}: {} records in {} games", out.display(), records.len(), games.len());
    Ok(())
}

/// Writes the records of `input` as the linear tuner's TSV, in file order (a game's positions
/// together, as `gen` appends them): the SFEN with the record's move number (`game_ply + 1`), the
/// score and the result, both from the side to move's point of view. What [`convert_tsv`] reads
/// back into the same records (but for the move, which the TSV does not hold). Refuses to
/// overwrite `out`.
pub fn export_tsv(input: &Path, out: &Path) -> Result<(), String> {
    let records = store::read_records(input)?;
    let file =
        OpenOptions::new().write(true).create_new(true).open(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    for (i, r) in records.iter().enumerate() {
        let pos = r.sfen.unpack().map_err(|e| format!("{}: record {}: {e}", input.display(), i + 1))?;
        let sfen = pos.to_sfen();
        let board_side_hand = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(head, _)| head);
        writeln!(w, "{board_side_hand} {}\t{}\t{}", u32::from(r.game_ply) + 1, r.score, r.game_result)
            .map_err(|e| format!("{}: {e}", out.display()))?;
    }
    w.flush().map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("{}: {} positions", out.display(), records.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        store::test_dir(&format!("merge-{name}"))
    }

    #[test]
    fn tsv_games_are_told_apart_by_move_number_and_black_result() {
        let dir = temp("tsv");
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
        let lines = [
            format!("{start} b - 17\t10\t1"),  // game 0, Black wins
            format!("{start} w - 18\t-5\t-1"), // game 0
            format!("{start} b - 21\t30\t1"),  // game 0
            format!("{start} b - 9\t0\t1"),    // game 1: the move number falls
            format!("{start} w - 12\t0\t1"),   // game 2: Black's result changes (White wins)
            format!("{start} b - 15\t0\t0"),   // game 3: a draw
            format!("{start} w - 16\t0\t0"),   // game 3
            format!("{start} b - 3\t"),        // torn last line, still being written
        ];
        let input = dir.join("in.tsv");
        std::fs::write(&input, lines.join("\n")).expect("write");
        let out = dir.join("out.psv");
        convert_tsv(&input, &out).expect("converts");
        let records = store::read_records(&out).expect("read");
        assert_eq!(records.len(), 7);
        assert_eq!(records[1].game_ply, 17);
        assert_eq!(records[1].score, -5);
        assert_eq!(records[1].game_result, -1);
        let lens: Vec<usize> = store::read_games(&out, &records).expect("games").iter().map(|g| g.len).collect();
        assert_eq!(lens, vec![3, 1, 1, 2]);
        assert!(convert_tsv(&input, &out).expect_err("refused").contains("exists"), "no overwriting");
    }

    #[test]
    fn export_tsv_writes_the_lines_convert_tsv_read() {
        let dir = temp("export");
        let mut lines = String::new();
        for (moves, score, result) in [(0, 12, 1), (3, -40, -1), (8, 75, 1), (5, 0, 0)] {
            let mut pos = Position::startpos();
            for _ in 0..moves {
                let m = pos.legal_moves()[0];
                pos.do_move(m);
            }
            lines.push_str(&format!("{}\t{score}\t{result}\n", pos.to_sfen()));
        }
        let (tsv, psv, again) = (dir.join("in.tsv"), dir.join("mid.psv"), dir.join("out.tsv"));
        std::fs::write(&tsv, &lines).expect("write");
        convert_tsv(&tsv, &psv).expect("converts");
        export_tsv(&psv, &again).expect("exports");
        assert_eq!(std::fs::read_to_string(&again).expect("read"), lines);
        assert!(
            export_tsv(&psv, &again).expect_err("refused").contains(&again.display().to_string()),
            "no overwriting"
        );
    }

    #[test]
    fn a_bad_tsv_line_is_named_with_its_line_and_column() {
        let dir = temp("bad");
        let input = dir.join("in.tsv");
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        std::fs::write(&input, format!("{sfen}\t0\t1\n{sfen}\t1x\t1\n")).expect("write");
        let e = convert_tsv(&input, &dir.join("out.psv")).expect_err("error");
        let column = sfen.len() + 2;
        assert!(e.contains(&format!("line 2, column {column}: score \"1x\"")), "{e}");
        std::fs::write(&input, format!("{sfen}\t0\t2\n")).expect("write");
        let e = convert_tsv(&input, &dir.join("out.psv")).expect_err("error");
        assert!(e.contains(&format!("line 1, column {}: result \"2\"", column + 2)), "{e}");
    }

    #[test]
    fn merging_keeps_games_whole_and_holds_out_whole_games() {
        let dir = temp("merge");
        let pos = PackedSfen::pack(&Position::startpos()).expect("packable");
        let rec = |ply: u16| PackedSfenValue { sfen: pos, score: 0, mv: 0, game_ply: ply, game_result: 0, padding: 0 };
        // Two shard files of 40 games each, game g with g % 5 + 1 records.
        let mut inputs = Vec::new();
        for shard in 0..2 {
            let path = dir.join(format!("shard{shard}.psv"));
            let mut w = store::GameWriter::open(&path).expect("open");
            for g in 0..40u16 {
                let records: Vec<_> = (0..g % 5 + 1).map(|i| rec(100 * g + i)).collect();
                w.append(u64::from(2 * g + shard), &records).expect("write");
            }
            inputs.push(path);
        }
        let opts = MergeOptions {
            inputs,
            out: dir.join("train.psv"),
            holdout: 0.25,
            holdout_out: Some(dir.join("valid.psv")),
            shuffle: false,
            seed: 1,
        };
        merge(&opts).expect("merge");
        let (mut total_games, mut total_records) = (0, 0);
        for name in ["train.psv", "valid.psv"] {
            let path = dir.join(name);
            let records = store::read_records(&path).expect("read");
            let games = store::read_games(&path, &records).expect("games");
            for g in &games {
                // Every game is whole: its plies are 100 * game + 0, 1, ... in order.
                let plies: Vec<u16> = records[g.start..g.start + g.len].iter().map(|r| r.game_ply).collect();
                let first = plies[0];
                assert_eq!(first % 100, 0);
                assert_eq!(plies, (first..first + (first / 100) % 5 + 1).collect::<Vec<_>>());
            }
            total_games += games.len();
            total_records += records.len();
            if name == "valid.psv" {
                assert!((8..=32).contains(&games.len()), "about a quarter of 80 games: {}", games.len());
            }
        }
        assert_eq!((total_games, total_records), (80, 2 * (8 * (1 + 2 + 3 + 4 + 5))));
        let shuffled =
            MergeOptions { out: dir.join("shuffled.psv"), holdout_out: None, holdout: 0.0, shuffle: true, ..opts };
        merge(&shuffled).expect("shuffle");
        let records = store::read_records(&shuffled.out).expect("read");
        assert_eq!(records.len(), total_records);
        assert!(!store::index_path(&shuffled.out).exists());
        assert!(records.windows(2).any(|w| w[0].game_ply > w[1].game_ply + 100), "shuffled");
    }
}
