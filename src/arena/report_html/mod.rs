//! `hisha match --report FILE.html`: one self-contained page (inline CSS and SVG, no script, no
//! network) with the results (the same [`Tally`] as the text results block; for a tournament its
//! rating list and crosstable), a plot of the Elo after each game (a match's), the end reasons, the time used per move and a list of the games, each with a
//! small graph of the scores its engines reported. The runner rewrites it every `--report-every`
//! games and at the end; `--merge` writes it from the shards' state files and records. The page is
//! XHTML, so that XML tools read it too, and every engine-provided text is escaped.
//!
//! `details` reads a game's record, `plots` draws, `results` makes the tables (`standings_html`
//! a tournament's), `target` refuses a
//! page that cannot be written or would overwrite a file the match reads or writes.

mod details;
mod plots;
mod results;
mod standings_html;
mod target;

pub(crate) use details::GameDetails;
pub(crate) use target::check_target;

use super::events::{MatchEvent, MatchObserver};
use super::file_error::FileError;
use super::recorded;
use super::scoreboard::{Results, Scoreboard};
use super::state::{GameLine, State};
use super::stats::{Sprt, Wdl};
use super::timestamp::now_text;
use crate::chart::escaped;
use crate::output_file::OutputFile;
use crate::position::Winner;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;\
margin-top:1.6em}table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ccc;padding:2px 8px;\
text-align:left;vertical-align:middle;white-space:nowrap}td{font-variant-numeric:tabular-nums}tr:nth-child(even) td{background:#f6f6f6}\
.note{color:#555;font-size:.9em}.graph td svg{display:block}";

/// Seconds between reloads of the page of a match in progress (a `<meta http-equiv="refresh">`,
/// no script); the page written at the end does not reload.
const RELOAD_SECONDS: u32 = 30;

/// The page of a match: its games so far with what their records say, and the results after each.
pub(crate) struct MatchPage {
    path: PathBuf,
    /// Every game counted, in the order counted, with its record's details (if it has one).
    games: Vec<(GameLine, Option<GameDetails>)>,
    /// The first engine's results after each finished game.
    history: Vec<Wdl>,
    /// Lines said under the heading (records that could not be read …).
    notes: Vec<String>,
}

impl MatchPage {
    /// A page to be written to `path`.
    pub(crate) fn new(path: &Path) -> MatchPage {
        MatchPage { path: path.to_path_buf(), games: Vec::new(), history: Vec::new(), notes: Vec::new() }
    }

    /// Where the page goes.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Adds a game, just counted in `board`, with its record's `details`.
    pub(crate) fn add(&mut self, line: &GameLine, details: Option<GameDetails>, board: &Scoreboard) {
        if let (Results::Match(tally), false) = (&board.results, line.result.winner == Winner::Unfinished) {
            self.history.push(tally.total);
        }
        self.games.push((line.clone(), details));
    }

    /// Reads the records of the games of `st`, the state file at `state_path` (for `--resume` and
    /// `--merge`): each game's details by number, without times (records keep whole seconds). A
    /// record file that cannot be read is noted on the page and warned of to `events`; its games
    /// are listed without details.
    pub(crate) fn earlier_games(
        &mut self,
        state_path: &Path,
        st: &State,
        events: &dyn MatchObserver,
    ) -> BTreeMap<usize, GameDetails> {
        match recorded::records(state_path, st) {
            Ok(recs) => recs.into_iter().map(|(n, r)| (n, GameDetails::of(&r, None, false))).collect(),
            Err(e) => {
                let notice = format!("--report: {e}; the page lists those games without their records");
                events.event(MatchEvent::Notice(&notice));
                self.notes.push(format!("Games of {} listed without their records: {e}", state_path.display()));
                BTreeMap::new()
            }
        }
    }

    /// The page for `board` (and the SPRT, if any), saying `status` under the heading; a page of a
    /// match in progress (`live`) asks the browser to reload it every [`RELOAD_SECONDS`].
    pub(crate) fn render(&self, board: &Scoreboard, sprt: Option<&Sprt>, status: &str, live: bool) -> String {
        let title = match &board.results {
            Results::Match(tally) => format!("hisha match: {} vs {}", tally.a, tally.b),
            Results::Tournament(standings) => format!("hisha {}", standings.title()),
        };
        let mut s =
            String::from("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n");
        let _ = writeln!(s, "<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>", escaped(&title));
        if live {
            let _ = writeln!(s, "<meta http-equiv=\"refresh\" content=\"{RELOAD_SECONDS}\"/>");
        }
        let _ = writeln!(s, "</head>\n<body>\n<h1>{}</h1>", escaped(&title));
        let _ = writeln!(s, "<p>{} games; {}; written {}.</p>", self.games.len(), escaped(status), now_text());
        for n in &self.notes {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", escaped(n));
        }
        if let Some(line) = board.openings_line() {
            let _ = writeln!(s, "<p>{}.</p>", escaped(&line));
        }
        let names: Vec<String> = match &board.results {
            Results::Match(tally) => {
                s.push_str("<h2>Results</h2>\n");
                s.push_str(&results::results(tally, sprt));
                s.push_str("<h2>Elo over the games</h2>\n");
                s.push_str(&plots::elo_plot(&self.history, &tally.a));
                s.push_str(
                    "<p class=\"note\">The line is the Elo from the games so far, the band its 95 % interval; \
                    it starts once there are two games and neither engine has every point.</p>\n",
                );
                vec![tally.a.clone(), tally.b.clone()]
            }
            Results::Tournament(standings) => {
                s.push_str(&standings_html::standings(standings));
                standings.table().names().to_vec()
            }
        };
        s.push_str("<h2>End reasons</h2>\n");
        s.push_str(&results::end_reasons(board.reasons()));
        s.push_str("<h2>Time per move</h2>\n");
        let times = self.move_times(&names);
        let timed = self.games.iter().filter(|(_, d)| d.as_ref().is_some_and(|d| d.times.is_some())).count();
        s.push_str(&results::move_times(&times, timed, self.games.len()));
        s.push_str("<h2>Games</h2>\n");
        s.push_str(&self.game_list());
        s.push_str("</body>\n</html>\n");
        s
    }

    /// The times of each engine's moves over the games that have them.
    fn move_times(&self, names: &[String]) -> Vec<(String, Vec<u64>)> {
        let mut times: Vec<(String, Vec<u64>)> = names.iter().map(|n| (n.to_string(), Vec::new())).collect();
        for (line, d) in &self.games {
            let Some([black, white]) = d.as_ref().and_then(|d| d.times.as_ref()) else { continue };
            for (engine, t) in [(&line.black, black), (&line.white, white)] {
                if let Some((_, v)) = times.iter_mut().find(|(n, _)| n == engine) {
                    v.extend(t);
                }
            }
        }
        times
    }

    /// The table of games in game order, each with its graph.
    fn game_list(&self) -> String {
        let [black, white] = plots::SIDE_COLOURS;
        let mut s = format!(
            "<p class=\"note\">Scores as the engines reported them, from Black's point of view (Black above the \
             middle line), clamped to ±{}: <span style=\"color:{black}\">the engine playing Black</span>, \
             <span style=\"color:{white}\">the engine playing White</span>.</p>\n",
            details::GRAPH_LIMIT
        );
        if self.games.iter().any(|(_, d)| d.is_none()) {
            s.push_str("<p class=\"note\">Games marked ? have no record that could be read.</p>\n");
        }
        s.push_str("<table class=\"graph\">\n<tr><th>#</th><th>Black</th><th>White</th><th>result</th>");
        s.push_str("<th>end reason</th><th>plies</th><th>opening</th><th>scores (Black up)</th></tr>\n");
        let mut games: Vec<&(GameLine, Option<GameDetails>)> = self.games.iter().collect();
        games.sort_by_key(|(g, _)| g.number);
        for (g, d) in games {
            let result = match g.result.winner {
                Winner::Black => "1-0",
                Winner::White => "0-1",
                Winner::Draw => "½-½",
                Winner::Unfinished => "*",
            };
            let cells =
                [g.number.to_string(), g.black.clone(), g.white.clone(), result.into(), g.result.reason.to_string()];
            s.push_str("<tr>");
            for c in cells {
                let _ = write!(s, "<td>{}</td>", escaped(&c));
            }
            match d {
                Some(d) => {
                    let _ = write!(s, "<td>{}</td><td>{}</td><td>", d.plies, escaped(&d.opening));
                    s.push_str(&plots::game_graph(g.number, d));
                    s.push_str("</td>");
                }
                None => s.push_str("<td>?</td><td>?</td><td>?</td>"),
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        s
    }

    /// Writes the page (see [`MatchPage::render`]) to a temporary file renamed over the target.
    pub(crate) fn write(
        &self,
        board: &Scoreboard,
        sprt: Option<&Sprt>,
        status: &str,
        live: bool,
    ) -> Result<(), FileError> {
        let at = |source| FileError { path: self.path.clone(), source };
        let mut out = OutputFile::create(&self.path).map_err(at)?;
        out.write_all(self.render(board, sprt, status, live).as_bytes()).map_err(at)?;
        out.commit().map_err(at)
    }
}
