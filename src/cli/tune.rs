//! `hisha tune`: its arguments, turned into [`TuneSettings`] and run by [`hisha::tune::run`],
//! shown on the terminal by `tune_terminal`; its exit statuses.

use super::game_args::GameArgs;
use super::opening_args::OpeningArgs;
use super::tune_terminal::Terminal;
use super::{FormatArg, at_least_one};
use clap::{ArgAction, ArgMatches};
use hisha::client::tc::TimeControl;
use hisha::tune::{TuneError, TuneSettings};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The exit statuses of `hisha tune`, as `hisha tune --help` lists them.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    every iteration was played (or had been, with --resume)
  1    the engine or the opponent failed its first handshake, crashed, stalled or failed to
       start in --max-crashes of its games in a row (--resume continues), or a file could not
       be written
  2    usage: bad arguments, a parameters file with an error (its line and column are named),
       a parameter the engine does not offer as an option, a bad engine definition or
       openings file, an --out whose extension names no record format or a format of one game
       per file, --resume without a state file or with other parameters, iterations, gains,
       seed, engine or time control
  130  interrupted by Ctrl-C (once: after the running game pairs finished; twice: at once),
       the values printed as of the last iteration written; --resume continues";

/// The help of `--openings`: what `hisha match --help` says, and how a tuning run uses them.
const OPENINGS_HELP: &str = "Openings: SFEN / `startpos moves …` lines or a record file (default: the built-in \
    copy of book/openings.psn); shuffled with the seed, one per iteration";

/// Arguments of `hisha tune`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS_HELP, mut_arg("openings", |a| a.help(OPENINGS_HELP)))]
pub struct TuneCommand {
    /// The parameters file: one line per parameter, `Name, start, min, max, c_end, r_end`
    /// (fishtest's format; each Name a spin option of the engine; `#` starts a comment).
    pub params: PathBuf,
    /// The tuned engine: `name=N cmd=PATH [arg=A]… [option.X=V]… [tc=TC]`, a definition name or
    /// a `.toml` file, as for `hisha match` (default: hisha offering its search constants, `hisha
    /// usi --tunable`). It plays itself, θ + cΔ against θ − cΔ, as fishtest does, unless an
    /// --opponent is given.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "SPEC")]
    pub engine: Vec<String>,
    /// A fixed opponent, as --engine (e.g. `fairy-stockfish` or `name=base cmd=PATH`): each
    /// iteration the engine at θ + cΔ and at θ − cΔ each play a colour-swapped pair against it over
    /// the same opening, and θ moves by the difference of their results (4 games an iteration).
    #[arg(long = "opponent", num_args = 1.., action = ArgAction::Append, value_name = "SPEC")]
    pub opponent: Vec<String>,
    /// Iterations; each is a colour-swapped game pair over one opening (two against an --opponent).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// SPSA's stability constant A, in iterations [default: a tenth of --iterations, fishtest's].
    #[arg(long = "spsa-a", value_name = "A", value_parser = non_negative)]
    pub a: Option<f64>,
    /// SPSA's alpha, the decay of the learning rate (fishtest's default).
    #[arg(long, default_value_t = hisha::tune::spsa::ALPHA, value_parser = non_negative)]
    pub alpha: f64,
    /// SPSA's gamma, the decay of the perturbation (fishtest's default).
    #[arg(long, default_value_t = hisha::tune::spsa::GAMMA, value_parser = non_negative)]
    pub gamma: f64,
    /// Time control: byoyomi=MS, time=MS,byoyomi=MS, time=MS,inc=MS, time=MS, st=MS, nodes=N, depth=N.
    #[arg(long, default_value = "byoyomi=100")]
    pub tc: TimeControl,
    /// Game pairs played at once; each batch is drawn at the same θ and applied in order.
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub concurrency: usize,
    /// The record file every game is appended to (one that holds many games: psn, psn2, csa, usi).
    #[arg(long, default_value = "tune.psn")]
    pub out: PathBuf,
    /// Record format of --out (default: from its extension).
    #[arg(long)]
    pub format: Option<FormatArg>,
    /// The openings file and plies.
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Seed of the perturbations, the rounding and the order of the openings (default: drawn,
    /// and kept in the state file for --resume).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Continue an interrupted run from its state file (`OUT.state`).
    #[arg(long)]
    pub resume: bool,
    /// Adjudication and engine timeouts.
    #[command(flatten)]
    pub game: GameArgs,
    /// Engine stderr and every game's USI transcript, appended (lines start with `[game N black|white
    /// ENGINE]`; records name it in a `Transcript` tag).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Stop when the tuned engine or the opponent crashes, stalls or fails to start in N of its
    /// games in a row (0: never). The iterations finished stay in the state and record files;
    /// `--resume` continues.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub max_crashes: u32,
    /// Print the parameters' values every N iterations (and rewrite the --report page; 0: only
    /// at the end).
    #[arg(long, default_value_t = 100)]
    pub report_every: u64,
    /// Write a self-contained HTML page with each parameter's trajectory (SVG), every
    /// --report-every iterations and at the end.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Folder of engine definitions for `--engine NAME`.
    #[arg(long, default_value = "engines")]
    pub engines_dir: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A finite number of at least 0 (`--spsa-a`, `--alpha`, `--gamma`).
fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{text:?} is not a number of at least 0")),
    }
}

impl TuneCommand {
    /// The tuner's settings; `matches` are those of the `tune` subcommand, where the words of
    /// `--engine` are told apart.
    fn into_settings(self, matches: Option<&ArgMatches>) -> TuneSettings {
        let words = |id: &str| -> Vec<String> {
            matches
                .and_then(|m| m.get_occurrences::<String>(id))
                .and_then(|mut occ| occ.next().map(|words| words.cloned().collect()))
                .unwrap_or_default()
        };
        let (engine, opponent) = (words("engine"), words("opponent"));
        TuneSettings {
            engine,
            opponent,
            params: self.params,
            iterations: self.iterations,
            a: self.a,
            alpha: self.alpha,
            gamma: self.gamma,
            tc: self.tc,
            concurrency: self.concurrency,
            out: self.out,
            format: self.format.map(|f| f.0),
            openings: self.openings.settings(),
            seed: self.seed,
            resume: self.resume,
            game: self.game.settings(),
            log: self.log,
            max_crashes: self.max_crashes,
            report_every: self.report_every,
            report: self.report,
            engines_dir: self.engines_dir,
        }
    }
}

/// The exit status of a run that ended with `e`: 2 for usage errors, 130 for Ctrl-C, 1 for the
/// rest.
fn status(e: &TuneError) -> u8 {
    match e {
        TuneError::ParamsFile(_)
        | TuneError::Params { .. }
        | TuneError::NoParams(_)
        | TuneError::Engine(_)
        | TuneError::MissingCommand { .. }
        | TuneError::NotAnOption { .. }
        | TuneError::Openings(_)
        | TuneError::OutFormat(_)
        | TuneError::OneGamePerFile(_)
        | TuneError::NothingToResume(_)
        | TuneError::State(_)
        | TuneError::OtherRun { .. } => 2,
        TuneError::Interrupted { .. } => 130,
        TuneError::Handshake { .. } | TuneError::Crashes(_) | TuneError::File(_) | TuneError::Thread(_) => 1,
    }
}

/// Runs `hisha tune`; the exit status is as `hisha tune --help` lists them.
pub fn run(cmd: TuneCommand, matches: Option<&ArgMatches>) -> ExitCode {
    for (id, why) in [("engine", "--engine: the tuned engine"), ("opponent", "--opponent: the fixed opponent")] {
        if matches.and_then(|m| m.get_occurrences::<String>(id)).is_some_and(|o| o.count() > 1) {
            eprintln!("hisha tune: give one {why}");
            return ExitCode::from(2);
        }
    }
    let terminal = Arc::new(Terminal::new(cmd.quiet));
    match hisha::tune::run(cmd.into_settings(matches), terminal) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha tune: {e}");
            ExitCode::from(status(&e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::arena::CrashLimit;
    use hisha::tune::params::ParamsError;

    #[test]
    fn gains_are_finite_and_not_negative() {
        assert_eq!(non_negative("0.602"), Ok(0.602));
        assert_eq!(non_negative("0"), Ok(0.0));
        for bad in ["-0.1", "NaN", "inf", "x"] {
            assert!(non_negative(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_kind_of_ending_has_its_documented_status() {
        let bad_line = ParamsError { line: 3, column: 4, reason: "x".into() };
        let cases = [
            (TuneError::Params { path: "p.txt".into(), error: bad_line }, 2, "\n  2 "),
            (TuneError::NothingToResume("t.psn.state".into()), 2, "\n  2 "),
            (TuneError::Handshake { engine: "e".into(), why: "exited".into() }, 1, "\n  1 "),
            (TuneError::Interrupted { done: 3, iterations: 9 }, 130, "\n  130 "),
            (TuneError::Crashes(CrashLimit { engine: "e".into(), limit: 3 }), 1, "\n  1 "),
        ];
        for (e, status, line) in cases {
            assert_eq!(super::status(&e), status, "{e}");
            assert!(EXIT_STATUS_HELP.contains(line), "{status} is documented");
        }
    }
}
