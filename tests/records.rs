//! Record round trips: every writer's output read back gives the same game, over generated games
//! with drops, promotions, declined promotions, captures by promoted pieces, every handicap, every
//! result kind, comments, engine data and variations. Formats that cannot hold something are
//! compared without it (KI2: times, engine data, variations; CSA: variations and the start's move
//! number; USI: everything but start and moves), as each module documents.

use hisha::position::{GameResult, ResultReason, Winner};
use hisha::record::{EngineInfo, Format, GameRecord, MoveRecord, RecordWriter, Score, Start, Variation, read_games};
use hisha::{Color, Handicap, Move, Position};
use rand::{Rng, SeedableRng, rngs::StdRng};

const REASONS: [ResultReason; 11] = [
    ResultReason::Resign,
    ResultReason::Checkmate,
    ResultReason::Time,
    ResultReason::Repetition,
    ResultReason::PerpetualCheck,
    ResultReason::Declaration,
    ResultReason::MaxMoves,
    ResultReason::IllegalMove,
    ResultReason::Adjudication,
    ResultReason::Disconnect,
    ResultReason::Interrupt,
];

/// A random legal game, preferring captures, promotions, declined promotions and drops.
fn random_moves(start: &Position, rng: &mut StdRng, plies: usize) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let interesting: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                m.is_drop()
                    || m.is_promotion()
                    || pos.piece_on(m.to()).is_some()
                    || pos.moved_piece(*m).is_some_and(|p| p.kind().is_promoted())
            })
            .collect();
        let m = if !interesting.is_empty() && rng.random_bool(0.6) {
            interesting[rng.random_range(0..interesting.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        pos.do_move(m);
        out.push(m);
    }
    out
}

fn generated_game(i: usize, rng: &mut StdRng) -> GameRecord {
    let start = if i % 17 == 16 {
        Start::Sfen("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124".into())
    } else {
        Start::Handicap(Handicap::ALL[i % 16])
    };
    let pos = start.position().expect("valid");
    let moves = random_moves(&pos, rng, 30 + i % 50);
    let mut rec = GameRecord::new(start, moves.clone());
    rec.set_tag("Black", format!("engine-{i}"));
    rec.set_tag("White", "hisha 0.1.0");
    rec.set_tag("Event", "round trip");
    if i % 3 == 0 {
        rec.summary.push("generated game".into());
    }
    let mut totals = [0u64; 2];
    let mut p = pos.clone();
    for (j, m) in rec.moves.iter_mut().enumerate() {
        let t = ((i + j) % 7) as u64 * 1000;
        let side = p.side_to_move().index();
        totals[side] += t;
        m.time_ms = Some(t);
        m.total_ms = Some(totals[side]);
        if j % 5 == 1 {
            m.engine = EngineInfo {
                score: Some(if j % 10 == 1 { Score::Cp(j as i32 * 7 - 40) } else { Score::Mate(-3) }),
                depth: Some(12),
                nodes: Some(12345 + j as u64),
                pv: vec![m.mv],
            };
        }
        if j % 9 == 4 {
            m.comments.push(format!("comment on ply {}", j + 1));
        }
        p.do_move(m.mv);
    }
    if i % 4 == 1 && moves.len() > 6 {
        // A variation replacing the main line from ply 5.
        let mut q = pos.clone();
        for m in &moves[..4] {
            q.do_move(*m);
        }
        let alt = random_moves(&q, rng, 3);
        let timed = |m: Move| MoveRecord { time_ms: Some(2000), total_ms: Some(9000), ..MoveRecord::new(m) };
        rec.variations.push(Variation { ply: 5, parent: None, moves: alt.into_iter().map(timed).collect() });
    }
    let reason = REASONS[i % REASONS.len()];
    let stm = rec.final_position().expect("valid").side_to_move();
    rec.result = Some(match reason {
        ResultReason::Repetition | ResultReason::MaxMoves => GameResult::draw(reason),
        ResultReason::Interrupt => GameResult { winner: Winner::Unfinished, reason },
        ResultReason::PerpetualCheck | ResultReason::Declaration => GameResult::win(stm, reason),
        _ if i % 2 == 0 => GameResult::loss(stm, reason),
        _ => GameResult::win(stm, reason),
    });
    rec
}

fn what_the_format_keeps(rec: &GameRecord, f: Format) -> GameRecord {
    let mut r = rec.clone();
    match f {
        Format::Usi => {
            r = GameRecord::new(r.start.clone(), r.moves.iter().map(|m| m.mv));
        }
        Format::Ki2 => {
            r.variations.clear();
            for m in &mut r.moves {
                m.time_ms = None;
                m.total_ms = None;
                m.engine = EngineInfo::default();
            }
        }
        Format::Csa => {
            // CSA has no variations and no move number (an SFEN start comes back as move 1).
            r.variations.clear();
            if let Start::Sfen(s) = &r.start {
                let fields: Vec<&str> = s.split_whitespace().take(3).collect();
                r.start = Start::Sfen(format!("{} 1", fields.join(" ")));
            }
        }
        _ => {}
    }
    r
}

#[test]
fn every_writer_round_trips_generated_games() {
    let mut rng = StdRng::seed_from_u64(4);
    let games: Vec<GameRecord> = (0..68).map(|i| generated_game(i, &mut rng)).collect();
    for f in Format::ALL {
        let mut w = RecordWriter::new(Vec::new(), f, true);
        for g in &games {
            w.write(g).unwrap_or_else(|e| panic!("{f}: {e}"));
        }
        let bytes = w.into_inner();
        let back = read_games(&bytes, f);
        assert_eq!(back.len(), games.len(), "{f}: game count");
        for (i, (g, b)) in games.iter().zip(back).enumerate() {
            let b = b.unwrap_or_else(|e| panic!("{f} game {i}: {e}\n{}", String::from_utf8_lossy(&bytes)));
            assert_eq!(b, what_the_format_keeps(g, f), "{f} game {i}");
        }
        // Content detection finds the format again (KIF and KIFU differ only in encoding).
        let text = hisha::record::decode_text(&bytes);
        let detected = hisha::record::detect_format(&text, None);
        let expected = if f == Format::Kifu { Format::Kif } else { f };
        assert_eq!(detected, Some(expected), "{f}");
    }
}

#[test]
fn every_result_kind_round_trips_in_every_format_with_results() {
    for f in [Format::Psn, Format::Psn2, Format::Kif, Format::Kifu, Format::Ki2, Format::Csa] {
        for (i, reason) in REASONS.iter().enumerate() {
            for winner in [Winner::Black, Winner::White, Winner::Draw, Winner::Unfinished] {
                let mut rec =
                    GameRecord::new(Start::default(), [Position::startpos().parse_usi_move("7g7f").expect("legal")]);
                rec.result = Some(GameResult { winner, reason: *reason });
                let mut w = RecordWriter::new(Vec::new(), f, true);
                w.write(&rec).expect("writes");
                let back = read_games(&w.into_inner(), f).remove(0).unwrap_or_else(|e| panic!("{f} {i}: {e}"));
                assert_eq!(back.result, rec.result, "{f}: {winner:?} by {reason:?}");
            }
        }
    }
    let _ = Color::Black;
}

#[test]
fn convert_reports_skipped_games_and_fails() {
    let dir = std::env::temp_dir().join(format!("hisha-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let input = dir.join("in.usi");
    std::fs::write(
        &input,
        "startpos moves 7g7f 3c3d\nstartpos moves 7g7e\nsfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n",
    )
    .expect("write");
    let out = dir.join("out.csa");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(["convert", &input.display().to_string(), "-o", &out.display().to_string()])
        .output()
        .expect("runs");
    assert_eq!(run.status.code(), Some(1), "a skipped game fails the run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("game 2: line 2, column 16"), "{stderr}");
    assert!(stderr.contains("read 2 games, wrote 2 as csa, skipped 1"), "{stderr}");
    let back = read_games(&std::fs::read(&out).expect("written"), Format::Csa);
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(Result::is_ok));
    let _ = std::fs::remove_dir_all(dir);
}
