//! A tournament's results on the page: the rating list and the crosstable as tables (the same
//! [`Standings`] as the text results block), each pairing's W-L-D and pairs, and the details
//! (games by colour, faults, overruns, engines dropped).

use super::results::row;
use crate::arena::standings::Standings;
use crate::arena::stats::signed;
use crate::chart::escaped;
use std::fmt::Write as _;

/// The sections of a tournament: ratings, crosstable, pairings, details.
pub(crate) fn standings(st: &Standings) -> String {
    let table = st.table();
    let names = table.names();
    let mut s = String::from("<h2>Ratings</h2>\n");
    let order: Vec<usize> = match st.ratings() {
        Some(list) => {
            let _ = writeln!(
                s,
                "<p class=\"note\">Maximum likelihood over all games, 95 % intervals; {} anchored at {}.</p>",
                escaped(&list.anchor.name),
                signed(list.anchor.elo, 1)
            );
            s.push_str("<table class=\"results\">\n<tr><th>rank</th><th>engine</th><th>Elo</th><th>95 %</th>");
            s.push_str("<th>games</th><th>score</th><th>draws</th></tr>\n");
            for (k, e) in list.engines.iter().enumerate() {
                let w = &e.results;
                let percent = |x: f64| if w.games() == 0 { "-".to_string() } else { format!("{:.1} %", 100.0 * x) };
                let (elo, error) = list.rating_text(e);
                let cells = [(k + 1).to_string(), e.name.clone(), elo, error, w.games().to_string()];
                row(&mut s, &[&cells[..], &[percent(w.score()), percent(w.draw_ratio())]].concat());
            }
            s.push_str("</table>\n");
            if list.prior_draws > 0.0 {
                let _ = writeln!(
                    s,
                    "<p class=\"note\">No finite maximum-likelihood ratings yet: {} virtual draw was added to \
                     each pairing played.</p>",
                    list.prior_draws
                );
            }
            list.engines.iter().map(|e| e.index).collect()
        }
        None => (0..names.len()).collect(),
    };
    s.push_str("<h2>Crosstable</h2>\n<p class=\"note\">Points of the row's engine against the column's / games.</p>\n");
    s.push_str("<table class=\"results\">\n<tr><th></th>");
    for &j in &order {
        let _ = write!(s, "<th>{}</th>", escaped(&names[j]));
    }
    s.push_str("</tr>\n");
    for &i in &order {
        let cells: Vec<String> = order
            .iter()
            .map(|&j| {
                let w = table.wdl(i, j);
                match (i == j, w.games()) {
                    (true, _) => "-".to_string(),
                    (false, 0) => ".".to_string(),
                    (false, n) => format!("{}/{n}", w.wins as f64 + 0.5 * w.draws as f64),
                }
            })
            .collect();
        row(&mut s, &[&[names[i].clone()][..], &cells].concat());
    }
    s.push_str("</table>\n<h2>Pairings</h2>\n<table class=\"results\">\n<tr><th>pairing</th><th>W-L-D</th>");
    s.push_str("<th>pairs [0, ½, 1, 1½, 2]</th></tr>\n");
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            let w = table.wdl(i, j);
            if w.games() > 0 {
                let pairs = format!("{:?}", table.pentanomial(i, j).0);
                row(
                    &mut s,
                    &[format!("{} vs {}", names[i], names[j]), format!("{}-{}-{}", w.wins, w.losses, w.draws), pairs],
                );
            }
        }
    }
    s.push_str("</table>\n<table class=\"stats\">\n");
    let tc = st.time_control_text();
    if !tc.is_empty() {
        row(&mut s, &["Time control".into(), tc]);
    }
    for (label, value) in st.detail_rows().into_iter().filter(|(label, _)| label != "End reasons") {
        row(&mut s, &[label, value]);
    }
    s.push_str("</table>\n");
    s
}
