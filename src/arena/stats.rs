//! Match statistics: W/D/L, score, Elo difference with a 95 % confidence interval (trinomial per
//! game, and pentanomial per colour-swapped pair), likelihood of superiority, draw ratio, and a
//! generalised SPRT on pentanomial counts (the normal approximation of fishtest and fastchess, with
//! fishtest's regularisation of empty counts).
//! Elo is logistic: `E = -400 · log10(1/s - 1)` for a score fraction `s`.

/// The 97.5 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Error function (Abramowitz & Stegun 7.1.26; absolute error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// Logistic Elo of a score fraction (±∞ clamped to ±2000).
fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        -2000.0
    } else if score >= 1.0 {
        2000.0
    } else {
        (-400.0 * (1.0 / score - 1.0).log10()).clamp(-2000.0, 2000.0)
    }
}

/// Score fraction of a logistic Elo difference.
fn score_of_elo(e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-e / 400.0))
}

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

/// An Elo estimate with its 95 % error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EloEstimate {
    /// Elo difference.
    pub elo: f64,
    /// Half-width of the 95 % interval.
    pub error: f64,
}

impl Wdl {
    /// Games.
    pub(crate) fn games(&self) -> u64 {
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

    /// Elo and its 95 % error from the per-game (trinomial) variance.
    pub(crate) fn elo(&self) -> EloEstimate {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 {
            return EloEstimate { elo: 0.0, error: 0.0 };
        }
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        interval(s, (var / n).sqrt())
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

fn interval(s: f64, stderr: f64) -> EloEstimate {
    let lo = elo(s - Z95 * stderr);
    let hi = elo(s + Z95 * stderr);
    EloEstimate { elo: elo(s), error: (hi - lo) / 2.0 }
}

/// Pentanomial counts of colour-swapped pairs by the first engine's pair score: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair whose two game scores (1, ½ or 0 each) are given.
    pub(crate) fn add_pair(&mut self, a: f64, b: f64) {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Pairs.
    pub(crate) fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of the pair score fraction (0, ¼, ½, ¾, 1).
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let mean = self.0.iter().enumerate().map(|(i, &c)| c as f64 * i as f64 / 4.0).sum::<f64>() / n;
        let var = self.0.iter().enumerate().map(|(i, &c)| c as f64 * (i as f64 / 4.0 - mean).powi(2)).sum::<f64>() / n;
        Some((mean, var))
    }

    /// Elo and its 95 % error from the pair variance (accounts for the openings' bias).
    pub(crate) fn elo(&self) -> EloEstimate {
        match self.moments() {
            Some((mean, var)) => interval(mean, (var / self.pairs() as f64).sqrt()),
            None => EloEstimate { elo: 0.0, error: 0.0 },
        }
    }

    /// Log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`), in the normal
    /// approximation. As fishtest does, an empty count is taken as 0.001 pairs, so that results
    /// without variance (a clean sweep, only draws) still decide.
    pub(crate) fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let mean = counts.iter().enumerate().map(|(i, c)| c * i as f64 / 4.0).sum::<f64>() / n;
        let var = counts.iter().enumerate().map(|(i, c)| c * (i as f64 / 4.0 - mean).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// A sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted (not stronger by `elo1`).
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    /// The (lower, upper) LLR bounds.
    pub(crate) fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for `p`.
    pub(crate) fn decide(&self, p: &Pentanomial) -> (f64, SprtDecision) {
        let llr = p.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        let d = if llr >= hi {
            SprtDecision::H1
        } else if llr <= lo {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        (llr, d)
    }
}

/// An SPRT specification that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// A part that is not `key=value`.
    #[error("bad SPRT parameter {0:?}")]
    NotKeyValue(String),
    /// A value that is not a number (the whole `key=value`).
    #[error("bad SPRT value {0:?}")]
    BadValue(String),
    /// A key other than `elo0`, `elo1`, `alpha` and `beta`.
    #[error("unknown SPRT parameter {0:?}")]
    UnknownKey(String),
    /// Bounds that do not make a test.
    #[error("SPRT needs elo0 < elo1 and 0 < alpha, beta < 1")]
    Inconsistent,
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (space or comma separated; defaults as shown).
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let mut t = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        for part in s.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| SprtError::NotKeyValue(part.to_string()))?;
            let v: f64 = v.parse().map_err(|_| SprtError::BadValue(part.to_string()))?;
            match k {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                _ => return Err(SprtError::UnknownKey(k.to_string())),
            }
        }
        if !(0.0 < t.alpha && t.alpha < 1.0 && 0.0 < t.beta && t.beta < 1.0) || t.elo1 <= t.elo0 {
            return Err(SprtError::Inconsistent);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_error_bars_match_hand_computation() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, Elo = -400·log10(1/0.7 - 1) = 147.19.
        // Per-game variance = (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16, stderr = 0.04,
        // interval s ± 1.96·0.04 = [0.6216, 0.7784] → Elo [86.23, 218.36], half-width 66.06.
        let w = Wdl { wins: 60, draws: 20, losses: 20 };
        let e = w.elo();
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.error, 66.06, 0.05), "{e:?}");
        assert!(close(w.draw_ratio(), 0.2, 1e-12));
        // LOS = Φ((60 - 20)/√80) = Φ(4.472) = 0.999996.
        assert!(close(w.los(), 0.999_996, 1e-5), "{}", w.los());
        let even = Wdl { wins: 10, draws: 5, losses: 10 };
        assert!(close(even.elo().elo, 0.0, 1e-9));
        assert!(close(even.los(), 0.5, 1e-9));
    }

    #[test]
    fn erf_and_elo_inverse() {
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 2e-7));
        for e in [-300.0, -20.0, 0.0, 35.0, 400.0] {
            assert!(close(elo(score_of_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn pentanomial_counts_and_llr() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 1.0);
        p.add_pair(1.0, 0.5);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 0.0);
        p.add_pair(0.0, 0.5);
        assert_eq!(p.0, [0, 1, 2, 1, 1]);
        // The empty count becomes 0.001 pairs: N = 5.001,
        // mean = (1·0.25 + 2·0.5 + 1·0.75 + 1·1)/5.001 = 3/5.001 = 0.599880, variance
        // (0.001·0.59988² + 1·0.34988² + 2·0.09988² + 1·0.15012² + 1·0.40012²)/5.001 = 0.065059.
        // s0 = 0.5 (Elo 0), s1 = score_of_elo(5) = 0.507195;
        // LLR = 5.001·0.0071951·(2·0.599880 - 1.007195)/(2·0.065059) = 0.053252.
        assert!(close(p.llr(0.0, 5.0), 0.053_252, 1e-5), "{}", p.llr(0.0, 5.0));
        // A clean sweep has no variance; regularised, two lost pairs give N = 2.004,
        // mean = 0.0025/2.004 = 0.0012475, variance 0.00093407 and LLR = -7.7546 (H0 decided),
        // while one lost pair gives -1.9448 (not yet).
        assert!(close(Pentanomial([2, 0, 0, 0, 0]).llr(0.0, 5.0), -7.754_6, 1e-3));
        assert!(close(Pentanomial([1, 0, 0, 0, 0]).llr(0.0, 5.0), -1.944_8, 1e-3));
        let sprt: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().expect("valid");
        // Bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        assert_eq!(sprt.decide(&p).1, SprtDecision::Continue);
        let strong = Pentanomial([0, 0, 100, 300, 600]);
        assert_eq!(sprt.decide(&strong).1, SprtDecision::H1);
        let weak = Pentanomial([300, 300, 300, 50, 50]);
        assert_eq!(sprt.decide(&weak).1, SprtDecision::H0);
        assert_eq!("elo0=5 elo1=0".parse::<Sprt>(), Err(SprtError::Inconsistent));
        assert_eq!("elo0 elo1=5".parse::<Sprt>(), Err(SprtError::NotKeyValue("elo0".into())));
        assert_eq!("elo0=x".parse::<Sprt>().map_err(|e| e.to_string()), Err("bad SPRT value \"elo0=x\"".into()));
        assert_eq!("gamma=1".parse::<Sprt>(), Err(SprtError::UnknownKey("gamma".into())));
    }

    #[test]
    fn pentanomial_error_bars_match_hand_computation() {
        // Pairs [0, 1, 2, 1, 1]: mean 0.6, variance 0.065 (above); stderr = √(0.065/5) = 0.114018;
        // 0.6 ± 1.959964·0.114018 = [0.376530, 0.823470] → Elo [-87.61, +267.53]; Elo(0.6) = +70.44,
        // half-width (267.53 + 87.61)/2 = 177.57.
        let e = Pentanomial([0, 1, 2, 1, 1]).elo();
        assert!(close(e.elo, 70.44, 0.01), "{e:?}");
        assert!(close(e.error, 177.57, 0.01), "{e:?}");
    }

    #[test]
    fn sprt_stops_exactly_at_the_bound() {
        // Pairs [n, 2n, 4n, 2n, n]: mean ½, variance (2·n·¼ + 2·2n·(1/16))/(10n) = 0.075.
        // LLR = N·(s1 - s0)·(2·½ - s0 - s1)/(2·0.075) = -N·0.0071951²/0.15 = -N·3.45128e-4.
        // N = 8500 → -2.93359 (inside the bound ln(0.05/0.95) = -2.94444); N = 8600 → -2.96810.
        let sprt: Sprt = "elo0=0 elo1=5".parse().expect("defaults alpha = beta = 0.05");
        let inside = Pentanomial([850, 1700, 3400, 1700, 850]);
        let (llr, d) = sprt.decide(&inside);
        assert!(close(llr, -2.933_59, 1e-4) && d == SprtDecision::Continue, "{llr} {d:?}");
        let (llr, d) = sprt.decide(&Pentanomial([860, 1720, 3440, 1720, 860]));
        assert!(close(llr, -2.968_10, 1e-4) && d == SprtDecision::H0, "{llr} {d:?}");
    }
}
