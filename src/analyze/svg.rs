//! The evaluation graph of a game as a hand-written SVG (one line chart is shorter to write than
//! to configure a plotting crate for; the drawing is `arena::chart`'s): plies on x, the score
//! from Black's point of view on y, clamped to ±[`SCORE_LIMIT`] (a mate is drawn at the limit),
//! Black's advantage above the middle line; each marked move is a dot (inaccuracy yellow, mistake
//! orange, blunder red) on the score after it; the title names the players and the result.

use super::summary::title;
use super::{GameAnalysis, Mark};
use crate::arena::chart::Chart;
use crate::record::GameRecord;
use std::fmt::Write as _;

/// Scores are drawn between −SCORE_LIMIT and +SCORE_LIMIT centipawns.
pub const SCORE_LIMIT: i32 = 2000;

fn colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#e6b800",
        Mark::Mistake => "#f08000",
        Mark::Blunder => "#d00000",
    }
}

/// The graph of game `game` (1-based) as an SVG document.
pub fn svg(game: usize, rec: &GameRecord, analysis: &GameAnalysis) -> String {
    let limit = f64::from(SCORE_LIMIT);
    let chart = Chart {
        width: 800.0,
        height: 300.0,
        margins: [50.0, 30.0, 20.0, 30.0],
        x_max: rec.moves.len().max(1) as f64,
        y_range: (-limit, limit),
    };
    // Black's score at each analysed position (index = plies played).
    let points: Vec<(usize, i32)> = analysis
        .reports
        .iter()
        .filter_map(|r| {
            let v = r.score.or(r
                .mate
                .map(|n| if n > 0 || (n == 0 && r.sfen.contains(" w ")) { SCORE_LIMIT } else { -SCORE_LIMIT }))?;
            Some((r.ply - 1, v))
        })
        .collect();
    let mut s = String::new();
    let heading = title(game, rec);
    chart.open(&mut s, &heading, 12);
    Chart::text(&mut s, chart.width / 2.0, 18.0, &heading);
    chart.frame(&mut s);
    for v in [SCORE_LIMIT, SCORE_LIMIT / 2, 0, -SCORE_LIMIT / 2, -SCORE_LIMIT] {
        chart.rule(&mut s, f64::from(v), &format!("{v:+}"), if v == 0 { "#666" } else { "#ddd" });
    }
    Chart::text(&mut s, chart.centre_x(), chart.height - 8.0, "ply");
    let line: Vec<(f64, f64)> = points.iter().map(|&(p, v)| (p as f64, f64::from(v))).collect();
    chart.polyline(&mut s, &line, "#2060c0", 2.0);
    for r in &analysis.reports {
        let Some(mark) = r.mark else { continue };
        // The dot sits on the score after the marked move (the point where the graph drops).
        if let Some(&(p, v)) = points.iter().find(|(p, _)| *p == r.ply) {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}"><title>ply {} {}: {} (loss {})</title></circle>"#,
                chart.px(p as f64),
                chart.py(f64::from(v)),
                colour(mark),
                r.ply,
                r.played.as_deref().unwrap_or(""),
                mark.name(),
                r.loss.unwrap_or(0)
            );
        }
    }
    Chart::close(&mut s);
    s
}
