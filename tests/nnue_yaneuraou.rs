//! Cross-check of NNUE inference against YaneuraOu itself: seeded random nets written by hisha
//! are loaded by a YaneuraOu NNUE build (`EvalDir`), which prints its evaluation of each
//! position (`eval` command, `eval = N`, as in YaneuraOu v8.60); hisha must give the same
//! numbers.
//!
//! YaneuraOu is no package: each test runs when its variable names a binary built from the
//! v8.60git tag (`make COMPILER=g++ TARGET_CPU=AVX2 YANEURAOU_EDITION=<edition>
//! ./YaneuraOu-by-gcc` in `source/`) and otherwise prints one `skipped:` line:
//! `HISHA_YANEURAOU` for `YANEURAOU_ENGINE_NNUE` (HalfKP 256x2-32-32), `HISHA_YANEURAOU_KP`
//! for `YANEURAOU_ENGINE_NNUE_KP256` (K+P 256x2-32-32). CI cannot install YaneuraOu, so
//! `HISHA_REQUIRE_CROSSCHECKS` does not make them mandatory.

use hisha::Position;
use hisha::eval::nnue::{Architecture, Network, Spread, forward::MAX_EVAL};
use rand::{SeedableRng, rngs::StdRng};
use std::io::Write;
use std::process::{Command, Stdio};

/// Positions along seeded random playouts from the bench set and two handicap starts.
fn positions() -> Vec<Position> {
    let mut starts: Vec<Position> =
        hisha::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()).collect();
    starts.push(Position::handicap(hisha::Handicap::TwoPiece));
    starts.push(Position::handicap(hisha::Handicap::TenPiece));
    hisha::bench::random_walks(starts, 40, &mut StdRng::seed_from_u64(12))
}

/// YaneuraOu's `eval = N` for each position, with `net` as its `nn.bin`.
fn yaneuraou_evaluations(binary: &str, net: &Network, positions: &[Position]) -> Vec<i32> {
    let features = net.architecture().features;
    let dir = std::env::temp_dir().join(format!("hisha-nnue-crosscheck-{}-{features:?}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    std::fs::write(dir.join("nn.bin"), net.to_bytes()).expect("write nn.bin");
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("YaneuraOu starts");
    let mut script = format!("usi\nsetoption name EvalDir value {}\nisready\n", dir.display());
    for pos in positions {
        script += &format!("position sfen {}\neval\n", pos.to_sfen());
    }
    script += "quit\n";
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("send commands");
    let out = child.wait_with_output().expect("YaneuraOu ends");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let values: Vec<i32> =
        text.lines().filter_map(|l| l.strip_prefix("eval = ")).map(|v| v.trim().parse().expect("a number")).collect();
    assert_eq!(values.len(), positions.len(), "YaneuraOu said:\n{text}");
    values
}

/// Compares hisha with the YaneuraOu binary named by `variable` on three random nets of `arch`.
fn check_against(variable: &str, arch: Architecture) {
    let Ok(binary) = std::env::var(variable) else {
        println!("skipped: {variable} does not name a YaneuraOu NNUE binary");
        return;
    };
    let positions = positions();
    for (seed, spread) in [(1, Spread::Typical), (2, Spread::Typical), (3, Spread::Full)] {
        let net = Network::random(arch, seed, spread);
        let theirs = yaneuraou_evaluations(&binary, &net, &positions);
        let mut distinct = theirs.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() > positions.len() / 4, "{spread:?}: too few distinct values to compare");
        let clamped = theirs.iter().filter(|v| v.abs() >= MAX_EVAL).count();
        println!(
            "{spread:?} seed {seed}: {} positions, {} distinct values, {clamped} clamped",
            positions.len(),
            distinct.len()
        );
        for (pos, &yo) in positions.iter().zip(&theirs) {
            // YaneuraOu clamps at +-31753, hisha below its mate scores.
            let expected = yo.clamp(-MAX_EVAL, MAX_EVAL);
            assert_eq!(net.evaluate_position(pos), expected, "{spread:?} seed {seed}: {}", pos.to_sfen());
        }
    }
}

#[test]
fn a_halfkp_net_loaded_by_yaneuraou_gives_the_same_evaluations() {
    check_against("HISHA_YANEURAOU", Architecture::HALFKP_256X2_32_32);
}

#[test]
fn a_kp_net_loaded_by_yaneuraou_gives_the_same_evaluations() {
    check_against("HISHA_YANEURAOU_KP", Architecture::KP_256X2_32_32);
}
