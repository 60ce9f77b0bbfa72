//! The four integer kernels of inference — accumulator rows, transformer output, affine layer,
//! clipped ReLU — in a portable scalar form and, on x86-64 CPUs that have it, with AVX2.
//!
//! Both forms compute the same integers bit for bit (wrapping i16 accumulators as YaneuraOu's
//! `vec_add_16`; exact i32 dot products, since layer inputs are at most 127 and `maddubs`
//! pairs never saturate), which `tests::both_kernels_give_the_same_outputs` checks. The kernel
//! is picked once, when a network is made or loaded ([`Kernel::detect`]).
//!
//! The four entry points are `#[inline(always)]`: their size checks, which make the AVX2 code's
//! unchecked loads safe, then fold into the caller's code (left to LLVM they stayed calls, about
//! 2.6 % of a search's instructions).

use super::affine::Affine;

#[cfg(target_arch = "x86_64")]
use super::avx2;

/// Which implementation of the kernels a network uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable Rust.
    Scalar,
    /// AVX2 through `std::arch` (only constructible where the CPU has it).
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2),
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub(crate) fn detect() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::Scalar)
    }

    /// The AVX2 kernel, if this CPU has AVX2.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = avx2::Avx2::detect() {
            return Some(Kernel::Avx2(token));
        }
        None
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => "avx2",
        }
    }

    /// Sets `dst[..l1]` to `src[..l1]` minus the weight rows `sub` plus the rows `add`, each row
    /// `l1` wide (`l1` a multiple of 32, every row inside `weights`: checked).
    #[inline(always)]
    pub(crate) fn accumulate(self, dst: &mut [i16], src: &[i16], weights: &[i16], l1: usize, sub: &[u32], add: &[u32]) {
        // A row is inside `weights` if it ends there (no division: this runs twice a move).
        let inside = |&r: &u32| {
            (r as usize).checked_add(1).and_then(|n| n.checked_mul(l1)).is_some_and(|end| end <= weights.len())
        };
        assert!(
            l1 % 32 == 0 && dst.len() >= l1 && src.len() >= l1 && sub.iter().chain(add).all(inside),
            "accumulate: bad sizes or rows"
        );
        match self {
            Kernel::Scalar => scalar_accumulate(dst, src, weights, l1, sub, add),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(token) => token.accumulate(dst, src, weights, l1, sub, add),
        }
    }

    /// The transformer's output: `out[i] = clamp(us[i], 0, 127)`, then the same for `them`
    /// (`l1 = us.len() = them.len()` a multiple of 32, `out` at least `2 * l1`).
    #[inline(always)]
    pub(crate) fn transform(self, us: &[i16], them: &[i16], out: &mut [u8]) {
        let l1 = us.len();
        assert!(l1 % 32 == 0 && them.len() == l1 && out.len() >= 2 * l1, "transform: bad sizes");
        match self {
            Kernel::Scalar => {
                for (o, &a) in out.iter_mut().zip(us.iter().chain(them)) {
                    *o = a.clamp(0, 127) as u8;
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(token) => token.transform(us, them, out),
        }
    }

    /// `out = layer.biases + layer.weights * input` (`input` is `layer.padded_inputs` bytes of
    /// at most 127, `out` at least `layer.outputs()`).
    #[inline(always)]
    pub(crate) fn affine(self, layer: &Affine, input: &[u8], out: &mut [i32]) {
        let n = layer.padded_inputs;
        assert!(
            n % 32 == 0
                && input.len() >= n
                && out.len() >= layer.outputs()
                && layer.weights().len() >= layer.outputs() * n,
            "affine: bad sizes"
        );
        match self {
            Kernel::Scalar => {
                for ((o, &b), row) in out.iter_mut().zip(&layer.biases).zip(layer.weights().chunks_exact(n)) {
                    let mut sum = b;
                    // Fixed 32-byte chunks let the compiler vectorise; a chunk's sum fits in i32.
                    for (w, x) in row.chunks_exact(32).zip(input.chunks_exact(32)) {
                        sum =
                            sum.wrapping_add(w.iter().zip(x).map(|(&w, &x)| i32::from(w) * i32::from(x)).sum::<i32>());
                    }
                    *o = sum;
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(token) => token.affine(layer, input, out),
        }
    }

    /// YaneuraOu's clipped ReLU: `out[i] = clamp(input[i] >> 6, 0, 127)`, and zeros after
    /// `input.len()` up to `out.len()` (the next layer's padding).
    #[inline(always)]
    pub(crate) fn clipped_relu(self, input: &[i32], out: &mut [u8]) {
        assert!(out.len() >= input.len(), "clipped_relu: bad sizes");
        let done = match self {
            Kernel::Scalar => 0,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(token) => token.clipped_relu(input, out),
        };
        for (o, &x) in out[done..].iter_mut().zip(&input[done..]) {
            *o = (x >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8;
        }
        out[input.len()..].fill(0);
    }
}

/// The right shift after each hidden layer (`kWeightScaleBits`): a hidden weight of 1.0 is
/// `1 << WEIGHT_SCALE_BITS`.
pub const WEIGHT_SCALE_BITS: u32 = 6;

fn scalar_accumulate(dst: &mut [i16], src: &[i16], weights: &[i16], l1: usize, sub: &[u32], add: &[u32]) {
    let dst = &mut dst[..l1];
    dst.copy_from_slice(&src[..l1]);
    for &r in sub {
        let row = &weights[r as usize * l1..][..l1];
        for (d, &w) in dst.iter_mut().zip(row) {
            *d = d.wrapping_sub(w);
        }
    }
    for &r in add {
        let row = &weights[r as usize * l1..][..l1];
        for (d, &w) in dst.iter_mut().zip(row) {
            *d = d.wrapping_add(w);
        }
    }
}
