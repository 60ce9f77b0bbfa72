//! AVX2 forms of the kernels of [`super::simd`], the only unsafe code of the crate: raw loads and
//! stores in functions compiled for AVX2, callable only through an [`Avx2`] token, which exists
//! only once `is_x86_feature_detected!("avx2")` said yes. Sizes are checked by the callers in
//! [`super::simd::Kernel`], before any pointer is formed.

#![allow(unsafe_code)]

use super::affine::{Affine, BLOCK_OUTPUTS, GROUP_INPUTS};
use std::arch::x86_64::*;

/// Proof that this CPU has AVX2 (only [`Avx2::detect`] makes one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

impl Avx2 {
    /// The token, if the CPU has AVX2.
    pub(super) fn detect() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }

    /// See [`super::simd::Kernel::accumulate`]; the caller checked its conditions.
    #[inline]
    pub(super) fn accumulate(self, dst: &mut [i16], src: &[i16], weights: &[i16], l1: usize, sub: &[u32], add: &[u32]) {
        // SAFETY: `self` proves AVX2; `Kernel::accumulate` checked that `dst` and `src` hold `l1`
        // values, `l1` is a multiple of 32 and every row `r` has `(r + 1) * l1 <= weights.len()`.
        unsafe { accumulate(dst.as_mut_ptr(), src.as_ptr(), weights.as_ptr(), l1, sub, add) }
    }

    /// See [`super::simd::Kernel::transform`]; the caller checked its conditions.
    #[inline]
    pub(super) fn transform(self, us: &[i16], them: &[i16], out: &mut [u8]) {
        // SAFETY: `self` proves AVX2; `Kernel::transform` checked `us.len() == them.len()`, a
        // multiple of 32, and `out.len() >= 2 * us.len()`.
        unsafe { transform(us, them, out) }
    }

    /// See [`super::simd::Kernel::affine`]; the caller checked its conditions.
    #[inline]
    pub(super) fn affine(self, layer: &Affine, input: &[u8], out: &mut [i32]) {
        // SAFETY: `self` proves AVX2; `Kernel::affine` checked that `padded_inputs` is a multiple
        // of 32, `input` holds that many bytes, `weights` that many per output and `out` one
        // value per output.
        unsafe { affine(layer, input, out) }
    }

    /// Clips whole groups of 32 values of `input`, then one of 16 if that many are left, into `out` as
    /// [`super::simd::Kernel::clipped_relu`] does; returns how many it did.
    #[inline]
    pub(super) fn clipped_relu(self, input: &[i32], out: &mut [u8]) -> usize {
        // SAFETY: `self` proves AVX2; `Kernel::clipped_relu` checked `out.len() >= input.len()`.
        unsafe { clipped_relu(input, out) }
    }
}

/// # Safety
/// AVX2 present; `dst`, `src` valid for `l1` values; rows inside `weights` (see the caller).
#[target_feature(enable = "avx2")]
unsafe fn accumulate(dst: *mut i16, src: *const i16, weights: *const i16, l1: usize, sub: &[u32], add: &[u32]) {
    let mut offset = 0;
    while offset + 128 <= l1 {
        // SAFETY: the tile `offset..offset + 128` lies inside `l1`.
        unsafe { tile::<8>(dst, src, weights, l1, offset, sub, add) };
        offset += 128;
    }
    if offset + 64 <= l1 {
        // SAFETY: the tile `offset..offset + 64` lies inside `l1` (the shipped net's whole half).
        unsafe { tile::<4>(dst, src, weights, l1, offset, sub, add) };
        offset += 64;
    }
    while offset < l1 {
        // SAFETY: `l1` is a multiple of 32, so the tile `offset..offset + 32` lies inside it.
        unsafe { tile::<2>(dst, src, weights, l1, offset, sub, add) };
        offset += 32;
    }
}

/// One tile of `16 * REGS` values kept in registers while every row is applied.
///
/// # Safety
/// As [`accumulate`], with `offset + 16 * REGS <= l1`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile<const REGS: usize>(
    dst: *mut i16,
    src: *const i16,
    weights: *const i16,
    l1: usize,
    offset: usize,
    sub: &[u32],
    add: &[u32],
) {
    // SAFETY (all blocks below): every address is `base + offset + 16 * k + 0..16` with
    // `offset + 16 * REGS <= l1`, inside `src`/`dst` (l1 values) or inside a row of `weights`.
    let mut acc = [_mm256_setzero_si256(); REGS];
    for (k, a) in acc.iter_mut().enumerate() {
        *a = unsafe { _mm256_loadu_si256(src.add(offset + 16 * k).cast()) };
    }
    for &r in sub {
        let row = unsafe { weights.add(r as usize * l1 + offset) };
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_sub_epi16(*a, unsafe { _mm256_loadu_si256(row.add(16 * k).cast()) });
        }
    }
    for &r in add {
        let row = unsafe { weights.add(r as usize * l1 + offset) };
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, unsafe { _mm256_loadu_si256(row.add(16 * k).cast()) });
        }
    }
    for (k, a) in acc.iter().enumerate() {
        unsafe { _mm256_storeu_si256(dst.add(offset + 16 * k).cast(), *a) };
    }
}

/// # Safety
/// AVX2 present; sizes as checked by the caller.
#[target_feature(enable = "avx2")]
unsafe fn transform(us: &[i16], them: &[i16], out: &mut [u8]) {
    let zero = _mm256_setzero_si256();
    let l1 = us.len();
    for (half, values) in [us, them].into_iter().enumerate() {
        for j in (0..l1).step_by(32) {
            // SAFETY: `j + 32 <= l1 = values.len()`, and `half * l1 + j + 32 <= 2 * l1 <= out.len()`.
            unsafe {
                let a = _mm256_loadu_si256(values.as_ptr().add(j).cast());
                let b = _mm256_loadu_si256(values.as_ptr().add(j + 16).cast());
                // Saturate to i8, drop negatives, undo the per-lane interleave of packs.
                let bytes = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
                _mm256_storeu_si256(out.as_mut_ptr().add(half * l1 + j).cast(), ordered);
            }
        }
    }
}

/// Layers whose outputs fill one to four blocks of eight (the shipped net's two hidden layers
/// have sixteen) go by the grouped layout, the others by rows.
///
/// # Safety
/// AVX2 present; sizes as checked by the caller.
#[target_feature(enable = "avx2")]
unsafe fn affine(layer: &Affine, input: &[u8], out: &mut [i32]) {
    if let Some(grouped) = layer.grouped() {
        // SAFETY (each arm): the grouped layout holds `groups` groups of `blocks` blocks of 32
        // bytes; a group's four inputs lie inside `padded_inputs <= input.len()` (inputs <=
        // padded_inputs, a multiple of 4); `out` holds `outputs = 8 * blocks` values.
        let groups = layer.groups();
        match layer.outputs() / BLOCK_OUTPUTS {
            1 => return unsafe { affine_grouped::<1>(grouped, groups, &layer.biases, input, out) },
            2 => return unsafe { affine_grouped::<2>(grouped, groups, &layer.biases, input, out) },
            3 => return unsafe { affine_grouped::<3>(grouped, groups, &layer.biases, input, out) },
            4 => return unsafe { affine_grouped::<4>(grouped, groups, &layer.biases, input, out) },
            _ => {}
        }
    }
    // SAFETY: as this function's.
    unsafe { affine_rows(layer, input, out) }
}

/// Stockfish's affine for small layers: each group of four inputs is broadcast to every lane
/// and multiplied by the 32 bytes of weights of each block of eight outputs, so the sums of a
/// block build up in one register with no horizontal reduction at the end.
///
/// # Safety
/// AVX2 present; `grouped` holds `groups * BLOCKS * 32` bytes, `input` at least `4 * groups`,
/// `biases` and `out` at least `8 * BLOCKS` values.
#[target_feature(enable = "avx2")]
unsafe fn affine_grouped<const BLOCKS: usize>(
    grouped: &[i8],
    groups: usize,
    biases: &[i32],
    input: &[u8],
    out: &mut [i32],
) {
    let mut sums = [_mm256_setzero_si256(); BLOCKS];
    let w = grouped.as_ptr();
    for g in 0..groups {
        // SAFETY: `4 * g + 4 <= 4 * groups <= input.len()`; block `(g, b)` lies at
        // `(g * BLOCKS + b) * 32 + 0..32 <= grouped.len()`.
        unsafe {
            let four = input.as_ptr().add(GROUP_INPUTS * g).cast::<i32>().read_unaligned();
            let x = _mm256_set1_epi32(four);
            for (b, sum) in sums.iter_mut().enumerate() {
                let block = _mm256_loadu_si256(w.add((g * BLOCKS + b) * 32).cast());
                *sum = dot_add(*sum, x, block);
            }
        }
    }
    for (b, sum) in sums.iter().enumerate() {
        // SAFETY: `8 * b + 8 <= 8 * BLOCKS` values of `biases` and of `out`.
        unsafe {
            let bias = _mm256_loadu_si256(biases.as_ptr().add(BLOCK_OUTPUTS * b).cast());
            _mm256_storeu_si256(out.as_mut_ptr().add(BLOCK_OUTPUTS * b).cast(), _mm256_add_epi32(*sum, bias));
        }
    }
}

/// Rows go four at a time, sharing each input load; the four sums are reduced together.
///
/// # Safety
/// AVX2 present; sizes as checked by the caller.
#[target_feature(enable = "avx2")]
unsafe fn affine_rows(layer: &Affine, input: &[u8], out: &mut [i32]) {
    let n = layer.padded_inputs;
    let outputs = layer.outputs();
    let w = layer.weights().as_ptr();
    let mut i = 0;
    while i + 4 <= outputs {
        let mut sums = [_mm256_setzero_si256(); 4];
        for j in (0..n).step_by(32) {
            // SAFETY: `j + 32 <= n <= input.len()`; rows `i..i + 4` lie inside `weights`.
            let x = unsafe { _mm256_loadu_si256(input.as_ptr().add(j).cast()) };
            for (r, sum) in sums.iter_mut().enumerate() {
                let row = unsafe { _mm256_loadu_si256(w.add((i + r) * n + j).cast()) };
                *sum = dot_add(*sum, x, row);
            }
        }
        let s01 = _mm256_hadd_epi32(sums[0], sums[1]);
        let s23 = _mm256_hadd_epi32(sums[2], sums[3]);
        let s = _mm256_hadd_epi32(s01, s23);
        let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        // SAFETY: `i + 4 <= outputs` values of `biases` and of `out`.
        unsafe {
            let bias = _mm_loadu_si128(layer.biases.as_ptr().add(i).cast());
            _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), _mm_add_epi32(s, bias));
        }
        i += 4;
    }
    for (k, o) in out[i..outputs].iter_mut().enumerate() {
        let r = i + k;
        let mut sum = _mm256_setzero_si256();
        for j in (0..n).step_by(32) {
            // SAFETY: as above, for row `r < outputs`.
            let (x, row) = unsafe {
                (_mm256_loadu_si256(input.as_ptr().add(j).cast()), _mm256_loadu_si256(w.add(r * n + j).cast()))
            };
            sum = dot_add(sum, x, row);
        }
        *o = horizontal_sum(sum).wrapping_add(layer.biases[r]);
    }
}

/// `sum` plus, in each 32-bit lane, the four products of `x`'s u8 and `w`'s i8 values there: the
/// pairs summed to i16 (exact: inputs are at most 127), then the pairs of those to i32.
#[target_feature(enable = "avx2")]
#[inline]
fn dot_add(sum: __m256i, x: __m256i, w: __m256i) -> __m256i {
    _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)))
}

#[target_feature(enable = "avx2")]
fn horizontal_sum(v: __m256i) -> i32 {
    let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// # Safety
/// AVX2 present; `out.len() >= input.len()`.
#[target_feature(enable = "avx2")]
unsafe fn clipped_relu(input: &[i32], out: &mut [u8]) -> usize {
    let zero = _mm256_setzero_si256();
    // After the two packs, 32-bit groups come as inputs 0-3, 8-11, 16-19, 24-27, 4-7, ...
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    let chunks = input.len() / 32;
    for c in 0..chunks {
        // SAFETY: `32 * c + 32 <= input.len() <= out.len()`.
        unsafe {
            let p = input.as_ptr().add(32 * c);
            let v0 = _mm256_loadu_si256(p.cast());
            let v1 = _mm256_loadu_si256(p.add(8).cast());
            let v2 = _mm256_loadu_si256(p.add(16).cast());
            let v3 = _mm256_loadu_si256(p.add(24).cast());
            let w0 = _mm256_srai_epi16::<6>(_mm256_packs_epi32(v0, v1));
            let w1 = _mm256_srai_epi16::<6>(_mm256_packs_epi32(v2, v3));
            let bytes = _mm256_max_epi8(_mm256_packs_epi16(w0, w1), zero);
            _mm256_storeu_si256(out.as_mut_ptr().add(32 * c).cast(), _mm256_permutevar8x32_epi32(bytes, order));
        }
    }
    let mut done = chunks * 32;
    if done + 16 <= input.len() {
        // Sixteen more (the shipped net's hidden layers have sixteen outputs): the same packs
        // leave inputs 0-3 and 8-11 in the low lane's first two groups, 4-7 and 12-15 in the
        // high lane's, which the same order brings together in the low 128 bits.
        // SAFETY: `done + 16 <= input.len() <= out.len()`.
        unsafe {
            let p = input.as_ptr().add(done);
            let v0 = _mm256_loadu_si256(p.cast());
            let v1 = _mm256_loadu_si256(p.add(8).cast());
            let w = _mm256_srai_epi16::<6>(_mm256_packs_epi32(v0, v1));
            let bytes = _mm256_max_epi8(_mm256_packs_epi16(w, w), zero);
            let ordered = _mm256_permutevar8x32_epi32(bytes, order);
            _mm_storeu_si128(out.as_mut_ptr().add(done).cast(), _mm256_castsi256_si128(ordered));
        }
        done += 16;
    }
    done
}
