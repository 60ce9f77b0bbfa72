//! `scripts/slurm/*.sbatch` on a private single-node Slurm ([`super::slurm_cluster`]): a match
//! played as a 3-task array job (`--array=0-2`, Slurm's own numbering from 0) and merged by the
//! job that depends on it gives the records and result of the same match played on one machine;
//! the NNUE generator's script starts one shard per task.
//!
//! Without Slurm and MUNGE the test prints `skipped: slurm not installed` and passes, unless
//! `HISHA_REQUIRE_CROSSCHECKS=1` (see `tests/outside`; `.ci/run` installs them).

use super::slurm_cluster::{Cluster, HOW, Programs};
use crate::outside;
use crate::support::arena::{hisha_match, round};
use crate::support::{games, s, temp_dir};
use hisha::Move;
use hisha::position::GameResult;
use hisha::record::Format;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The match: 6 games (3 colour-swapped pairs) at a node budget, so that every run plays the same
/// moves, with shuffled openings.
const MATCH: [&str; 6] = ["--games", "6", "--tc", "nodes=1000", "--seed", "5"];

/// A script of `scripts/slurm`.
fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join("slurm").join(name)
}

/// What a game is, whoever played it where: its number, players, moves and result.
#[derive(Debug, PartialEq, Eq)]
struct Played {
    number: usize,
    players: [Option<String>; 2],
    moves: Vec<Move>,
    result: Option<GameResult>,
}

/// The games of a record file in game order.
fn by_number(path: &Path) -> Vec<Played> {
    let mut list: Vec<Played> = games(path, Format::Psn)
        .iter()
        .map(|g| Played {
            number: round(g),
            players: [g.tag("Black"), g.tag("White")].map(|p| p.map(str::to_string)),
            moves: g.moves.iter().map(|m| m.mv).collect(),
            result: g.result,
        })
        .collect();
    list.sort_by_key(|g| g.number);
    list
}

/// The results block of a match's standard output: from `Results of` to the line before
/// `This run:` (which only a playing run prints).
fn results_block(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Results of"))
        .take_while(|l| !l.trim_start().starts_with("This run:") && !l.starts_with("Records in"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_match_sharded_by_a_slurm_array_and_merged_after_it_is_the_match_played_on_one_machine() {
    let Some(programs) = Programs::find() else {
        outside::available("slurm", false, HOW);
        return;
    };
    let dir = temp_dir("slurm");
    let mut cluster = Cluster::start(programs, &dir.join("cluster"));
    let (out, nnue_out) = (dir.join("match"), dir.join("nnue"));
    let hisha = env!("CARGO_BIN_EXE_hisha");
    let chdir = format!("--chdir={}", s(&dir));
    let output = |name: &str| format!("--output={}", s(&dir.join("cluster").join(name)));
    let (match_log, merge_log, nnue_log) =
        (output("match-%A_%a.out"), output("merge-%j.out"), output("nnue-%A_%a.out"));
    let array = cluster.sbatch(
        &[&["--array=0-2", "--cpus-per-task=1", &chdir, &match_log, s(&script("match.sbatch")), s(&out)][..], &MATCH]
            .concat(),
        &[("HISHA", hisha)],
    );
    let after = format!("--dependency=afterok:{array}");
    cluster.sbatch(&[&after, &chdir, &merge_log, s(&script("merge.sbatch")), s(&out)], &[("HISHA", hisha)]);
    // The generator's script with `echo` standing in for the generator: the arguments it is given.
    let generate = script("nnue-gen.sbatch");
    let nnue_args = ["--array=0-1", "--cpus-per-task=1", &chdir, &nnue_log, s(&generate)];
    let nnue = cluster.sbatch(&[&nnue_args[..], &[s(&nnue_out), "--games", "1"]].concat(), &[("NNUE", "echo")]);

    // The same match on one machine, while Slurm plays it.
    let one = dir.join("one.psn");
    let alone = hisha_match(&[&MATCH[..], &["--out", s(&one)]].concat());
    assert!(alone.status.success(), "{}", String::from_utf8_lossy(&alone.stderr));
    cluster.wait_for_jobs(Duration::from_secs(120));

    // Task I played shard I + 1: the (I + 1)th pair, games 2I + 1 and 2I + 2.
    for task in 0..3 {
        let numbers: Vec<usize> = by_number(&out.join(format!("shard{task}.psn"))).iter().map(|g| g.number).collect();
        assert_eq!(numbers, [2 * task + 1, 2 * task + 2], "task {task}\n{}", cluster.logs());
    }
    let merged = by_number(&out.join("all.psn"));
    assert_eq!(merged.iter().map(|g| g.number).collect::<Vec<_>>(), (1..=6).collect::<Vec<_>>());
    assert_eq!(merged, by_number(&one), "the same games, moves and results");
    let result = std::fs::read_to_string(out.join("result.txt")).expect("the merge job's result.txt");
    let block = results_block(&result);
    assert!(block.first().is_some_and(|l| l.contains("(6 games; nodes=1000 each)")), "{result}");
    assert_eq!(block, results_block(&String::from_utf8_lossy(&alone.stdout)));

    for task in 0..2 {
        let said = std::fs::read_to_string(dir.join("cluster").join(format!("nnue-{nnue}_{task}.out")));
        let expected =
            format!("gen --shard-from-env slurm --out {}/shard{task}.psv --threads 1 --games 1\n", s(&nnue_out));
        assert_eq!(said.ok(), Some(expected), "task {task}");
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
