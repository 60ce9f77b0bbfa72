//! Match statistics: W/D/L, score, Elo difference with its 95 % likelihood-ratio interval (per
//! game, and per colour-swapped pair from the pentanomial counts), likelihood of superiority,
//! draw ratio, normalised Elo, and fishtest's generalised SPRT ([`sprt`]); for tournaments of
//! any number of engines, the [`crosstable`] (W-D-L and pentanomial counts per pair of engines,
//! from the state file's games) and the maximum-likelihood rating list ([`ratings`]).
//! Elo is logistic: `E = -400 · log10(1/s - 1)` for a score fraction `s`.

pub mod crosstable;
mod mle;
pub mod ratings;
pub mod sprt;

pub use crosstable::{Crosstable, CrosstableError, PlayedGame};
use mle::Observed;
pub use ratings::{Anchor, EngineRating, ParseAnchorError, Rating, RatingError, RatingList};
pub use sprt::{EloModel, Sprt, SprtError};
pub(crate) use sprt::{NELO_PER_T, SprtDecision};

/// The 97.5 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Scores closer than this to 0 or 1 are taken as 0 or 1 (Elo beyond ±2400): an interval end
/// there is infinite.
const SCORE_EDGE: f64 = 1e-6;

/// Error function (Abramowitz & Stegun 7.1.26; absolute error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// `x` with its sign and `decimals` decimals; what rounds to zero prints as `+0`, infinities as
/// `+inf` and `-inf`.
pub(crate) fn signed(x: f64, decimals: usize) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let x = if x.abs() < 0.5 * 10f64.powi(-(decimals as i32)) { 0.0 } else { x };
    format!("{x:+.decimals$}")
}

/// Logistic Elo of a score fraction: ±∞ at 0 and 1.
fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

/// An Elo estimate with the ends of its 95 % interval (infinite where the results cannot rule
/// out a score of 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference (±∞ for a clean sweep).
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

impl EloEstimate {
    /// The estimate from outcome counts (`counts[i]` samples scored `i / (len - 1)`): the observed
    /// score's Elo, and the likelihood-ratio interval, the scores `s` whose best fit to the counts
    /// ([`Observed::with_mean`], the fit of fishtest's GSPRT) is not less likely than the observed
    /// frequencies by more than `exp(-1.96²/2)`. Unlike `s ± 1.96·σ`, it is asymmetric near 0 %
    /// and 100 %, and honest for a handful of games (empty counts are regularised as in the SPRT).
    fn of(counts: &[u64]) -> Option<EloEstimate> {
        let seen = Observed::of(counts)?;
        let n = counts.iter().sum::<u64>() as f64;
        let last = (counts.len() - 1) as f64;
        let score = counts.iter().enumerate().map(|(i, &c)| c as f64 * i as f64 / last).sum::<f64>() / n;
        let (mean, _) = seen.moments();
        let target = Z95 * Z95 / 2.0;
        // Above 0 where the score s lies outside the interval; grows away from the mean.
        let excess = |s: f64| seen.with_mean(s).map_or(f64::INFINITY, |q| seen.samples * seen.divergence(&q)) - target;
        let end = |inside: f64, edge: f64| {
            if excess(edge) <= 0.0 {
                return if edge < inside { 0.0 } else { 1.0 };
            }
            let (mut a, mut b) = (inside, edge);
            for _ in 0..100 {
                let mid = 0.5 * (a + b);
                if excess(mid) > 0.0 { b = mid } else { a = mid }
            }
            0.5 * (a + b)
        };
        Some(EloEstimate {
            elo: elo(score),
            lower: elo(end(mean, SCORE_EDGE)),
            upper: elo(end(mean, 1.0 - SCORE_EDGE)),
        })
    }
}

impl Wdl {
    /// Games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction.
    pub(crate) fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (self.wins as f64 + 0.5 * self.draws as f64) / n as f64 }
    }

    /// Draw ratio.
    pub(crate) fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.0 } else { self.draws as f64 / n as f64 }
    }

    /// Elo and its 95 % interval from the games (per-game, trinomial); `None` without games.
    pub(crate) fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::of(&[self.losses, self.draws, self.wins])
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger one.
    pub(crate) fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// Pentanomial counts of colour-swapped pairs by the first engine's pair score: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair whose two game scores (1, ½ or 0 each) are given.
    pub(crate) fn add_pair(&mut self, a: f64, b: f64) {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Elo and its 95 % interval from the pairs (which accounts for the openings' bias); `None`
    /// without pairs.
    pub(crate) fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::of(&self.0)
    }

    /// Normalised Elo, `(score - ½)/σ · 800/ln 10` with σ a game's standard deviation (√2 times
    /// a pair's), as fastchess prints it; `None` without pairs or spread.
    pub(crate) fn normalized_elo(&self) -> Option<f64> {
        let n = self.pairs() as f64;
        let score = |i: usize| i as f64 / 4.0;
        let mean = self.0.iter().enumerate().map(|(i, &c)| c as f64 * score(i)).sum::<f64>() / n;
        let var = self.0.iter().enumerate().map(|(i, &c)| c as f64 * (score(i) - mean).powi(2)).sum::<f64>() / n;
        (n > 0.0 && var > 0.0).then(|| (mean - 0.5) / (2.0 * var).sqrt() * NELO_PER_T)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// `(elo, lower, upper)` of an estimate.
    fn ends(e: Option<EloEstimate>) -> (f64, f64, f64) {
        let e = e.expect("an estimate");
        (e.elo, e.lower, e.upper)
    }

    #[test]
    fn likelihood_intervals_match_the_reference_figures() {
        // Reference: tests/scripts/elo_reference.py, which fits q(s) by a general optimiser
        // (scipy's SLSQP) and solves N·Σp·ln(p/q(s)) = 1.96²/2 by brentq, ends beyond scores
        // 1e-6 / 1 - 1e-6 infinite; fishtest's LLRcalc.MLE_expected gives the same figures.
        let cases: [(Wdl, f64, f64, f64); 3] = [
            // 17-3: +301.3 in [+111.8, +553.9] (the old output: +301.3 +/- 929.1).
            (Wdl { wins: 17, draws: 0, losses: 3 }, 301.3, 111.843, 553.934),
            (Wdl { wins: 60, draws: 20, losses: 20 }, 147.19, 83.378, 213.554),
            (Wdl { wins: 10, draws: 5, losses: 10 }, 0.0, -123.288, 123.288),
        ];
        for (w, elo, lower, upper) in cases {
            let (e, lo, hi) = ends(w.elo());
            assert!(close(e, elo, 0.05) && close(lo, lower, 0.01) && close(hi, upper, 0.01), "{w:?}: {e} {lo} {hi}");
        }
        // A sweep: no upper end; the lower end is +268.8 after 10 games.
        let (e, lo, hi) = ends(Wdl { wins: 10, draws: 0, losses: 0 }.elo());
        assert!(e == f64::INFINITY && close(lo, 268.774, 0.01) && hi == f64::INFINITY, "{lo}");
        let (_, lo, hi) = ends(Wdl { wins: 0, draws: 10, losses: 0 }.elo());
        assert!(close(lo, -61.569, 0.01) && close(hi, 61.569, 0.01), "all draws: {lo} {hi}");
        // Pairs: the generation-2 net's match [2, 0, 30, 2, 26] is +154.1 in [+97.4, +215.9];
        // [0, 1, 2, 1, 1]: +70.4 in [-93.4, +269.1]; [22, 0, 11, 0, 1]: -250.5 in [-361.8, -152.0].
        for (counts, elo, lower, upper) in [
            ([2, 0, 30, 2, 26], 154.1, 97.408, 215.862),
            ([0, 1, 2, 1, 1], 70.44, -93.437, 269.062),
            ([22, 0, 11, 0, 1], -250.5, -361.849, -151.976),
        ] {
            let (e, lo, hi) = ends(Pentanomial(counts).elo());
            assert!(
                close(e, elo, 0.1) && close(lo, lower, 0.01) && close(hi, upper, 0.01),
                "{counts:?}: {e} {lo} {hi}"
            );
        }
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Pentanomial::default().elo(), None);
    }

    #[test]
    fn score_los_and_draw_ratio_match_hand_computation() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, Elo = -400·log10(1/0.7 - 1) = 147.19.
        let w = Wdl { wins: 60, draws: 20, losses: 20 };
        assert!(close(w.score(), 0.7, 1e-12));
        assert!(close(w.draw_ratio(), 0.2, 1e-12));
        // LOS = Φ((60 - 20)/√80) = Φ(4.472) = 0.999996.
        assert!(close(w.los(), 0.999_996, 1e-5), "{}", w.los());
        let even = Wdl { wins: 10, draws: 5, losses: 10 };
        assert!(close(even.los(), 0.5, 1e-9));
    }

    #[test]
    fn erf_and_elo() {
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 2e-7));
        assert!(close(elo(0.75), 190.848_501_887_9, 1e-9), "400·log10(3)");
        assert_eq!((elo(0.0), elo(1.0)), (f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn normalized_elo_as_fastchess_prints_it() {
        // Pairs [0, 1, 2, 1, 1]: mean 0.6, pair variance (0.35² + 2·0.1² + 0.15² + 0.4²)/5 = 0.065;
        // nElo = 0.1/√(2·0.065)·800/ln 10 = 0.1/0.360555·347.4356 = +96.36.
        let nelo = Pentanomial([0, 1, 2, 1, 1]).normalized_elo().expect("spread");
        assert!(close(nelo, 96.36, 0.01), "{nelo}");
        assert_eq!(Pentanomial::default().normalized_elo(), None);
        assert_eq!(Pentanomial([0, 0, 0, 0, 3]).normalized_elo(), None, "a sweep has no spread");
    }
}
