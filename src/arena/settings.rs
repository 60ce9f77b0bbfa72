//! What a match is asked to do, as plain data: the command line's `hisha match` options without
//! their parser (the binary's `hisha match` arguments fill it in), so that the library needs no
//! command-line crate. Values whose errors the runner reports itself (`--resign`, `--draw`,
//! `--shard`, `--entering-king-rule`) stay text here and are read by `game::rules` and
//! `schedule`.

use super::stats::Sprt;
use super::tc::TimeControl;
use crate::Handicap;
use crate::record::Format;
use std::path::PathBuf;

/// The settings of `hisha match` (see `hisha match --help` for each one's meaning).
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The `--engine` words, one list per engine (none: hisha against itself; one: it plays hisha).
    pub engines: Vec<Vec<String>>,
    /// Number of games (rounded up to whole colour-swapped pairs).
    pub games: usize,
    /// Time control of engines without their own.
    pub tc: TimeControl,
    /// Games played at once (`None`: cores / threads per engine).
    pub concurrency: Option<usize>,
    /// Record files (none: `games.psn`); with `merge`, where the merged records go.
    pub out: Vec<PathBuf>,
    /// Record format for every output (`None`: from each file's extension).
    pub format: Option<Format>,
    /// Openings file (`None`: the built-in openings).
    pub openings: Option<PathBuf>,
    /// Plies of each opening played before the engines take over.
    pub opening_plies: usize,
    /// Shuffle the openings with this seed (`None`: file order).
    pub seed: Option<u64>,
    /// Start every game from this handicap position.
    pub handicap: Option<Handicap>,
    /// Continue an interrupted match from its state file.
    pub resume: bool,
    /// `K/N`: play only shard K of N.
    pub shard: Option<String>,
    /// State files to combine instead of playing.
    pub merge: Vec<PathBuf>,
    /// Stop when this SPRT decides.
    pub sprt: Option<Sprt>,
    /// Engine stderr and USI transcripts go to this file.
    pub log: Option<PathBuf>,
    /// Restart engines before every game.
    pub restart: bool,
    /// Stop after an engine's faulty games in a row (0: never).
    pub max_crashes: u32,
    /// Draw after this many plies.
    pub max_plies: u32,
    /// Resign adjudication `CP:PLIES`.
    pub resign: Option<String>,
    /// Draw adjudication `CP:PLIES`.
    pub draw: Option<String>,
    /// Milliseconds beyond the time allowance before a move loses on time.
    pub time_margin: u64,
    /// Entering-king rule for declarations (NoEnteringKing, CSARule24, CSARule27).
    pub entering_king_rule: String,
    /// Seconds to wait for `usiok` and `readyok`.
    pub usi_timeout: u64,
    /// Seconds an untimed move may take before the engine is deemed stalled.
    pub stall_timeout: u64,
    /// Print the results block every N games (0: only at the end), and rewrite the page.
    pub report_every: usize,
    /// The HTML report page (`--report`).
    pub report: Option<PathBuf>,
    /// Folder of engine definitions for `--engine NAME`.
    pub engines_dir: PathBuf,
    /// No progress bar.
    pub quiet: bool,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The settings of a plain `hisha match --tc TC` (the command line's defaults).
    pub(crate) fn settings(tc: TimeControl) -> MatchSettings {
        MatchSettings {
            engines: Vec::new(),
            games: 6,
            tc,
            concurrency: None,
            out: vec![PathBuf::from("games.psn")],
            format: None,
            openings: None,
            opening_plies: 24,
            seed: None,
            handicap: None,
            resume: false,
            shard: None,
            merge: Vec::new(),
            sprt: None,
            log: None,
            restart: false,
            max_crashes: 3,
            max_plies: 320,
            resign: None,
            draw: None,
            time_margin: 200,
            entering_king_rule: "CSARule27".into(),
            usi_timeout: 10,
            stall_timeout: 60,
            report_every: 20,
            report: None,
            engines_dir: PathBuf::from("engines"),
            quiet: true,
        }
    }
}
