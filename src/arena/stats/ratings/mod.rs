//! The rating list of a tournament: maximum-likelihood ratings of all its engines from all their
//! games, the model Ordo and BayesElo fit. Engine `i` scores `E = 1/(1 + 10^(-(R_i - R_j)/400))`
//! against engine `j` on average; a draw counts as half a win and half a loss (Ordo's default);
//! one engine, the [`Anchor`], is fixed (the first engine at 0 unless told otherwise) and the
//! others are rated relative to it. The fit is Newton's method on the log-likelihood (`fit.rs`).
//!
//! Error bars: the 95 % interval of a rating is `R ± 1.96·σ`, `σ²` the rating's diagonal entry
//! of the inverse of the observed information matrix (minus the log-likelihood's Hessian at the
//! maximum, the anchor held fixed): the curvature of the likelihood, so an interval says how
//! well a rating is known relative to the anchor (the anchor's own is 0 wide). For two engines
//! it is `±1.96·(400/ln 10)/√(n·s·(1 - s))`, the Wald interval of a score counted per game
//! without the draws' smaller variance (so wider than the match's trinomial interval when games
//! are drawn).
//!
//! Not every result set has finite maximum-likelihood ratings: an engine that won (or lost)
//! every game, or a group that scored nothing against the others, has an infinite one. Then
//! [`PRIOR_DRAWS`] virtual draws are added to every pairing that played (a prior of virtual
//! draws, as BayesElo adds to every fit; Ordo instead leaves perfect scores out of the fit and
//! bounds them), which makes every rating finite; the list says so
//! ([`RatingList::prior_draws`]), the intervals are then the curvature of that fit's likelihood,
//! and the open end of the interval of an engine with a perfect score is infinite. Engines that
//! played no games, or whose games do not link them to the anchor, get no rating. Results that
//! have a finite maximum get the plain maximum-likelihood fit, with no prior.

mod fit;
#[cfg(test)]
mod tests;

use super::crosstable::Crosstable;
use super::{EloEstimate, Wdl, Z95, signed};
use fit::PoolGames;
use std::fmt::Write;
use std::str::FromStr;

/// Virtual draws added to every pairing played when the results alone have no finite maximum.
pub const PRIOR_DRAWS: f64 = 0.5;

/// The engine whose rating is fixed, and at what (`--anchor NAME=ELO`).
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The engine's name.
    pub name: String,
    /// Its rating.
    pub elo: f64,
}

/// A text that is not `NAME=ELO`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wants NAME=ELO with a finite ELO, got {0:?}")]
pub struct ParseAnchorError(String);

impl FromStr for Anchor {
    type Err = ParseAnchorError;

    /// Reads `NAME=ELO` (the last `=` splits: a name may contain one).
    fn from_str(text: &str) -> Result<Anchor, ParseAnchorError> {
        let bad = || ParseAnchorError(text.to_string());
        let (name, elo) = text.rsplit_once('=').ok_or_else(bad)?;
        let elo: f64 = elo.trim().parse().map_err(|_| bad())?;
        (!name.is_empty() && elo.is_finite()).then(|| Anchor { name: name.to_string(), elo }).ok_or_else(bad)
    }
}

/// Why there is no rating list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// The crosstable has no engines.
    #[error("no engines to rate")]
    NoEngines,
    /// The anchor is not one of the engines.
    #[error("the anchor {0:?} is not an engine of the tournament")]
    UnknownAnchor(String),
}

/// One engine's rating, or why it has none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// Its rating with the 95 % interval.
    Fitted(EloEstimate),
    /// It played no finished game.
    NoGames,
    /// No chain of games links it to the anchor.
    NotLinked,
}

/// An engine's line in the rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRating {
    /// Its index in the crosstable.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its rating.
    pub rating: Rating,
    /// Its results against all the others.
    pub results: Wdl,
}

/// The rating list: every engine, the best first.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingList {
    /// The engine whose rating was fixed.
    pub anchor: Anchor,
    /// The engines, by rating (the best first), then those without one.
    pub engines: Vec<EngineRating>,
    /// Virtual draws added to each pairing played: 0 when the ratings are the plain
    /// maximum-likelihood fit, [`PRIOR_DRAWS`] when that has no finite maximum.
    pub prior_draws: f64,
}

impl RatingList {
    /// Fits the ratings of the crosstable's engines, `anchor` fixed (by default the first engine
    /// at 0).
    pub fn fit(table: &Crosstable, anchor: Option<&Anchor>) -> Result<RatingList, RatingError> {
        let names = table.names();
        let anchor = match anchor {
            Some(a) => a.clone(),
            None => Anchor { name: names.first().ok_or(RatingError::NoEngines)?.clone(), elo: 0.0 },
        };
        let a = table.index_of(&anchor.name).ok_or_else(|| RatingError::UnknownAnchor(anchor.name.clone()))?;
        let pool = linked(table, a);
        let m = pool.len();
        let mut games = PoolGames { m, games: vec![0.0; m * m], points: vec![0.0; m * m] };
        for (r, &i) in pool.iter().enumerate() {
            for (c, &j) in pool.iter().enumerate() {
                let w = table.wdl(i, j);
                games.games[r * m + c] = w.games() as f64;
                games.points[r * m + c] = w.wins as f64 + 0.5 * w.draws as f64;
            }
        }
        let prior_draws = if games.has_finite_maximum() { 0.0 } else { PRIOR_DRAWS };
        games.add_draws(prior_draws);
        let fitted = games.fit(0);
        let mut engines: Vec<EngineRating> = (0..names.len())
            .map(|i| {
                let results = table.total(i);
                let rating = match pool.iter().position(|&p| p == i) {
                    _ if results.games() == 0 => Rating::NoGames,
                    None => Rating::NotLinked,
                    Some(r) => {
                        let elo = anchor.elo + fitted.elo[r];
                        let half = Z95 * fitted.sigma[r];
                        let won_all = results.draws == 0 && results.losses == 0;
                        let lost_all = results.draws == 0 && results.wins == 0;
                        Rating::Fitted(EloEstimate {
                            elo,
                            lower: if lost_all { f64::NEG_INFINITY } else { elo - half },
                            upper: if won_all { f64::INFINITY } else { elo + half },
                        })
                    }
                };
                EngineRating { index: i, name: names[i].clone(), rating, results }
            })
            .collect();
        engines.sort_by(|x, y| match (x.rating, y.rating) {
            (Rating::Fitted(a), Rating::Fitted(b)) => b.elo.total_cmp(&a.elo),
            (a, b) => rank(a).cmp(&rank(b)),
        });
        Ok(RatingList { anchor, engines, prior_draws })
    }

    /// The list as cutechess and fastchess print it: rank, name, rating with its 95 % interval
    /// (`±` half its width, `anchor`, or both ends where one is infinite), games, score and draws,
    /// then a note where a prior was needed or an engine is not linked to the anchor.
    pub fn list_text(&self) -> String {
        let name_width = self.engines.iter().map(|e| e.name.chars().count()).max().unwrap_or(0).max(4);
        let rows: Vec<(String, String)> = self.engines.iter().map(|e| self.rating_text(e)).collect();
        let elo_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0).max(3);
        let error_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0).max(6);
        let mut s = format!(
            "Ratings (maximum likelihood, 95 % intervals; {} anchored at {}):\n",
            self.anchor.name,
            signed(self.anchor.elo, 1)
        );
        let _ = writeln!(
            s,
            "{:>4}  {:name_width$}  {:>elo_width$}  {:>error_width$}  {:>5}  {:>7}  {:>7}",
            "Rank", "Name", "Elo", "95 %", "Games", "Score", "Draws"
        );
        for (k, (e, (elo, error))) in self.engines.iter().zip(&rows).enumerate() {
            let w = &e.results;
            let percent = |x: f64| if w.games() == 0 { "-".to_string() } else { format!("{:.1} %", 100.0 * x) };
            let _ = writeln!(
                s,
                "{:>4}  {:name_width$}  {elo:>elo_width$}  {error:>error_width$}  {:>5}  {:>7}  {:>7}",
                k + 1,
                e.name,
                w.games(),
                percent(w.score()),
                percent(w.draw_ratio())
            );
        }
        if self.prior_draws > 0.0 {
            let perfect: Vec<String> = self
                .engines
                .iter()
                .filter_map(|e| match e.rating {
                    Rating::Fitted(r) if r.upper.is_infinite() => Some(format!("{} won every game", e.name)),
                    Rating::Fitted(r) if r.lower.is_infinite() => Some(format!("{} lost every game", e.name)),
                    _ => None,
                })
                .collect();
            let why = if perfect.is_empty() {
                "some engines have not scored against others".into()
            } else {
                perfect.join(", ")
            };
            let _ = writeln!(
                s,
                "No finite maximum-likelihood ratings yet ({why}): {} virtual draw was added to each pairing played.",
                self.prior_draws
            );
        }
        if self.engines.iter().any(|e| e.rating == Rating::NotLinked) {
            let _ = writeln!(s, "Not linked: no chain of games connects the engine to {}.", self.anchor.name);
        }
        s
    }

    /// The Elo and 95 % columns of an engine's line (also the report page's).
    pub(crate) fn rating_text(&self, e: &EngineRating) -> (String, String) {
        match e.rating {
            Rating::Fitted(r) if e.name == self.anchor.name => (signed(r.elo, 1), "anchor".into()),
            Rating::Fitted(r) if r.lower.is_finite() && r.upper.is_finite() => {
                (signed(r.elo, 1), format!("±{:.1}", (r.upper - r.lower) / 2.0))
            }
            Rating::Fitted(r) => (signed(r.elo, 1), format!("[{}, {}]", signed(r.lower, 1), signed(r.upper, 1))),
            Rating::NoGames => ("n/a".into(), "no games".into()),
            Rating::NotLinked => ("n/a".into(), "not linked".into()),
        }
    }

    /// The rating list, then `table`'s grid with the engines in the list's order.
    pub fn text(&self, table: &Crosstable) -> String {
        let order: Vec<usize> = self.engines.iter().map(|e| e.index).collect();
        format!("{}{}", self.list_text(), table.grid_text(&order))
    }
}

/// Where an engine without a fitted rating goes in the list.
fn rank(r: Rating) -> u8 {
    match r {
        Rating::Fitted(_) => 0,
        Rating::NotLinked => 1,
        Rating::NoGames => 2,
    }
}

/// The engines that a chain of games links to `anchor` (the anchor first).
fn linked(table: &Crosstable, anchor: usize) -> Vec<usize> {
    let n = table.names().len();
    let mut pool = vec![anchor];
    let mut next = 0;
    while let Some(&i) = pool.get(next) {
        next += 1;
        for j in 0..n {
            if !pool.contains(&j) && table.wdl(i, j).games() > 0 {
                pool.push(j);
            }
        }
    }
    pool
}
