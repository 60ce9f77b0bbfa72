//! hisha's NNUE training pipeline: self-play data in YaneuraOu's `PackedSfenValue` format, file
//! tools, and a multi-threaded CPU trainer that exports YaneuraOu `nn.bin` nets: the command line
//! of the `hisha-nnue` crate (`src/lib.rs` says where each part is). See `nnue/README.md` for the
//! commands that made the committed nets.
//!
//! ```sh
//! cargo run --release -p hisha-nnue -- gen --out DATA.psv --positions 1000000 --nodes 4000 --threads 2
//! cargo run --release -p hisha-nnue -- merge --out ALL.psv A.psv B.psv [--holdout 0.05 --holdout-out VALID.psv]
//! cargo run --release -p hisha-nnue -- convert-tsv OLD.tsv OUT.psv
//! cargo run --release -p hisha-nnue -- export-tsv DATA.psv DATA.tsv   # for examples/tune_eval.rs
//! cargo run --release -p hisha-nnue -- relabel ALL.psv LINEAR.psv --expand 8
//! cargo run --release -p hisha-nnue -- train --features kp --data ALL.psv --out nn.bin
//! ```

mod dataset;
mod fit;
mod merge;
mod model;
mod optim;
mod qat;
mod relabel;
mod selfplay;
mod store;
mod train;

use clap::{Parser, Subcommand, ValueEnum};
use hisha::array_task::{self, ArrayTask, Scheduler};
use hisha::eval::nnue::{Architecture, FeatureSet};
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "hisha's NNUE pipeline: self-play data, file tools, trainer")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Threads to use unless told: every core.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games written as PackedSfenValue records (appends; resumes where it stopped).
    Gen {
        /// Output file (its game index is written beside it, FILE.games).
        #[arg(long)]
        out: PathBuf,
        /// Stop when the file holds this many games of this shard.
        #[arg(long)]
        games: Option<u64>,
        /// Stop when the file holds this many records.
        #[arg(long)]
        positions: Option<u64>,
        /// Nodes per move.
        #[arg(long, default_value_t = 4000)]
        nodes: u64,
        /// Depth limit per move (with the node limit).
        #[arg(long)]
        depth: Option<u32>,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// This run's shard K/N: game i gets id K + N*i.
        #[arg(long, default_value = "0/1")]
        shard: selfplay::Shard,
        /// Take the shard from the scheduler's variables instead: `slurm` (an array job's task;
        /// --array=0-3 and --array=1-4 are both shards 0/4 to 3/4) or `kubernetes` (an Indexed
        /// Job's JOB_COMPLETION_INDEX, with --shards N).
        #[arg(long, value_name = "SCHEDULER", conflicts_with = "shard")]
        shard_from_env: Option<Scheduler>,
        /// How many shards, with --shard-from-env (kubernetes needs it; slurm checks it).
        #[arg(long, requires = "shard_from_env", required_if_eq("shard_from_env", "kubernetes"))]
        shards: Option<usize>,
        /// Seed of the games' random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fewest random opening plies.
        #[arg(long, default_value_t = 6)]
        random_min: usize,
        /// Most random opening plies.
        #[arg(long, default_value_t = 20)]
        random_max: usize,
        /// A search score this large ends the game (YaneuraOu gensfen's eval_limit default).
        #[arg(long, default_value_t = 3000)]
        eval_limit: i32,
        /// Plies after which a game is a draw.
        #[arg(long, default_value_t = 320)]
        max_plies: usize,
        /// Leave out positions whose move is a capture or a promotion (the trainer can also).
        #[arg(long)]
        skip_tactical: bool,
        /// Transposition table per thread, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// What the searches evaluate with: `builtin` (the net hisha ships), `linear` (the linear
        /// evaluation, which labelled the seed-202 data) or an nn.bin. Keep it when resuming a file.
        #[arg(long, default_value = "builtin")]
        evalfile: String,
        /// Seconds between progress lines.
        #[arg(long, default_value_t = 60)]
        report: u64,
    },
    /// Converts the linear tuner's TSV (SFEN, score, result) into records with a game index.
    ConvertTsv {
        /// The TSV (SFEN, score, result).
        input: PathBuf,
        /// The records file to write (must not exist).
        out: PathBuf,
    },
    /// Writes records as the linear tuner's TSV (SFEN, score, result), for examples/tune_eval.rs.
    ExportTsv {
        /// The records file.
        input: PathBuf,
        /// The TSV to write (must not exist).
        out: PathBuf,
    },
    /// Merges record files keeping games whole; can hold out whole games and shuffle.
    Merge {
        /// Output file (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// Fraction of whole games to write to --holdout-out instead.
        #[arg(long, default_value_t = 0.0)]
        holdout: f64,
        /// Where the held-out games go.
        #[arg(long)]
        holdout_out: Option<PathBuf>,
        /// Shuffle the output's records (then it has no game index).
        #[arg(long)]
        shuffle: bool,
        /// Seed of the held-out choice and the shuffle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Input files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Re-scores every record with hisha's linear evaluation (distillation labels; train with --lambda 1).
    Relabel {
        /// The records to re-score.
        input: PathBuf,
        /// The file to write (must not exist), with the input's game index.
        out: PathBuf,
        /// Positions to add after each record's, each 1 to 4 random plies away.
        #[arg(long, default_value_t = 0)]
        expand: usize,
        /// Seed of the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Trains a net and exports the best epoch as YaneuraOu nn.bin.
    Train(TrainArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum Features {
    /// YaneuraOu's K+P.
    Kp,
    /// HalfKP.
    Halfkp,
    /// HalfKP trained with a shared P factor.
    HalfkpFactorised,
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Input features.
    #[arg(long, value_enum)]
    features: Features,
    /// Transformer outputs per perspective.
    #[arg(long, default_value_t = 256)]
    l1: usize,
    /// First hidden layer.
    #[arg(long, default_value_t = 32)]
    l2: usize,
    /// Second hidden layer.
    #[arg(long, default_value_t = 32)]
    l3: usize,
    /// Training files.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Held-out files (default: --holdout of the training files' games).
    #[arg(long, num_args = 1..)]
    valid: Vec<PathBuf>,
    /// Fraction of whole games held out when no --valid is given.
    #[arg(long, default_value_t = 0.05)]
    holdout: f64,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Samples per step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// First epoch's Adam step size.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// Last epoch's step size (geometric in between).
    #[arg(long, default_value_t = 1e-4)]
    lr_end: f32,
    /// Weight of the search score in the target (1 - lambda on the game result).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Score units of the sigmoid (YaneuraOu's 600).
    #[arg(long, default_value_t = 600.0)]
    scale: f32,
    /// Mirror samples left to right at random (doubles the positions seen).
    #[arg(long)]
    mirror: bool,
    /// Train on positions whose move is a capture or a promotion too.
    #[arg(long)]
    keep_tactical: bool,
    /// Quantisation-aware: run the passes on the weights and activations rounded as the exported
    /// integer net rounds them (the float weights still take the updates).
    #[arg(long)]
    qat: bool,
    /// Leave out records whose score's magnitude is at least this.
    #[arg(long, default_value_t = 3000)]
    score_limit: i32,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights, the held-out choice, shuffles and mirrors.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this nn.bin (same shape) instead of random weights.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Where the best epoch's net is written.
    #[arg(long)]
    out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    overwrite: bool,
}

impl TrainArgs {
    fn options(&self) -> Result<fit::FitOptions, String> {
        let (features, factorised) = match self.features {
            Features::Kp => (FeatureSet::KP, false),
            Features::Halfkp => (FeatureSet::HalfKP, false),
            Features::HalfkpFactorised => (FeatureSet::HalfKP, true),
        };
        let arch = Architecture { features, l1: self.l1, l2: self.l2, l3: self.l3 };
        if !arch.is_supported() {
            return Err(format!(
                "unsupported sizes {}-{}-{}: l1 a multiple of 32 up to 1024, l2 and l3 multiples of 8 up to 128",
                self.l1, self.l2, self.l3
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) || self.scale <= 0.0 || self.lr <= 0.0 || self.lr_end <= 0.0 {
            return Err("--lambda must be within 0..=1, --scale, --lr and --lr-end positive".into());
        }
        let loss = model::LossParams { lambda: self.lambda, scale: self.scale };
        let schedule = train::Schedule {
            epochs: self.epochs,
            batch: self.batch.max(1),
            lr: self.lr,
            lr_end: self.lr_end,
            loss,
            threads: self.threads.unwrap_or_else(default_threads),
            mirror: self.mirror,
            seed: self.seed,
        };
        Ok(fit::FitOptions {
            shape: model::Shape { arch, factorised },
            data: self.data.clone(),
            valid: self.valid.clone(),
            holdout: self.holdout,
            filter: dataset::Filter { keep_tactical: self.keep_tactical, score_limit: self.score_limit },
            schedule,
            init: self.init.clone(),
            quantisation_aware: self.qat,
            out: self.out.clone(),
            overwrite: self.overwrite,
        })
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Gen {
            out,
            games,
            positions,
            nodes,
            depth,
            threads,
            shard,
            shard_from_env,
            shards,
            seed,
            random_min,
            random_max,
            eval_limit,
            max_plies,
            skip_tactical,
            hash,
            evalfile,
            report,
        } => {
            let shard = match shard_from_env {
                Some(scheduler) => ArrayTask::from_env(scheduler, shards, array_task::process_var)
                    .map(selfplay::Shard::from)
                    .map_err(|e| format!("--shard-from-env {scheduler}: {e}"))?,
                None => shard,
            };
            let source = hisha::EvalSource::named(&evalfile);
            let net = source.load().map_err(|e| e.to_string())?;
            eprintln!("the searches evaluate with {}", source.describe());
            let opts = selfplay::GenOptions {
                out,
                games,
                positions,
                nodes,
                depth,
                threads: threads.unwrap_or_else(default_threads),
                shard,
                seed,
                random_plies: (random_min, random_max),
                eval_limit,
                max_plies,
                skip_tactical,
                hash_mib: hash,
                net,
                report_secs: report,
            };
            selfplay::run(&opts).map(|_| ())
        }
        Command::ConvertTsv { input, out } => merge::convert_tsv(&input, &out),
        Command::ExportTsv { input, out } => merge::export_tsv(&input, &out),
        Command::Merge { out, holdout, holdout_out, shuffle, seed, inputs } => {
            merge::merge(&merge::MergeOptions { inputs, out, holdout, holdout_out, shuffle, seed })
        }
        Command::Relabel { input, out, expand, seed } => relabel::relabel(&input, &out, expand, seed).map(|r| {
            println!(
                "{}: {} records scored by the linear evaluation ({} of them variants), {} unreadable left as they were",
                out.display(),
                r.records,
                r.variants,
                r.broken
            );
        }),
        Command::Train(args) => fit::fit(&args.options()?).map(|_| ()),
    }
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
