//! The `--report` page of `hisha tune`: a self-contained HTML page with a table of the
//! parameters (start, θ now, range, c_end, r_end) and, for each, its trajectory as an inline SVG
//! drawn with the match page's chart: θ over the iterations, across the parameter's whole range.

use super::state::TuneState;
use crate::arena::FileError;
use crate::chart::{Chart, escaped, round_ticks};
use crate::output_file::OutputFile;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The trajectory of parameter `i` of `state`, as an SVG.
fn trajectory(state: &TuneState, i: usize) -> String {
    let p = &state.identity.params[i];
    let n = state.identity.gains.iterations;
    let chart = Chart {
        width: 720.0,
        height: 220.0,
        margins: [56.0, 28.0, 24.0, 40.0],
        x_range: (0.0, n.max(1) as f64),
        y_range: (p.min as f64, p.max as f64),
    };
    let mut s = String::new();
    let title = format!("{} after each iteration (start {}, range {}..{})", p.name, p.start, p.min, p.max);
    chart.open(&mut s, &title, 12);
    Chart::text(&mut s, chart.width / 2.0, 16.0, &title);
    for v in round_ticks(p.min as f64, p.max as f64, 5) {
        chart.rule(&mut s, v, &v.to_string(), "#ddd");
    }
    chart.rule(&mut s, p.start as f64, "", "#999");
    chart.frame(&mut s);
    let ticks: Vec<(f64, String)> = round_ticks(0.0, n as f64, 6).into_iter().map(|x| (x, x.to_string())).collect();
    chart.x_ticks(&mut s, &ticks, &[], "#eee");
    let points: Vec<(f64, f64)> = state.trajectory.iter().map(|(k, theta)| (*k as f64, theta[i])).collect();
    chart.polyline(&mut s, &points, "#2060c0", 2.0);
    if let Some(&(x, y)) = points.last() {
        Chart::dot(&mut s, (chart.px(x), chart.py(y)), 3.0, "#2060c0", Some(&format!("{y:.2} after {x} iterations")));
    }
    Chart::text(&mut s, chart.centre_x(), chart.height - 6.0, "iterations");
    Chart::close(&mut s);
    s
}

/// The page of `state`.
pub(super) fn html(state: &TuneState) -> String {
    let id = &state.identity;
    let mut s = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hisha tune</title>\n");
    s.push_str("<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}</style></head><body>\n");
    let max = id.max_result();
    let scores: Vec<String> = (-max..=max).map(|r| if r > 0 { format!("+{r}") } else { r.to_string() }).collect();
    let counts: Vec<String> = state.results.iter().map(u64::to_string).collect();
    let against = id.opponent.as_ref().map_or(String::new(), |o| format!(" against {}", escaped(o)));
    let _ = writeln!(
        s,
        "<h1>hisha tune</h1>\n<p>{}{against}: {} of {} iterations, {}; A {}, alpha {}, gamma {}, seed {}. Iterations scored {} by the θ + cΔ side{}: {}.</p>",
        escaped(&id.engine),
        state.done,
        id.gains.iterations,
        escaped(&id.tc),
        id.gains.a,
        id.gains.alpha,
        id.gains.gamma,
        id.seed,
        scores.join("/"),
        if id.opponent.is_some() { " less the θ − cΔ side" } else { "" },
        counts.join("/")
    );
    s.push_str("<table><tr><th>parameter</th><th>start</th><th>θ now</th><th>min</th><th>max</th><th>c_end</th><th>r_end</th></tr>\n");
    for (p, theta) in id.params.iter().zip(&state.theta) {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{theta:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escaped(&p.name),
            p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    s.push_str("</table>\n");
    for i in 0..id.params.len() {
        s.push_str("<div>\n");
        s.push_str(&trajectory(state, i));
        s.push_str("</div>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// Writes the page of `state` to `path`, replacing it only once it is complete.
pub(super) fn write(path: &Path, state: &TuneState) -> Result<(), FileError> {
    let write = || -> std::io::Result<()> {
        let mut out = OutputFile::create(path)?;
        out.write_all(html(state).as_bytes())?;
        out.commit()
    };
    write().map_err(FileError::at(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::params::Param;
    use crate::tune::spsa::Gains;
    use crate::tune::state::TuneIdentity;

    #[test]
    fn one_trajectory_per_parameter_through_the_values_kept() {
        let params = vec![
            Param { name: "A<1>".into(), start: 20, min: 0, max: 100, c_end: 10.0, r_end: 0.002 },
            Param { name: "B".into(), start: 80, min: 0, max: 100, c_end: 10.0, r_end: 0.002 },
        ];
        let identity = TuneIdentity {
            params,
            gains: Gains::fishtest(4),
            seed: 3,
            engine: "fake".into(),
            tc: "nodes=1".into(),
            opponent: None,
        };
        let mut st = TuneState::new(identity);
        st.trajectory.extend([(1, vec![30.0, 70.0]), (2, vec![40.0, 60.0])]);
        (st.done, st.theta) = (2, vec![40.0, 60.0]);
        let page = html(&st);
        assert_eq!(page.matches("<svg").count(), 2);
        assert!(page.contains("A&lt;1&gt; after each iteration"), "names are escaped");
        // A 720 × 220 chart with margins 56/28/24/40: x 0..4 → 56..696, y 0..100 → 180..28; the
        // points of A are (0, 20), (1, 30), (2, 40).
        assert!(page.contains(r#"<polyline points="56.0,149.6 216.0,134.4 376.0,119.2""#), "{page}");
        assert!(page.contains("<td>40.00</td>") && page.contains("<td>60.00</td>"), "θ now");
        assert!(
            roxmltree::Document::parse(
                &page
                    .replacen("<!DOCTYPE html>\n", "", 1)
                    .replace("<meta charset=\"utf-8\">", "<meta charset=\"utf-8\"/>")
            )
            .is_ok(),
            "well-formed"
        );
    }
}
