//! KIF, KI2 and CSA against kif-csa.md: its examples (the CSA one byte for byte), handicap names,
//! board diagrams, ShogiGUI's engine comments, floodgate's CSA comments, several CSA games in one
//! file and V3.0, and KI2's relative words.

use crate::support::records::{read_one, usi_moves as usi, written};
use crate::support::{line, play};
use hisha::position::{GameResult, ResultReason, Winner};
use hisha::record::{Format, GameRecord, Score, Start, ki2, read_games};
use hisha::{Color, Handicap, Position};

// kif-csa.md §1.
const KIF: &str = concat!(
    "#KIF version=2.0 encoding=UTF-8\n",
    "開始日時：2024/01/01 10:00:00\n",
    "手合割：平手\n",
    "先手：Alice\n",
    "後手：Bob\n",
    "手数----指手---------消費時間--\n",
    "   1 ７六歩(77)   ( 0:03/00:00:03)\n",
    "   2 ３四歩(33)   ( 0:02/00:00:02)\n",
    "   3 ２二角成(88) ( 0:05/00:00:08)\n",
    "   4 同　銀(31)   ( 0:04/00:00:06)\n",
    "   5 ４五角打     ( 0:10/00:00:18)\n",
    "   6 投了         ( 0:07/00:00:13)\n",
    "まで5手で先手の勝ち\n",
    "\n",
    "変化：2手\n",
    "   2 ８四歩(83)   ( 0:01/00:00:01)\n",
);

#[test]
fn the_kif_example_in_utf8_and_shift_jis() {
    let rec = read_one(KIF.as_bytes(), Format::Kifu);
    assert_eq!(usi(&rec), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(
        (rec.tag("Black"), rec.tag("White"), rec.tag("Date")),
        (Some("Alice"), Some("Bob"), Some("2024/01/01 10:00:00"))
    );
    assert_eq!(
        (rec.moves[4].time_ms, rec.moves[4].total_ms, rec.end_time_ms),
        (Some(10_000), Some(18_000), Some(7_000))
    );
    assert_eq!(rec.result, Some(GameResult::loss(Color::White, ResultReason::Resign)));
    assert_eq!(rec.variations.len(), 1);
    assert_eq!((rec.variations[0].ply, rec.variations[0].moves[0].mv.to_string()), (2, "8c8d".to_string()));
    let sjis = encoding_rs::SHIFT_JIS.encode(&KIF.replace("#KIF version=2.0 encoding=UTF-8\n", "")).0.into_owned();
    assert_eq!(read_one(&sjis, Format::Kif), rec);
    // Written back (Shift_JIS for .kif), the moves, times and terminal line are those of the example.
    let text = encoding_rs::SHIFT_JIS.decode(&written([&rec], Format::Kif)).0.into_owned();
    let example_moves = KIF.lines().skip(5).take(7).collect::<Vec<_>>().join("\n");
    assert!(text.contains(&example_moves), "{example_moves}\n{text}");
    assert!(text.contains("\n\n変化：2手\n   2 ８四歩(83)   ( 0:01/00:00:01)\n"), "{text}");
}

#[test]
fn kif_handicap_names_and_board_diagrams() {
    for h in Handicap::ALL {
        let text = format!("手合割：{}\n下手：Shitate\n上手：Uwate\n", h.kif_name());
        assert_eq!(read_one(text.as_bytes(), Format::Kifu).start, Start::Handicap(h), "{h:?}");
    }
    let rook = read_one("手合割：飛落ち\n   1 ６四歩(63)   ( 0:02/00:00:02)\n".as_bytes(), Format::Kifu);
    assert_eq!((rook.start.clone(), usi(&rook)), (Start::Handicap(Handicap::Rook), vec!["6c6d".to_string()]));
    // A board diagram (kif-csa.md §1), White to move, 手数＝30 (so the moves are numbered from 31).
    let bod = "手合割：その他\n後手の持駒：銀二　\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
|v香v桂 ・v金v玉v金 ・v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n\
| 香 桂 銀 金 玉 金 銀 桂 香|九\n+---------------------------+\n先手の持駒：なし\n後手番\n手数＝30\n\
  31 ５二銀打     ( 0:01/00:00:01)\n\n変化：31手\n  31 ３二銀打     ( 0:01/00:00:01)\n";
    let rec = read_one(bod.as_bytes(), Format::Kifu);
    assert_eq!(rec.start.sfen(), "ln1gkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2s 31");
    assert_eq!(usi(&rec), ["S*5b"]);
    assert_eq!((rec.variations[0].ply, rec.variations[0].moves[0].mv.to_string()), (1, "S*3b".to_string()));
}

#[test]
fn shogigui_engine_comments_and_a_foul_win() {
    // The layout of a ShogiGUI .kifu (as kept in muzudho/kif-parser): `**対局` lines with depth,
    // nodes, score (Black's view) and a PV that starts with the move played, written with `同　`.
    let text = "開始日時：2021/10/02 22:35:06\n手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n\
   1 ７六歩(77)        ( 0:00/00:00:00)\n**対局 深さ 2 ノード数 960 評価値 0 読み筋 ▲７六歩(77) \n\
   2 ３四歩(33)        ( 0:00/00:00:00)\n**対局 深さ 2 ノード数 1123 評価値 100 読み筋 △３四歩(33) ▲２二角成(88) △同　銀(31) \n\
   3 ２二角成(88)       ( 0:01/00:00:01)\n**対局 深さ 3 ノード数 554 評価値 +詰 5 読み筋 ▲２二角成(88) \n\
   4 反則勝ち           ( 0:00/00:00:00)\nまで3手で後手の反則勝ち\n";
    let rec = read_one(text.as_bytes(), Format::Kifu);
    assert_eq!(usi(&rec), ["7g7f", "3c3d", "8h2b+"]);
    let e = &rec.moves[1].engine;
    // White's move judged +100 in Black's view: -100 for White, the mover.
    assert_eq!((e.depth, e.nodes, e.score), (Some(2), Some(1123), Some(Score::Cp(-100))));
    assert_eq!(e.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["3c3d", "8h2b+", "3a2b"]);
    assert_eq!(rec.moves[2].engine.score, Some(Score::Mate(5)));
    // 反則勝ち: White, to move, wins because Black's last move was a foul (no perpetual check here).
    assert_eq!(rec.result, Some(GameResult::win(Color::White, ResultReason::IllegalMove)));
}

// kif-csa.md §2.
const CSA: &str = "V2.2\nN+Alice\nN-Bob\n$START_TIME:2024/01/01 10:00:00\n$TIME_LIMIT:00:10+30\nPI\n+\n+7776FU\nT3\n\
-3334FU\nT2\n+8822UM\nT5\n-3122GI\nT4\n+0045KA\nT10\n%TORYO\n";

#[test]
fn the_csa_example_reads_and_writes_back_byte_for_byte() {
    let rec = read_one(CSA.as_bytes(), Format::Csa);
    assert_eq!(usi(&rec), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!((rec.moves[4].time_ms, rec.moves[4].total_ms), (Some(10_000), Some(18_000)));
    assert_eq!(rec.tag("TimeControl"), Some("00:10+30"));
    // Written as CSA V3.0: its encoding line first, the rest as read.
    let v3 = format!("'CSA encoding=UTF-8\nV3.0\n{}", CSA.strip_prefix("V2.2\n").expect("V2.2"));
    assert_eq!(String::from_utf8(written([&rec], Format::Csa)).expect("utf-8"), v3);
    // The 2-piece handicap start of the same section.
    let h = read_one(b"V2.2\nPI82HI22KA\n-\n-6364FU\n", Format::Csa);
    assert_eq!((h.start.clone(), usi(&h)), (Start::Handicap(Handicap::TwoPiece), vec!["6c6d".to_string()]));
}

#[test]
fn several_csa_games_v3_and_statements_joined_by_commas() {
    let text = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\n$TIME:600+10+0\n$MAX_MOVES:256\nPI\n+\n+7776FU,T3.5\n-3334FU,T2\n%MAX_MOVES\n/\n\
V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \n\
P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+2726FU\n%CHUDAN\n/\nV2.2\nPI\n+\n+9997KY\n";
    let games = read_games(text.as_bytes(), Format::Csa);
    assert_eq!(games.len(), 3);
    let a = games[0].as_ref().expect("reads");
    assert_eq!(
        (a.tag("Black"), a.tag("TimeControl"), a.tag("MAX_MOVES")),
        (Some("先手"), Some("600+10+0"), Some("256"))
    );
    assert_eq!(a.moves[0].time_ms, Some(3_500));
    assert_eq!(a.result, Some(GameResult::draw(ResultReason::MaxMoves)));
    let b = games[1].as_ref().expect("reads");
    assert_eq!((b.start.clone(), usi(b)), (Start::default(), vec!["2g2f".to_string()]));
    assert_eq!(b.result.map(|r| r.winner), Some(Winner::Unfinished));
    let c = games[2].as_ref().expect_err("the lance's way is blocked by its own pawn");
    assert_eq!((c.line, c.column), (30, 1));
}

#[test]
fn floodgate_csa_comments_carry_the_engines_scores_and_pvs() {
    // floodgate's layout: V2, `'` lines for programs, a P1-P9 board, `'**` after each move with the
    // score from Black's side and the expected continuation after the move.
    let text = "V2\nN+sente_engine\nN-gote_engine\n'Max_Moves:256\n'Least_Time_Per_Move:0\n$EVENT:wdoor+floodgate-300-10F\n\
$START_TIME:2017/03/02 21:00:02\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
P8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n'rating:sente_engine+x:gote_engine+y\n+2726FU\nT0\n'** 0\n\
-3334FU\nT1\n'** -35 +2625FU -8384FU\n+2625FU\nT2\n'** 47 -8384FU\n%TORYO\n";
    let rec = read_one(text.as_bytes(), Format::Csa);
    assert_eq!(usi(&rec), ["2g2f", "3c3d", "2f2e"]);
    assert_eq!(rec.moves[0].engine.score, Some(Score::Cp(0)));
    // White's -35 from Black's side is +35 for White; its PV is its move and the continuation.
    assert_eq!(rec.moves[1].engine.score, Some(Score::Cp(35)));
    assert_eq!(rec.moves[1].engine.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["3c3d", "2f2e", "8c8d"]);
    assert_eq!(rec.moves[2].engine.score, Some(Score::Cp(47)));
    assert_eq!(rec.tag("Event"), Some("wdoor+floodgate-300-10F"));
    assert!(rec.summary.is_empty() && rec.moves.iter().all(|m| m.comments.is_empty()), "`'` lines are for programs");
}

fn after(sfen: &str, moves: &[&str]) -> Position {
    let mut p = Position::from_sfen(sfen).expect("valid");
    play(&mut p, moves);
    p
}

#[test]
fn ki2_relative_words_read_and_write() {
    // (position, KI2 text, USI move): 右/左 from the mover's seat, 上/引/寄/直, 打, 成/不成, 行.
    let cases: [(&str, &str, &str); 15] = [
        ("4k4/9/9/9/9/9/9/3G1G3/4K4 b - 1", "▲５八金右", "4h5h"),
        ("4k4/9/9/9/9/9/9/3G1G3/4K4 b - 1", "▲５八金左", "6h5h"),
        ("4k4/9/9/9/9/5G3/9/5G3/4K4 b - 1", "▲４七金上", "4h4g"),
        ("4k4/9/9/9/9/5G3/9/5G3/4K4 b - 1", "▲４七金引", "4f4g"),
        ("4k4/9/9/9/9/5G3/9/5G3/4K4 b - 1", "▲４七金行", "4h4g"),
        ("4k4/9/9/9/9/9/9/4GG3/4K4 b - 1", "▲５七金直", "5h5g"),
        ("4k4/9/9/9/9/9/9/4GG3/4K4 b - 1", "▲５七金右", "4h5g"),
        ("4k4/9/9/9/9/9/4G4/3G5/4K4 b - 1", "▲５八金寄", "6h5h"),
        ("4k4/9/9/9/9/9/4G4/3G5/4K4 b - 1", "▲５八金引", "5g5h"),
        ("4k4/9/9/9/9/4S4/9/9/4K4 b S 1", "▲５五銀打", "S*5e"),
        ("4k4/9/9/9/9/4S4/9/9/4K4 b S 1", "▲５五銀", "5f5e"),
        ("4k4/3g1g3/9/9/9/9/9/9/4K4 w - 1", "△５二金右", "6b5b"),
        ("4k4/3g1g3/9/9/9/9/9/9/4K4 w - 1", "△５二金左", "4b5b"),
        ("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀不成", "5d5c"),
        ("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀成", "5d5c+"),
    ];
    for (sfen, text, expected) in cases {
        let pos = after(sfen, &[]);
        let m = ki2::read_move(&pos, text, 1).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(m.to_string(), expected, "{text} in {sfen}");
        if !text.ends_with('行') {
            assert_eq!(ki2::write_move(&pos, m), text, "{expected} in {sfen}");
        }
    }
    // Two dragons: 右/左, never 直 (日本将棋連盟's notation rules).
    let dragons = after("4k4/9/9/9/9/9/2+R+R5/9/4K4 b - 1", &[]);
    let up = dragons.parse_usi_move("6g6f").expect("legal");
    assert_eq!(ki2::write_move(&dragons, up), "▲６六龍右");
    assert!(ki2::read_move(&dragons, "▲６六龍", 1).is_err(), "ambiguous without a word");
}

#[test]
fn kifu_for_windows_variation_marks_and_tsume_words() {
    // A `+` after a move's times marks a move with variations (Kifu for Windows); 不詰 ends a
    // tsume record without a result; CSA's %FUZUMI likewise.
    let text = "手合割：平手\n   1 ７六歩(77)   ( 0:03/00:00:03)+\n   2 不詰         ( 0:01/00:00:01)\n\n変化：1手\n   1 ２六歩(27)   ( 0:01/00:00:01)\n";
    let rec = read_one(text.as_bytes(), Format::Kifu);
    assert_eq!((rec.moves[0].time_ms, rec.variations.len()), (Some(3_000), 1));
    // An end time after the moves belongs to the game.
    let late =
        read_one("先手：A\n   1 ７六歩(77)\n   2 投了\n終了日時：2024/01/01 12:00:00\n".as_bytes(), Format::Kifu);
    assert_eq!(late.tag("GameEndTime"), Some("2024/01/01 12:00:00"));
    assert_eq!(rec.result.map(|r| r.winner), Some(Winner::Unfinished));
    let csa = read_one(b"V2.2\nPI\n+\n+7776FU\n%FUZUMI\n", Format::Csa);
    assert_eq!(csa.result.map(|r| r.winner), Some(Winner::Unfinished));
}

fn written_text(rec: &GameRecord, f: Format) -> String {
    String::from_utf8(written([rec], f)).expect("KIFU and KI2U are UTF-8")
}

#[test]
fn move_times_are_rounded_where_a_format_has_seconds_and_kept_in_csa() {
    // A byoyomi-1000 game: moves of 999, 512 and 1480 ms were all `0:00`/`T0` (truncated).
    let mut rec = GameRecord::new(Start::default(), play(&mut Position::startpos(), &["7g7f", "3c3d", "2g2f"]));
    for (m, (t, total)) in rec.moves.iter_mut().zip([(999, 999), (512, 512), (1480, 2479)]) {
        (m.time_ms, m.total_ms) = (Some(t), Some(total));
    }
    let kif = written_text(&rec, Format::Kifu);
    let rows =
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ２六歩(27)   ( 0:01/00:00:02)\n";
    assert!(kif.contains(rows), "{kif}");
    let csa = written_text(&rec, Format::Csa);
    assert!(csa.contains("+7776FU\nT0.999\n-3334FU\nT0.512\n+2726FU\nT1.48\n"), "{csa}");
    let back = read_one(csa.as_bytes(), Format::Csa);
    assert_eq!(
        back.moves.iter().map(|m| (m.time_ms, m.total_ms)).collect::<Vec<_>>(),
        [(Some(999), Some(999)), (Some(512), Some(512)), (Some(1480), Some(2479))]
    );
    let psn = written_text(&rec, Format::Psn);
    assert!(psn.contains("1.P7g-7f          (00:01 / 00:00:01)\n2.P3c-3d          (00:01 / 00:00:01)\n3.P2g-2f          (00:01 / 00:00:02)"), "{psn}");
}

#[test]
fn kif_and_ki2_end_with_the_result_line_cshogi_reads() {
    let pos = Position::startpos();
    let m = pos.parse_usi_move("7g7f").expect("legal");
    let mut rec = GameRecord::new(Start::default(), [m]);
    // White resigns after 1 move: terminal word `投了`, then `まで1手で先手の勝ち` (kif-csa.md §1).
    rec.result = Some(GameResult::loss(Color::White, ResultReason::Resign));
    let kif = written_text(&rec, Format::Kifu);
    assert!(kif.contains("   2 投了         ( 0:00/00:00:00)\nまで1手で先手の勝ち\n"), "{kif}");
    assert!(written_text(&rec, Format::Ki2u).contains("▲７六歩\nまで1手で先手の勝ち\n"));
    // White to move loses by its own foul: `反則負け` and the loser named in the `まで` line.
    rec.result = Some(GameResult::loss(Color::White, ResultReason::IllegalMove));
    assert!(written_text(&rec, Format::Kifu).contains("   2 反則負け     ( 0:00/00:00:00)\nまで1手で後手の反則負け\n"));
    // Checkmate in KI2: the line cshogi reads, and hisha's note for the reason the line cannot tell.
    rec.result = Some(GameResult::loss(Color::White, ResultReason::Checkmate));
    let ki2 = written_text(&rec, Format::Ki2u);
    assert!(ki2.contains("#hisha-result: black checkmate\nまで1手で先手の勝ち\n"), "{ki2}");
    // Handicap games name 下手 and 上手.
    let mut h = GameRecord::new(Start::Handicap(Handicap::TwoPiece), []);
    h.result = Some(GameResult::draw(ResultReason::Repetition));
    assert!(written_text(&h, Format::Kifu).contains("   1 千日手       ( 0:00/00:00:00)\nまで0手で千日手\n"));
    h.result = Some(GameResult::loss(Color::Black, ResultReason::Resign));
    assert!(written_text(&h, Format::Kifu).contains("まで0手で上手の勝ち\n"));
    let stopped = GameResult { winner: Winner::Unfinished, reason: ResultReason::Interrupt };
    h.result = Some(stopped);
    assert!(written_text(&h, Format::Ki2u).ends_with("まで0手で中断\n\n"));
}

#[test]
fn a_kif_result_line_without_a_terminal_move_gives_the_result() {
    // As some tools write it: moves, then only `まで…` (here a foul loss that names the loser).
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の反則負け\n";
    assert_eq!(
        read_one(text.as_bytes(), Format::Kifu).result,
        Some(GameResult::win(Color::Black, ResultReason::IllegalMove))
    );
    let time = "手合割：平手\n   1 ７六歩(77)\nまで1手で時間切れにより先手の勝ち\n";
    assert_eq!(read_one(time.as_bytes(), Format::Kifu).result, Some(GameResult::win(Color::Black, ResultReason::Time)));
    // The terminal word decides when both are there (詰み is more than `先手の勝ち` says).
    let mate = "手合割：平手\n   1 ７六歩(77)\n   2 詰み\nまで1手で先手の勝ち\n";
    assert_eq!(
        read_one(mate.as_bytes(), Format::Kifu).result,
        Some(GameResult::loss(Color::White, ResultReason::Checkmate))
    );
}

#[test]
fn ki2_is_written_in_shift_jis_and_ki2u_in_utf8() {
    // kif-csa.md: `.kif` is Shift_JIS and `.kifu` UTF-8; KI2 follows the same rule (`.ki2` is
    // Shift_JIS for Kifu for Windows, Shogidokoro and cshogi; `.ki2u` UTF-8).
    let mut rec = line(&["7g7f", "3c3d", "8h2b+"]);
    rec.set_tag("Black", "先手の名前");
    rec.result = Some(GameResult::loss(Color::White, ResultReason::Resign));
    let write = |f: Format| written([&rec], f);
    let utf8 = String::from_utf8(write(Format::Ki2u)).expect("KI2U is UTF-8");
    assert!(utf8.contains("▲７六歩"), "{utf8}");
    let sjis = write(Format::Ki2);
    assert!(std::str::from_utf8(&sjis).is_err(), "KI2 is not UTF-8");
    assert_eq!(sjis, encoding_rs::SHIFT_JIS.encode(&utf8).0.as_ref());
    assert_eq!(read_one(&sjis, Format::Ki2), read_one(utf8.as_bytes(), Format::Ki2u));
    assert_eq!(read_one(&sjis, Format::Ki2).moves.len(), 3);
    // Names, extensions and detection tell the two apart as they do KIF and KIFU.
    assert_eq!("ki2u".parse::<Format>(), Ok(Format::Ki2u));
    assert_eq!(Format::Ki2u.extension(), "ki2u");
    assert_eq!(Format::from_path("games/a.KI2U"), Some(Format::Ki2u));
    assert_eq!(Format::from_path("games/a.ki2"), Some(Format::Ki2));
    assert!(Format::Ki2u.one_game_per_file());
    assert_eq!(hisha::record::detect_format(&utf8, Some("a.ki2u")), Some(Format::Ki2u));
    assert_eq!(hisha::record::detect_format(&utf8, None), Some(Format::Ki2));
}
