//! The page's tables of numbers: the results (the same [`Tally`] and statistics as the text
//! results block, formatted as HTML), the end reasons and the time used per move.

use super::details::median;
use crate::arena::report::Tally;
use crate::arena::stats::{Sprt, Wdl};
use crate::chart::escaped;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// `W-L-D`.
fn wld(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.losses, w.draws)
}

/// `1 game`, `2 games`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A table row of cells (escaped), the first one a heading.
pub(super) fn row(s: &mut String, cells: &[String]) {
    s.push_str("<tr>");
    for (i, c) in cells.iter().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        let _ = write!(s, "<{tag}>{}</{tag}>", escaped(c));
    }
    s.push_str("</tr>\n");
}

/// The results table and the statistics under it.
pub(crate) fn results(t: &Tally, sprt: Option<&Sprt>) -> String {
    let mut s = String::from("<table class=\"results\">\n<tr><th>engine</th><th>games</th><th>wins</th>");
    s.push_str("<th>losses</th><th>draws</th><th>score</th><th>as Black W-L-D</th><th>as White W-L-D</th></tr>\n");
    for (name, total, black, white) in t.per_engine() {
        row(
            &mut s,
            &[
                name.to_string(),
                total.games().to_string(),
                total.wins.to_string(),
                total.losses.to_string(),
                total.draws.to_string(),
                format!("{:.3}", total.score()),
                wld(&black),
                wld(&white),
            ],
        );
    }
    s.push_str("</table>\n<table class=\"stats\">\n");
    let w = &t.total;
    let [bw, ww, d] = t.by_colour;
    let [fa, fb] = t.faults;
    let mut lines = vec![
        ["Time control".into(), t.time_control_text()],
        [format!("Elo of {} [95 % interval]", t.a), t.elo_per_game()],
        ["Elo from pairs (pentanomial)".into(), t.elo_per_pair()],
        ["Normalised Elo (from pairs)".into(), t.normalized_elo()],
        ["LOS".into(), format!("{:.1} %", 100.0 * w.los())],
        ["Draw ratio".into(), format!("{:.1} %", 100.0 * w.draw_ratio())],
        ["Pentanomial [0, ½, 1, 1½, 2]".into(), t.pentanomial_text()],
        ["By colour".into(), format!("Black won {bw}, White won {ww}, draws {d}")],
        [
            "Losses on time / illegal moves / crashes".into(),
            format!("{} {}/{}/{}, {} {}/{}/{}", t.a, fa[0], fa[1], fa[2], t.b, fb[0], fb[1], fb[2]),
        ],
    ];
    let overruns: Vec<String> =
        t.max_overrun.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v} ms")).collect();
    if !overruns.is_empty() {
        lines.push(["Largest overrun of the time allowance".into(), overruns.join(", ")]);
    }
    if t.unfinished > 0 {
        lines.push(["Unfinished".into(), t.unfinished.to_string()]);
    }
    if let Some(test) = sprt {
        lines.push([format!("SPRT ({test})"), t.sprt_state(test)]);
    }
    lines.retain(|[_, value]| !value.is_empty());
    for l in &lines {
        row(&mut s, l);
    }
    s.push_str("</table>\n");
    s
}

/// The end reasons and how many games ended so.
pub(crate) fn end_reasons(reasons: &BTreeMap<String, u64>) -> String {
    if reasons.is_empty() {
        return "<p>No finished games yet.</p>\n".into();
    }
    let mut s = String::from("<table>\n<tr><th>end reason</th><th>games</th></tr>\n");
    for (reason, n) in reasons {
        row(&mut s, &[reason.clone(), n.to_string()]);
    }
    s.push_str("</table>\n");
    s
}

/// Time per move of each engine (`times`: name and milliseconds of its moves), from `timed` of
/// `games` games; a note says which games are left out and why.
pub(crate) fn move_times(times: &[(String, Vec<u64>)], timed: usize, games: usize) -> String {
    let mut s = String::new();
    if timed < games {
        let _ = writeln!(
            s,
            "<p class=\"note\">From the {} played in this run; the other {} left out: their records keep \
             times in whole seconds only.</p>",
            counted(timed, "game", "games"),
            counted(games - timed, "game is", "games are")
        );
    }
    if times.iter().all(|(_, v)| v.is_empty()) {
        s.push_str("<p>No timed moves.</p>\n");
        return s;
    }
    s.push_str("<table>\n<tr><th>engine</th><th>moves</th><th>median ms</th><th>max ms</th></tr>\n");
    for (name, v) in times {
        let med = median(v).map_or("-".into(), |m| format!("{m:.0}"));
        let max = v.iter().max().map_or("-".into(), u64::to_string);
        row(&mut s, &[name.clone(), v.len().to_string(), med, max]);
    }
    s.push_str("</table>\n");
    s
}
