//! Parsing and printing commands: round trips, tolerance, errors with their column.

use super::*;

fn parse(s: &str) -> Result<UsiCommand, UsiError> {
    s.parse()
}

#[test]
fn round_trips() {
    for line in [
        "usi",
        "isready",
        "setoption name USI_Hash value 256",
        "setoption name Skill Level value 20",
        "setoption name ClearHash",
        "usinewgame",
        "position startpos",
        "position startpos moves 7g7f 3c3d",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
        "go btime 600000 wtime 600000 byoyomi 10000",
        "go ponder btime 1000 wtime 2000 binc 500 winc 500",
        "go infinite",
        "go mate 60000",
        "go mate infinite",
        "go nodes 10000",
        "go depth 7",
        "go movetime 500",
        "stop",
        "ponderhit",
        "gameover win",
        "gameover",
        "quit",
    ] {
        let c = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(c.to_string(), line);
    }
}

#[test]
fn tolerant_forms() {
    assert_eq!(parse("position startpos moves"), parse("position startpos"));
    assert_eq!(parse("  position   startpos\tmoves 7g7f\r"), parse("position startpos moves 7g7f"));
    assert_eq!(
        parse("go mate"),
        Ok(UsiCommand::Go(GoParams { mate: Some(MateLimit::Infinite), ..GoParams::default() }))
    );
    assert_eq!(
        parse("go btime 0 wtime 0 frobnicate byoyomi 1000").map(|c| c.to_string()),
        Ok("go btime 0 wtime 0 byoyomi 1000".into())
    );
    assert_eq!(parse("gameover abort"), Ok(UsiCommand::GameOver(None)));
    assert_eq!(
        parse("position sfen 4k4/9/9/9/9/9/9/9/4K4 b -").map(|c| c.to_string()),
        Ok("position sfen 4k4/9/9/9/9/9/9/9/4K4 b -".into())
    );
    assert!(matches!(parse("SetOption name x"), Err(UsiError::Unknown { .. })), "commands are case-sensitive");
    assert_eq!(
        parse("setoption NAME usi_hash VALUE 16"),
        Ok(UsiCommand::SetOption { name: "usi_hash".into(), value: Some("16".into()) })
    );
}

#[test]
fn a_setoption_value_is_the_rest_of_the_line_as_written() {
    let value = |line: &str| match parse(line) {
        Ok(UsiCommand::SetOption { value, .. }) => value,
        other => panic!("{line}: {other:?}"),
    };
    // A Windows folder with two spaces, and a Japanese one with a full-width space (U+3000).
    assert_eq!(value("setoption name BookFile value C:\\My  Books\\a.db").as_deref(), Some("C:\\My  Books\\a.db"));
    assert_eq!(
        value("setoption name EvalFile value  C:\\将棋\u{3000}ソフト\\nn.bin \r").as_deref(),
        Some("C:\\将棋\u{3000}ソフト\\nn.bin")
    );
    assert_eq!(value("setoption name BookFile value\tmy book.db").as_deref(), Some("my book.db"));
    assert_eq!(value("setoption name BookFile value").as_deref(), Some(""));
    assert_eq!(value("setoption name BookFile value   ").as_deref(), Some(""));
}

#[test]
fn errors_name_the_problem() {
    assert_eq!(parse(""), Err(UsiError::Empty));
    assert_eq!(parse("hello world"), Err(UsiError::Unknown { word: "hello".into(), column: 1 }));
    assert_eq!(
        parse("go btime ten").map_err(|e| e.to_string()),
        Err("column 10: go: btime: \"ten\" is not a number".into())
    );
    assert!(parse("go depth").is_err());
    assert!(parse("position").is_err());
    assert!(parse("position sfen 4k4/9/9 b").is_err());
    assert!(parse("position fen x").is_err());
    assert!(parse("setoption value 3").is_err());
}

#[test]
fn errors_name_the_column_of_the_bad_word_or_the_end_for_a_missing_one() {
    let column = |s: &str| parse(s).err().and_then(|e| e.column());
    assert_eq!(column("  hello"), Some(3));
    assert_eq!(column("go depth"), Some(9), "one past the end: the number is missing");
    assert_eq!(column("go\tnodes 5 depth x"), Some(18));
    assert_eq!(column("position"), Some(9));
    assert_eq!(column("position moves 7g7f"), Some(10));
    assert_eq!(column("position fen x"), Some(10));
    assert_eq!(column("position sfen 4k4/9/9 b"), Some(10));
    assert_eq!(column("setoption value 3"), Some(11));
    assert_eq!(column("setoption name value 3"), Some(16));
    assert_eq!(column("go mate 五"), Some(9), "columns count characters, not bytes");
    assert_eq!(column("手 go"), Some(1));
    assert_eq!(column("go movetime 1 byoyomi 五五"), Some(23));
    assert_eq!(parse("   ").err().and_then(|e| e.column()), None, "an empty line has none");
}
