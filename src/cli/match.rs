//! `hisha match`: its arguments, turned into the match runner's [`MatchSettings`] and run by
//! [`hisha::arena::run`]; its exit statuses are `match_exit`'s.

use super::game_args::GameArgs;
use super::opening_args::OpeningArgs;
use super::shard::{ShardArgs, ShardError};
use super::{FormatArg, at_least_one};
use clap::{ArgAction, ArgMatches};
use hisha::Handicap;
use hisha::arena::stats::{Anchor, Sprt};
use hisha::arena::{MatchSettings, Tournament};
use hisha::client::tc::TimeControl;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `hisha match`.
#[derive(Debug, clap::Args)]
#[command(after_help = super::match_exit::EXIT_STATUS_HELP)]
pub struct MatchCommand {
    /// An engine: `name=N cmd=PATH [arg=A]… [dir=D] [option.X=V]… [tc=TC] [usi_timeout=S]`, the
    /// name of a definition in `engines/` (built in: hisha, fairy-stockfish, gpsusi) or a `.toml`
    /// file, which `key=value` words after it change (`fairy-stockfish tc=byoyomi=100`). Give two;
    /// with one it plays hisha; with none, hisha plays itself; more with `--tournament`.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "SPEC")]
    pub engine: Vec<String>,
    /// Number of games (rounded up to whole colour-swapped pairs; at least 1); in a tournament,
    /// of each pairing in each round.
    #[arg(long, default_value_t = 6, value_parser = at_least_one())]
    pub games: usize,
    /// Play a tournament of all the `--engine`s: `round-robin` (every engine against every other)
    /// or `gauntlet` (the first against each of the others). The pairings take turns, each over
    /// the same openings; the results are a rating list (maximum likelihood, 95 % intervals) and
    /// a crosstable. An engine that reaches --max-crashes is dropped and the others play on.
    #[arg(long, value_name = "KIND")]
    pub tournament: Option<Tournament>,
    /// Rounds of a tournament: each pairing plays --games games per round.
    #[arg(long, default_value_t = 1, value_parser = at_least_one(), requires = "tournament")]
    pub rounds: usize,
    /// Fix this engine's rating in a tournament's rating list, e.g. `hisha=0` or
    /// `fairy-stockfish=1800` (default: the first engine at 0).
    #[arg(long, value_name = "NAME=ELO")]
    pub anchor: Option<Anchor>,
    /// Time control: byoyomi=MS, time=MS,byoyomi=MS, time=MS,inc=MS, time=MS, st=MS, nodes=N, depth=N.
    #[arg(long, default_value = "byoyomi=100")]
    pub tc: TimeControl,
    /// Games played at once (default: cores / threads per engine; at least 1).
    #[arg(long, value_parser = at_least_one())]
    pub concurrency: Option<usize>,
    /// Record file(s), appended to; repeat for several outputs. Format from `--format` or the
    /// extension [default: games.psn]. With `--merge`: where the merged records go.
    #[arg(long = "out")]
    pub out: Vec<PathBuf>,
    /// Record format for every output (psn, psn2, kif, kifu, ki2, ki2u, csa, usi).
    #[arg(long)]
    pub format: Option<FormatArg>,
    /// The openings file and plies.
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start every game from a handicap position (openings are not used).
    #[arg(long)]
    pub handicap: Option<Handicap>,
    /// Continue an interrupted match from its state file.
    #[arg(long)]
    pub resume: bool,
    /// Which shard of the schedule to play (default: all of it).
    #[command(flatten)]
    pub shard: ShardArgs,
    /// Combine the state files of several shards and print the result (records too, with `--out`).
    #[arg(long, num_args = 1.., value_name = "STATE")]
    pub merge: Vec<PathBuf>,
    /// SPRT, e.g. `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`: fishtest's generalised
    /// SPRT on the pentanomial counts; stop when decided. `model=normalized` (the default, as in
    /// fastchess and fishtest): elo0/elo1 are normalised Elo; `model=logistic`: logistic Elo. At
    /// a node or depth budget it stops, undecided, once every opening has been played with both
    /// colours: further games would replay them.
    #[arg(long, conflicts_with = "tournament")]
    pub sprt: Option<Sprt>,
    /// Engine stderr and every game's USI transcript, appended (lines start with `[game N black|white
    /// ENGINE]`; records name it in a `Transcript` tag).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Restart engines before every game (they are always restarted after a crash or stall).
    #[arg(long)]
    pub restart: bool,
    /// Stop the match when an engine crashes, stalls or fails to start in N of its games in a
    /// row (0: never). Finished games stay in the record files; `--resume` continues.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub max_crashes: u32,
    /// Adjudication and engine timeouts.
    #[command(flatten)]
    pub game: GameArgs,
    /// Print the results block every N games (and rewrite the --report page; 0: only at the end).
    #[arg(long, default_value_t = 20)]
    pub report_every: usize,
    /// Write a self-contained HTML page of the match (results, Elo plot, end reasons, time per
    /// move, the games with their score graphs) at the end and every --report-every games.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Folder of engine definitions for `--engine NAME`.
    #[arg(long, default_value = "engines")]
    pub engines_dir: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchCommand {
    /// The match runner's options; `matches` are those of the `match` subcommand, where the words
    /// of each `--engine` are told apart (clap's derive flattens them into one list); `var` looks
    /// up the scheduler's variables for `--shard-from-env`.
    fn into_settings(
        self,
        matches: Option<&ArgMatches>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<MatchSettings, ShardError> {
        let engines = matches
            .and_then(|m| m.get_occurrences::<String>("engine"))
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchSettings {
            engines,
            games: self.games,
            tournament: self.tournament,
            rounds: self.rounds,
            anchor: self.anchor,
            tc: self.tc,
            concurrency: self.concurrency,
            out: self.out,
            format: self.format.map(|f| f.0),
            openings: self.openings.settings(),
            seed: self.seed,
            handicap: self.handicap,
            resume: self.resume,
            shard: self.shard.shard(var)?,
            merge: self.merge,
            sprt: self.sprt,
            log: self.log,
            restart: self.restart,
            max_crashes: self.max_crashes,
            game: self.game.settings(),
            report_every: self.report_every,
            report: self.report,
            engines_dir: self.engines_dir,
        })
    }
}

/// Runs `hisha match`; the exit status is the match runner's (see `hisha match --help`).
pub fn run(cmd: MatchCommand, matches: Option<&ArgMatches>) -> ExitCode {
    let quiet = cmd.quiet;
    match cmd.into_settings(matches, hisha::array_task::process_var) {
        Ok(settings) => super::match_exit::run(settings, quiet),
        Err(e) => {
            eprintln!("hisha match: {e}");
            ExitCode::from(2)
        }
    }
}
