//! Engine data in CSA records, as floodgate writes it: after a move, `'** <score> <pv…>` with the
//! score from Black's point of view and the PV continuing *after* the move played (floodgate logs
//! show `+2524FU` then `'** 47 -2324FU +2824HI …`). What that line cannot hold (depth, nodes, search
//! time, a mate score) follows in hisha's compact form, `'*depth 12 nodes 345678`.

use super::moves::{read_move, sign, write_move};
use crate::position::Position;
use crate::record::psn::tokens as gui_lines;
use crate::record::{EngineInfo, MoveRecord, Score};
use crate::types::Color;
use std::fmt::Write as _;

/// Reads a floodgate comment (the text after `'**`) into the engine data of `m`; `pos` is the
/// position after `m` (put back as it was). A PV that starts with the move itself (as hisha wrote
/// it before it followed floodgate) is read too. False if the text is not engine data or `m`
/// already has some.
pub(crate) fn read(text: &str, pos: &mut Position, m: &mut MoveRecord) -> bool {
    let mut words = text.split_whitespace();
    let Some(score) = words.next().and_then(|w| w.parse::<i32>().ok()) else { return false };
    if !m.engine.is_empty() {
        return false;
    }
    let mover = !pos.side_to_move();
    let mut info = EngineInfo {
        score: Some(Score::Cp(if mover == Color::Black { score } else { -score })),
        pv: vec![m.mv],
        ..EngineInfo::default()
    };
    let mut words = words.peekable();
    if words.peek().is_some_and(|w| w.starts_with(sign(mover))) {
        words.next(); // the move itself
    }
    let mut played = 0;
    let mut ok = true;
    for w in words {
        match read_move(pos, w).filter(|&mv| pos.is_legal(mv)) {
            Some(mv) => {
                pos.do_move(mv);
                played += 1;
                info.pv.push(mv);
            }
            None => {
                ok = false;
                break;
            }
        }
    }
    for _ in 0..played {
        pos.undo_move();
    }
    if ok {
        m.engine = info;
    }
    ok
}

/// Adds `more` to `e` if they do not overlap (the compact line after a floodgate line).
pub(crate) fn merge(e: &mut EngineInfo, more: EngineInfo) -> bool {
    let clash = (e.score.is_some() && more.score.is_some())
        || (e.depth.is_some() && more.depth.is_some())
        || (e.nodes.is_some() && more.nodes.is_some())
        || (e.time_ms.is_some() && more.time_ms.is_some())
        || (!e.pv.is_empty() && !more.pv.is_empty());
    if clash {
        return false;
    }
    e.score = e.score.or(more.score);
    e.depth = e.depth.or(more.depth);
    e.nodes = e.nodes.or(more.nodes);
    e.time_ms = e.time_ms.or(more.time_ms);
    if e.pv.is_empty() {
        e.pv = more.pv;
    }
    true
}

/// True if `pv` is a legal line from `pos` (put back as it was).
fn legal_line(pos: &mut Position, pv: &[crate::Move]) -> bool {
    let mut played = 0;
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        pos.do_move(m);
        played += 1;
    }
    for _ in 0..played {
        pos.undo_move();
    }
    played == pv.len()
}

/// Appends the engine comment lines of `mv`, played in `pos` (put back as it was).
pub(crate) fn write(s: &mut String, e: &EngineInfo, pos: &mut Position, mv: crate::Move) {
    let mut rest = e.clone();
    if let Some(Score::Cp(v)) = e.score {
        if e.pv.is_empty() || (e.pv[0] == mv && legal_line(pos, &e.pv)) {
            let v = if pos.side_to_move() == Color::Black { v } else { -v };
            let _ = write!(s, "'** {v}");
            if let Some((&first, tail)) = e.pv.split_first() {
                pos.do_move(first);
                for &m in tail {
                    s.push(' ');
                    write_move(s, pos, m);
                    pos.do_move(m);
                }
                for _ in 0..e.pv.len() {
                    pos.undo_move();
                }
            }
            s.push('\n');
            rest.score = None;
            rest.pv.clear();
        }
    }
    if !rest.is_empty() {
        s.push_str("'*");
        gui_lines::write_engine_comment(s, &rest);
        s.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MoveRecord;
    use crate::testing::after;

    #[test]
    fn reads_floodgate_lines() {
        // After Black's 2g2f (floodgate writes +2726FU then the line), Black's view +47 with the
        // expected reply 8c8d and Black's 2f2e.
        let mut p = after(&["2g2f"]);
        let mut m = MoveRecord::new(Position::startpos().parse_usi_move("2g2f").expect("legal"));
        assert!(read(" 47 -8384FU +2625FU", &mut p, &mut m));
        assert_eq!(m.engine.score, Some(Score::Cp(47)));
        let pv: Vec<String> = m.engine.pv.iter().map(|x| x.to_string()).collect();
        assert_eq!(pv, ["2g2f", "8c8d", "2f2e"]);
        assert_eq!(p, after(&["2g2f"]), "put back");
        // White's move: Black's view -60 is +60 for White.
        let mut q = after(&["2g2f", "8c8d"]);
        let mut w = MoveRecord::new(after(&["2g2f"]).parse_usi_move("8c8d").expect("legal"));
        assert!(read("-60", &mut q, &mut w));
        assert_eq!((w.engine.score, w.engine.pv.len()), (Some(Score::Cp(60)), 1));
        // The old hisha form (PV with the move itself) and a line that is no engine data.
        let mut m2 = MoveRecord::new(m.mv);
        assert!(read(" 47 +2726FU -8384FU", &mut p, &mut m2));
        assert_eq!(m2.engine.pv.len(), 2);
        let mut m3 = MoveRecord::new(m.mv);
        assert!(!read(" good move", &mut p, &mut m3));
        assert!(!read(" 47 -1111FU", &mut p, &mut m3), "an impossible PV");
    }

    #[test]
    fn writes_floodgate_lines_and_the_rest_compactly() {
        let mut p = after(&["2g2f"]);
        let mv = p.parse_usi_move("8c8d").expect("legal");
        let reply = {
            let mut q = p.clone();
            q.do_move(mv);
            q.parse_usi_move("2f2e").expect("legal")
        };
        let e = EngineInfo {
            score: Some(Score::Cp(60)),
            depth: Some(10),
            nodes: Some(5000),
            time_ms: None,
            pv: vec![mv, reply],
            analysis: false,
        };
        let mut s = String::new();
        write(&mut s, &e, &mut p, mv);
        assert_eq!(s, "'** -60 +2625FU\n'*depth 10 nodes 5000\n");
        let mate = EngineInfo { score: Some(Score::Mate(5)), pv: vec![mv], ..EngineInfo::default() };
        let mut s = String::new();
        write(&mut s, &mate, &mut p, mv);
        assert_eq!(s, "'*score mate 5 pv 8c8d\n", "a mate score has no floodgate form");
    }
}
