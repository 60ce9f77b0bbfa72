//! SPSA as fishtest runs it (server/fishtest/spsa_workflow.py and spsa_handler.py of
//! official-stockfish/fishtest, read for this file; no code taken): with `N` iterations (game
//! pairs) and each parameter's `c_end` and `r_end`,
//!
//! - `A` = ⌊0.1 · N⌋ (fishtest's default "A ratio" 0.1 of the game pairs), `alpha` = 0.602,
//!   `gamma` = 0.101;
//! - `c` = `c_end` · N^gamma and `a` = `r_end` · `c_end`² · (A + N)^alpha, so that at iteration
//!   `k` (0-based; fishtest's `iter_local` is k + 1) the perturbation is c_k = c / (k + 1)^gamma
//!   and the learning rate R_k = a / (A + k + 1)^alpha / c_k², which are `c_end` and `r_end` at
//!   the last iteration;
//! - each iteration flips a fair coin per parameter (±1) and plays the engine at θ + c_k·flip
//!   against itself at θ − c_k·flip (each clipped to min..max) over a colour-swapped game pair;
//!   with `result` = the wins minus the losses of the θ + c_k·flip side, θ moves by
//!   R_k · c_k · result · flip, clipped to min..max;
//! - against a fixed opponent (`hisha tune --opponent`), each side plays its own colour-swapped
//!   pair against the opponent over the iteration's opening, and `result` is the θ + c_k·flip
//!   side's wins minus losses less the θ − c_k·flip side's (−4 to 4). It estimates the same
//!   difference of strengths as the pair of self-play: there both sides differ in each game,
//!   here one, over twice the games;
//! - the values sent to the engine are rounded stochastically, as fishtest's worker does
//!   (worker/games.py): ⌊x + u⌋ with u uniform in [0, 1), so that x = N.p is N + 1 with
//!   probability p, and N otherwise.
//!
//! The coins and the rounding of iteration `k` come from a generator seeded with the run's seed
//! and `k`, so that a resumed run draws what an uninterrupted one would have drawn.

use super::params::Param;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// fishtest's default `alpha`, the decay exponent of the learning rate.
pub const ALPHA: f64 = 0.602;
/// fishtest's default `gamma`, the decay exponent of the perturbation.
pub const GAMMA: f64 = 0.101;
/// fishtest's default ratio of `A` to the number of game pairs.
pub const A_RATIO: f64 = 0.1;

/// The gain schedule of a run: its length and the constants of the decay.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Gains {
    /// Iterations (game pairs) of the whole run, `N`.
    pub iterations: u64,
    /// The stability constant `A`, in iterations.
    pub a: f64,
    /// The decay exponent of the learning rate.
    pub alpha: f64,
    /// The decay exponent of the perturbation.
    pub gamma: f64,
}

/// The perturbation and learning rate of one parameter at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The perturbation `c_k`.
    pub c: f64,
    /// The learning rate `R_k`.
    pub r: f64,
}

impl Gains {
    /// fishtest's defaults for `iterations` game pairs: `A` = ⌊0.1 · N⌋ (fishtest stores
    /// `int(A_ratio * num_games / 2)`), `alpha` 0.602, `gamma` 0.101.
    pub fn fishtest(iterations: u64) -> Gains {
        Gains { iterations, a: (A_RATIO * iterations as f64).floor(), alpha: ALPHA, gamma: GAMMA }
    }

    /// The step of `p` at iteration `k` (0-based).
    pub fn step(&self, p: &Param, k: u64) -> Step {
        let n = self.iterations as f64;
        let c0 = p.c_end * n.powf(self.gamma);
        let a0 = p.r_end * p.c_end * p.c_end * (self.a + n).powf(self.alpha);
        let local = (k + 1) as f64;
        let c = c0 / local.powf(self.gamma);
        Step { c, r: a0 / (self.a + local).powf(self.alpha) / (c * c) }
    }
}

/// `x` clipped to `p`'s range.
fn clip(p: &Param, x: f64) -> f64 {
    x.clamp(p.min as f64, p.max as f64)
}

/// `x` rounded stochastically with `u` in [0, 1): ⌊x + u⌋.
pub fn stochastic_round(x: f64, u: f64) -> i64 {
    (x + u).floor() as i64
}

/// What one iteration tries: for each parameter, the coin, the step and the two values sent to
/// the engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The iteration (0-based).
    pub k: u64,
    /// The coin of each parameter, +1 or −1.
    pub flips: Vec<i8>,
    /// The step of each parameter.
    pub steps: Vec<Step>,
    /// The values of the θ + c·flip side, rounded.
    pub plus: Vec<i64>,
    /// The values of the θ − c·flip side, rounded.
    pub minus: Vec<i64>,
}

/// The trial of iteration `k` at `theta`, drawn with the run's `seed`.
pub fn trial(params: &[Param], theta: &[f64], gains: &Gains, k: u64, seed: u64) -> Trial {
    let mut rng = StdRng::seed_from_u64(seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut t = Trial { k, flips: Vec::new(), steps: Vec::new(), plus: Vec::new(), minus: Vec::new() };
    for (p, &th) in params.iter().zip(theta) {
        let flip: i8 = if rng.random_bool(0.5) { 1 } else { -1 };
        let step = gains.step(p, k);
        let shift = step.c * f64::from(flip);
        t.plus.push(stochastic_round(clip(p, th + shift), rng.random()));
        t.minus.push(stochastic_round(clip(p, th - shift), rng.random()));
        t.flips.push(flip);
        t.steps.push(step);
    }
    t
}

/// Moves `theta` by the outcome of `trial`: `result` is the wins minus the losses of its
/// θ + c·flip side over the pair (−2 to 2), or against a fixed opponent those less the θ − c·flip
/// side's (−4 to 4).
pub fn update(params: &[Param], theta: &mut [f64], trial: &Trial, result: i32) {
    for (i, (p, th)) in params.iter().zip(theta.iter_mut()).enumerate() {
        let (step, flip) = (trial.steps[i], f64::from(trial.flips[i]));
        *th = clip(p, *th + step.r * step.c * f64::from(result) * flip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(c_end: f64, r_end: f64) -> Param {
        Param { name: "P".into(), start: 50, min: 0, max: 100, c_end, r_end }
    }

    #[test]
    fn the_gain_schedule_follows_fishtest_formulas() {
        // N = 100: A = int(0.1 · 100) = 10. With c_end 10 and r_end 0.002 (fishtest's
        // parse_spsa_params and build_spsa_worker_step, computed by hand in Python):
        // c = 10 · 100^0.101 = 15.922087270511703, a = 0.002 · 10² · 110^0.602 = 3.3880389316745125;
        // k = 0: c_k = 15.922087270511703, R_k = a / 11^0.602 / c_k² = 0.0031552225393986963;
        // k = 49: c_k = 10.725166168179426, R_k = 0.00250433994257136;
        // k = 99: c_k = 10 (= c_end), R_k = 0.002 (= r_end).
        let g = Gains::fishtest(100);
        assert_eq!(g, Gains { iterations: 100, a: 10.0, alpha: 0.602, gamma: 0.101 });
        assert_eq!(Gains::fishtest(1999).a, 199.0, "A is truncated");
        let p = param(10.0, 0.002);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs();
        for (k, c, r) in [
            (0, 15.922087270511703, 0.0031552225393986963),
            (49, 10.725166168179426, 0.00250433994257136),
            (99, 10.0, 0.002),
        ] {
            let s = g.step(&p, k);
            assert!(close(s.c, c) && close(s.r, r), "k = {k}: {s:?}");
        }
    }

    #[test]
    fn trials_perturb_both_ways_within_the_range_and_repeat_with_the_seed() {
        let params = [param(10.0, 0.002), Param { start: 98, ..param(30.0, 0.002) }];
        let theta = [50.0, 98.0];
        let g = Gains::fishtest(100);
        let t = trial(&params, &theta, &g, 0, 7);
        assert_eq!(t, trial(&params, &theta, &g, 0, 7), "the same seed and iteration draw the same");
        // c_0 = 15.92: the θ + c·flip side gets 50 + 15.92·flip, the other 50 − 15.92·flip, each
        // rounded to a neighbour.
        let (up, down) = if t.flips[0] == 1 { (t.plus[0], t.minus[0]) } else { (t.minus[0], t.plus[0]) };
        assert!([65, 66].contains(&up) && [34, 35].contains(&down), "{t:?}");
        // 98 ± 47.8 is clipped at 100.
        assert!(t.plus[1] == 100 || t.minus[1] == 100, "{t:?}");
        let draws: std::collections::BTreeSet<Vec<i8>> =
            (0..64).map(|k| trial(&params, &theta, &g, k, 7).flips).collect();
        assert_eq!(draws.len(), 4, "every combination of coins comes up");
    }

    #[test]
    fn rounding_is_stochastic_and_updates_follow_the_result() {
        assert_eq!(
            (stochastic_round(3.25, 0.0), stochastic_round(3.25, 0.74), stochastic_round(3.25, 0.75)),
            (3, 3, 4)
        );
        assert_eq!(stochastic_round(-0.5, 0.2), -1);
        let params = [param(10.0, 0.002)];
        let g = Gains::fishtest(100);
        let t = Trial { k: 0, flips: vec![-1], steps: vec![g.step(&params[0], 0)], plus: vec![34], minus: vec![66] };
        let mut theta = [50.0];
        update(&params, &mut theta, &t, 2);
        // θ − R·c·2 = 50 − 2 · 0.050237728630191596 (R_0 · c_0 from the numbers above).
        assert!((theta[0] - (50.0 - 0.10047545726038319)).abs() < 1e-12, "{theta:?}");
        update(&params, &mut theta, &t, 0);
        assert!((theta[0] - 49.89952454273962).abs() < 1e-12, "a drawn pair moves nothing");
        let mut high = [99.99];
        update(&params, &mut high, &Trial { flips: vec![1], ..t }, 2);
        assert_eq!(high, [100.0], "clipped to max");
    }
}
