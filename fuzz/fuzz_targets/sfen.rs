//! SFEN on any text: no panic; an accepted position writes canonical SFEN that reads back the
//! same, and every legal move in it can be played and written again (as shakmaty's targets do).
#![no_main]

use hisha::Position;
use hisha::position::sfen::parse_setup;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let setup = parse_setup(text);
    let pos = match Position::from_sfen(text) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.offset <= text.len(), "offset {} past the end: {e}", e.offset);
            return;
        }
    };
    assert!(setup.is_ok(), "a legal position is valid syntax");
    let canonical = pos.to_sfen();
    let again = Position::from_sfen(&canonical).expect("canonical SFEN of a position reads");
    assert_eq!(again.to_sfen(), canonical);
    assert_eq!(again, pos);
    for &m in pos.legal_moves().iter() {
        let mut next = pos.clone();
        next.do_move(m);
        let sfen = next.to_sfen();
        let back = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{canonical} + {m}: {sfen}: {e}"));
        assert_eq!(back.to_sfen(), sfen);
    }
});
