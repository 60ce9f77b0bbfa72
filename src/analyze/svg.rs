//! The evaluation graph of a game as a hand-written SVG (one line chart is shorter to write than
//! to configure a plotting crate for; the drawing is `chart`'s), self-contained: no
//! script, no font of its own.
//!
//! - x: the plies analysed (`--plies A-B`: from the position before ply A to the one after ply B),
//!   labelled with ply numbers (手数) at round steps; the point at ply N is the evaluation after
//!   move N, so move N is the segment from N − 1 to N.
//! - y: the evaluation from Black's (先手's) point of view in centipawns, Black ahead above the
//!   middle line (the area shaded blue) and White (後手) ahead below it (shaded orange), clamped to
//!   ±[`SCORE_LIMIT`]; a mate is drawn at the limit.
//! - Each marked move is a dot on the evaluation after it, coloured by its mark as the summary
//!   counts them (the legend says which colour is which, with the [`THRESHOLDS`]).
//! - Tooltips: a dot names the move in the summary's notation (the record's own: `ply 25 ▲同　歩`
//!   for KIF), its mark, its loss and the engine's best move; pointing anywhere above or below a
//!   point names the move that led there and the evaluation.

use super::summary::title;
use super::{GameAnalysis, Mark, PositionReport, THRESHOLDS, move_text};
use crate::chart::{Anchor, Chart, round_ticks};
use crate::position::Position;
use crate::record::{Format, GameRecord};
use crate::types::Color;

/// Scores are drawn between −SCORE_LIMIT and +SCORE_LIMIT centipawns.
pub const SCORE_LIMIT: i32 = 2000;

/// The rules across the graph, every this many centipawns.
const SCORE_STEP: i32 = 500;

/// The least distance in pixels between two ply numbers on the x axis.
const LABEL_SPACING: f64 = 40.0;

/// The shades of the areas where Black and where White is ahead, and the colours of their labels.
const BLACK_AREA: (&str, &str) = ("#dce6f5", "#1d4f9a");
const WHITE_AREA: (&str, &str) = ("#f7e2d2", "#a8480a");

/// The evaluation line's colour.
const LINE: &str = "#303030";

fn colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#e6b800",
        Mark::Mistake => "#f08000",
        Mark::Blunder => "#d00000",
    }
}

/// A number of centipawns as the axis writes it: `+500`, `0`, `−500`.
fn signed(v: i32) -> String {
    match v {
        0 => "0".to_string(),
        v if v > 0 => format!("+{v}"),
        v => format!("\u{2212}{}", v.unsigned_abs()),
    }
}

/// The side's mark and name: `▲先手` or `△後手`.
fn side_name(side: Color) -> &'static str {
    if side == Color::Black { "▲先手" } else { "△後手" }
}

/// The position after each number of plies of `rec` (index 0: the start; empty when the start
/// is not a position).
fn positions(rec: &GameRecord) -> Vec<Position> {
    let Ok(start) = rec.start.position() else { return Vec::new() };
    let mut out = vec![start];
    for m in &rec.moves {
        let mut next = out[out.len() - 1].clone();
        next.do_move(m.mv);
        out.push(next);
    }
    out
}

/// What the graph says about the game: its positions, to write moves in `format`'s notation.
struct Game<'a> {
    rec: &'a GameRecord,
    positions: Vec<Position>,
    format: Format,
}

impl Game<'_> {
    /// `ply N MOVE`, the move of ply `ply` (1-based) as the summary writes it.
    fn played(&self, ply: usize) -> String {
        let i = ply.checked_sub(1);
        let text = i.and_then(|i| Some(move_text(self.format, self.positions.get(i)?, self.rec.moves.get(i)?.mv)));
        text.map_or(format!("ply {ply}"), |t| format!("ply {ply} {t}"))
    }

    /// The engine's best move in the position before ply `ply`, in the record's notation.
    fn best(&self, ply: usize, usi: &str) -> Option<String> {
        let pos = self.positions.get(ply.checked_sub(1)?)?;
        pos.parse_usi_move(usi).ok().map(|m| move_text(self.format, pos, m))
    }

    /// Black's value of a report's position (clamped; a mate at the limit) and its text.
    fn value(&self, r: &PositionReport) -> Option<(i32, String)> {
        if let Some(v) = r.score {
            return Some((v.clamp(-SCORE_LIMIT, SCORE_LIMIT), signed(v)));
        }
        let n = r.mate?;
        // Mate 0: the side to move has no legal move; the other side has mated it.
        let mover = self.positions.get(r.ply - 1).map_or(Color::Black, Position::side_to_move);
        let winner = if n > 0 || (n == 0 && mover == Color::White) { Color::Black } else { Color::White };
        let text = match n {
            0 => format!("{} is mated", side_name(!winner)),
            1 | -1 => format!("{} mates in 1 ply", side_name(winner)),
            n => format!("{} mates in {} plies", side_name(winner), n.unsigned_abs()),
        };
        Some((if winner == Color::Black { SCORE_LIMIT } else { -SCORE_LIMIT }, text))
    }
}

/// The plies drawn: from the first analysed position to the last (the whole game when none was).
fn span(rec: &GameRecord, analysis: &GameAnalysis) -> (f64, f64) {
    let indexes = analysis.positions.iter().map(|(i, _)| *i as f64);
    let lo = indexes.clone().fold(f64::INFINITY, f64::min);
    let hi = indexes.fold(f64::NEG_INFINITY, f64::max);
    match (lo, hi) {
        (lo, hi) if lo < hi => (lo, hi),
        (lo, _) if lo.is_finite() => (lo - 0.5, lo + 0.5),
        _ => (0.0, rec.moves.len().max(1) as f64),
    }
}

/// The line through `points` with a point added wherever it crosses zero, so that the areas
/// above and below zero can be shaded apart.
fn split_at_zero(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len() * 2);
    for &(x, y) in points {
        if let Some(&(x0, y0)) = out.last()
            && y0 * y < 0.0
        {
            out.push((x0 + (x - x0) * y0 / (y0 - y), 0.0));
        }
        out.push((x, y));
    }
    out
}

/// The graph of game `game` (1-based) as an SVG document, its moves in `format`'s notation (the
/// summary's).
pub fn svg(game: usize, rec: &GameRecord, analysis: &GameAnalysis, format: Format) -> String {
    let limit = f64::from(SCORE_LIMIT);
    let chart = Chart {
        width: 960.0,
        height: 420.0,
        margins: [84.0, 64.0, 24.0, 56.0],
        x_range: span(rec, analysis),
        y_range: (-limit, limit),
    };
    let g = Game { rec, positions: positions(rec), format };
    // Each analysed position: plies played, Black's value, and its text.
    let points: Vec<(usize, i32, String)> =
        analysis.reports.iter().filter_map(|r| g.value(r).map(|(v, text)| (r.ply - 1, v, text))).collect();
    let line: Vec<(f64, f64)> = points.iter().map(|&(p, v, _)| (p as f64, f64::from(v))).collect();
    let mut s = String::new();
    let heading = title(game, rec);
    chart.open(&mut s, &heading, 12);
    Chart::text(&mut s, chart.width / 2.0, 20.0, &heading);
    legend(&mut s, &chart);
    shade(&mut s, &chart, &line);
    axes(&mut s, &chart);
    Chart::group(&mut s, "frame");
    chart.frame(&mut s);
    Chart::end_group(&mut s);
    chart.polyline(&mut s, &line, LINE, 1.8);
    if points.is_empty() {
        Chart::text(&mut s, chart.centre_x(), chart.py(limit / 4.0), "no position analysed");
    }
    // Tooltips over the whole height of each point, then the dots over them.
    Chart::group(&mut s, "positions");
    for (p, _, text) in &points {
        let what = if *p == 0 { "start".to_string() } else { g.played(*p) };
        chart.strip(&mut s, *p as f64 - 0.5, *p as f64 + 0.5, &format!("{what}: {text}"));
    }
    Chart::end_group(&mut s);
    Chart::group(&mut s, "marks");
    for r in &analysis.reports {
        let Some(mark) = r.mark else { continue };
        // The dot sits on the evaluation after the marked move (where the graph has dropped).
        let Some((p, v, after)) = points.iter().find(|(p, ..)| *p == r.ply) else { continue };
        let mut tip = format!("{}: {}, loss {}", g.played(r.ply), mark.name(), r.loss.unwrap_or(0));
        if let Some(best) = r.best.as_deref().and_then(|b| g.best(r.ply, b)) {
            tip.push_str(&format!(" (best {best})"));
        }
        tip.push_str(&format!("; after it {after}"));
        Chart::dot(&mut s, (chart.px(*p as f64), chart.py(f64::from(*v))), 5.0, colour(mark), Some(&tip));
    }
    Chart::end_group(&mut s);
    Chart::close(&mut s);
    s
}

/// The areas between the evaluation `line` and zero, shaded by the side ahead and labelled.
fn shade(s: &mut String, chart: &Chart, line: &[(f64, f64)]) {
    let crossed = split_at_zero(line);
    let zero: Vec<(f64, f64)> = crossed.iter().map(|&(x, _)| (x, 0.0)).collect();
    let above: Vec<(f64, f64)> = crossed.iter().map(|&(x, y)| (x, y.max(0.0))).collect();
    let below: Vec<(f64, f64)> = crossed.iter().map(|&(x, y)| (x, y.min(0.0))).collect();
    chart.band(s, &zero, &above, BLACK_AREA.0);
    chart.band(s, &below, &zero, WHITE_AREA.0);
    let [left, top, ..] = chart.margins;
    let bottom = chart.height - chart.margins[3];
    Chart::text_at(s, (left + 8.0, top + 16.0), Anchor::Start, BLACK_AREA.1, "▲先手 (Black) ahead");
    Chart::text_at(s, (left + 8.0, bottom - 8.0), Anchor::Start, WHITE_AREA.1, "△後手 (White) ahead");
}

/// The rules and labels of both axes and their titles.
fn axes(s: &mut String, chart: &Chart) {
    Chart::group(s, "y-axis");
    for v in (-SCORE_LIMIT..=SCORE_LIMIT).step_by(SCORE_STEP as usize) {
        chart.rule(s, f64::from(v), &signed(v), if v == 0 { "#666" } else { "#e4e4e4" });
    }
    let middle = chart.margins[1] + (chart.height - chart.margins[1] - chart.margins[3]) / 2.0;
    Chart::upward_text(s, 18.0, middle, &format!("評価値: centipawns, 先手/Black's view (mate: ±{SCORE_LIMIT})"));
    Chart::end_group(s);
    Chart::group(s, "x-axis");
    let (lo, hi) = chart.x_range;
    let pixels = chart.width - chart.margins[0] - chart.margins[2];
    let mut ticks = round_ticks(lo, hi, (pixels / LABEL_SPACING) as usize);
    // The first and last ply drawn are labelled too where a round one does not crowd them.
    for end in [lo, hi] {
        let clear = ticks.iter().all(|&t| (chart.px(t) - chart.px(end)).abs() >= 0.75 * LABEL_SPACING);
        if end.fract() == 0.0 && clear {
            ticks.push(end);
        }
    }
    ticks.sort_by(f64::total_cmp);
    let labels: Vec<(f64, String)> = ticks.into_iter().map(|x| (x, format!("{x}"))).collect();
    // A short mark at every ply (or round step of plies) at least 6 pixels apart.
    let minor = round_ticks(lo, hi, (pixels / 6.0) as usize);
    chart.x_ticks(s, &labels, &minor, "#e4e4e4");
    Chart::text(s, chart.centre_x(), chart.height - 10.0, "手数 (ply)");
    Chart::end_group(s);
}

/// The legend under the title: the evaluation line, then a dot per mark with its least loss.
fn legend(s: &mut String, chart: &Chart) {
    Chart::group(s, "legend");
    let y = 44.0;
    let mut x = chart.margins[0];
    Chart::segment(s, (x, y - 4.0), (x + 24.0, y - 4.0), LINE, 1.8);
    let label = "evaluation after each move";
    Chart::text_at(s, (x + 30.0, y), Anchor::Start, "black", label);
    x += 30.0 + text_width(label) + 24.0;
    for &(least, mark) in THRESHOLDS.iter().rev() {
        Chart::dot(s, (x + 5.0, y - 4.0), 5.0, colour(mark), None);
        let label = format!("{}: loss ≥ {least}", mark.name());
        Chart::text_at(s, (x + 14.0, y), Anchor::Start, "black", &label);
        x += 14.0 + text_width(&label) + 24.0;
    }
    Chart::end_group(s);
}

/// About how wide `text` is at 12 pixels (for laying out the legend; SVG cannot measure it).
fn text_width(text: &str) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 5.8 } else { 12.0 }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_gets_a_point_where_it_crosses_zero() {
        // From +300 at ply 1 to −100 at ply 2: zero is three quarters of the way.
        let crossed = split_at_zero(&[(0.0, 0.0), (1.0, 300.0), (2.0, -100.0), (3.0, -50.0)]);
        assert_eq!(crossed, [(0.0, 0.0), (1.0, 300.0), (1.75, 0.0), (2.0, -100.0), (3.0, -50.0)]);
    }

    #[test]
    fn axis_numbers_carry_their_sign() {
        assert_eq!([signed(500), signed(0), signed(-1500)], ["+500", "0", "\u{2212}1500"]);
    }
}
