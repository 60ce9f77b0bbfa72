//! Format detection and the streaming reader on any bytes, as `hisha convert` reads a file: the
//! first byte picks the file name given with them; the reader that detects a format reads the
//! same games as reading the whole text in that format.
#![no_main]

use hisha::record::{GameReader, detect_format, read_games};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

const NAMES: [Option<&str>; 9] = [
    None,
    Some("game.psn"),
    Some("game.kif"),
    Some("game.KIFU"),
    Some("game.ki2"),
    Some("game.csa"),
    Some("games.usi"),
    Some("notes.txt"),
    Some("noextension"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let path = NAMES[pick as usize % NAMES.len()];
    let reader = GameReader::detect(Cursor::new(bytes), path);
    let format = reader.format();
    let games: Vec<_> = reader.collect();
    match format {
        None => assert!(games.is_empty(), "no format, yet games"),
        Some(f) => {
            assert_eq!(games, read_games(bytes, f), "{f}: detecting reader and whole-text reading differ");
            for e in games.iter().filter_map(|g| g.as_ref().err()) {
                hisha_fuzz::check_error_position(e, bytes);
            }
        }
    }
    let text = hisha::record::decode_text(bytes);
    let _ = detect_format(&text, path);
});
