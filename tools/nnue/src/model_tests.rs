//! The model's passes against finite differences, and its export against the library's float
//! network (the features and the factoriser's folding).

use super::*;
use hisha::Position;
use rand::Rng;

/// Positions along random playouts from the bench positions.
pub fn positions(seed: u64, plies: usize) -> Vec<Position> {
    let starts = hisha::bench::POSITIONS.iter().filter_map(|s| Position::from_sfen(s).ok());
    hisha::bench::random_walks(starts, plies, &mut StdRng::seed_from_u64(seed))
}

fn shapes() -> [Shape; 3] {
    let arch = |features| Architecture { features, l1: 32, l2: 8, l3: 8 };
    [
        Shape { arch: arch(FeatureSet::KP), factorised: false },
        Shape { arch: arch(FeatureSet::HalfKP), factorised: false },
        Shape { arch: arch(FeatureSet::HalfKP), factorised: true },
    ]
}

/// A model with every transformer row random (also factorised HalfKP's king rows).
fn random_model(shape: Shape, seed: u64) -> Model {
    let mut m = Model::new(shape, seed);
    let mut rng = StdRng::seed_from_u64(seed + 100);
    for w in &mut m.ft {
        *w = rng.random_range(-0.06..0.06);
    }
    m
}

#[test]
fn the_exported_float_net_scores_every_position_as_the_model() {
    for shape in shapes() {
        let m = random_model(shape, 1);
        let net = m.to_float();
        let mut sc = m.scratch();
        for p in positions(2, 30) {
            let s = Sample::of(&p, 0, 0);
            let model_score = m.forward(&s, &mut sc) * OUTPUT_SCALE;
            let float_score = net.evaluate_position(&p);
            assert!((model_score - float_score).abs() < 1e-3 * (1.0 + float_score.abs()), "{shape:?} {}", p.to_sfen());
        }
        if !shape.factorised {
            let back = Model::from_float(shape, &net);
            assert_eq!(back.ft, m.ft);
            assert!(back.dense.iter().zip(&m.dense).all(|(a, b)| (a - b).abs() < 1e-6));
        }
    }
}

#[test]
fn the_backward_pass_matches_finite_differences() {
    let loss = LossParams { lambda: 0.5, scale: 600.0 };
    for shape in shapes() {
        let mut m = random_model(shape, 3);
        let mut sc = m.scratch();
        let l1 = shape.arch.l1;
        let samples: Vec<Sample> = positions(4, 8)
            .iter()
            .enumerate()
            .map(|(i, p)| Sample::of(p, (i as i16 - 20) * 40, (i % 3) as i8 - 1))
            .collect();
        let s = samples[7];
        let mut g_dense = vec![0.0; m.dense.len()];
        let mut g_acc = vec![0.0; 2 * l1];
        m.backward(&s, &loss, &mut sc, &mut g_dense, &mut g_acc);
        let loss_of = |m: &Model, sc: &mut Scratch| {
            let q = sigmoid(m.forward(&s, sc) * OUTPUT_SCALE / loss.scale);
            let t = loss.target(&s);
            f64::from((q - t) * (q - t))
        };
        let eps = 5e-3f32;
        let mut checked = 0;
        // Every dense parameter with a gradient worth measuring.
        for (i, &analytic) in g_dense.iter().enumerate() {
            let keep = m.dense[i];
            m.dense[i] = keep + eps;
            let up = loss_of(&m, &mut sc);
            m.dense[i] = keep - eps;
            let down = loss_of(&m, &mut sc);
            m.dense[i] = keep;
            let numeric = (up - down) / (2.0 * f64::from(eps));
            if numeric.abs() > 1e-4 {
                let analytic = f64::from(analytic);
                assert!(
                    (numeric - analytic).abs() < 0.05 * numeric.abs() + 1e-6,
                    "{shape:?} dense {i}: {numeric} vs {analytic}"
                );
                checked += 1;
            }
        }
        // The transformer rows of both perspectives: d loss / d row = the sum of g_acc halves
        // of the perspectives (and times) that activate it.
        let mut rows = [0u32; MAX_ACTIVE];
        for i in 0..2 {
            let n = shape.active(&s, i, &mut rows);
            for &r in &rows[..n.min(4)] {
                for j in [0, 5, 17] {
                    let at = r as usize * l1 + j;
                    let keep = m.ft[at];
                    m.ft[at] = keep + eps;
                    let up = loss_of(&m, &mut sc);
                    m.ft[at] = keep - eps;
                    let down = loss_of(&m, &mut sc);
                    m.ft[at] = keep;
                    let numeric = (up - down) / (2.0 * f64::from(eps));
                    let mut analytic = 0.0;
                    for k in 0..2 {
                        let mut other = [0u32; MAX_ACTIVE];
                        let n = shape.active(&s, k, &mut other);
                        let times = other[..n].iter().filter(|&&x| x == r).count();
                        analytic += times as f64 * f64::from(g_acc[k * l1 + j]);
                    }
                    assert!(
                        (numeric - analytic).abs() < 0.05 * numeric.abs() + 1e-6,
                        "{shape:?} row {r}.{j}: {numeric} vs {analytic}"
                    );
                    checked += usize::from(numeric.abs() > 1e-4);
                }
            }
        }
        assert!(checked > 100, "{shape:?}: only {checked} gradients big enough to check");
    }
}

#[test]
fn quantisation_aware_passes_score_as_the_exported_integer_net_does() {
    // The rounded passes must give the integer inference's scores but for the output's
    // truncation (under a score unit), where the float passes are several units off. The first
    // hidden layer's weights are a few 1/64 steps, as in a trained small net, and the output
    // weights large (up to 900 cp an activation) so that rounding matters.
    for shape in shapes() {
        let mut m = random_model(shape, 5);
        let mut rng = StdRng::seed_from_u64(7);
        let l = m.layout;
        for w in &mut m.dense[l.w1..l.b1] {
            *w = rng.random_range(-0.06..0.06);
        }
        for w in &mut m.dense[l.w3..l.b3] {
            *w = rng.random_range(-1.5..1.5);
        }
        // The transformer's weights on the integer grid already (the passes do not round them).
        for w in &mut m.ft {
            *w = (*w * 127.0).round() / 127.0;
        }
        let int = m.to_float().quantize().0;
        let mut sc = m.scratch();
        let mut error = |m: &Model| {
            let ps = positions(6, 30);
            let sum: f32 = ps
                .iter()
                .map(|p| {
                    (m.forward(&Sample::of(p, 0, 0), &mut sc) * OUTPUT_SCALE - int.evaluate_position(p) as f32).abs()
                })
                .sum();
            sum / ps.len() as f32
        };
        let float_error = error(&m);
        m.set_quantisation_aware(true);
        let rounded_error = error(&m);
        assert!(
            rounded_error < 1.0 && 3.0 * rounded_error < float_error,
            "{shape:?}: float {float_error}, rounded {rounded_error}"
        );
        // Switched off, the passes are the float ones again.
        m.set_quantisation_aware(false);
        assert_eq!(error(&m), float_error);
    }
}
