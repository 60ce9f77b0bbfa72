//! Streaming: [`GameReader`] reads any `BufRead` one game at a time and gives what reading the
//! whole text gives, whatever the line ends (LF, CRLF, lone CR), a BOM, Shift_JIS, or a reader
//! that hands over one byte at a time; a broken game in the middle of a file is reported with its
//! line and column and its readable start (what `--keep-partial` keeps), and the games around it
//! are read.

use super::games::generated_games;
use crate::support::records::written as write_all;
use hisha::record::{Format, GameReader, GameRecord, RecordErrorKind, decode_text, read_games};
use std::io::{BufReader, Cursor, Read};

fn streamed(bytes: &[u8], f: Format) -> Vec<Result<GameRecord, hisha::record::RecordError>> {
    GameReader::new(Cursor::new(bytes), f).collect()
}

/// The same text with other line ends.
fn with_line_ends(bytes: &[u8], end: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for &b in bytes {
        if b == b'\n' {
            out.extend_from_slice(end);
        } else {
            out.push(b);
        }
    }
    out
}

/// A reader that hands over one byte per call.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn streaming_gives_what_reading_the_whole_text_gives() {
    let games = generated_games(24, 11);
    for f in Format::ALL {
        let bytes = write_all(&games, f);
        let whole = read_games(&bytes, f);
        assert_eq!(streamed(&bytes, f), whole, "{f}");
        // Detected from the content, and handed over a byte at a time.
        let detected = GameReader::detect(BufReader::with_capacity(1, Trickle(&bytes)), None);
        // KIF and KIFU, KI2 and KI2U differ only in encoding.
        let expected = match f {
            Format::Kifu => Format::Kif,
            Format::Ki2u => Format::Ki2,
            f => f,
        };
        assert_eq!(detected.format(), Some(expected), "{f}");
        assert_eq!(detected.collect::<Vec<_>>(), whole, "{f}");
        // CRLF and lone CR line ends read the same (line numbers included).
        for end in [&b"\r\n"[..], b"\r"] {
            let other = with_line_ends(&bytes, end);
            assert_eq!(read_games(&other, f), whole, "{f} {end:?}");
            assert_eq!(streamed(&other, f), whole, "{f} {end:?} streamed");
        }
    }
}

#[test]
fn encodings_are_found_per_file() {
    let games = generated_games(6, 12);
    let utf8 = write_all(&games, Format::Kifu);
    let text = decode_text(&utf8).into_owned();
    let sjis = encoding_rs::SHIFT_JIS.encode(&text).0.into_owned();
    let expected = read_games(&utf8, Format::Kif);
    assert_eq!(read_games(&sjis, Format::Kif), expected);
    assert_eq!(streamed(&sjis, Format::Kif), expected);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(text.as_bytes());
    assert_eq!(streamed(&bom, Format::Kif), expected);
    // PSN2 is written with a BOM, once per file.
    let psn2 = write_all(&games, Format::Psn2);
    assert!(psn2.starts_with(b"\xEF\xBB\xBF[Black \""));
    assert_eq!(psn2.windows(3).filter(|w| w == b"\xEF\xBB\xBF").count(), 1);
}

/// A game of `moves` (USI) from the even start, with both players' names.
fn line(moves: &[&str]) -> GameRecord {
    let mut g = crate::support::line(moves);
    g.set_tag("Black", "b");
    g.set_tag("White", "w");
    g
}

#[test]
fn a_broken_game_is_reported_with_line_and_column_and_the_others_are_read() {
    let games = [line(&["2g2f", "8c8d"]), line(&["7g7f", "3c3d"]), line(&["5g5f", "5c5d"])];
    // How each format writes 7g7f, and an illegal replacement (a pawn cannot move two squares).
    let cases = [
        (Format::Psn, "P7g-7f", "P7g-7e"),
        (Format::Psn2, "7g7f", "7g7e"),
        (Format::Kifu, "７六歩(77)", "７五歩(77)"),
        (Format::Ki2, "▲７六歩", "▲７五歩"),
        (Format::Csa, "+7776FU", "+7775FU"),
        (Format::Usi, "7g7f", "7g7e"),
    ];
    for (f, good, bad) in cases {
        let text = hisha::record::decode_text(&write_all(&games, f)).into_owned();
        assert_eq!(text.matches(good).count(), 1, "{f}: {text}");
        let broken = text.replacen(good, bad, 1);
        let at = broken.find(bad).expect("replaced");
        let line_start = broken[..at].rfind('\n').map_or(0, |i| i + 1);
        let expected_line = broken[..at].matches('\n').count() + 1;
        // PSN words carry their move number (`1.P7g-7e`): the column is the word's.
        let word_start = if matches!(f, Format::Psn | Format::Psn2) {
            broken[..at].rfind([' ', '\n']).map_or(0, |i| i + 1)
        } else {
            at
        };
        let expected_column = broken[line_start..word_start].chars().count() + 1;
        for result in [read_games(broken.as_bytes(), f), streamed(broken.as_bytes(), f)] {
            assert_eq!(result.len(), 3, "{f}");
            assert!(result[0].is_ok() && result[2].is_ok(), "{f}: {result:?}");
            let e = result[1].as_ref().expect_err("broken");
            assert_eq!((e.line, e.column), (expected_line, expected_column), "{f}: {e}\n{broken}");
            assert!(matches!(e.kind, RecordErrorKind::IllegalMove { ply: 1, .. }), "{f}: {e}");
        }
    }
}

/// A reader that fails after some bytes.
struct Failing<'a>(&'a [u8]);

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn a_read_error_is_reported_once_and_ends_the_stream() {
    let bytes = write_all(&[line(&["2g2f"]), line(&["7g7f"])], Format::Usi);
    let got: Vec<_> = GameReader::new(BufReader::new(Failing(&bytes)), Format::Usi).collect();
    // The first game is complete when the second line starts; the second may not be, and is not
    // reported as a game.
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].is_ok());
    assert!(matches!(&got[1], Err(e) if matches!(&e.kind, RecordErrorKind::Io(m) if m.contains("disk on fire"))));
}

#[test]
fn a_broken_game_carries_its_readable_start_and_the_next_game_is_read() {
    // Game 2 breaks at its third move (7g is empty); games 1 and 3 are whole.
    let text = "startpos moves 2g2f\nstartpos moves 7g7f 3c3d 7g7f 8c8d\nstartpos moves 5g5f\n";
    let games: Vec<_> = GameReader::new(Cursor::new(text), Format::Usi).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games.iter().filter(|g| g.is_ok()).count(), 2);
    let e = games[1].as_ref().expect_err("broken");
    assert_eq!((e.line, e.column), (2, 26));
    assert_eq!(read_games(text.as_bytes(), Format::Usi)[1].as_ref().expect_err("same"), e, "read_games agrees");
    let start = e.partial.as_deref().expect("the readable start");
    assert_eq!(start.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["7g7f", "3c3d"]);
    assert_eq!(start.result.map(|r| r.winner), Some(hisha::position::Winner::Unfinished));
    assert!(start.moves[1].comments[0].contains("line 2, column 26: ply 3: illegal move 7g7f"), "{:?}", start.moves[1]);
    // A game that breaks before its first move, or in its headers, has no readable start.
    let early = read_games(b"startpos moves 7g7e\n", Format::Usi).remove(0).expect_err("broken");
    assert!(early.partial.is_none());
    let header = read_games("V2.2\nPI\n?\n+7776FU\n".as_bytes(), Format::Csa).remove(0).expect_err("no turn line");
    assert!(header.partial.is_none(), "{header}");
}

#[test]
fn a_game_broken_in_a_variation_keeps_its_main_line_and_result() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n\n変化：2手\n   2 ７六歩(77)\n";
    let e = read_games(text.as_bytes(), Format::Kifu).remove(0).expect_err("the variation's move is illegal");
    let start = e.partial.as_deref().expect("the readable start");
    assert_eq!((start.moves.len(), start.variations.len()), (2, 0), "the variation had no readable move");
    assert_eq!(start.result.map(|r| r.reason), Some(hisha::position::ResultReason::Resign), "ended before the error");
    assert!(start.summary.iter().any(|c| c.contains("line 7")), "{:?}", start.summary);
}
