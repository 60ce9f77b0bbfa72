//! Maximum-likelihood fits of a discrete outcome distribution under one constraint, the building
//! block of fishtest's generalised SPRT and of the likelihood-ratio intervals: given the observed
//! frequencies of the outcomes (game scores 0, ½, 1, or pair scores 0, ¼ … 1), the distribution
//! on the same outcomes that is most likely to have produced them while having a given expected
//! score ([`with_mean`]) or a given t-value ([`with_t_value`], normalised Elo).
//!
//! Written from Michel Van den Bergh's notes that fishtest's `LLRcalc.py` implements
//! (<https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf>, Proposition 1.1, and
//! `normalized_elo_practical.pdf`, section 4.1): the fit is `q_i = p_i / (1 + x·(a_i - s))`, where
//! `x` solves the secular equation `Σ p_i·(a_i - s)/(1 + x·(a_i - s)) = 0`.

/// What fishtest adds to an empty count so that every outcome stays possible (`regularize`).
const EMPTY_COUNT: f64 = 1e-3;

/// Observed outcome frequencies: the outcome values `a_i` (evenly spaced from 0 to 1) and their
/// probabilities `p_i`, with the number of samples they come from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Observed {
    /// Samples (games or pairs), empty counts included at their regularised weight.
    pub samples: f64,
    /// `(a_i, p_i)`.
    pub pdf: Vec<(f64, f64)>,
}

impl Observed {
    /// The frequencies of `counts` (`counts[i]` samples scored `i / (len - 1)`), each empty count
    /// taken as 0.001 samples as fishtest does; `None` without samples.
    pub(crate) fn of(counts: &[u64]) -> Option<Observed> {
        if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
            return None;
        }
        let weights: Vec<f64> = counts.iter().map(|&c| if c == 0 { EMPTY_COUNT } else { c as f64 }).collect();
        let samples: f64 = weights.iter().sum();
        let last = (counts.len() - 1) as f64;
        let pdf = weights.iter().enumerate().map(|(i, w)| (i as f64 / last, w / samples)).collect();
        Some(Observed { samples, pdf })
    }

    /// Mean and variance of the observed outcome.
    pub(crate) fn moments(&self) -> (f64, f64) {
        moments(self.pdf.iter().map(|&(a, p)| (a, p)))
    }

    /// `Σ p_i·ln(q1_i / q0_i)`: the log-likelihood ratio per sample of the fit `q1` against `q0`.
    pub(crate) fn log_ratio(&self, q0: &[f64], q1: &[f64]) -> f64 {
        self.pdf.iter().zip(q0.iter().zip(q1)).map(|(&(_, p), (&a, &b))| p * (b.ln() - a.ln())).sum()
    }

    /// `Σ p_i·ln(p_i / q_i)`: how much less likely the observations are under `q` than under
    /// themselves, per sample (the Kullback–Leibler divergence).
    pub(crate) fn divergence(&self, q: &[f64]) -> f64 {
        self.pdf.iter().zip(q).map(|(&(_, p), &q)| p * (p.ln() - q.ln())).sum()
    }

    /// The most likely distribution on the observed outcomes with expected score `s` (strictly
    /// between the smallest and the largest outcome).
    pub(crate) fn with_mean(&self, s: f64) -> Option<Vec<f64>> {
        let shifted: Vec<(f64, f64)> = self.pdf.iter().map(|&(a, p)| (a - s, p)).collect();
        let x = secular(&shifted)?;
        Some(shifted.iter().map(|&(d, p)| p / (1.0 + x * d)).collect())
    }

    /// The most likely distribution on the observed outcomes whose t-value `(mean - reference) /
    /// standard deviation` is `t`, by fishtest's fixed-point iteration from the uniform
    /// distribution.
    pub(crate) fn with_t_value(&self, reference: f64, t: f64) -> Option<Vec<f64>> {
        let n = self.pdf.len();
        let mut q = vec![1.0 / n as f64; n];
        for _ in 0..10 {
            let (mu, var) = moments(self.pdf.iter().zip(&q).map(|(&(a, _), &q)| (a, q)));
            let sigma = var.sqrt();
            let shifted: Vec<(f64, f64)> = self
                .pdf
                .iter()
                .map(|&(a, p)| (a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0, p))
                .collect();
            let x = secular(&shifted)?;
            let next: Vec<f64> = shifted.iter().map(|&(d, p)| p / (1.0 + x * d)).collect();
            let change = q.iter().zip(&next).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            q = next;
            if change < 1e-9 {
                break;
            }
        }
        Some(q)
    }
}

/// Mean and variance of a distribution given as `(value, probability)`.
fn moments(pdf: impl Iterator<Item = (f64, f64)> + Clone) -> (f64, f64) {
    let mean: f64 = pdf.clone().map(|(a, p)| a * p).sum();
    let var = pdf.map(|(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// The root `x` of `f(x) = Σ p_i·d_i/(1 + x·d_i)` with every `1 + x·d_i > 0`, i.e. in
/// `(-1/max d, -1/min d)`; `None` unless the `d_i` straddle zero. `f` falls from +∞ to -∞ across
/// that interval, so bisection finds the one root to the last bit of a double.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let lowest = pdf.iter().map(|&(d, _)| d).fold(f64::INFINITY, f64::min);
    let highest = pdf.iter().map(|&(d, _)| d).fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return None;
    }
    let f = |x: f64| pdf.iter().map(|&(d, p)| p * d / (1.0 + x * d)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / highest, -1.0 / lowest);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_have_the_asked_mean_or_t_value_and_stay_distributions() {
        let seen = Observed::of(&[19, 4020, 10316, 4215, 24]).expect("samples");
        let q = seen.with_mean(0.49).expect("fits");
        let (mean, _) = moments(seen.pdf.iter().zip(&q).map(|(&(a, _), &q)| (a, q)));
        assert!((mean - 0.49).abs() < 1e-9, "{mean}");
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let q = seen.with_t_value(0.5, 0.01).expect("fits");
        let (mean, var) = moments(seen.pdf.iter().zip(&q).map(|(&(a, _), &q)| (a, q)));
        assert!(((mean - 0.5) / var.sqrt() - 0.01).abs() < 1e-6);
        assert!(q.iter().all(|&q| q > 0.0));
        // The observed distribution fits itself: no divergence.
        let (mu, _) = seen.moments();
        assert!(seen.divergence(&seen.with_mean(mu).expect("fits")).abs() < 1e-12);
        assert_eq!(Observed::of(&[0, 0, 0]), None);
    }

    #[test]
    fn empty_counts_weigh_a_thousandth() {
        let seen = Observed::of(&[0, 0, 0, 0, 10]).expect("samples");
        assert!((seen.samples - 10.004).abs() < 1e-12);
        assert!((seen.pdf[0].1 - 0.001 / 10.004).abs() < 1e-15);
        assert_eq!(seen.pdf.iter().map(|&(a, _)| a).collect::<Vec<_>>(), [0.0, 0.25, 0.5, 0.75, 1.0]);
    }
}
