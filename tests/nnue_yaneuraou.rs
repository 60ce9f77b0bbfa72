//! Cross-check of NNUE inference against YaneuraOu itself: nets written by hisha (seeded random
//! ones, and the shipped net) are loaded by a YaneuraOu NNUE build (`EvalDir`), which prints its
//! evaluation of each position (`eval = N`: the `eval` command of v8.60, `e` of v9.x, whose
//! `eval` prints nothing; both are sent); hisha must give the same numbers.
//!
//! YaneuraOu is no package: each test runs when its variable names a binary built in `source/`
//! (`make COMPILER=g++ TARGET_CPU=AVX2 YANEURAOU_EDITION=<edition>`, giving
//! `./YaneuraOu-by-gcc`) and otherwise prints one `skipped:` line:
//! `HISHA_YANEURAOU` for `YANEURAOU_ENGINE_NNUE` (HalfKP 256x2-32-32), `HISHA_YANEURAOU_KP`
//! for `YANEURAOU_ENGINE_NNUE_KP256` (K+P 256x2-32-32), both from the v8.60git tag, and
//! `HISHA_YANEURAOU_64` for `YANEURAOU_ENGINE_NNUE_HALFKP_64X2_16_16` (`make normal … PYTHON=python3`,
//! any version with the architecture generator, v9.70git checked), the yardstick of
//! `examples/yardstick.rs`, checked with hisha's built-in net. CI cannot install YaneuraOu, so
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
    let arch = net.architecture();
    let shape = format!("{:?}-{}", arch.features, arch.l1);
    let dir = std::env::temp_dir().join(format!("hisha-nnue-crosscheck-{}-{shape}", std::process::id()));
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
        // v8.60 answers `eval` (and calls `e` an unknown command), v9.x answers `e`.
        script += &format!("position sfen {}\neval\ne\n", pos.to_sfen());
    }
    script += "quit\n";
    // Written from another thread: YaneuraOu's answers fill its pipe while the script is sent.
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let out = child.wait_with_output().expect("YaneuraOu ends");
    writer.join().expect("writer thread").expect("send commands");
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

/// The yardstick of issue 27: YaneuraOu's HalfKP 64x2-16-16 build given hisha's built-in net (the
/// bytes hisha reads from `nnue/nn.bin.zlib`, written back) evaluates as hisha does, on the
/// random-walk positions above and on longer walks into middlegames and endgames.
#[test]
fn the_built_in_net_loaded_by_yaneuraou_gives_the_same_evaluations() {
    let variable = "HISHA_YANEURAOU_64";
    let Ok(binary) = std::env::var(variable) else {
        println!("skipped: {variable} does not name a YaneuraOu HalfKP 64x2-16-16 binary");
        return;
    };
    let net = hisha::eval::nnue::builtin().expect("the built-in net reads");
    let mut positions = positions();
    let starts = hisha::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok());
    positions.extend(hisha::bench::random_walks(starts, 160, &mut StdRng::seed_from_u64(27)));
    let theirs = yaneuraou_evaluations(&binary, &net, &positions);
    let mut distinct = theirs.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > positions.len() / 4, "too few distinct values to compare");
    println!("built-in net: {} positions, {} distinct values", positions.len(), distinct.len());
    let differing: Vec<String> = positions
        .iter()
        .zip(&theirs)
        .filter(|&(pos, &yo)| net.evaluate_position(pos) != yo.clamp(-MAX_EVAL, MAX_EVAL))
        .map(|(pos, &yo)| format!("{}: hisha {}, YaneuraOu {yo}", pos.to_sfen(), net.evaluate_position(pos)))
        .collect();
    let first = differing.iter().take(20).cloned().collect::<Vec<_>>().join("\n");
    assert!(differing.is_empty(), "{} of {} differ, the first:\n{first}", differing.len(), positions.len());
}
