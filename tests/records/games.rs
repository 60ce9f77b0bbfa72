//! Generated games for the record tests: random legal play that favours captures, promotions,
//! declined promotions, drops and moves of promoted pieces, from every handicap start and from
//! SFEN starts, with times, engine data, comments, nested variations and every result kind.

use hisha::position::{GameResult, ResultReason, Winner};
use hisha::record::{EngineInfo, GameRecord, MoveRecord, Score, Start, Variation};
use hisha::{Handicap, Move, Position};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Every reason a game can end for.
pub const REASONS: [ResultReason; 11] = [
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

/// A move that could promote but does not.
pub fn declines(pos: &Position, m: Move) -> bool {
    let Some(from) = m.from() else { return false };
    !m.is_promotion() && pos.is_legal(Move::normal(from, m.to(), true))
}

/// A random legal line, preferring captures, promotions, declined promotions, drops and moves of
/// promoted pieces.
pub fn random_moves(start: &Position, rng: &mut StdRng, plies: usize) -> Vec<Move> {
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
            .filter(|&m| {
                m.is_drop()
                    || m.is_promotion()
                    || declines(&pos, m)
                    || pos.piece_on(m.to()).is_some()
                    || pos.moved_piece(m).is_some_and(|p| p.kind().is_promoted())
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

/// The position after `moves` from `start`.
pub fn after(start: &Start, moves: &[Move]) -> Position {
    let mut p = start.position().expect("valid start");
    for &m in moves {
        p.do_move(m);
    }
    p
}

/// Engine data for the move `m` played in `pos`, varied by `j`.
fn engine(pos: &Position, m: Move, j: usize, rng: &mut StdRng) -> EngineInfo {
    let mut next = pos.clone();
    next.do_move(m);
    let mut pv = vec![m];
    pv.extend(random_moves(&next, rng, j % 4));
    EngineInfo {
        score: Some(if j % 10 == 1 { Score::Mate(3 - (j % 7) as i32) } else { Score::Cp(j as i32 * 7 - 400) }),
        depth: (j % 3 != 0).then_some(12),
        nodes: (j % 4 != 0).then_some(12_345 + j as u64),
        time_ms: (j % 5 == 2).then_some(100 * j as u64),
        pv,
        analysis: false,
    }
}

/// Timed moves from `pos`, with engine data on some and comments on others.
fn decorate(pos: &Position, moves: &[Move], rng: &mut StdRng, totals: &mut [u64; 2], seed: usize) -> Vec<MoveRecord> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for (j, &m) in moves.iter().enumerate() {
        let mut r = MoveRecord::new(m);
        let t = ((seed + j) % 7) as u64 * 1000;
        let side = p.side_to_move().index();
        totals[side] += t;
        r.time_ms = Some(t);
        r.total_ms = Some(totals[side]);
        if j % 5 == 1 {
            r.engine = engine(&p, m, j + seed, rng);
        }
        if j % 9 == 4 {
            r.comments.push(format!("comment on ply {}", j + 1));
        }
        if j % 23 == 7 {
            r.comments.push("two lines,\nthe second one".into());
        }
        p.do_move(m);
        out.push(r);
    }
    out
}

/// The `i`-th generated game: start `i % 16` (every handicap) or an SFEN start, result kind
/// `i % 11`, variations (some nested) on every fourth game.
pub fn generated_game(i: usize, rng: &mut StdRng) -> GameRecord {
    let start = match i % 19 {
        16 => Start::Sfen("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124".into()),
        17 => Start::Sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2".into()),
        18 => Start::Sfen("4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1".into()),
        _ => Start::Handicap(Handicap::ALL[i % 16]),
    };
    let pos = start.position().expect("valid");
    let moves = random_moves(&pos, rng, 30 + i % 50);
    let mut rec = GameRecord::new(start.clone(), []);
    rec.set_tag("Black", format!("engine-{i}"));
    rec.set_tag("White", "hisha 0.1.0");
    rec.set_tag("Event", "round trip");
    if i % 3 == 0 {
        rec.summary.push("generated game".into());
    }
    let mut totals = [0u64; 2];
    rec.moves = decorate(&pos, &moves, rng, &mut totals, i);
    if i % 4 == 1 && moves.len() > 12 {
        // Two branches off the main line (at plies 5 and 9), one branch off the first (ply 7),
        // and a sibling of that one.
        for (ply, parent) in [(5, None), (9, None), (7, Some(0)), (7, Some(0))] {
            let base: Vec<Move> = match parent {
                None => moves[..ply - 1].to_vec(),
                Some(p) => {
                    let v: &Variation = &rec.variations[p];
                    let mut line = moves[..v.ply - 1].to_vec();
                    line.extend(v.moves.iter().map(|m| m.mv));
                    line.truncate(ply - 1);
                    line
                }
            };
            let at = after(&start, &base);
            let alt = random_moves(&at, rng, 4);
            let mut t = [0u64; 2];
            rec.variations.push(Variation { ply, parent, moves: decorate(&at, &alt, rng, &mut t, i + ply) });
        }
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
    if i % 2 == 0 {
        rec.end_time_ms = Some((1 + i % 5) as u64 * 1000);
    }
    rec
}

/// `n` generated games.
pub fn generated_games(n: usize, seed: u64) -> Vec<GameRecord> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|i| generated_game(i, &mut rng)).collect()
}
