//! The training loop: mini-batches of shuffled samples (optionally mirrored at random), the
//! forward and backward passes split over threads, Adam on the dense layers and lazy Adam on the
//! transformer rows a batch touches, a learning rate falling geometrically from `lr` to `lr_end`,
//! and after every epoch the held-out loss of the float net and of its quantised export.
//!
//! Each batch runs in two phases. (1) The samples are split over the threads; each thread adds
//! the dense gradient of its samples into its own buffer and writes each sample's gradient with
//! respect to the transformer's sums. (2) The transformer rows are split over the threads in
//! blocks of [`BLOCK_ROWS`] (block `b` to thread `b % threads`); each thread walks every sample's
//! active rows, adds the sample's gradient into the rows it owns, then applies Adam to them. No
//! two threads ever write the same row, without locks.

use crate::dataset::{Loaded, Sample};
use crate::model::{LossParams, MAX_ACTIVE, Model, Scratch, sigmoid};
use crate::optim::{AdamParams, Moments};
use rand::Rng;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::time::Instant;

/// Transformer rows per block of phase 2.
pub const BLOCK_ROWS: usize = 16;

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// First epoch's step size.
    pub lr: f32,
    /// Last epoch's step size.
    pub lr_end: f32,
    /// The loss.
    pub loss: LossParams,
    /// Threads.
    pub threads: usize,
    /// Mirror each sample left to right with probability 1/2, drawn anew every epoch.
    pub mirror: bool,
    /// Seed of the shuffles and mirrors.
    pub seed: u64,
}

impl Schedule {
    /// The step size of `epoch` (from 0).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        if self.epochs <= 1 {
            return self.lr;
        }
        self.lr * (self.lr_end / self.lr).powf(epoch as f32 / (self.epochs - 1) as f32)
    }
}

/// The optimiser's state beside the model.
pub struct Trainer {
    /// The model.
    pub model: Model,
    dense: Moments,
    ft: Moments,
    ft_grad: Vec<f32>,
    touched: Vec<bool>,
    step: u64,
}

/// Mean losses over a set of samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// The training objective (λ-mixed target).
    pub objective: f64,
    /// Against the game results alone.
    pub result: f64,
    /// Against the teacher's scores alone.
    pub teacher: f64,
}

impl Losses {
    /// The three losses of predicting win probabilities `q` for `samples`.
    pub fn of(samples: impl Iterator<Item = (f32, Sample)>, loss: &LossParams) -> Losses {
        let (mut sum, mut n) = (Losses::default(), 0usize);
        for (q, s) in samples {
            let q = f64::from(q);
            let sq = |t: f32| (q - f64::from(t)).powi(2);
            sum.objective += sq(loss.target(&s));
            sum.result += sq((f32::from(s.result) + 1.0) / 2.0);
            sum.teacher += sq(sigmoid(f32::from(s.score) / loss.scale));
            n += 1;
        }
        let n = n.max(1) as f64;
        Losses { objective: sum.objective / n, result: sum.result / n, teacher: sum.teacher / n }
    }
}

impl std::fmt::Display for Losses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.5} (result {:.5}, teacher {:.5})", self.objective, self.result, self.teacher)
    }
}

/// `f` over `items` split into one chunk per thread, results in order.
pub fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = items.chunks(chunk).map(|part| s.spawn(move || f(part))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

impl Trainer {
    /// A trainer for `model` with zero moments.
    pub fn new(model: Model) -> Trainer {
        let rows = model.shape.rows();
        let l1 = model.shape.arch.l1;
        Trainer {
            dense: Moments::new(model.dense.len()),
            ft: Moments::new(rows * l1),
            ft_grad: vec![0.0; rows * l1],
            touched: vec![false; rows],
            step: 0,
            model,
        }
    }

    /// The float model's win probabilities for `samples` (forward only, on `threads` threads).
    pub fn predict(&self, samples: &[Sample], loss: &LossParams, threads: usize) -> Vec<f32> {
        let parts = par_map(samples, threads, |part| {
            let mut sc = self.model.scratch();
            part.iter()
                .map(|s| sigmoid(self.model.forward(s, &mut sc) * crate::model::OUTPUT_SCALE / loss.scale))
                .collect::<Vec<f32>>()
        });
        parts.concat()
    }

    /// One step on `batch` (samples with their mirror flags); returns the batch's summed loss.
    pub fn step(&mut self, samples: &[Loaded], batch: &[(u32, bool)], schedule: &Schedule, lr: f32) -> f64 {
        let threads = schedule.threads.max(1);
        let l1 = self.model.shape.arch.l1;
        let sample = |&(i, mirror): &(u32, bool)| {
            let s = &samples[i as usize].0;
            if mirror { s.mirrored() } else { *s }
        };
        // Phase 1: dense gradients and each sample's gradient of the transformer's sums.
        let mut g_acc = vec![0.0f32; batch.len() * 2 * l1];
        let chunk = batch.len().div_ceil(threads).max(1);
        let model = &self.model;
        let parts: Vec<(Vec<f32>, f64)> = std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .zip(g_acc.chunks_mut(chunk * 2 * l1))
                .map(|(part, g_part)| {
                    s.spawn(move || {
                        let mut sc: Scratch = model.scratch();
                        let mut g_dense = vec![0.0f32; model.dense.len()];
                        let mut loss = 0.0f64;
                        for (entry, g) in part.iter().zip(g_part.chunks_exact_mut(2 * l1)) {
                            let s = sample(entry);
                            loss += f64::from(model.backward(&s, &schedule.loss, &mut sc, &mut g_dense, g));
                        }
                        (g_dense, loss)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        let mut g_dense = vec![0.0f32; self.model.dense.len()];
        let mut loss = 0.0;
        for (g, l) in parts {
            for (a, b) in g_dense.iter_mut().zip(&g) {
                *a += b;
            }
            loss += l;
        }
        self.step += 1;
        let adam = AdamParams::new(lr);
        let lr_t = adam.corrected_lr(self.step);
        let g_scale = 1.0 / batch.len() as f32;
        adam.update(lr_t, g_scale, &mut self.model.dense, &g_dense, &mut self.dense.m, &mut self.dense.v);
        self.model.clip();
        self.model.sync_rounded();
        // Phase 2: the transformer rows, block b on thread b % threads.
        let shape = self.model.shape;
        let block = BLOCK_ROWS * l1;
        let mut owned: Vec<Vec<RowBlock>> = (0..threads).map(|_| Vec::new()).collect();
        let blocks = self
            .model
            .ft
            .chunks_mut(block)
            .zip(self.ft_grad.chunks_mut(block))
            .zip(self.ft.m.chunks_mut(block).zip(self.ft.v.chunks_mut(block)))
            .zip(self.touched.chunks_mut(BLOCK_ROWS));
        for (b, (((w, g), (m, v)), touched)) in blocks.enumerate() {
            owned[b % threads].push(RowBlock { w, g, m, v, touched });
        }
        let g_acc = &g_acc;
        std::thread::scope(|s| {
            for (t, mut mine) in owned.into_iter().enumerate() {
                s.spawn(move || {
                    let mut rows = [0u32; MAX_ACTIVE];
                    let mut touched_rows = Vec::new();
                    for (entry, g) in batch.iter().zip(g_acc.chunks_exact(2 * l1)) {
                        let smp = sample(entry);
                        for (i, g_half) in g.chunks_exact(l1).enumerate() {
                            let n = shape.active(&smp, i, &mut rows);
                            for &r in &rows[..n] {
                                let b = r as usize / BLOCK_ROWS;
                                if b % threads != t {
                                    continue;
                                }
                                let (blk, off) = (&mut mine[b / threads], r as usize % BLOCK_ROWS);
                                if !blk.touched[off] {
                                    blk.touched[off] = true;
                                    touched_rows.push(r);
                                }
                                for (a, x) in blk.g[off * l1..(off + 1) * l1].iter_mut().zip(g_half) {
                                    *a += x;
                                }
                            }
                        }
                    }
                    for r in touched_rows {
                        let (blk, off) = (&mut mine[r as usize / BLOCK_ROWS / threads], r as usize % BLOCK_ROWS);
                        let span = off * l1..(off + 1) * l1;
                        adam.update(
                            lr_t,
                            g_scale,
                            &mut blk.w[span.clone()],
                            &blk.g[span.clone()],
                            &mut blk.m[span.clone()],
                            &mut blk.v[span.clone()],
                        );
                        blk.g[span].fill(0.0);
                        blk.touched[off] = false;
                    }
                });
            }
        });
        loss
    }

    /// One pass over `train` in a fresh random order; returns the mean training loss.
    pub fn epoch(&mut self, train: &[Loaded], schedule: &Schedule, epoch: usize) -> f64 {
        let mut rng = StdRng::seed_from_u64(schedule.seed.wrapping_add(epoch as u64));
        let mut order: Vec<(u32, bool)> =
            (0..train.len() as u32).map(|i| (i, schedule.mirror && rng.random_bool(0.5))).collect();
        order.shuffle(&mut rng);
        let lr = schedule.lr_at(epoch);
        let mut loss = 0.0;
        for batch in order.chunks(schedule.batch.max(1)) {
            loss += self.step(train, batch, schedule, lr);
        }
        loss / train.len().max(1) as f64
    }
}

/// One thread's share of the transformer in phase 2.
struct RowBlock<'a> {
    w: &'a mut [f32],
    g: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
    touched: &'a mut [bool],
}

/// Samples per second over `samples` processed since `start`.
pub fn rate(samples: usize, start: Instant) -> f64 {
    samples as f64 / start.elapsed().as_secs_f64().max(1e-9)
}

#[cfg(test)]
#[path = "train_tests.rs"]
mod tests;
