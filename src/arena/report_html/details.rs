//! What the report page shows of one game beyond its result, read from its record: its length,
//! its opening, the engines' own scores (from Black's point of view) and, for games played in this
//! run, the time of each move.

use crate::record::{GameRecord, Score};
use crate::types::Color;

/// Scores beyond ±GRAPH_LIMIT centipawns are drawn at the limit (a mate too).
pub(crate) const GRAPH_LIMIT: i32 = 1000;

/// One game's record, as the page uses it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameDetails {
    /// Plies played, opening moves included.
    pub plies: usize,
    /// The opening's name (empty when the record names none).
    pub opening: String,
    /// (ply, score) after each engine move that came with a score, of Black's moves and of
    /// White's: from Black's point of view, clamped to ±[`GRAPH_LIMIT`].
    pub scores: [Vec<(usize, i32)>; 2],
    /// Milliseconds of each engine move of Black and of White; `None` when the record's times are
    /// not used (records keep whole seconds only, so only games played in this run have them).
    pub times: Option<[Vec<u64>; 2]>,
}

/// A score as clamped centipawns from the mover's point of view (a mate at the limit).
fn clamped(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v.clamp(-GRAPH_LIMIT, GRAPH_LIMIT),
        Score::Mate(n) if n > 0 => GRAPH_LIMIT,
        Score::Mate(_) => -GRAPH_LIMIT,
    }
}

impl GameDetails {
    /// The details of `rec`; its opening is `opening`, else the record's `Opening` tag; with
    /// `with_times`, the time of each move (opening moves have none).
    pub(crate) fn of(rec: &GameRecord, opening: Option<&str>, with_times: bool) -> GameDetails {
        let first = rec.start.position().map_or(Color::Black, |p| p.side_to_move());
        let mover = |i: usize| if i % 2 == 0 { first } else { first.flip() };
        let mut scores: [Vec<(usize, i32)>; 2] = [Vec::new(), Vec::new()];
        for (i, m) in rec.moves.iter().enumerate() {
            if let Some(s) = m.engine.score {
                let (c, v) = (mover(i), clamped(s));
                scores[c.index()].push((i + 1, if c == Color::Black { v } else { -v }));
            }
        }
        let times = with_times.then(|| {
            let mut t: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
            for (i, m) in rec.moves.iter().enumerate() {
                if let Some(ms) = m.time_ms {
                    t[mover(i).index()].push(ms);
                }
            }
            t
        });
        GameDetails {
            plies: rec.moves.len(),
            opening: opening.or(rec.tag("Opening")).unwrap_or_default().to_string(),
            scores,
            times,
        }
    }
}

/// The median of `v` (the mean of the middle two for an even count); `None` for none.
pub(crate) fn median(v: &[u64]) -> Option<f64> {
    let mut s = v.to_vec();
    s.sort_unstable();
    let n = s.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(s[n / 2] as f64),
        _ => Some((s[n / 2 - 1] + s[n / 2]) as f64 / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MoveRecord, Start};

    fn record(start: Start, usi: &[&str]) -> GameRecord {
        let mut pos = start.position().expect("start");
        let mut moves = Vec::new();
        for u in usi {
            let m = pos.parse_usi_move(u).expect("legal");
            pos.do_move(m);
            moves.push(MoveRecord::new(m));
        }
        let mut rec = GameRecord::new(start, []);
        rec.moves = moves;
        rec
    }

    #[test]
    fn scores_turn_to_blacks_point_of_view_and_times_go_to_the_mover() {
        let mut rec = record(Start::default(), &["7g7f", "3c3d", "2g2f", "8c8d"]);
        rec.moves[0].comments.push("opening".into());
        for (i, (score, ms)) in
            [(None, None), (Some(Score::Cp(-120)), Some(40)), (Some(Score::Mate(3)), Some(10))].into_iter().enumerate()
        {
            rec.moves[i].engine.score = score;
            rec.moves[i].time_ms = ms;
        }
        rec.moves[3].engine.score = Some(Score::Cp(5000));
        rec.moves[3].time_ms = Some(20);
        let d = GameDetails::of(&rec, Some("Yagura"), true);
        // Ply 2 is White's: -120 for White is +120 for Black; ply 3 Black mates (+limit); ply 4
        // White's +5000, clamped to the limit, is -1000 for Black.
        assert_eq!(d.scores, [vec![(3, GRAPH_LIMIT)], vec![(2, 120), (4, -GRAPH_LIMIT)]]);
        assert_eq!(d.times, Some([vec![10], vec![40, 20]]));
        assert_eq!((d.plies, d.opening.as_str()), (4, "Yagura"));
        assert_eq!(GameDetails::of(&rec, None, false).times, None);
    }

    #[test]
    fn a_handicap_game_starts_with_white_to_move() {
        let mut rec = record(Start::Handicap(crate::Handicap::TwoPiece), &["3c3d"]);
        rec.moves[0].engine.score = Some(Score::Cp(300));
        assert_eq!(GameDetails::of(&rec, None, false).scores, [vec![], vec![(1, -300)]], "White's +300");
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[30, 10, 20]), Some(20.0));
        assert_eq!(median(&[40, 10, 20, 30]), Some(25.0));
    }
}
