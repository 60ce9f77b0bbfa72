//! A hand-written SVG line chart, shared by `hisha analyze --svg` (one game's evaluation graph)
//! and `hisha match --report` (the Elo plot and the small graph of each game): a frame, horizontal
//! rules with labels on the left, polylines and a filled band, with data coordinates mapped into
//! the frame. The markup is XML (it parses as XHTML inside a page too); every text is escaped.

use std::fmt::Write as _;

/// Text with `&`, `<`, `>` and `"` escaped for XML and HTML.
pub(crate) fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A chart of `width` × `height` pixels whose frame leaves `margins` (left, top, right, bottom)
/// around it, showing x from 0 to `x_max` and y from `y_min` (bottom) to `y_max` (top).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chart {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
    /// Space left of, above, right of and below the frame.
    pub margins: [f64; 4],
    /// The largest x (at the right edge of the frame; 0 is at the left edge).
    pub x_max: f64,
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

    /// The horizontal pixel of `x`.
    pub(crate) fn px(&self, x: f64) -> f64 {
        self.margins[0] + self.plot_w() * (x / self.x_max.max(f64::MIN_POSITIVE)).clamp(0.0, 1.0)
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
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                left - 4.0,
                py + 4.0,
                escaped(label)
            );
        }
    }

    /// Text centred at pixel (`x`, `y`).
    pub(crate) fn text(s: &mut String, x: f64, y: f64, text: &str) {
        let _ = writeln!(s, r#"<text x="{x:.1}" y="{y:.1}" text-anchor="middle">{}</text>"#, escaped(text));
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
        let c = Chart { width: 200.0, height: 100.0, margins: [10.0; 4], x_max: 4.0, y_range: (-50.0, 50.0) };
        assert_eq!((c.px(0.0), c.px(2.0), c.px(4.0), c.px(9.0)), (10.0, 100.0, 190.0, 190.0));
        assert_eq!((c.py(50.0), c.py(0.0), c.py(-50.0), c.py(-400.0)), (10.0, 50.0, 90.0, 90.0));
        assert_eq!(escaped(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
