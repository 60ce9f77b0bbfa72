//! Record helpers for the tests of readers and writers: the one game of a text, games written to
//! bytes, a game's moves in USI.

use hisha::record::{Format, GameRecord, RecordWriter, read_games};

/// The one game of record text `bytes` in `format`; panics (showing the text) if there is not
/// exactly one or it cannot be read.
pub fn read_one(bytes: &[u8], format: Format) -> GameRecord {
    let mut games = read_games(bytes, format);
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(bytes));
    games.remove(0).unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(bytes)))
}

/// `games` written in `format` as a new file.
pub fn written<'a>(games: impl IntoIterator<Item = &'a GameRecord>, format: Format) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format, true);
    for g in games {
        w.write(g).unwrap_or_else(|e| panic!("{format}: {e}"));
    }
    w.into_inner()
}

/// The moves of a game's main line in USI.
pub fn usi_moves(rec: &GameRecord) -> Vec<String> {
    rec.moves.iter().map(|m| m.mv.to_string()).collect()
}
