//! YaneuraOu's 40-byte training record (`PackedSfenValue`) on any bytes (the first 40, zeros
//! after a shorter input): no panic; the record's bytes write back the same; a position decoded
//! packs again (both kings are always there), and that packing decodes to the same position and
//! packs to itself. The format is not a bijection — the "piece box" after the hands is read
//! over, and hand pieces may come in any order — so only packing is required to be canonical.
//! The record's move, where legal, and every 16-bit move that names one, write back to the same
//! 16 bits; so does every legal move of a decoded position.
#![no_main]

use hisha_nnue::packed_sfen::{PackedSfen, PackedSfenValue, RECORD_BYTES, move_from_yaneuraou, move_to_yaneuraou};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = [0u8; RECORD_BYTES];
    let n = data.len().min(RECORD_BYTES);
    bytes[..n].copy_from_slice(&data[..n]);
    let record = PackedSfenValue::from_bytes(&bytes);
    assert_eq!(record.to_bytes(), bytes, "the record's fields write back to its bytes");
    if let Some(m) = move_from_yaneuraou(record.mv) {
        assert_eq!(move_to_yaneuraou(m), record.mv, "{m}");
    }
    let unpacked = record.sfen.unpack();
    let pos = match record.position() {
        Ok(pos) => pos,
        Err(e) => {
            assert_eq!(unpacked.err(), Some(e.clone()), "position() fails where unpack() does");
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let unpacked = unpacked.expect("unpack() reads what position() reads");
    let sfen = pos.to_sfen();
    let (board, number) = sfen.rsplit_once(' ').expect("SFEN has a move number");
    assert_eq!(number, (u32::from(record.game_ply) + 1).to_string(), "the move number is the game ply + 1");
    assert_eq!(unpacked.to_sfen().rsplit_once(' ').map(|(b, _)| b), Some(board));
    let packed = PackedSfen::pack(&pos).unwrap_or_else(|e| panic!("{sfen}: a decoded position packs: {e}"));
    let again = packed.unpack().unwrap_or_else(|e| panic!("{sfen}: packed, it does not unpack: {e}"));
    assert_eq!(again, unpacked, "{sfen}: packing and unpacking gives the same position");
    assert_eq!(PackedSfen::pack(&again).ok(), Some(packed), "{sfen}: packing is canonical");
    if let Some(m) = record.legal_move(&pos) {
        assert!(pos.is_legal(m), "{sfen}: {m}");
        assert_eq!(move_to_yaneuraou(m), record.mv);
    }
    for &m in pos.legal_moves().iter() {
        assert_eq!(move_from_yaneuraou(move_to_yaneuraou(m)), Some(m), "{sfen}: {m}");
    }
});
