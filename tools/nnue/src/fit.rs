//! A training session from files to `nn.bin`: load and split the data by whole games, report the
//! baselines (the teacher's own scores, and hisha's linear evaluation at its best scale) on the
//! held-out positions, train, and after every epoch report the held-out loss of the float net
//! and of its quantised export; the export of the best epoch by its quantised held-out objective (the
//! net that plays) is kept.

use crate::dataset::{self, Filter, Loaded, Sample};
use crate::merge;
use crate::model::{LossParams, Model, Shape};
use crate::train::{Losses, Schedule, Trainer, par_map, rate};
use hisha::eval::nnue::Network;
use hisha_nnue::float::FloatNetwork;
use hisha_nnue::packed_sfen::PackedSfenValue;
use std::path::PathBuf;
use std::time::Instant;

/// Everything `train` needs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The shape to train.
    pub shape: Shape,
    /// Training files.
    pub data: Vec<PathBuf>,
    /// Held-out files; if empty, `holdout` of the training files' games are held out.
    pub valid: Vec<PathBuf>,
    /// Fraction of whole games held out when `valid` is empty.
    pub holdout: f64,
    /// Which records are used.
    pub filter: Filter,
    /// The schedule.
    pub schedule: Schedule,
    /// Start from this net instead of random weights.
    pub init: Option<PathBuf>,
    /// Train against the integer net's rounding ([`crate::qat`]).
    pub quantisation_aware: bool,
    /// Where the best epoch's net goes.
    pub out: PathBuf,
    /// Overwrite `out` if it exists.
    pub overwrite: bool,
}

fn flatten(all: &merge::Games, games: &[crate::store::GameSpan]) -> Vec<PackedSfenValue> {
    games.iter().flat_map(|g| all.records[g.start..g.start + g.len].iter().copied()).collect()
}

/// The win probabilities of an integer net on `held` (positions decoded from their records).
fn predict_int(net: &Network, held: &[Loaded], loss: &LossParams, threads: usize) -> Vec<f32> {
    let parts = par_map(held, threads, |part| {
        let eval = |(_, sfen): &Loaded| sfen.unpack().map(|p| net.evaluate_position(&p)).unwrap_or(0);
        part.iter().map(|l| crate::model::sigmoid(eval(l) as f32 / loss.scale)).collect::<Vec<f32>>()
    });
    parts.concat()
}

/// hisha's linear evaluation of `held`, and the factor `k` on it that gives the least objective
/// loss (searched over 0.05..=4 in steps of 0.05), with its losses.
pub fn linear_baseline(held: &[Loaded], loss: &LossParams, threads: usize) -> (f32, Losses) {
    let evals: Vec<f32> = par_map(held, threads, |part| {
        part.iter()
            .map(|(_, sfen)| sfen.unpack().map(|p| hisha::eval::evaluate(&p) as f32).unwrap_or(0.0))
            .collect::<Vec<f32>>()
    })
    .concat();
    let losses_at = |k: f32| {
        let q = evals.iter().map(|e| crate::model::sigmoid(k * e / loss.scale));
        Losses::of(q.zip(held.iter().map(|l| l.0)), loss)
    };
    (1..=80)
        .map(|i| i as f32 * 0.05)
        .map(|k| (k, losses_at(k)))
        .min_by(|a, b| a.1.objective.total_cmp(&b.1.objective))
        .unwrap_or((1.0, losses_at(1.0)))
}

/// Writes `net` to `path` through a temporary file (never a half-written net).
fn write_net(net: &Network, path: &std::path::Path) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, net.to_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the session; returns the best epoch's quantised held-out losses.
pub fn fit(opts: &FitOptions) -> Result<Losses, String> {
    if opts.out.exists() && !opts.overwrite {
        return Err(format!("{} exists (give --overwrite to replace it)", opts.out.display()));
    }
    let threads = opts.schedule.threads.max(1);
    let loss = opts.schedule.loss;
    let t0 = Instant::now();
    let all = merge::read_all(&opts.data)?;
    let (train_records, valid_records) = if opts.valid.is_empty() {
        let (kept, held) = merge::split(&all.games, opts.schedule.seed, opts.holdout);
        eprintln!("holding out {} of {} games ({:.1} %)", held.len(), all.games.len(), 100.0 * opts.holdout);
        (flatten(&all, &kept), flatten(&all, &held))
    } else {
        let valid = merge::read_all(&opts.valid)?;
        (all.records.clone(), valid.records)
    };
    let (train, stats) = dataset::load(&train_records, &opts.filter, threads);
    let (held, held_stats) = dataset::load(&valid_records, &opts.filter, threads);
    eprintln!(
        "train: {} samples ({} records; left out: {} tactical, {} beyond the score limit, {} broken); held out: {} samples; loaded in {:.1} s",
        stats.kept,
        train_records.len(),
        stats.tactical,
        stats.extreme,
        stats.bad,
        held_stats.kept,
        t0.elapsed().as_secs_f64()
    );
    if train.is_empty() || held.is_empty() {
        return Err("no training or no held-out samples".into());
    }
    let held_samples: Vec<Sample> = held.iter().map(|l| l.0).collect();
    let teacher =
        Losses::of(held_samples.iter().map(|s| (crate::model::sigmoid(f32::from(s.score) / loss.scale), *s)), &loss);
    eprintln!("held out, the teacher's own scores: {teacher}");
    let (k, linear) = linear_baseline(&held, &loss, threads);
    eprintln!("held out, hisha's linear evaluation x {k:.2} (its best factor): {linear}");
    let mut model = match &opts.init {
        Some(path) => {
            let net = Network::load_file(path).map_err(|e| e.to_string())?;
            if net.architecture() != opts.shape.arch {
                return Err(format!("{}: a {:?} net, not {:?}", path.display(), net.architecture(), opts.shape.arch));
            }
            Model::from_float(opts.shape, &FloatNetwork::from_network(&net))
        }
        None => Model::new(opts.shape, opts.schedule.seed),
    };
    model.set_quantisation_aware(opts.quantisation_aware);
    let mut trainer = Trainer::new(model);
    let mut best: Option<Losses> = None;
    for epoch in 0..opts.schedule.epochs {
        let start = Instant::now();
        let train_loss = trainer.epoch(&train, &opts.schedule, epoch);
        let speed = rate(train.len(), start);
        let float = Losses::of(
            trainer.predict(&held_samples, &loss, threads).into_iter().zip(held_samples.iter().copied()),
            &loss,
        );
        let (net, sat) = trainer.model.to_float().quantize();
        let int =
            Losses::of(predict_int(&net, &held, &loss, threads).into_iter().zip(held_samples.iter().copied()), &loss);
        let saturated = if sat.is_none() { String::new() } else { format!(", clamped {sat:?}") };
        let improved = best.is_none_or(|b| int.objective < b.objective);
        eprintln!(
            "epoch {}/{}: lr {:.2e}, train {train_loss:.5}, held out {float}, quantised {int}{saturated}; {speed:.0} samples/s{}",
            epoch + 1,
            opts.schedule.epochs,
            opts.schedule.lr_at(epoch),
            if improved { " *" } else { "" }
        );
        if improved {
            best = Some(int);
            write_net(&net, &opts.out)?;
        }
    }
    eprintln!(
        "best held out (quantised) {} -> {} ({:.0} s in all)",
        best.unwrap_or_default(),
        opts.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(best.unwrap_or_default())
}
