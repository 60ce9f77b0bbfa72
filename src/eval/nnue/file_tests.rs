//! The `nn.bin` format: round trips, shape recognition from the hashes, and every way a file can
//! be wrong.

use super::architecture::{HIDDEN_STEP, MAX_HIDDEN};
use super::file::VERSION;
use super::*;
use crate::position::Position;
use std::collections::HashMap;

fn positions() -> Vec<Position> {
    crate::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok()).collect()
}

#[test]
fn an_exported_net_reloaded_gives_identical_bytes_and_evaluations() {
    let net = Network::random(Architecture::HALFKP_256X2_32_32, 1, Spread::Typical);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), Architecture::HALFKP_256X2_32_32.file_size(178));
    assert_eq!(&bytes[..12], &[0x16, 0x2F, 0xF3, 0x7A, 0xEE, 0xA6, 0x5A, 0x3E, 178, 0, 0, 0]);
    let loaded = Network::load(&bytes).expect("own output loads");
    assert_eq!(loaded, net);
    assert_eq!(loaded.architecture(), Architecture::HALFKP_256X2_32_32);
    assert_eq!(loaded.to_bytes(), bytes);
    let mut evaluations = Vec::new();
    for pos in positions() {
        let v = net.evaluate_position(&pos);
        assert_eq!(loaded.evaluate_position(&pos), v);
        evaluations.push(v);
    }
    // A random net is not constant: the comparison above compares something.
    evaluations.dedup();
    assert!(evaluations.len() > 5, "{evaluations:?}");
}

#[test]
fn every_yaneuraou_shape_is_recognised_from_its_hashes() {
    // YaneuraOu's classic architectures (source/eval/nnue/architectures/).
    let shapes = [
        Architecture::KP_256X2_32_32,
        Architecture { l1: 512, l2: 16, l3: 32, ..Architecture::KP_256X2_32_32 },
        Architecture { l1: 1024, l2: 8, l3: 32, ..Architecture::KP_256X2_32_32 },
        Architecture { l1: 1024, l2: 8, l3: 64, ..Architecture::KP_256X2_32_32 },
        Architecture { l1: 32, l2: 24, l3: 104, features: FeatureSet::HalfKP },
    ];
    for arch in shapes {
        let net = Network::random(arch, 4, Spread::Full);
        let loaded = Network::load(&net.to_bytes()).expect("loads");
        assert_eq!(loaded.architecture(), arch);
        assert_eq!(loaded, net);
    }
}

#[test]
fn hidden_sizes_are_told_apart_by_hash_and_size() {
    // The loader picks L2, L3 among the shapes whose network hash matches, by file size: no
    // two shapes may share both.
    let widths = (HIDDEN_STEP..=MAX_HIDDEN).step_by(HIDDEN_STEP);
    for l1 in (32..=architecture::MAX_L1).step_by(32) {
        let mut seen = HashMap::new();
        for l2 in widths.clone() {
            for l3 in widths.clone() {
                let a = Architecture { features: FeatureSet::KP, l1, l2, l3 };
                let previous = seen.insert((a.network_hash(), a.network_bytes()), (l2, l3));
                assert_eq!(previous, None, "l1 {l1}: ({l2}, {l3}) collides");
            }
        }
    }
}

#[test]
fn a_kept_description_survives_the_round_trip() {
    // Public nets carry other descriptions (older YaneuraOu, trainers' notes, not always UTF-8).
    let net = Network::random(Architecture { l1: 32, ..Architecture::KP_256X2_32_32 }, 5, Spread::Typical);
    let mut bytes = net.to_bytes();
    let old_len = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    let text = b"trained by someone \x82\xA0";
    bytes.splice(12..12 + old_len, text.iter().copied());
    bytes[8..12].copy_from_slice(&(text.len() as u32).to_le_bytes());
    let loaded = Network::load(&bytes).expect("the description is free text");
    assert_eq!(loaded.description, text, "kept byte for byte");
    assert_eq!(loaded.to_bytes(), bytes);
}

fn small_bytes() -> Vec<u8> {
    Network::random(Architecture { l1: 32, ..Architecture::KP_256X2_32_32 }, 6, Spread::Typical).to_bytes()
}

#[test]
fn a_truncated_file_says_where_it_ends() {
    let bytes = small_bytes();
    let arch = Architecture { l1: 32, ..Architecture::KP_256X2_32_32 };
    let description = 12 + arch.description().len();
    let transformer_end = description + 4 + arch.transformer_bytes();
    let cases = [
        (0, "header"),
        (7, "header"),
        (12, "description"),
        (description + 2, "feature transformer hash"),
        (description + 4, "feature transformer"),
        (transformer_end + 3, "feature transformer"),
        (transformer_end + 4, "network"),
        (bytes.len() - 1, "network"),
    ];
    for (cut, part) in cases {
        match Network::load(&bytes[..cut]) {
            Err(NnueError::Truncated { at, part: p, needed }) => {
                assert_eq!((at, p), (cut, part), "cut at {cut}");
                assert!(needed > cut);
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    let message = Network::load(&bytes[..bytes.len() - 1]).map(|_| ()).unwrap_err().to_string();
    assert_eq!(message, format!("truncated at byte {}: the network needs {} bytes", bytes.len() - 1, bytes.len()));
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = small_bytes();
    let size = bytes.len();
    bytes.extend([0; 3]);
    assert!(matches!(Network::load(&bytes), Err(NnueError::TrailingBytes { extra: 3, size: s }) if s == size));
}

#[test]
fn a_wrong_version_or_hash_is_refused() {
    let good = small_bytes();
    let with = |at: usize, word: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&word.to_le_bytes());
        Network::load(&b)
    };
    assert!(matches!(with(0, VERSION + 1), Err(NnueError::BadVersion { found }) if found == VERSION + 1));
    let arch = Architecture { l1: 32, ..Architecture::KP_256X2_32_32 };
    assert!(matches!(
        with(4, 0x1234_5678),
        Err(NnueError::HashMismatch { expected, found: 0x1234_5678 }) if expected == arch.hash()
    ));
    let ft_at = 12 + arch.description().len();
    assert!(matches!(with(ft_at, 0xDEAD_BEEF), Err(NnueError::UnknownTransformer { hash: 0xDEAD_BEEF })));
    // A K+P hash with an odd or too wide L1 is no transformer either.
    let too_wide = FeatureSet::KP.hash() ^ (2 * 2048);
    assert!(matches!(with(ft_at, too_wide), Err(NnueError::UnknownTransformer { .. })));
    let net_at = ft_at + 4 + arch.transformer_bytes();
    assert!(matches!(with(net_at, 0xDEAD_BEEF), Err(NnueError::UnknownNetwork { hash: 0xDEAD_BEEF })));
    assert!(Network::load(&[]).is_err());
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let err = Network::load_file(std::path::Path::new("/nonexistent/nn.bin")).map(|_| ()).unwrap_err();
    assert!(err.to_string().starts_with("cannot read /nonexistent/nn.bin: "), "{err}");
}
