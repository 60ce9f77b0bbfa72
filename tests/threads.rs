//! `Threads` (Lazy SMP) over pipes: one `bestmove` per `go` and a prompt `stop` with 1, 2 and 8
//! threads, `go mate`, `ponderhit` and `quit` with helpers running, and many short searches with 4
//! threads on random positions that never play an illegal move; `hisha bench --threads`.

mod support;

use hisha::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};
use support::hisha_text;
use support::usi::{Engine, bestmove_of};

const SEC: Duration = Duration::from_secs(1);

fn engine_with_threads(threads: usize) -> Engine {
    let mut e = Engine::start(&[]);
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("setoption name BookFile value <empty>");
    e.handshake();
    e
}

/// Waits for the `bestmove` of the search running now, then checks for 300 ms that no second one
/// follows; returns the move.
fn the_one_bestmove(e: &mut Engine, timeout: Duration) -> String {
    let lines = e.until("bestmove", timeout);
    let best = lines.last().filter(|l| l.starts_with("bestmove")).expect("a bestmove line").clone();
    let after = e.drain(Duration::from_millis(300));
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "a second bestmove: {after:?}");
    bestmove_of(&best)
}

#[test]
fn every_go_gets_one_bestmove_and_stop_is_prompt_with_1_2_and_8_threads() {
    let start = Position::startpos();
    for threads in [1, 2, 8] {
        let mut e = engine_with_threads(threads);
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        e.send("stop");
        let lines = e.until("bestmove", 5 * SEC);
        assert!(t.elapsed() < SEC, "{threads} threads: stop took {:?}", t.elapsed());
        let best = bestmove_of(lines.last().expect("line"));
        assert!(start.parse_usi_move(&best).is_ok(), "{threads} threads: {best}");
        assert!(!e.drain(Duration::from_millis(300)).iter().any(|l| l.starts_with("bestmove")));

        e.send("go movetime 300");
        let t = Instant::now();
        let best = the_one_bestmove(&mut e, 10 * SEC);
        assert!(t.elapsed() < 3 * SEC, "{threads} threads: movetime 300 took {:?}", t.elapsed());
        assert!(start.parse_usi_move(&best).is_ok(), "{threads} threads: {best}");

        e.send("go depth 5");
        let best = the_one_bestmove(&mut e, 60 * SEC);
        assert!(start.parse_usi_move(&best).is_ok(), "{threads} threads: {best}");
    }
}

#[test]
fn ponderhit_and_go_mate_work_with_8_threads() {
    let mut e = engine_with_threads(8);
    e.ponder_then_ponderhit();
    // yumei 0216 (将棋月報 1927, as in usi.rs): mate in 5; the solver runs on the main thread only.
    e.send("position sfen 7nl/7k1/9/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l17p 1");
    e.send("go mate 10000");
    let lines = e.until("checkmate", 20 * SEC);
    let answer = lines.last().expect("line");
    assert_eq!(answer.split_whitespace().count(), 6, "a five-ply mate: {answer}");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    // As Stockfish: the stopped search still answers, once, before the engine exits.
    let answers: Vec<String> = e.drain(10 * SEC).into_iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 1, "one bestmove after quit: {answers:?}");
    assert_eq!(e.wait_exit(10 * SEC), Some(0), "quit while 8 threads search");
}

/// A position after up to `plies` random legal moves from the start (fewer if the game ends), as
/// a `position` command and the position itself.
fn random_position(rng: &mut StdRng, plies: usize) -> (String, Position) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        pos.play(m).expect("a legal move plays");
        moves.push(m.to_string());
    }
    let cmd = if moves.is_empty() {
        "position startpos".into()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    };
    (cmd, pos)
}

#[test]
fn many_short_searches_with_4_threads_on_random_positions_play_only_legal_moves() {
    let mut e = engine_with_threads(4);
    let mut rng = StdRng::seed_from_u64(13);
    let gos = ["go movetime 30", "go depth 4", "go nodes 3000", "go btime 0 wtime 0 byoyomi 50"];
    for i in 0..120 {
        let plies = rng.random_range(0..120);
        let (cmd, pos) = random_position(&mut rng, plies);
        e.send(&cmd);
        let lines = if i % 5 == 4 {
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(20));
            e.send("stop");
            e.until("bestmove", 10 * SEC)
        } else {
            e.send(gos[i % gos.len()]);
            e.until("bestmove", 30 * SEC)
        };
        let line = lines.last().filter(|l| l.starts_with("bestmove")).expect("a bestmove line");
        let best = bestmove_of(line);
        let mut words = line.split_whitespace().skip(2);
        match best.as_str() {
            "resign" => assert!(pos.legal_moves().is_empty() || pos.in_check(), "{cmd}: resigned"),
            "win" => {}
            m => {
                let mut after = pos.clone();
                let played = after.parse_usi_move(m).unwrap_or_else(|err| panic!("{cmd}: bestmove {m}: {err}"));
                after.play(played).expect("legal");
                if let (Some("ponder"), Some(p)) = (words.next(), words.next()) {
                    assert!(after.parse_usi_move(p).is_ok(), "{cmd}: ponder {p} after {m}");
                }
            }
        }
    }
    e.send("isready");
    let rest = e.until("readyok", 10 * SEC);
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "a stray bestmove: {rest:?}");
}

/// The value of the line `Name: value` of a bench report.
fn field<'a>(report: &'a str, name: &str) -> Option<&'a str> {
    report.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
}

#[test]
fn bench_prints_the_signature_with_one_thread_only_and_speed_with_any() {
    let (code, one, _) = hisha_text(&["bench", "4"]);
    assert_eq!(code, Some(0));
    let nodes = field(&one, "Nodes searched").expect("nodes line");
    assert_eq!(field(&one, "Bench"), Some(nodes), "{one}");
    let (code, two, _) = hisha_text(&["bench", "4", "--threads", "2"]);
    assert_eq!(code, Some(0));
    assert_eq!(field(&two, "Bench"), None, "no signature with 2 threads: {two}");
    assert_eq!(field(&two, "Threads"), Some("2"), "{two}");
    let n: u64 = field(&two, "Nodes/second").and_then(|v| v.parse().ok()).expect("a speed");
    assert!(n > 0, "{two}");
    let (code, _, err) = hisha_text(&["bench", "4", "--threads", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--threads"), "{err}");
}
