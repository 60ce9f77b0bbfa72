//! What a match is asked to do, as plain typed data: the command line's `hisha match` options
//! without their parser (the binary's `hisha match` arguments fill it in, reading each value with
//! its [`FromStr`] here), so that the library needs no command-line crate.

use super::openings::OpeningSettings;
use super::stats::{Anchor, Sprt};
use super::tournament::Tournament;
use crate::Handicap;
use crate::array_task::ArrayTask;
use crate::client::config::EngineConfig;
use crate::client::tc::TimeControl;
use crate::position::EnteringKingRule;
use crate::record::Format;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The settings of `hisha match` (see `hisha match --help` for each one's meaning).
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The `--engine` words, one list per engine (none: hisha against itself; one: it plays hisha;
    /// more than two only in a tournament).
    pub engines: Vec<Vec<String>>,
    /// Number of games (rounded up to whole colour-swapped pairs); in a tournament, of each pairing
    /// in each round.
    pub games: usize,
    /// Play a tournament of all the engines (`None`: a match of two).
    pub tournament: Option<Tournament>,
    /// Rounds of a tournament: each pairing plays `games` games per round.
    pub rounds: usize,
    /// The engine whose rating is fixed in a tournament's rating list (`None`: the first at 0).
    pub anchor: Option<Anchor>,
    /// Time control of engines without their own.
    pub tc: TimeControl,
    /// Games played at once (`None`: cores / threads per engine).
    pub concurrency: Option<usize>,
    /// Record files (none: `games.psn`); with `merge`, where the merged records go.
    pub out: Vec<PathBuf>,
    /// Record format for every output (`None`: from each file's extension).
    pub format: Option<Format>,
    /// The openings file and plies.
    pub openings: OpeningSettings,
    /// Shuffle the openings with this seed (`None`: file order).
    pub seed: Option<u64>,
    /// Start every game from this handicap position.
    pub handicap: Option<Handicap>,
    /// Continue an interrupted match from its state file.
    pub resume: bool,
    /// Play only this shard of the schedule.
    pub shard: Option<Shard>,
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
    /// How each game is played and judged.
    pub game: GameSettings,
    /// Print the results block every N games (0: only at the end), and rewrite the page.
    pub report_every: usize,
    /// The HTML report page (`--report`).
    pub report: Option<PathBuf>,
    /// Folder of engine definitions for `--engine NAME`.
    pub engines_dir: PathBuf,
}

/// How each game is played and judged, the same for `hisha match` and `hisha tune`: adjudication
/// and the engines' timeouts (an engine's own `time_margin` and `usi_timeout` override theirs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Draw after this many plies.
    pub max_plies: u32,
    /// Resign adjudication `CP:PLIES`.
    pub resign: Option<ScoreRule>,
    /// Draw adjudication `CP:PLIES`.
    pub draw: Option<ScoreRule>,
    /// Milliseconds beyond the time allowance before a move loses on time.
    pub time_margin: u64,
    /// Entering-king rule for declarations.
    pub entering_king_rule: EnteringKingRule,
    /// Seconds to wait for `usiok` and `readyok`.
    pub usi_timeout: u64,
    /// Seconds an untimed move may take before the engine is deemed stalled.
    pub stall_timeout: u64,
}

impl GameSettings {
    /// `conf`'s margin beyond the time allowance: its own `time_margin`, else these settings'.
    pub fn time_margin_of(&self, conf: &EngineConfig) -> u64 {
        conf.time_margin.unwrap_or(self.time_margin)
    }

    /// How long `conf` may take to answer `usi` and `isready`: its own `usi_timeout`, else
    /// these settings'.
    pub fn usi_timeout_of(&self, conf: &EngineConfig) -> Duration {
        Duration::from_secs(conf.usi_timeout.unwrap_or(self.usi_timeout))
    }
}

/// A score threshold held for a number of moves (`--resign CP:PLIES`, `--draw CP:PLIES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    /// The threshold in centipawns.
    pub cp: i32,
    /// How many moves of each engine in a row.
    pub plies: u32,
}

/// A text that is not `CP:PLIES`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseScoreRuleError {
    /// No colon.
    #[error("wants CP:PLIES, got {0:?}")]
    Shape(String),
    /// The CP part is not a number.
    #[error("bad CP {0:?}")]
    Cp(String),
    /// The PLIES part is not a number.
    #[error("bad PLIES {0:?}")]
    Plies(String),
}

impl FromStr for ScoreRule {
    type Err = ParseScoreRuleError;

    /// Reads `CP:PLIES` (spaces around either number allowed).
    fn from_str(text: &str) -> Result<ScoreRule, ParseScoreRuleError> {
        let (cp, plies) = text.split_once(':').ok_or_else(|| ParseScoreRuleError::Shape(text.to_string()))?;
        Ok(ScoreRule {
            cp: cp.trim().parse().map_err(|_| ParseScoreRuleError::Cp(cp.to_string()))?,
            plies: plies.trim().parse().map_err(|_| ParseScoreRuleError::Plies(plies.to_string()))?,
        })
    }
}

/// One shard of a match's schedule (`--shard K/N`): the colour-swapped pairs whose number is
/// K modulo N, counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1 ≤ `number` ≤ `count`.
    number: usize,
    /// How many shards.
    count: usize,
}

impl Shard {
    /// Shard `number` of `count` (counted from 1); `None` unless 1 ≤ `number` ≤ `count`.
    pub fn new(number: usize, count: usize) -> Option<Shard> {
        (1..=count).contains(&number).then_some(Shard { number, count })
    }

    /// Whether the pair numbered `pair` (from 0) belongs to this shard: pairs are dealt
    /// round-robin, pair 0 to shard 1.
    pub(crate) fn has_pair(self, pair: usize) -> bool {
        pair % self.count == self.number - 1
    }
}

impl From<ArrayTask> for Shard {
    /// The shard of an array job's task: task `i` of `n` (counted from 0, as schedulers count)
    /// plays shard `i + 1` of `n`.
    fn from(task: ArrayTask) -> Shard {
        Shard { number: task.index() + 1, count: task.count() }
    }
}

/// A text that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wants K/N with 1 <= K <= N, got {0:?}")]
pub struct ParseShardError(String);

impl FromStr for Shard {
    type Err = ParseShardError;

    /// Reads `K/N`.
    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        Shard::new(k, n).ok_or_else(bad)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_score_rule_is_cp_colon_plies() {
        assert_eq!(" 400 : 3".parse(), Ok(ScoreRule { cp: 400, plies: 3 }));
        assert_eq!("-50:2".parse(), Ok(ScoreRule { cp: -50, plies: 2 }));
        let e = |text: &str| text.parse::<ScoreRule>().expect_err("bad").to_string();
        assert_eq!(e("400"), "wants CP:PLIES, got \"400\"");
        assert_eq!(e("x:3"), "bad CP \"x\"");
        assert_eq!(e("1:y"), "bad PLIES \"y\"");
        assert_eq!(e("1:-2"), "bad PLIES \"-2\"");
    }

    #[test]
    fn a_shard_is_k_of_n_counted_from_one_and_deals_pairs_round_robin() {
        let shard = |text: &str| text.parse::<Shard>();
        assert_eq!(shard("2/3"), Ok(Shard { number: 2, count: 3 }));
        assert_eq!(shard(" 1 / 1 "), Ok(Shard { number: 1, count: 1 }));
        for bad in ["0/2", "3/2", "1", "a/2", "1/0", "-1/2", ""] {
            assert_eq!(shard(bad).map_err(|e| e.to_string()), Err(format!("wants K/N with 1 <= K <= N, got {bad:?}")));
        }
        let pairs = |s: Shard| (0..7).filter(|&p| s.has_pair(p)).collect::<Vec<_>>();
        assert_eq!(pairs(Shard { number: 1, count: 3 }), [0, 3, 6]);
        assert_eq!(pairs(Shard { number: 3, count: 3 }), [2, 5]);
    }

    #[test]
    fn an_array_task_counted_from_0_plays_the_shard_counted_from_1() {
        let shard = |index, count| ArrayTask::new(index, count).map(Shard::from);
        assert_eq!(shard(0, 3), Some(Shard { number: 1, count: 3 }));
        assert_eq!(shard(2, 3), Some(Shard { number: 3, count: 3 }));
        assert_eq!(shard(3, 3), None);
    }

    /// The settings of a plain `hisha match --tc TC` (the command line's defaults).
    pub(crate) fn settings(tc: TimeControl) -> MatchSettings {
        MatchSettings {
            engines: Vec::new(),
            games: 6,
            tournament: None,
            rounds: 1,
            anchor: None,
            tc,
            concurrency: None,
            out: vec![PathBuf::from("games.psn")],
            format: None,
            openings: OpeningSettings { file: None, plies: 24 },
            seed: None,
            handicap: None,
            resume: false,
            shard: None,
            merge: Vec::new(),
            sprt: None,
            log: None,
            restart: false,
            max_crashes: 3,
            game: GameSettings {
                max_plies: 320,
                resign: None,
                draw: None,
                time_margin: 200,
                entering_king_rule: EnteringKingRule::Point27,
                usi_timeout: 10,
                stall_timeout: 60,
            },
            report_every: 20,
            report: None,
            engines_dir: PathBuf::from("engines"),
        }
    }
}
