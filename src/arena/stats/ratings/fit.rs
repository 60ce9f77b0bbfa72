//! The maximum-likelihood fit itself, on the engines linked to the anchor (the "pool"): the
//! log-likelihood of all games, `Σ_{i<j} s_ij·ln E_ij + (n_ij - s_ij)·ln(1 - E_ij)` with
//! `E_ij = σ(θ_i - θ_j)` (`θ` = rating in natural units, Elo / [`ELO_PER_UNIT`]), `n_ij` the games
//! and `s_ij` the points (a draw is half a win and half a loss), is concave in `θ`; Newton's
//! method with a backtracking line search climbs it from all ratings equal. Its gradient is
//! `g_i = Σ_j (s_ij - n_ij·E_ij)` and minus its Hessian, the observed information, is the
//! weighted Laplacian `A_ii = Σ_j n_ij·E_ij·(1 - E_ij)`, `A_ij = -n_ij·E_ij·(1 - E_ij)`, positive
//! definite once the anchor's row and column are struck out (the pool is connected).

/// Elo per natural unit of the logistic: `1/(1 + 10^(-d/400)) = 1/(1 + e^(-d/ELO_PER_UNIT))`.
pub(super) const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Newton stops once no rating moves by more than this many Elo.
const CONVERGED_ELO: f64 = 1e-9;

/// More Newton steps than a fit needs: the steps converge quadratically near the maximum (the
/// tests' fits take 1 to 7).
const MAX_STEPS: usize = 100;

/// `ln σ(x) = -ln(1 + e^(-x))` without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    if x > 0.0 { -(-x).exp().ln_1p() } else { x - x.exp().ln_1p() }
}

/// `σ(x) = 1/(1 + e^(-x))`.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Games and points between the engines of a pool (`m × m`, row-major).
#[derive(Clone, Debug)]
pub(super) struct PoolGames {
    /// Engines in the pool.
    pub m: usize,
    /// `games[i * m + j]`: games between `i` and `j` (virtual draws included).
    pub games: Vec<f64>,
    /// `points[i * m + j]`: `i`'s points against `j`.
    pub points: Vec<f64>,
}

/// The fitted ratings of a pool, in Elo relative to its anchor, with their standard errors.
pub(super) struct Fitted {
    /// Rating relative to the anchor (0 for the anchor).
    pub elo: Vec<f64>,
    /// Standard error of each rating (0 for the anchor; infinite where the information matrix is
    /// singular in floating point).
    pub sigma: Vec<f64>,
}

impl PoolGames {
    /// Whether the likelihood has a finite maximum: every engine has scored against, and
    /// conceded points to, a chain that reaches every other one (the directed graph "`i` scored
    /// against `j`" is strongly connected; Zermelo's condition, Hunter 2004, assumption 1).
    pub fn has_finite_maximum(&self) -> bool {
        let reaches_all = |edge: &dyn Fn(usize, usize) -> bool| {
            let mut seen = vec![false; self.m];
            let mut stack = vec![0];
            seen[0] = self.m > 0;
            while let Some(i) = stack.pop() {
                for (j, seen) in seen.iter_mut().enumerate() {
                    if !*seen && edge(i, j) {
                        *seen = true;
                        stack.push(j);
                    }
                }
            }
            seen.iter().all(|&s| s)
        };
        let m = self.m;
        reaches_all(&|i, j| self.points[i * m + j] > 0.0) && reaches_all(&|i, j| self.points[j * m + i] > 0.0)
    }

    /// Adds `draws` virtual draws to every pairing that played.
    pub fn add_draws(&mut self, draws: f64) {
        for (n, s) in self.games.iter_mut().zip(&mut self.points) {
            if *n > 0.0 {
                *n += draws;
                *s += draws / 2.0;
            }
        }
    }

    /// The log-likelihood of ratings `theta` (natural units).
    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let m = self.m;
        let mut total = 0.0;
        for i in 0..m {
            for j in 0..m {
                let s = self.points[i * m + j];
                if i != j && s > 0.0 {
                    total += s * ln_sigmoid(theta[i] - theta[j]);
                }
            }
        }
        total
    }

    /// The gradient and the observed information in the free engines (all but `anchor`).
    fn gradient_and_information(&self, theta: &[f64], free: &[usize]) -> (Vec<f64>, Vec<f64>) {
        let (m, k) = (self.m, free.len());
        let mut g = vec![0.0; k];
        let mut a = vec![0.0; k * k];
        let slot = |i: usize| free.iter().position(|&f| f == i);
        for (r, &i) in free.iter().enumerate() {
            for j in (0..m).filter(|&j| j != i) {
                let n = self.games[i * m + j];
                if n == 0.0 {
                    continue;
                }
                let e = sigmoid(theta[i] - theta[j]);
                g[r] += self.points[i * m + j] - n * e;
                let w = n * e * (1.0 - e);
                a[r * k + r] += w;
                if let Some(c) = slot(j) {
                    a[r * k + c] -= w;
                }
            }
        }
        (g, a)
    }

    /// The maximum-likelihood ratings with `anchor` fixed at 0, and their standard errors from
    /// the inverse of the observed information at the maximum. Call only where
    /// [`has_finite_maximum`](Self::has_finite_maximum).
    pub fn fit(&self, anchor: usize) -> Fitted {
        let free: Vec<usize> = (0..self.m).filter(|&i| i != anchor).collect();
        let mut theta = vec![0.0; self.m];
        for _ in 0..MAX_STEPS {
            let (g, a) = self.gradient_and_information(&theta, &free);
            let Some(l) = cholesky(&a, free.len()) else { break };
            let step = solve(&l, free.len(), &g);
            let before = self.log_likelihood(&theta);
            let mut t = 1.0;
            let mut next = theta.clone();
            for _ in 0..60 {
                for (&i, d) in free.iter().zip(&step) {
                    next[i] = theta[i] + t * d;
                }
                if self.log_likelihood(&next) >= before {
                    break;
                }
                t /= 2.0;
            }
            let moved = step.iter().fold(0.0f64, |a, d| a.max((t * d).abs())) * ELO_PER_UNIT;
            theta = next;
            if moved < CONVERGED_ELO {
                break;
            }
        }
        let (_, a) = self.gradient_and_information(&theta, &free);
        let mut sigma = vec![0.0; self.m];
        let l = cholesky(&a, free.len());
        for (r, &i) in free.iter().enumerate() {
            let mut unit = vec![0.0; free.len()];
            unit[r] = 1.0;
            // The diagonal of A⁻¹: the variances of the free ratings.
            sigma[i] = l.as_ref().map_or(f64::INFINITY, |l| solve(l, free.len(), &unit)[r].sqrt() * ELO_PER_UNIT);
        }
        Fitted { elo: theta.iter().map(|t| t * ELO_PER_UNIT).collect(), sigma }
    }
}

/// The lower-triangular `L` with `L·Lᵀ = a` (`k × k`, row-major); `None` unless `a` is positive
/// definite to floating-point precision.
fn cholesky(a: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|p| l[i * k + p] * l[j * k + p]).sum();
            if i == j {
                let d = a[i * k + i] - dot;
                if d.is_nan() || d <= 0.0 {
                    return None;
                }
                l[i * k + i] = d.sqrt();
            } else {
                l[i * k + j] = (a[i * k + j] - dot) / l[j * k + j];
            }
        }
    }
    Some(l)
}

/// `x` with `L·Lᵀ·x = b`, by forward then backward substitution.
fn solve(l: &[f64], k: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; k];
    for i in 0..k {
        y[i] = (b[i] - (0..i).map(|p| l[i * k + p] * y[p]).sum::<f64>()) / l[i * k + i];
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        x[i] = (y[i] - (i + 1..k).map(|p| l[p * k + i] * x[p]).sum::<f64>()) / l[i * k + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_positive_definite_system_and_refuses_a_singular_one() {
        // [[4, 2], [2, 3]]·x = [2, 1]: x = [0.5, 0] (by hand: 4·0.5 + 2·0 = 2, 2·0.5 + 3·0 = 1).
        let l = cholesky(&[4.0, 2.0, 2.0, 3.0], 2).expect("positive definite");
        let x = solve(&l, 2, &[2.0, 1.0]);
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert!(cholesky(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
    }

    #[test]
    fn logistic_pieces_are_stable_far_out() {
        assert!((ln_sigmoid(0.0) + std::f64::consts::LN_2).abs() < 1e-15);
        assert!((ln_sigmoid(-800.0) + 800.0).abs() < 1e-9, "no overflow to -inf");
        assert!(ln_sigmoid(800.0) == 0.0 && ln_sigmoid(800.0).is_finite());
        // 400 Elo: E = 1/(1 + 10^-1) = 10/11.
        assert!((sigmoid(400.0 / ELO_PER_UNIT) - 10.0 / 11.0).abs() < 1e-15);
    }
}
