//! The evaluation graph of a game as a hand-written SVG (one line chart is shorter to write than
//! to configure a plotting crate for): plies on x, the score from Black's point of view on y,
//! clamped to ±[`SCORE_LIMIT`] (a mate is drawn at the limit), Black's advantage above the middle
//! line; each marked move is a dot (inaccuracy yellow, mistake orange, blunder red) on the score
//! after it; the title names the players and the result.

use super::summary::title;
use super::{GameAnalysis, Mark};
use crate::record::GameRecord;
use std::fmt::Write as _;

/// Scores are drawn between −SCORE_LIMIT and +SCORE_LIMIT centipawns.
pub const SCORE_LIMIT: i32 = 2000;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 50.0;
const TOP: f64 = 30.0;
const PLOT_W: f64 = WIDTH - LEFT - 20.0;
const PLOT_H: f64 = HEIGHT - TOP - 30.0;

/// Text with `&`, `<`, `>` and `"` escaped for XML.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#e6b800",
        Mark::Mistake => "#f08000",
        Mark::Blunder => "#d00000",
    }
}

/// The graph of game `game` (1-based) as an SVG document.
pub fn svg(game: usize, rec: &GameRecord, analysis: &GameAnalysis) -> String {
    let plies = rec.moves.len().max(1) as f64;
    let x = |ply: usize| LEFT + PLOT_W * ply as f64 / plies;
    let y = |score: i32| {
        TOP + PLOT_H * (1.0 - (score.clamp(-SCORE_LIMIT, SCORE_LIMIT) + SCORE_LIMIT) as f64 / (2 * SCORE_LIMIT) as f64)
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
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<title>{}</title>"#, escaped(&title(game, rec)));
    let _ = writeln!(s, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    let _ =
        writeln!(s, r#"<text x="{}" y="18" text-anchor="middle">{}</text>"#, WIDTH / 2.0, escaped(&title(game, rec)));
    let _ =
        writeln!(s, r##"<rect x="{LEFT}" y="{TOP}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="#999"/>"##);
    for v in [SCORE_LIMIT, SCORE_LIMIT / 2, 0, -SCORE_LIMIT / 2, -SCORE_LIMIT] {
        let stroke = if v == 0 { "#666" } else { "#ddd" };
        let _ = writeln!(
            s,
            r#"<line x1="{LEFT}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="{stroke}"/>"#,
            y(v),
            LEFT + PLOT_W
        );
        let _ = writeln!(s, r#"<text x="{}" y="{:.1}" text-anchor="end">{v:+}</text>"#, LEFT - 4.0, y(v) + 4.0);
    }
    let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">ply</text>"#, LEFT + PLOT_W / 2.0, HEIGHT - 8.0);
    if !points.is_empty() {
        let path: Vec<String> = points.iter().map(|&(p, v)| format!("{:.1},{:.1}", x(p), y(v))).collect();
        let _ =
            writeln!(s, r##"<polyline points="{}" fill="none" stroke="#2060c0" stroke-width="2"/>"##, path.join(" "));
    }
    for r in &analysis.reports {
        let Some(mark) = r.mark else { continue };
        // The dot sits on the score after the marked move (the point where the graph drops).
        if let Some(&(p, v)) = points.iter().find(|(p, _)| *p == r.ply) {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}"><title>ply {} {}: {} (loss {})</title></circle>"#,
                x(p),
                y(v),
                colour(mark),
                r.ply,
                r.played.as_deref().unwrap_or(""),
                mark.name(),
                r.loss.unwrap_or(0)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}
