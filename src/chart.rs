//! A hand-written SVG line chart, shared by `hisha analyze --svg` (one game's evaluation graph)
//! and `hisha match --report` (the Elo plot and the small graph of each game): a frame, horizontal
//! rules with labels on the left, labelled x ticks, polylines, filled bands, dots and legend
//! entries with tooltips, with data coordinates mapped into the frame. The markup is XML (it
//! parses as XHTML inside a page too), with no script and no font of its own; every text is
//! escaped.

use std::fmt::Write as _;

/// Text with `&`, `<`, `>` and `"` escaped for XML and HTML.
pub(crate) fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Which point of a text is at its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// Its start (left).
    Start,
    /// Its middle.
    Middle,
    /// Its end (right).
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// The multiples of a round step (1, 2 or 5 times a power of ten, at least 1) from `lo` to `hi`,
/// with the smallest such step that gives at most `most` of them (none when `hi` < `lo`).
pub(crate) fn round_ticks(lo: f64, hi: f64, most: usize) -> Vec<f64> {
    if hi < lo || most == 0 {
        return Vec::new();
    }
    let steps = (0..16).flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)));
    for step in steps {
        let (first, last) = ((lo / step).ceil(), (hi / step).floor());
        if last - first < most as f64 {
            return (first as i64..=last as i64).map(|k| k as f64 * step).collect();
        }
    }
    Vec::new()
}

/// A chart of `width` × `height` pixels whose frame leaves `margins` (left, top, right, bottom)
/// around it, showing x from `x_range.0` (left) to `x_range.1` (right) and y from `y_range.0`
/// (bottom) to `y_range.1` (top).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chart {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
    /// Space left of, above, right of and below the frame.
    pub margins: [f64; 4],
    /// The x at the left and at the right edge of the frame; values beyond are drawn at the edge.
    pub x_range: (f64, f64),
    /// The y at the bottom and at the top of the frame; values beyond are drawn at the edge.
    pub y_range: (f64, f64),
}

impl Chart {
    fn plot_w(&self) -> f64 {
        self.width - self.margins[0] - self.margins[2]
    }

    fn plot_h(&self) -> f64 {
        self.height - self.margins[1] - self.margins[3]
    }

    /// The horizontal pixel of `x` (clamped into the frame).
    pub(crate) fn px(&self, x: f64) -> f64 {
        let (lo, hi) = self.x_range;
        let t = if hi > lo { ((x - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.0 };
        self.margins[0] + self.plot_w() * t
    }

    /// The vertical pixel of `y` (clamped into the frame).
    pub(crate) fn py(&self, y: f64) -> f64 {
        let (lo, hi) = self.y_range;
        let t = if hi > lo { ((y - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 };
        self.margins[1] + self.plot_h() * (1.0 - t)
    }

    /// The middle of the frame, horizontally.
    pub(crate) fn centre_x(&self) -> f64 {
        self.margins[0] + self.plot_w() / 2.0
    }

    /// Opens the `<svg>` element (with `font_size`) and writes its `<title>` (the tooltip) and a
    /// white background.
    pub(crate) fn open(&self, s: &mut String, title: &str, font_size: u32) {
        let (w, h) = (self.width, self.height);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{font_size}">"#
        );
        let _ = writeln!(s, "<title>{}</title>", escaped(title));
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    }

    /// Closes the `<svg>` element.
    pub(crate) fn close(s: &mut String) {
        s.push_str("</svg>\n");
    }

    /// The frame's outline.
    pub(crate) fn frame(&self, s: &mut String) {
        let [left, top, ..] = self.margins;
        let _ = writeln!(
            s,
            r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#999"/>"##,
            self.plot_w(),
            self.plot_h()
        );
    }

    /// A horizontal rule at `y` across the frame in `stroke`, labelled `label` left of the frame.
    pub(crate) fn rule(&self, s: &mut String, y: f64, label: &str, stroke: &str) {
        let (left, right, py) = (self.margins[0], self.margins[0] + self.plot_w(), self.py(y));
        let _ = writeln!(s, r#"<line x1="{left}" y1="{py:.1}" x2="{right}" y2="{py:.1}" stroke="{stroke}"/>"#);
        if !label.is_empty() {
            Chart::text_at(s, (left - 4.0, py + 4.0), Anchor::End, "black", label);
        }
    }

    /// Text centred at pixel (`x`, `y`).
    pub(crate) fn text(s: &mut String, x: f64, y: f64, text: &str) {
        Chart::text_at(s, (x, y), Anchor::Middle, "black", text);
    }

    /// Text in `fill` whose `anchor` is at pixel `at`.
    pub(crate) fn text_at(s: &mut String, at: (f64, f64), anchor: Anchor, fill: &str, text: &str) {
        let (x, y, anchor) = (at.0, at.1, anchor.name());
        let fill = if fill == "black" { String::new() } else { format!(r#" fill="{fill}""#) };
        let _ = writeln!(s, r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}"{fill}>{}</text>"#, escaped(text));
    }

    /// Text centred at pixel (`x`, `y`), written upwards (a y axis's title).
    pub(crate) fn upward_text(s: &mut String, x: f64, y: f64, text: &str) {
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="middle" transform="rotate(-90 {x:.1} {y:.1})">{}</text>"#,
            escaped(text)
        );
    }

    /// Opens a group `<g class="CLASS">` (what tests and style sheets find a part of the chart by).
    pub(crate) fn group(s: &mut String, class: &str) {
        let _ = writeln!(s, r#"<g class="{}">"#, escaped(class));
    }

    /// Closes the group [`Chart::group`] opened.
    pub(crate) fn end_group(s: &mut String) {
        s.push_str("</g>\n");
    }

    /// The x axis: at each of `ticks` (data x, label) a mark under the frame with its label under
    /// it and a vertical rule across the frame in `stroke`; at each of `minor` a shorter mark only.
    pub(crate) fn x_ticks(&self, s: &mut String, ticks: &[(f64, String)], minor: &[f64], stroke: &str) {
        let (top, bottom) = (self.margins[1], self.margins[1] + self.plot_h());
        for &x in minor {
            let px = self.px(x);
            let _ =
                writeln!(s, r##"<line x1="{px:.1}" y1="{bottom}" x2="{px:.1}" y2="{}" stroke="#999"/>"##, bottom + 3.0);
        }
        for (x, label) in ticks {
            let px = self.px(*x);
            let _ = writeln!(s, r#"<line x1="{px:.1}" y1="{top}" x2="{px:.1}" y2="{bottom}" stroke="{stroke}"/>"#);
            let _ =
                writeln!(s, r##"<line x1="{px:.1}" y1="{bottom}" x2="{px:.1}" y2="{}" stroke="#666"/>"##, bottom + 6.0);
            Chart::text(s, px, bottom + 18.0, label);
        }
    }

    /// A dot of `radius` in `fill` (outlined in white) at pixel `at`, with `tooltip` if any.
    pub(crate) fn dot(s: &mut String, at: (f64, f64), radius: f64, fill: &str, tooltip: Option<&str>) {
        let (x, y) = at;
        let head = format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="{radius}" fill="{fill}" stroke="white""#);
        match tooltip {
            Some(t) => {
                let _ = writeln!(s, "{head}><title>{}</title></circle>", escaped(t));
            }
            None => {
                let _ = writeln!(s, "{head}/>");
            }
        }
    }

    /// A straight line between pixels `from` and `to` in `stroke` (a legend's sample of a line).
    pub(crate) fn segment(s: &mut String, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="{width}"/>"#,
            from.0, from.1, to.0, to.1
        );
    }

    /// An invisible strip across the frame's height from data `x_lo` to `x_hi` whose tooltip is
    /// `tooltip` (pointing anywhere above or below a point shows what it is).
    pub(crate) fn strip(&self, s: &mut String, x_lo: f64, x_hi: f64, tooltip: &str) {
        let (left, right) = (self.px(x_lo), self.px(x_hi));
        let _ = writeln!(
            s,
            r#"<rect x="{left:.1}" y="{}" width="{:.1}" height="{}" fill="transparent"><title>{}</title></rect>"#,
            self.margins[1],
            right - left,
            self.plot_h(),
            escaped(tooltip)
        );
    }

    /// The data points as an SVG `points` list of pixels.
    fn pixels(&self, points: &[(f64, f64)]) -> String {
        let p: Vec<String> = points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        p.join(" ")
    }

    /// A line through the data `points` (nothing for no points).
    pub(crate) fn polyline(&self, s: &mut String, points: &[(f64, f64)], stroke: &str, width: f64) {
        if !points.is_empty() {
            let p = self.pixels(points);
            let _ = writeln!(s, r#"<polyline points="{p}" fill="none" stroke="{stroke}" stroke-width="{width}"/>"#);
        }
    }

    /// A filled band between `lower` and `upper` (the same x, in order; nothing for none).
    pub(crate) fn band(&self, s: &mut String, lower: &[(f64, f64)], upper: &[(f64, f64)], fill: &str) {
        if lower.is_empty() {
            return;
        }
        let around: Vec<(f64, f64)> = upper.iter().copied().chain(lower.iter().rev().copied()).collect();
        let _ = writeln!(s, r#"<polygon points="{}" fill="{fill}" stroke="none"/>"#, self.pixels(&around));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_maps_into_the_frame_and_beyond_is_clamped() {
        // A 200 × 100 chart with margins 10 on each side: the frame is x 10..190, y 10..90.
        let c = Chart { width: 200.0, height: 100.0, margins: [10.0; 4], x_range: (0.0, 4.0), y_range: (-50.0, 50.0) };
        assert_eq!((c.px(0.0), c.px(2.0), c.px(4.0), c.px(9.0)), (10.0, 100.0, 190.0, 190.0));
        assert_eq!((c.py(50.0), c.py(0.0), c.py(-50.0), c.py(-400.0)), (10.0, 50.0, 90.0, 90.0));
        assert_eq!(escaped(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
        // The x range need not start at 0: plies 9 to 25 fill the frame.
        let c = Chart { x_range: (9.0, 25.0), ..c };
        assert_eq!((c.px(9.0), c.px(17.0), c.px(25.0), c.px(0.0)), (10.0, 100.0, 190.0, 10.0));
    }

    #[test]
    fn round_ticks_take_the_finest_round_step_that_fits() {
        assert_eq!(round_ticks(9.0, 25.0, 21), (9..=25).map(f64::from).collect::<Vec<_>>(), "every ply");
        assert_eq!(round_ticks(9.0, 25.0, 8), [10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0]);
        assert_eq!(round_ticks(0.0, 107.0, 21), [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]);
        assert_eq!(round_ticks(0.0, 54.0, 21), (0..=10).map(|k| f64::from(k * 5)).collect::<Vec<_>>());
        assert!(round_ticks(5.0, 4.0, 10).is_empty() && round_ticks(0.0, 9.0, 0).is_empty());
    }
}
