//! The USI engine driven over pipes as GUIs drive it (usi.md §8): handshake, games, analysis,
//! pondering, mate and resignation, malformed input, determinism.

mod support;

use hisha::Position;
use hisha::usi::response::UsiResponse;
use std::time::{Duration, Instant};
use support::after;
use support::usi::{Engine, bestmove_of, nodes_of};

const SEC: Duration = Duration::from_secs(1);

#[test]
fn shogidokoro_game_sequence() {
    let mut e = Engine::start(&[]);
    let t = Instant::now();
    e.send("usi");
    let lines = e.until("usiok", 5 * SEC);
    let usi_ms = t.elapsed().as_millis();
    assert!(usi_ms < 2_000, "usiok took {usi_ms} ms");
    assert!(lines[0].starts_with("id name hisha"));
    assert!(lines.iter().any(|l| l.starts_with("option name USI_Hash type spin")));
    assert!(lines.iter().any(|l| l.starts_with("option name USI_Ponder type check")));
    e.send("setoption name USI_Hash value 256");
    e.send("setoption name USI_Ponder value false");
    e.send("isready");
    e.until("readyok", 10 * SEC);
    e.send("usinewgame");
    let mut moves = vec!["7g7f".to_string()];
    e.send("position startpos moves 7g7f");
    e.send("go btime 1000 wtime 1000 byoyomi 100");
    let best = bestmove_of(e.until("bestmove", 10 * SEC).last().expect("line"));
    assert!(after(&moves).parse_usi_move(&best).is_ok(), "illegal {best}");
    moves.push(best);
    e.send("gameover win");
    e.send("quit");
    assert_eq!(e.wait_exit(5 * SEC), Some(0));
    // Only protocol lines on stdout.
    for l in &e.transcript {
        assert!(!matches!(l.parse::<UsiResponse>(), Ok(UsiResponse::Other(_))), "not protocol: {l}");
    }
}

#[test]
fn self_played_game_has_only_legal_moves() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send("usinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..160 {
        let pos = after(&moves);
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go nodes 3000");
        let best = bestmove_of(e.until("bestmove", 10 * SEC).last().expect("line"));
        if best == "resign" {
            assert!(!pos.has_legal_move(), "resigned with legal moves in {}", pos.to_sfen());
            break;
        }
        if best == "win" {
            break;
        }
        assert!(pos.parse_usi_move(&best).is_ok(), "illegal {best} in {}", pos.to_sfen());
        moves.push(best);
    }
    assert!(moves.len() >= 20);
}

#[test]
fn handicap_start_white_moves_first() {
    let mut e = Engine::start(&[]);
    e.handshake();
    let sfen = hisha::Handicap::TwoPiece.sfen();
    e.send(&format!("position sfen {sfen}"));
    e.send("go depth 4");
    let best = bestmove_of(e.until("bestmove", 10 * SEC).last().expect("line"));
    let pos = Position::from_sfen(sfen).expect("valid");
    let m = pos.parse_usi_move(&best).expect("legal White move");
    assert_eq!(pos.moved_piece(m).map(|p| p.color()), Some(hisha::Color::White));
}

#[test]
fn infinite_waits_for_stop_and_isready_answers_mid_search() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", 5 * SEC);
    assert!(t.elapsed() < SEC, "readyok took {:?}", t.elapsed());
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop");
    let t = Instant::now();
    e.send("stop");
    let best = e.until("bestmove", 5 * SEC);
    assert!(t.elapsed() < SEC, "stop took {:?}", t.elapsed());
    assert!(Position::startpos().parse_usi_move(&bestmove_of(best.last().expect("line"))).is_ok());
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.ponder_then_ponderhit();
    // A wrong prediction: stop answers at once.
    e.send("position startpos moves 7g7f 8c8d");
    e.send("go ponder btime 0 wtime 0 byoyomi 5000");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("stop");
    e.until("bestmove", 5 * SEC);
    assert!(t.elapsed() < SEC);
}

#[test]
fn finds_mate_in_one_and_resigns_when_mated() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go depth 5");
    let lines = e.until("bestmove", 10 * SEC);
    assert_eq!(bestmove_of(lines.last().expect("line")), "G*5b");
    assert!(lines.iter().any(|l| l.contains("score mate 1 ")), "{lines:?}");
    // White is checkmated by the gold on 5b.
    e.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    e.send("go byoyomi 1000");
    assert_eq!(e.until("bestmove", 5 * SEC).last().map(String::as_str), Some("bestmove resign"));
}

#[test]
fn the_root_mate_probe_finds_a_mate_too_deep_for_the_search() {
    let mut e = Engine::start(&[]);
    e.handshake();
    // yumei 0295: mate in 11 (published; cshogi's DfPn proves 11 and disproves 9).
    let sfen = "4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1";
    e.send(&format!("position sfen {sfen}"));
    // Depth 1 (plus check extensions and quiescence) cannot see a mate in 11: the probe can.
    e.send("go depth 1");
    let lines = e.until("bestmove", 10 * SEC);
    let mate: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.split(" score mate ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(mate.iter().any(|&n| (11..=31).contains(&n) && n % 2 == 1), "{lines:?}");
    let best = bestmove_of(lines.last().expect("line"));
    let mut pos = Position::from_sfen(sfen).expect("valid");
    let mv = pos.parse_usi_move(&best).expect("legal");
    pos.do_move(mv);
    assert!(pos.in_check(), "a mating line starts with a check: {best}");
}

#[test]
fn declares_an_entering_king_win() {
    let mut e = Engine::start(&[]);
    e.handshake();
    // rules.md §6.1: king in the camp, 10 pieces there, 28 points for Black.
    e.send("position sfen +P+P+P+PK+P+P+P+P/+P+R7/9/9/9/9/9/9/k8 b RB2G2S 1");
    e.send("go byoyomi 1000");
    assert_eq!(e.until("bestmove", 5 * SEC).last().map(String::as_str), Some("bestmove win"));
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    e.send("go byoyomi 200");
    assert_ne!(e.until("bestmove", 5 * SEC).last().map(String::as_str), Some("bestmove win"));
}

#[test]
fn malformed_input_gets_one_error_line_and_state_is_kept() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send("position startpos moves 7g7f");
    let bad = [
        "frobnicate",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "position startpos moves 7g7f 3c3d 8h2b 2b2a",
        "position startpos moves 7g7f xyz",
        "go btime ten",
        "setoption name NoSuchOption value 1",
        "setoption name USI_Hash value huge",
        "position sfen 4k4/9/9/9/4R4/9/9/9/4K4 b - 1",
    ];
    for line in bad {
        e.send(line);
        let got = e.drain(Duration::from_millis(150));
        assert_eq!(got.len(), 1, "{line}: {got:?}");
        assert!(got[0].starts_with("info string error: "), "{line}: {got:?}");
    }
    // The position before the bad lines is kept: after 7g7f it is White's move.
    e.send("go depth 3");
    let best = bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line"));
    assert!(after(&["7g7f".to_string()]).parse_usi_move(&best).is_ok(), "{best}");
    // CRLF line ends and NUL bytes.
    e.send_raw(b"isready\r\n");
    e.until("readyok", 5 * SEC);
    e.send_raw(b"is\0ready\n");
    e.until("readyok", 5 * SEC);
    // Idle stop and ponderhit are ignored silently.
    e.send("stop");
    e.send("ponderhit");
    assert!(e.drain(Duration::from_millis(200)).is_empty());
}

#[test]
fn a_ten_thousand_ply_position_line_works() {
    let mut e = Engine::start(&[]);
    e.handshake();
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let moves: Vec<&str> = cycle.iter().cycle().take(10_000).copied().collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 4");
    let best = bestmove_of(e.until("bestmove", 30 * SEC).last().expect("line"));
    assert!(Position::startpos().parse_usi_move(&best).is_ok(), "{best}");
}

#[test]
fn go_nodes_is_deterministic_after_usinewgame() {
    let run = || {
        let mut e = Engine::start(&[]);
        e.send("setoption name UseBook value false");
        e.handshake();
        let mut out = Vec::new();
        for _ in 0..2 {
            e.send("usinewgame");
            e.send("position startpos moves 7g7f 3c3d 2g2f");
            e.send("go nodes 30000");
            let lines = e.until("bestmove", 30 * SEC);
            // Everything but the timing fields (nps, time) must repeat.
            let nodes: Vec<String> = lines
                .iter()
                .filter(|l| l.starts_with("info"))
                .map(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    let mut keep = Vec::new();
                    let mut i = 0;
                    while i < w.len() {
                        if w[i] == "nps" || w[i] == "time" {
                            i += 2;
                        } else {
                            keep.push(w[i]);
                            i += 1;
                        }
                    }
                    keep.join(" ")
                })
                .collect();
            out.push((nodes, lines.last().cloned()));
        }
        out
    };
    let a = run();
    assert_eq!(a[0], a[1], "same engine, twice");
    assert_eq!(a, run(), "fresh engine");
}

#[test]
fn the_last_info_before_bestmove_counts_the_whole_search() {
    // Stopped by its node budget inside an iteration, the search reports its line once more
    // with every node searched (as Stockfish does), not only those of the last finished
    // iteration: a GUI's node count and nodes per second are the search's.
    let mut e = Engine::start(&[]);
    e.send("setoption name UseBook value false");
    e.handshake();
    e.send("position startpos moves 7g7f 3c3d 2g2f");
    e.send("go nodes 30000");
    let lines = e.until("bestmove", 30 * SEC);
    let nodes: Vec<u64> = lines.iter().filter(|l| l.starts_with("info depth")).filter_map(|l| nodes_of(l)).collect();
    assert_eq!(nodes.last(), Some(&30_000), "{lines:?}");
    assert!(nodes.len() > 2 && nodes[..nodes.len() - 1].iter().all(|&n| n < 30_000), "{nodes:?}");
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.close_stdin();
    assert_eq!(e.wait_exit(5 * SEC), Some(0));
}

#[test]
fn plays_book_moves_with_a_book_and_searches_without_one() {
    let dir = support::temp_dir("usi-book");
    let book = dir.join("b.db");
    std::fs::write(&book, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f 1c1d 0 0 1\n")
        .expect("write");
    let mut e = Engine::start(&[]);
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.handshake();
    e.send("position startpos");
    e.send("go byoyomi 1000");
    let lines = e.until("bestmove", 5 * SEC);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 9g9f ponder 1c1d"), "{lines:?}");
    e.send("setoption name UseBook value false");
    e.send("go depth 3");
    let lines = e.until("bestmove", 5 * SEC);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "searched: {lines:?}");
    // A corrupt book: one warning, then the engine plays on without it.
    std::fs::write(&book, "sfen not a position\n").expect("write");
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.send("setoption name UseBook value true");
    e.send("isready");
    let lines = e.until("readyok", 5 * SEC);
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string warning: book not used")).count(), 1, "{lines:?}");
    e.send("go depth 3");
    let best = bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line"));
    assert!(Position::startpos().parse_usi_move(&best).is_ok());
    let _ = std::fs::remove_dir_all(dir);
}

/// Parses the `info … hashfull N …` value of a line.
fn hashfull_of(line: &str) -> u32 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "hashfull").expect("hashfull");
    words[i + 1].parse().expect("number")
}

/// A problem hisha does not solve in seconds (大駒煙, 45 plies; eureka・石川英樹, 詰パラ 2018-11).
const HARD: &str = "position sfen 9/9/3R5/5k3/2B6/3r1B3/9/9/9 b 4g4s4n4l18p 1";

#[test]
fn go_mate_answers_with_a_legal_mating_line() {
    let mut e = Engine::start(&[]);
    e.handshake();
    // yumei 0216 (将棋月報 1927): 5 plies.
    let sfen = "7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 10000");
    let lines = e.until("checkmate", 10 * SEC);
    let last = lines.last().expect("line");
    assert!(lines[lines.len() - 2].starts_with("info nodes "), "{lines:?}");
    let moves: Vec<&str> = last.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 5, "{last}");
    let mut p = Position::from_sfen(sfen).expect("valid");
    for (i, m) in moves.iter().enumerate() {
        let mv = p.parse_usi_move(m).expect("legal");
        p.do_move(mv);
        assert_eq!(p.in_check(), i % 2 == 0, "checks and evasions alternate: {last}");
    }
    assert!(p.is_checkmate(), "{last}");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn go_mate_answers_nomate_when_there_is_none() {
    let mut e = Engine::start(&[]);
    e.handshake();
    // The defender interposes the gold against the rook drop (cshogi DfPn: no mate).
    e.send("position sfen 7lk/7p1/9/9/9/9/9/9/9 b Rg 1");
    e.send("go mate infinite");
    assert_eq!(e.until("checkmate", 10 * SEC).last().map(String::as_str), Some("checkmate nomate"));
}

#[test]
fn go_mate_times_out() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send(HARD);
    let t = Instant::now();
    e.send("go mate 300");
    assert_eq!(e.until("checkmate", 10 * SEC).last().map(String::as_str), Some("checkmate timeout"));
    assert!(t.elapsed() < 3 * SEC, "{:?}", t.elapsed());
}

#[test]
fn stop_during_go_mate_answers_timeout_at_once() {
    let mut e = Engine::start(&[]);
    e.handshake();
    e.send(HARD);
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    e.send("stop");
    assert_eq!(e.until("checkmate", 5 * SEC).last().map(String::as_str), Some("checkmate timeout"));
    // At once: well under a second even on a loaded machine (the solver polls the flag often).
    assert!(t.elapsed() < SEC, "{:?}", t.elapsed());
    // The engine is ready for more.
    e.send("isready");
    e.until("readyok", 5 * SEC);
}

#[test]
fn the_mate_table_follows_usi_hash() {
    let mut e = Engine::start(&[]);
    e.handshake();
    // yumei 0252 (二上, 柏川悦夫): 17 plies, about 10^5 nodes: a 1 MiB table fills up, 256 MiB not.
    let problem = "position sfen 9/9/3BLk3/9/9/2NSp+pR2/9/9/9 b 2N3Prb4g3sn3l13p 1";
    let mut full = Vec::new();
    for mib in [1, 256] {
        e.send(&format!("setoption name USI_Hash value {mib}"));
        e.send("isready");
        e.until("readyok", 10 * SEC);
        e.send(problem);
        e.send("go mate infinite");
        let lines = e.until("checkmate", 60 * SEC);
        assert_eq!(lines.last().map(|l| l.split_whitespace().count()), Some(18), "{lines:?}");
        full.push(hashfull_of(&lines[lines.len() - 2]));
    }
    assert!(full[0] > 500 && full[1] < 100, "hashfull {full:?}");
}

/// The depths of the `info … depth N … score` lines.
fn depths(lines: &[String]) -> Vec<u32> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && l.contains(" score "))
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .collect()
}

#[test]
fn a_mate_found_at_the_root_ends_the_iterations() {
    // G*5b mates at once. The iterations used to go on to depth 124, each line `mate 1` again.
    // YaneuraOu's rule (yaneuraou-search.cpp): stop once (plies + 2) * 5 / 2 < depth, so after
    // depth 8 for a mate in 1.
    let mate = "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let mut e = Engine::start(&[]);
    e.handshake();
    for go in ["go depth 200", "go btime 0 wtime 0 byoyomi 1000"] {
        e.send(mate);
        e.send(go);
        let lines = e.until("bestmove", 10 * SEC);
        assert_eq!(bestmove_of(lines.last().expect("line")), "G*5b");
        assert_eq!(depths(&lines).last(), Some(&8), "{go}: {lines:?}");
    }
    // Analysis ends only on stop, as before: the iterations end, the answer waits.
    e.send(mate);
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(500));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop: {early:?}");
    assert_eq!(depths(&early).last(), Some(&8), "{early:?}");
    e.send("stop");
    assert_eq!(bestmove_of(e.until("bestmove", 5 * SEC).last().expect("line")), "G*5b");
}

#[test]
fn every_search_reports_a_score_and_a_line() {
    // A node limit below what depth 1 needs (a middle-game position with 100-odd moves and a
    // mate probe), one node, and `stop` at once: each used to answer `bestmove` alone.
    let middle = "position startpos moves 6i7h 3c3d 7g7f 4a3b 5i6i 5a4a 2g2f 7c7d 2f2e 8a7c 3i4h 2b8h+ \
                  7i8h B*3c 8h7g 8c8d 3g3f 3a4b 6i7i 8d8e 2i3g 7a6b 4h5i 7c6e 3g4e 3c5e 4g4f 6e7g+ 8i7g 5e4f";
    let mut e = Engine::start(&[]);
    e.send("setoption name UseBook value false");
    e.handshake();
    for (position, go) in
        [(middle, "go nodes 100"), ("position startpos", "go nodes 1"), ("position startpos", "go infinite")]
    {
        e.send(position);
        e.send(go);
        if go == "go infinite" {
            e.send("stop");
        }
        let lines = e.until("bestmove", 10 * SEC);
        let best = bestmove_of(lines.last().expect("line"));
        let info =
            lines.iter().rev().find(|l| l.starts_with("info depth ")).unwrap_or_else(|| panic!("{go}: {lines:?}"));
        let pv_head = info.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next());
        assert!(info.contains(" score ") && pv_head == Some(best.as_str()), "{go}: {lines:?}");
    }
}
