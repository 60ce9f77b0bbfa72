//! Deterministic random networks for tests, benchmarks and as a trainer's starting point: the
//! same architecture, seed and [`Spread`] give the same weights on every machine and Rust
//! version (SplitMix64, not `rand`, whose generators may change between releases).

use super::architecture::Architecture;
use super::network::Network;

/// How the weights are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Scaled so that every layer's outputs spread over the clipped range (0..=127) and the
    /// evaluation is a few hundred to a few thousand: what a trained net looks like.
    Typical,
    /// Every weight, and the transformer's biases, over the type's whole range (accumulators
    /// wrap, clamps saturate: the corners where two implementations could disagree); the
    /// affine layers' biases within ±64,516, the order of their sums, so that they do not
    /// drown the inputs and the evaluation still varies.
    Full,
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator with a fixed, documented output.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `-r..=r` (`r` below 2^31).
    fn symmetric(&mut self, r: i64) -> i64 {
        (self.next() % (2 * r as u64 + 1)) as i64 - r
    }
}

impl Network {
    /// A network of `arch` (supported) with weights drawn from `seed` as `spread` says.
    pub fn random(arch: Architecture, seed: u64, spread: Spread) -> Network {
        let mut net = Network::zeroed(arch);
        let mut rng = SplitMix64(seed);
        let full = spread == Spread::Full;
        // Typical: 38 active rows of +-8 around a bias of 0..=100 keep most sums in 0..=127.
        let (ft_bias, ft_weight) = if full { (i16::MAX as i64, i16::MAX as i64) } else { (50, 8) };
        let ft_offset = if full { 0 } else { 50 };
        for b in net.ft_biases.iter_mut() {
            *b = (rng.symmetric(ft_bias) + ft_offset) as i16;
        }
        for w in net.ft_weights.iter_mut() {
            *w = rng.symmetric(ft_weight) as i16;
        }
        // Typical ranges per layer (weights, biases): the first layer sums 512 inputs, the
        // second 32, the output is scaled to a few thousand before FV_SCALE.
        let typical = [(4, 2_000), (32, 2_000), (127, 20_000)];
        for (layer, (w_range, b_range)) in net.layers.iter_mut().zip(typical) {
            let (w_range, b_range) = if full { (127, 127 * 127 * 4) } else { (w_range, b_range) };
            for b in layer.biases.iter_mut() {
                *b = rng.symmetric(b_range) as i32;
            }
            let (inputs, stride) = (layer.inputs, layer.padded_inputs);
            for (j, w) in layer.weights_mut().iter_mut().enumerate() {
                // The padding stays zero, as in the nets YaneuraOu's trainers write.
                if j % stride < inputs {
                    *w = if full { rng.next() as i8 } else { rng.symmetric(w_range) as i8 };
                }
            }
        }
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_gives_its_reference_outputs() {
        // The first outputs for seed 0 in the reference implementation (Vigna's splitmix64.c).
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn the_same_seed_gives_the_same_net_and_another_seed_another() {
        let arch = Architecture { l1: 32, ..Architecture::KP_256X2_32_32 };
        let a = Network::random(arch, 7, Spread::Typical);
        assert_eq!(a, Network::random(arch, 7, Spread::Typical));
        assert_ne!(a, Network::random(arch, 8, Spread::Typical));
        assert_ne!(a, Network::random(arch, 7, Spread::Full));
    }
}
