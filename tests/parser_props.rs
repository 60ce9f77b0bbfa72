//! Every parser, one property test each, on random bytes and on valid input with random edits
//! (bytes inserted, deleted or replaced; lines deleted, repeated or swapped; the text cut short):
//! no panic, and every error says where it is: a line and column for records, books and engine
//! definitions, a column for USI command lines, a byte offset for SFEN. The cargo-fuzz targets in
//! `fuzz/` check the same properties at length (see fuzz/README.md). What they found is tested by
//! name: in the parsers' own test modules where they have one, and at the end of this file for the
//! record readers and writers.

use hisha::Position;
use hisha::book::Book;
use hisha::client::config::EngineConfig;
use hisha::record::{Format, GameReader, GameRecord, RecordError, RecordWriter, Score, read_games};
use hisha::usi::command::{UsiCommand, UsiError};
use hisha::usi::response::UsiResponse;
use proptest::prelude::*;
use std::path::Path;

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    InsertByte(usize, u8),
    DeleteByte(usize),
    ReplaceByte(usize, u8),
    DeleteLine(usize),
    RepeatLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
}

/// Bytes that mean something in one format or another, and some that mean nothing.
const INTERESTING: &[u8] = b"0123456789 \n\r\t/+-*.:()[]{}\"'#%,=PLNSGBRKplnsgbrkxVvbwsfenmoves\x81\xe3\xef\xff\0";

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![prop::sample::select(INTERESTING.to_vec()), any::<u8>()];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::InsertByte(i, b)),
        any::<usize>().prop_map(Edit::DeleteByte),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::ReplaceByte(i, b)),
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::RepeatLine),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::SwapLines(i, j)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

/// `original` with `edits` applied, in order.
fn edited(original: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for e in edits {
        let mut lines: Vec<Vec<u8>> = bytes.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        let n = bytes.len();
        match *e {
            Edit::InsertByte(i, b) => bytes.insert(i % (n + 1), b),
            Edit::DeleteByte(i) if n > 0 => {
                bytes.remove(i % n);
            }
            Edit::ReplaceByte(i, b) if n > 0 => bytes[i % n] = b,
            Edit::DeleteLine(i) if !lines.is_empty() => {
                lines.remove(i % lines.len());
                bytes = lines.concat();
            }
            Edit::RepeatLine(i) if !lines.is_empty() => {
                let l = lines[i % lines.len()].clone();
                lines.insert(i % lines.len(), l);
                bytes = lines.concat();
            }
            Edit::SwapLines(i, j) if !lines.is_empty() => {
                let len = lines.len();
                lines.swap(i % len, j % len);
                bytes = lines.concat();
            }
            Edit::Truncate(i) => bytes.truncate(i % (n + 1)),
            _ => {}
        }
    }
    bytes
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(), 1..6)
}

// ---- Records -------------------------------------------------------------------------------

/// The Davis sample (comments, Draft 1 notation), the psn.md §5 GUI example with nested
/// variations and times, and a game with engine data, as a user's files hold them.
fn record_sources() -> Vec<GameRecord> {
    // Plies 1-102 of the Davis sample are legal (psn.md §4).
    let davis = include_str!("data/records/davis_sample.psn").replace("103.S3h-4i", "").replace("104.B8ex5h+", "");
    let gui = "[Sente \"Alice\"]\n[Gote \"Bob\"]\n\
        [SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n\
        1.P7g-7f          (00:03 / 00:00:03)\n2.P3c-3d          (00:02 / 00:00:02)\n{two\nlines}\n\
        3.B8hx2b+         (00:05 / 00:00:08)\n4.S3ax2b          (00:04 / 00:00:06)\n\
        5.B*4e            (00:10 / 00:00:18)\n6.Resigns         (00:07 / 00:00:13)\n\nVariation:2\n\
        2.P8c-8d          (00:01 / 00:00:01)\n3.P2g-2f          (00:01 / 00:00:04)\n\nVariation:3\n\
        3.P2g-2f          (00:02 / 00:00:05)\n";
    let mut games: Vec<GameRecord> = [davis.as_bytes(), gui.as_bytes()]
        .into_iter()
        .flat_map(|b| read_games(b, Format::Psn))
        .map(|g| g.expect("a valid seed record"))
        .collect();
    let mut engine = games[1].clone();
    for (i, m) in engine.moves.iter_mut().enumerate() {
        m.engine.score = Some(if i == 2 { Score::Mate(-3) } else { Score::Cp(40 * i as i32 - 90) });
        m.engine.depth = Some(10 + i as u32);
        m.engine.nodes = Some(1000 * i as u64);
        m.engine.pv = vec![m.mv];
    }
    engine.variations.clear();
    games.push(engine);
    games
}

/// Each source record written in `format`.
fn records_in(format: Format) -> Vec<Vec<u8>> {
    record_sources()
        .iter()
        .filter_map(|g| {
            let mut w = RecordWriter::new(Vec::new(), format, true);
            w.write(g).ok()?;
            Some(w.into_inner())
        })
        .collect()
}

/// The lines of `bytes` as the readers count them.
fn text_lines(bytes: &[u8]) -> Vec<String> {
    let text = hisha::record::decode_text(bytes).replace("\r\n", "\n");
    text.split(['\n', '\r']).map(str::to_string).collect()
}

fn assert_points_into(e: &RecordError, bytes: &[u8]) {
    let lines = text_lines(bytes);
    assert!(e.line >= 1 && e.line <= lines.len() + 1, "line {} of {}: {e}", e.line, lines.len());
    let width = lines.get(e.line - 1).map_or(0, |l| l.chars().count());
    assert!(e.column >= 1 && e.column <= width + 1, "column {} of a line of {width}: {e}", e.column);
    assert!(e.to_string().starts_with(&format!("line {}, column {}: ", e.line, e.column)), "{e}");
}

/// Reading `bytes` as `format`, whole and streaming, agrees, and what it gives is a legal game
/// or an error that points into the input.
fn check_records(bytes: &[u8], format: Format) {
    let games = read_games(bytes, format);
    let streamed: Vec<_> = GameReader::new(std::io::Cursor::new(bytes), format).collect();
    assert_eq!(streamed, games, "{format}: streaming and whole-text reading differ");
    for g in &games {
        match g {
            Ok(rec) => assert!(rec.final_position().is_ok(), "{format}: a game read has a legal start"),
            Err(e) => assert_points_into(e, bytes),
        }
    }
    let detected = GameReader::detect(std::io::Cursor::new(bytes), None);
    if let Some(f) = detected.format() {
        assert_eq!(detected.collect::<Vec<_>>(), read_games(bytes, f), "detected {f}");
    }
}

fn record_case(format: Format) -> impl Strategy<Value = Vec<u8>> {
    let seeds = records_in(format);
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        (0..seeds.len(), edits()).prop_map(move |(i, e)| edited(&seeds[i], &e)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn psn_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Psn)) {
        check_records(&bytes, Format::Psn);
    }

    #[test]
    fn psn2_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Psn2)) {
        check_records(&bytes, Format::Psn2);
    }

    #[test]
    fn kif_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Kif)) {
        check_records(&bytes, Format::Kif);
    }

    #[test]
    fn kifu_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Kifu)) {
        check_records(&bytes, Format::Kifu);
    }

    #[test]
    fn ki2_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Ki2)) {
        check_records(&bytes, Format::Ki2);
    }

    #[test]
    fn csa_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Csa)) {
        check_records(&bytes, Format::Csa);
    }

    #[test]
    fn usi_line_reading_never_panics_and_errors_name_line_and_column(bytes in record_case(Format::Usi)) {
        check_records(&bytes, Format::Usi);
    }
}

// ---- SFEN ----------------------------------------------------------------------------------

const SFENS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
];

fn sfen_case() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,100}",
        (0..SFENS.len(), edits())
            .prop_map(|(i, e)| String::from_utf8_lossy(&edited(SFENS[i].as_bytes(), &e)).into_owned()),
    ]
}

// ---- USI lines -----------------------------------------------------------------------------

const COMMANDS: [&str; 8] = [
    "setoption name Skill Level value 20",
    "position sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124 moves 7g7f",
    "position startpos moves 7g7f 3c3d",
    "go ponder btime 1000 wtime 2000 binc 500 winc 500 nodes 9 depth 3 movetime 5",
    "go btime 600000 wtime 600000 byoyomi 10000 searchmoves 7g7f",
    "go mate 60000",
    "gameover lose",
    "usinewgame",
];

const RESPONSES: [&str; 6] = [
    "info depth 20 seldepth 27 multipv 1 score cp 85 nodes 1234567 nps 987654 hashfull 12 time 1250 pv 7g7f 3c3d",
    "info depth 3 score mate -4 upperbound nodes 10 time 1 currmove 1a1b pv 1a1b",
    "option name Skill Level type spin default 20 min -20 max 20",
    "bestmove 7g7f ponder 3c3d",
    "checkmate 2b2a+ 1a2a G*3b",
    "id name hisha 0.1.0",
];

fn line_case(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,80}",
        (0..valid.len(), edits())
            .prop_map(move |(i, e)| String::from_utf8_lossy(&edited(valid[i].as_bytes(), &e)).into_owned()),
    ]
}

// ---- Books and engine definitions ------------------------------------------------------------

const BOOK: &str = "#YANEURAOU-DB2016 1.00\n\
    sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3d 10 16 5\n2g2f none -20 16 3\n\
    sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n2g2f 8c8d 0 12 1\n";

const ENGINE: &str = "# an engine\nname = \"fsf\"\ncommand = \"/usr/games/fairy-stockfish\"\nargs = [\"--usi\"]\n\
    tc = \"byoyomi=1000\"\nusi_timeout = 60\ntime_margin = 1000\n[options]\nThreads = 1\n\"Move Overhead\" = 30\n";

fn text_case(valid: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        edits().prop_map(move |e| String::from_utf8_lossy(&edited(valid.as_bytes(), &e)).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn sfen_reading_never_panics_and_errors_name_the_byte(text in sfen_case()) {
        match Position::from_sfen(&text) {
            Ok(p) => prop_assert_eq!(Position::from_sfen(&p.to_sfen()).map(|q| q.to_sfen()), Ok(p.to_sfen())),
            Err(e) => {
                prop_assert!(e.offset <= text.len(), "{}", e);
                prop_assert!(e.to_string().ends_with(&format!("(at byte {})", e.offset)), "{}", e);
            }
        }
    }

    #[test]
    fn usi_commands_never_panic_and_errors_name_the_column(line in line_case(&COMMANDS)) {
        match line.parse::<UsiCommand>() {
            Ok(cmd) => {
                let printed = cmd.to_string();
                prop_assert_eq!(printed.parse::<UsiCommand>().map(|c| c.to_string()), Ok(printed));
            }
            Err(UsiError::Empty) => prop_assert!(line.trim().is_empty()),
            Err(e) => {
                let column = e.column().unwrap_or(0);
                prop_assert!(column >= 1 && column <= line.chars().count() + 1, "{} in {:?}", e, line);
                prop_assert!(e.to_string().starts_with(&format!("column {column}: ")), "{}", e);
            }
        }
    }

    #[test]
    fn usi_responses_never_panic_and_print_what_they_read(line in line_case(&RESPONSES)) {
        let Ok(r) = line.parse::<UsiResponse>();
        let printed = r.to_string();
        let Ok(again) = printed.parse::<UsiResponse>();
        prop_assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn books_never_panic_and_errors_name_line_and_column(text in text_case(BOOK)) {
        match Book::parse(&text) {
            Ok(book) => {
                let mut out = Vec::new();
                book.write(&mut out).expect("writing to memory");
                let again = Book::parse(&String::from_utf8_lossy(&out));
                prop_assert!(again.as_ref() == Ok(&book), "{:?}", again.err());
            }
            Err(e) => {
                let line = text.lines().nth(e.line.wrapping_sub(1)).unwrap_or("");
                prop_assert!(e.line >= 1 && e.line <= text.lines().count(), "{}", e);
                prop_assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{} in {:?}", e, line);
                let prefix = format!("book line {}, column {}: ", e.line, e.column);
                prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
            }
        }
    }

    #[test]
    fn engine_definitions_never_panic_and_errors_name_line_and_column(text in text_case(ENGINE)) {
        if let Err(e) = EngineConfig::from_toml(&text, Path::new("/engines"), "e", "e.toml") {
            let Some((line, column)) = e.at else { return Err(TestCaseError::fail(format!("no place: {e}"))) };
            let lines: Vec<&str> = text.split('\n').collect();
            prop_assert!(line >= 1 && line <= lines.len(), "{}", e);
            prop_assert!(column >= 1 && column <= lines[line - 1].chars().count() + 1, "{}", e);
            let prefix = format!("engine definition e.toml: line {line}, column {column}: ");
            prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
        }
    }
}

// ---- What the fuzz targets found in the record readers and writers ---------------------------

/// `bytes` read as `format`, written and read again: the one game, the text written twice.
fn rewritten(bytes: &[u8], format: Format) -> (GameRecord, Vec<u8>, GameRecord, Vec<u8>) {
    let read_one = |b: &[u8]| {
        let mut games = read_games(b, format);
        assert_eq!(games.len(), 1, "{format}: {}", String::from_utf8_lossy(b));
        games.remove(0).unwrap_or_else(|e| panic!("{format}: {e}"))
    };
    let write = |r: &GameRecord| {
        let mut w = RecordWriter::new(Vec::new(), format, true);
        w.write(r).unwrap_or_else(|e| panic!("{format}: {e}"));
        w.into_inner()
    };
    let first = read_one(bytes);
    let once = write(&first);
    let second = read_one(&once);
    let twice = write(&second);
    (first, once, second, twice)
}

#[test]
fn comments_with_empty_lines_survive_every_line_comment_format() {
    // fuzz target `csa`: `-`, `'*`, `'*` is a summary of one comment of two empty lines; the
    // writers wrote comments with `str::lines`, which drops a last empty line and writes nothing
    // for an empty comment, so the comment shrank at each trip.
    let (first, once, _, twice) = rewritten(b"-\n'*\n'*", Format::Csa);
    assert_eq!(first.summary, ["\n"]);
    assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once));
    let mut rec = GameRecord::new(Default::default(), [Position::startpos().parse_usi_move("7g7f").expect("legal")]);
    rec.summary = vec!["\nsecond\n".into()];
    rec.moves[0].comments = vec![String::new()];
    for f in [Format::Csa, Format::Kif, Format::Kifu, Format::Ki2] {
        let mut w = RecordWriter::new(Vec::new(), f, true);
        w.write(&rec).expect("writes");
        let back = read_games(&w.into_inner(), f).remove(0).expect("reads back");
        assert_eq!((&back.summary, &back.moves[0].comments), (&rec.summary, &rec.moves[0].comments), "{f}");
    }
}

#[test]
fn a_kif_tag_named_with_a_character_shift_jis_lacks_reads_back() {
    // fuzz target `kif`: the bytes FF `:` decode (as Shift_JIS) to a tag named U+FFFD, which the
    // Shift_JIS writer writes as `&#65533;：`; the reader took the line for a `&` bookmark and the
    // tag was lost on the next trip. It reads back as written, `&#65533;`.
    let (first, once, second, twice) = rewritten(b"\xff:", Format::Kif);
    assert_eq!(first.tags, [("\u{fffd}".to_string(), String::new())]);
    assert_eq!(second.tags, [("&#65533;".to_string(), String::new())]);
    assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once));
    let bookmark = read_games("手合割：平手\n&bookmark\n   1 ７六歩(77)\n".as_bytes(), Format::Kifu);
    assert_eq!(bookmark.len(), 1);
    assert!(bookmark[0].as_ref().is_ok_and(|g| g.tags.is_empty() && g.moves.len() == 1), "{bookmark:?}");
}

#[test]
fn shift_jis_half_width_kana_before_a_full_width_character_is_not_taken_for_utf8() {
    // fuzz target `kif`: the bytes C2 `:` read (as Shift_JIS) to the tag `ﾂ`, which the writer
    // writes `ﾂ：`, C2 81 46 in Shift_JIS: valid UTF-8 (U+0081 `F`), so the file written was read
    // back as UTF-8 and its first line no longer parsed.
    let (first, once, second, twice) = rewritten(b"\xc2:", Format::Kif);
    assert_eq!(first.tags, [("ﾂ".to_string(), String::new())]);
    assert_eq!(second.tags, first.tags);
    assert_eq!(twice, once);
    let text = "ﾂ：ﾂﾓﾘ\n手合割：平手\n";
    let (encoded, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(std::str::from_utf8(&encoded[..3]).is_ok(), "its first line starts as valid UTF-8");
    assert_eq!(hisha::record::decode_text(&encoded), text);
    let streamed: Vec<_> = GameReader::new(std::io::Cursor::new(encoded.as_ref()), Format::Kif).collect();
    assert_eq!(streamed, read_games(&encoded, Format::Kif));
}

#[test]
fn a_kif_header_whose_key_would_read_back_as_another_line_is_an_error() {
    // fuzz target `kif`: an indented `  #…：…` line was read as a tag named `#…` (the key is
    // trimmed), which the writer wrote as a `#` note line, so the tag was lost on the next trip.
    // The same holds for keys that would come back as a comment, a bookmark, a skipped line, a
    // variation, a move or a hand.
    for line in ["  #x：y", "  *c：d", "  &b：e", "  まで：3", "  変化：3手", "  手数：1", " 先手の持駒：歩"]
    {
        let text = format!("手合割：平手\n{line}\n");
        let games = read_games(text.as_bytes(), Format::Kifu);
        let errors: Vec<(usize, usize)> =
            games.iter().filter_map(|g| g.as_ref().err()).map(|e| (e.line, e.column)).collect();
        assert_eq!(errors, [(2, 1)], "{line:?}: {games:?}");
    }
    let fine = read_games("手合割：平手\n  棋戦：x\n".as_bytes(), Format::Kifu).remove(0).expect("an indented tag");
    assert_eq!(fine.tags, [("Event".to_string(), "x".to_string())]);
}

#[test]
fn a_stray_byte_read_as_a_c1_control_is_replaced_and_the_record_rewrites_the_same() {
    // fuzz targets `psn`, `psn2` and `ki2`: Shift_JIS 0x80 decodes (WHATWG) to U+0080, and a BOM'd
    // UTF-8 file may hold C2 80 itself. Kept, the control was written back as UTF-8 C2 80, which is
    // rightly taken for Shift_JIS (half-width `ﾂ` and a control), so the text changed on every trip.
    // Such a byte is no character: it reads as U+FFFD, which every writer keeps.
    let shift_jis = b"[Sente \"\x80\"]\n[Result \"0-1\"]\n1.Resigns\n";
    let mut utf8_bom = b"\xef\xbb\xbf".to_vec();
    utf8_bom.extend_from_slice(b"[Sente \"\xc2\x80\"]\n[Result \"0-1\"]\n1.Resigns\n");
    for (bytes, format) in [(&shift_jis[..], Format::Psn), (&utf8_bom[..], Format::Psn), (&shift_jis[..], Format::Psn2)]
    {
        let (first, once, second, twice) = rewritten(bytes, format);
        let sente = first.tags.iter().find(|(k, _)| k == "Black" || k == "Sente").cloned();
        let sente = sente.unwrap_or_else(|| panic!("{format}: {:?}", first.tags));
        assert_eq!(sente.1, "\u{fffd}", "{format}");
        assert!(second.tags.contains(&sente), "{format}: {:?}", second.tags);
        assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once), "{format}");
        let streamed: Vec<_> = GameReader::new(std::io::Cursor::new(bytes), format).collect();
        assert_eq!(streamed, read_games(bytes, format), "{format}: the streaming reader decodes the same");
    }
    let ki2 = "手合割：平手\n棋戦：\u{80}x\n▲７六歩\n".as_bytes();
    let (first, once, _, twice) = rewritten(ki2, Format::Ki2);
    assert_eq!(first.tags, [("Event".to_string(), "\u{fffd}x".to_string())]);
    assert_eq!(twice, once);
}

#[test]
fn a_second_byte_order_mark_is_not_kept_as_text_so_the_record_rewrites_the_same() {
    // fuzz target `ki2`: a file starting with two BOMs read the second as U+FEFF at the start of
    // the first tag; written first in the file, it was stripped as a BOM on the next reading.
    let bom = "\u{feff}";
    let text = format!("{bom}{bom}手合割：平手\n▲７六歩\n");
    for format in [Format::Ki2u, Format::Kifu] {
        let text =
            if format == Format::Kifu { text.replace("▲７六歩", "   1 ７六歩(77)") } else { text.clone() };
        let (first, once, second, twice) = rewritten(text.as_bytes(), format);
        assert!(first.tags.iter().all(|(k, v)| !k.contains('\u{feff}') && !v.contains('\u{feff}')), "{first:?}");
        assert_eq!(second.tags, first.tags, "{format}");
        assert_eq!(twice, once, "{format}");
        let streamed: Vec<_> = GameReader::new(std::io::Cursor::new(text.as_bytes()), format).collect();
        assert_eq!(streamed, read_games(text.as_bytes(), format), "{format}");
    }
}

#[test]
fn a_psn2_time_setting_with_a_quote_is_written_quoted_like_every_tag() {
    // fuzz target `psn2`: `BlackTimeSetting` was written without the quote replacement every other
    // tag gets, so a `"` inside it ended the value early on the next reading and tags were lost.
    let text = "\u{feff}[Black \"\"]\n[White \"\"]\n[BlackTimeSetting \"1\"2\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n1.7g7f            (00:00:00 / 00:00:00)\n";
    let (first, once, second, twice) = rewritten(text.as_bytes(), Format::Psn2);
    assert_eq!(first.tag("BlackTimeSetting"), Some("1\"2"), "{:?}", first.tags);
    // Written as every other tag holding a quote is: with `'` instead.
    assert_eq!(second.tag("BlackTimeSetting"), Some("1'2"), "{:?}", second.tags);
    assert_eq!(second.tags.len(), first.tags.len());
    assert_eq!(twice, once);
}

#[test]
fn psn_tags_differing_only_in_case_stay_in_one_game() {
    // fuzz target `psn2`: a tag `WhiteTImeSetting` was written twice (as PSN2's own time setting,
    // whose name tags match without regard to case, and again as an extra tag), and the file was
    // read back as two games, the repeated key taken for the start of the next.
    let text = "\u{feff}[Black \"Alice\"]\n[White \"Bob\"]\n[WhiteTImeSetting \"1\"]\n[SFEN \"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\"]\n1.7g7f            (00:00:00 / 00:00:00)\n";
    let (first, once, second, twice) = rewritten(text.as_bytes(), Format::Psn2);
    assert_eq!(first.tag("WhiteTimeSetting"), Some("1"));
    assert_eq!(second.tag("WhiteTimeSetting"), Some("1"), "written once, as PSN2's own tag");
    assert_eq!(second.tags.len(), first.tags.len());
    assert_eq!(twice, once);
    let two = "[Black \"A\"]\n[White \"B\"]\n\n[Black \"C\"]\n[White \"D\"]\n1.P-7f\n";
    assert_eq!(read_games(two.as_bytes(), Format::Psn).len(), 2, "a repeated key still starts a game");
}

#[test]
fn a_ki2_tag_whose_name_shift_jis_lacks_reads_back() {
    // fuzz target `ki2`: as in KIF, a tag named U+FFFD is written `&#65533;：…` in Shift_JIS, and
    // the KI2 reader skipped the line as an `&` bookmark, so the tag was lost on the next trip.
    let (first, once, second, twice) = rewritten(b"\xff:x\n", Format::Ki2);
    assert_eq!(first.tags, [("\u{fffd}".to_string(), "x".to_string())]);
    assert_eq!(second.tags, [("&#65533;".to_string(), "x".to_string())]);
    assert_eq!(twice, once);
    let bookmark = read_games("手合割：平手\n&しおり\n▲７六歩\n".as_bytes(), Format::Ki2u);
    assert!(bookmark[0].as_ref().is_ok_and(|g| g.tags.is_empty() && g.moves.len() == 1), "{bookmark:?}");
}
