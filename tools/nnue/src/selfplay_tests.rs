//! The generator's games: what it records, that shards and resumed runs play the same games, and
//! that cshogi reads its files.

use super::*;
use crate::store::{self, index_path};
use hisha_nnue::packed_sfen::move_from_yaneuraou;
use std::collections::BTreeMap;

#[path = "../../../tests/outside/mod.rs"]
mod outside;

fn temp(name: &str) -> PathBuf {
    crate::store::test_dir(&format!("gen-{name}")).join("data.psv")
}

fn options(out: PathBuf, games: u64, shard: Shard, threads: usize) -> GenOptions {
    GenOptions {
        out,
        games: Some(games),
        positions: None,
        nodes: 300,
        depth: None,
        threads,
        shard,
        seed: 11,
        random_plies: (2, 6),
        eval_limit: 3000,
        max_plies: 48,
        skip_tactical: false,
        hash_mib: 1,
        net: None,
        report_secs: 3600,
    }
}

/// The games of a file by id.
fn games_by_id(path: &std::path::Path) -> BTreeMap<u64, Vec<PackedSfenValue>> {
    let records = store::read_records(path).expect("read");
    let games = store::read_games(path, &records).expect("index");
    games.iter().map(|g| (g.id, records[g.start..g.start + g.len].to_vec())).collect()
}

#[test]
fn shards_threads_and_resumed_runs_play_the_same_games() {
    let whole = temp("whole");
    run(&options(whole.clone(), 4, Shard { k: 0, n: 1 }, 1)).expect("runs");
    let reference = games_by_id(&whole);
    assert_eq!(reference.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    // Two shards on two threads each: ids 0, 2 and 1, 3.
    let mut sharded = BTreeMap::new();
    for k in 0..2 {
        let path = temp(&format!("shard{k}"));
        run(&options(path.clone(), 2, Shard { k, n: 2 }, 2)).expect("runs");
        sharded.extend(games_by_id(&path));
    }
    assert_eq!(sharded, reference);
    // Stopped after two games, then resumed to four.
    let resumed = temp("resumed");
    run(&options(resumed.clone(), 2, Shard { k: 0, n: 1 }, 1)).expect("runs");
    assert_eq!(games_by_id(&resumed).len(), 2);
    let added = run(&options(resumed.clone(), 4, Shard { k: 0, n: 1 }, 2)).expect("resumes");
    assert_eq!(games_by_id(&resumed), reference);
    assert_eq!(added as usize, reference[&2].len() + reference[&3].len());
}

#[test]
fn an_array_task_is_the_shard_of_its_index() {
    // Task 2 of 3, counted from 0 as `--shard K/N` counts here (hisha::array_task maps Slurm's IDs).
    let task = hisha::array_task::ArrayTask::new(2, 3).expect("2 < 3");
    assert_eq!(Shard::from(task), Shard { k: 2, n: 3 });
    assert_eq!("2/3".parse(), Ok(Shard::from(task)));
}

#[test]
fn recorded_positions_are_quiet_scored_and_carry_the_result_of_their_side() {
    let path = temp("records");
    run(&options(path.clone(), 3, Shard { k: 0, n: 1 }, 1)).expect("runs");
    for (id, records) in games_by_id(&path) {
        assert!(!records.is_empty(), "game {id}");
        // Black's result is the same in every record of a game.
        let black: Vec<i8> = records
            .iter()
            .map(|r| {
                let pos = r.position().expect("valid");
                assert!(!pos.in_check());
                assert!(i32::from(r.score).abs() < 3000);
                assert!(r.legal_move(&pos).is_some(), "the search's move is legal");
                if pos.side_to_move() == hisha::Color::Black { r.game_result } else { -r.game_result }
            })
            .collect();
        assert!(black.iter().all(|&b| b == black[0]), "game {id}: {black:?}");
        assert!(records.windows(2).all(|w| w[0].game_ply < w[1].game_ply));
    }
    // Without tactical moves: no capture or promotion left.
    let quiet = temp("quiet");
    run(&GenOptions { skip_tactical: true, ..options(quiet.clone(), 2, Shard { k: 0, n: 1 }, 1) }).expect("runs");
    for r in store::read_records(&quiet).expect("read") {
        let pos = r.position().expect("valid");
        let m = move_from_yaneuraou(r.mv).expect("a move");
        assert!(pos.piece_on(m.to()).is_none() && !m.is_promotion());
    }
}

#[test]
fn cshogi_reads_the_generated_records() {
    if !outside::cshogi() {
        return;
    }
    let path = temp("cshogi");
    run(&options(path.clone(), 2, Shard { k: 0, n: 1 }, 1)).expect("runs");
    let records = store::read_records(&path).expect("read");
    assert!(index_path(&path).exists());
    // cshogi decodes each record; we print what it sees and compare with our own decoding.
    let script = r#"
import sys, cshogi, numpy as np
b = cshogi.Board()
for r in np.fromfile(sys.argv[1], dtype=cshogi.PackedSfenValue):
    b.set_psfen(r['sfen'])
    m = b.move_from_move16(cshogi.move16_from_psv(int(r['move'])))
    legal = b.is_legal(m)
    print(' '.join(b.sfen().split(' ')[:3]), cshogi.move_to_usi(m) if legal else 'illegal',
          int(r['score']), int(r['gamePly']), int(r['game_result']))
"#;
    let out = std::process::Command::new("python3").args(["-c", script]).arg(&path).output().expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), records.len());
    for (line, r) in lines.iter().zip(&records) {
        let pos = r.position().expect("valid");
        let sfen: Vec<String> = pos.to_sfen().split(' ').take(3).map(String::from).collect();
        let m = r.legal_move(&pos).expect("legal");
        let expected = format!("{} {m} {} {} {}", sfen.join(" "), r.score, r.game_ply, r.game_result);
        assert_eq!(line, &expected);
    }
}

#[test]
fn the_searches_evaluate_with_the_given_net() {
    // The same game seed with the linear evaluation and with the built-in net: the net's
    // searches score (and so play) differently.
    let linear = temp("linear");
    run(&options(linear.clone(), 1, Shard { k: 0, n: 1 }, 1)).expect("runs");
    let net = temp("net");
    let with_net = GenOptions { net: hisha::eval::nnue::builtin(), ..options(net.clone(), 1, Shard { k: 0, n: 1 }, 1) };
    assert!(with_net.net.is_some(), "the built-in net reads");
    run(&with_net).expect("runs");
    let scores = |p: &PathBuf| store::read_records(p).expect("read").iter().map(|r| r.score).collect::<Vec<_>>();
    assert_ne!(scores(&linear), scores(&net));
}
