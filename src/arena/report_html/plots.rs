//! The page's pictures, inline SVG drawn with the chart of `hisha analyze` ([`Chart`]): the first
//! engine's Elo with its 95 % band after each game, and the small evaluation graph of each game.

use super::details::{GRAPH_LIMIT, GameDetails};
use crate::arena::stats::Wdl;
use crate::chart::Chart;

/// The Elo plot's half-height in Elo: the largest end of an interval shown, rounded up to 50,
/// between 50 and this; ends beyond it (or infinite) are drawn at it.
const ELO_LIMIT: f64 = 800.0;

/// Games before the Elo is drawn.
const MIN_GAMES: u64 = 2;

/// The Elo and its 95 % interval after `w`, when worth drawing: enough games, and neither side
/// with every point (then the Elo is infinite); the ends within ±[`ELO_LIMIT`].
fn drawable(w: &Wdl) -> Option<(f64, f64, f64)> {
    let e = w.elo().filter(|e| w.games() >= MIN_GAMES && e.elo.is_finite())?;
    Some((e.elo, e.lower.max(-ELO_LIMIT), e.upper.min(ELO_LIMIT)))
}

/// The plot of the first engine's Elo (line) and 95 % interval (band) after each of `history`
/// (the results after the 1st, 2nd … game counted); points whose Elo is infinite or unknown are
/// left out, and said so in the caption under it.
pub(crate) fn elo_plot(history: &[Wdl], first: &str) -> String {
    let points: Vec<(f64, f64, f64, f64)> = history
        .iter()
        .enumerate()
        .filter_map(|(i, w)| drawable(w).map(|(elo, lower, upper)| ((i + 1) as f64, elo, lower, upper)))
        .collect();
    let reach = points.iter().map(|&(_, _, lower, upper)| lower.abs().max(upper.abs())).fold(0.0, f64::max);
    let limit = ((reach / 50.0).ceil() * 50.0).clamp(50.0, ELO_LIMIT);
    let chart = Chart {
        width: 720.0,
        height: 260.0,
        margins: [56.0, 28.0, 24.0, 40.0],
        x_range: (0.0, history.len().max(1) as f64),
        y_range: (-limit, limit),
    };
    let mut s = String::new();
    let title = format!("Elo of {first} after each game, with its 95 % interval");
    chart.open(&mut s, &title, 12);
    Chart::text(&mut s, chart.width / 2.0, 16.0, &title);
    // The band first, so that the rules stay visible over it.
    let upper: Vec<(f64, f64)> = points.iter().map(|&(x, _, _, upper)| (x, upper)).collect();
    let lower: Vec<(f64, f64)> = points.iter().map(|&(x, _, lower, _)| (x, lower)).collect();
    chart.band(&mut s, &lower, &upper, "#c8d8f0");
    for v in [limit, limit / 2.0, 0.0, -limit / 2.0, -limit] {
        chart.rule(&mut s, v, &format!("{v:+}"), if v == 0.0 { "#666" } else { "#ddd" });
    }
    chart.frame(&mut s);
    let line: Vec<(f64, f64)> = points.iter().map(|&(x, e, _, _)| (x, e)).collect();
    chart.polyline(&mut s, &line, "#2060c0", 2.0);
    let bottom = chart.height - chart.margins[3];
    for n in x_ticks(history.len()) {
        Chart::text(&mut s, chart.px(n as f64), bottom + 14.0, &n.to_string());
    }
    Chart::text(&mut s, chart.centre_x(), chart.height - 6.0, "games");
    if points.is_empty() {
        Chart::text(&mut s, chart.centre_x(), chart.py(limit / 4.0), "no Elo estimate yet");
    }
    Chart::close(&mut s);
    s
}

/// Game counts to label on the x axis: multiples of a step (up to three), the last one, and 1
/// where it is not crowded.
fn x_ticks(games: usize) -> Vec<usize> {
    if games == 0 {
        return Vec::new();
    }
    let step = games.div_ceil(4).max(1);
    let mut ticks: Vec<usize> = (1..games).filter(|n| n % step == 0).collect();
    if step > 2 {
        // Beside 2 (or 1), a 1 would crowd it.
        ticks.insert(0, 1);
    }
    if ticks.last() != Some(&games) {
        ticks.push(games);
    }
    ticks
}

/// The colours of the score lines of the engine playing Black and of the one playing White.
pub(crate) const SIDE_COLOURS: [&str; 2] = ["#2060c0", "#d06010"];

/// The small evaluation graph of a game: the scores each engine reported, a line each (colours
/// [`SIDE_COLOURS`]), from Black's point of view (Black above the middle line), clamped to
/// ±[`GRAPH_LIMIT`]; a game without scores says so.
pub(crate) fn game_graph(number: usize, d: &GameDetails) -> String {
    let limit = f64::from(GRAPH_LIMIT);
    let chart = Chart {
        width: 180.0,
        height: 44.0,
        margins: [2.0; 4],
        x_range: (0.0, d.plies.max(1) as f64),
        y_range: (-limit, limit),
    };
    let mut s = String::new();
    let title = format!("game {number}: scores the engines reported, Black's point of view, clamped to ±{GRAPH_LIMIT}");
    chart.open(&mut s, &title, 10);
    chart.frame(&mut s);
    chart.rule(&mut s, 0.0, "", "#999");
    if d.scores.iter().all(Vec::is_empty) {
        Chart::text(&mut s, chart.centre_x(), chart.height / 2.0 - 4.0, "no scores");
    }
    for (side, colour) in d.scores.iter().zip(SIDE_COLOURS) {
        let points: Vec<(f64, f64)> = side.iter().map(|&(p, v)| (p as f64, f64::from(v))).collect();
        chart.polyline(&mut s, &points, colour, 1.2);
    }
    Chart::close(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_ticks_label_the_first_and_last_game() {
        assert_eq!(x_ticks(0), Vec::<usize>::new());
        assert_eq!(x_ticks(1), [1]);
        assert_eq!(x_ticks(2), [1, 2]);
        assert_eq!(x_ticks(8), [2, 4, 6, 8]);
        assert_eq!(x_ticks(20), [1, 5, 10, 15, 20]);
    }

    #[test]
    fn infinite_or_early_elo_is_not_drawn() {
        assert_eq!(drawable(&Wdl { wins: 1, draws: 0, losses: 0 }), None, "one game");
        assert_eq!(drawable(&Wdl { wins: 3, draws: 0, losses: 0 }), None, "a clean sweep");
        assert!(drawable(&Wdl { wins: 2, draws: 0, losses: 1 }).is_some());
        let plot = elo_plot(&[Wdl { wins: 1, draws: 0, losses: 0 }], "a");
        assert!(plot.contains("no Elo estimate yet") && !plot.contains("<polyline"), "{plot}");
    }
}
