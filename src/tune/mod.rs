//! `hisha tune`: SPSA tuning of any USI engine's `spin` options, as fishtest and OpenBench run
//! it. Each iteration plays a colour-swapped game pair over one opening between the engine at
//! θ + c·Δ and the same engine at θ − c·Δ (fishtest's set-up: both sides are the tuned engine),
//! or with `--opponent` a pair of each of them against a fixed engine, and moves θ by the result
//! ([`spsa`]). Games are played, adjudicated and recorded by the match
//! runner's parts ([`crate::arena`]'s game and openings, [`crate::client`]'s processes), every
//! game kept in a record file; a state file makes the run resumable; a page draws each
//! parameter's trajectory.
//!
//! The files, from the data up: [`params`] (the parameters file), [`spsa`] (the gain schedule,
//! the perturbations and the update), [`state`] (the state file), `events` (what a run tells),
//! `error` ([`TuneError`]), `page` (the `--report` page), `pairs` (the workers that play the
//! game pairs), `plan` (the checks before the first game) and `run` (the main loop, Ctrl-C):
//! [`run`].

mod error;
mod events;
mod page;
mod pairs;
pub mod params;
mod plan;
mod run;
pub mod spsa;
pub mod state;

pub use error::TuneError;
pub use events::{TuneEvent, TuneObserver};
pub use run::run;

use crate::arena::{GameSettings, OpeningSettings};
use crate::client::tc::TimeControl;
use crate::record::Format;
use std::path::PathBuf;

/// What `hisha tune` is asked to do (the command line's options, typed).
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The tuned engine's `--engine` words (none: hisha).
    pub engine: Vec<String>,
    /// The fixed opponent's `--opponent` words (none: the engine plays itself).
    pub opponent: Vec<String>,
    /// The parameters file.
    pub params: PathBuf,
    /// Iterations (game pairs).
    pub iterations: u64,
    /// SPSA's `A` (default: fishtest's, a tenth of the iterations).
    pub a: Option<f64>,
    /// SPSA's `alpha`.
    pub alpha: f64,
    /// SPSA's `gamma`.
    pub gamma: f64,
    /// Time control of both sides (an engine's own `tc=` overrides it).
    pub tc: TimeControl,
    /// Game pairs played at once.
    pub concurrency: usize,
    /// The record file.
    pub out: PathBuf,
    /// Its format (default: from its extension).
    pub format: Option<Format>,
    /// The openings file and plies.
    pub openings: OpeningSettings,
    /// Seed of the coins, the rounding and the order of the openings (default: drawn).
    pub seed: Option<u64>,
    /// Continue from the state file.
    pub resume: bool,
    /// How each game is played and judged.
    pub game: GameSettings,
    /// Engine stderr and every game's USI transcript, appended.
    pub log: Option<PathBuf>,
    /// Stop when an engine crashes, stalls or fails to start in this many of its games in a row
    /// (0: never).
    pub max_crashes: u32,
    /// Tell θ every this many iterations (and rewrite the page; 0: only at the end).
    pub report_every: u64,
    /// The page of trajectories.
    pub report: Option<PathBuf>,
    /// Folder of engine definitions for `--engine NAME`.
    pub engines_dir: PathBuf,
}
