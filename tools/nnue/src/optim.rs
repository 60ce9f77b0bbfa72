//! Adam (Kingma & Ba 2015) for the dense parameters, and its lazy form for the transformer rows:
//! a row's moments move only in the steps whose batch activates it (TensorFlow's `LazyAdam`), so
//! a step costs the rows it touches, not all 126,936 of a factorised HalfKP transformer.

/// Adam's constants.
#[derive(Clone, Copy, Debug)]
pub struct AdamParams {
    /// Step size.
    pub lr: f32,
    /// First moment decay.
    pub beta1: f32,
    /// Second moment decay.
    pub beta2: f32,
    /// Denominator guard.
    pub eps: f32,
}

impl AdamParams {
    /// The usual constants with step size `lr`.
    pub fn new(lr: f32) -> AdamParams {
        AdamParams { lr, beta1: 0.9, beta2: 0.999, eps: 1e-8 }
    }

    /// The step size of step `t` (from 1) with both moments' bias corrected.
    pub fn corrected_lr(&self, t: u64) -> f32 {
        let t = t as i32;
        self.lr * (1.0 - self.beta2.powi(t)).sqrt() / (1.0 - self.beta1.powi(t))
    }

    /// One update of `w` with gradient `g` (scaled by `g_scale`), moments `m`, `v`, and the
    /// corrected step `lr_t`.
    #[inline]
    pub fn update(&self, lr_t: f32, g_scale: f32, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]) {
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            let g = g * g_scale;
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            *w -= lr_t * *m / (v.sqrt() + self.eps);
        }
    }
}

/// Moments of a dense parameter vector.
pub struct Moments {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
}

impl Moments {
    /// Zero moments for `n` parameters.
    pub fn new(n: usize) -> Moments {
        Moments { m: vec![0.0; n], v: vec![0.0; n] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_a_quadratic_to_its_minimum() {
        // f(w) = (w - 3)^2 from w = 0: Adam's steps are about lr each, so 2,000 steps of 0.01
        // reach 3 and settle there.
        let adam = AdamParams::new(0.01);
        let (mut w, mut m) = (vec![0.0f32], Moments::new(1));
        for t in 1..=2_000 {
            let g = [2.0 * (w[0] - 3.0)];
            adam.update(adam.corrected_lr(t), 1.0, &mut w, &g, &mut m.m, &mut m.v);
        }
        assert!((w[0] - 3.0).abs() < 0.02, "{}", w[0]);
    }
}
