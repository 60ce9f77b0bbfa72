//! The command line (the binary's, not the library's): with no subcommand `hisha` speaks USI;
//! subcommands run the tools, one file each with its arguments beside its handler. A failed tool
//! is a [`CliError`]: `main` prints `hisha: <error>` and exits with 1. `convert`, `match`, `tune`
//! and `analyze` have their own exit statuses (see their `--help`).

mod analyze;
mod bench;
mod book;
mod convert;
mod game_args;
mod handicaps;
mod inputs;
mod r#match;
mod match_exit;
mod match_terminal;
mod mate;
mod nnue;
mod opening_args;
mod perft;
mod progress;
mod shard;
mod tune;
mod tune_terminal;

use clap::{ArgMatches, Parser, Subcommand};
use hisha::usi::Tunables;
use std::io::IsTerminal;
use std::process::ExitCode;

/// A shogi engine (USI), record converter and match runner. `hisha` with no arguments is the USI
/// engine: it reads USI commands on stdin and answers on stdout (register the executable in
/// Shogidokoro, ShogiGUI or ShogiHome as it is). The commands below are the tools.
#[derive(Debug, Parser)]
#[command(name = "hisha", version)]
pub struct Cli {
    /// The tool to run; none = USI engine.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal-move tree (bulk counting: the last ply is counted from
    /// destination sets, not made move by move).
    Perft(perft::PerftArgs),
    /// List the sixteen built-in start positions: id, English name, KIF name, SFEN.
    Handicaps,
    /// Play a match between two USI engines (default: hisha against itself), writing every game
    /// to a record file, with statistics, adjudication, resume and shards.
    Match(Box<r#match::MatchCommand>),
    /// Tune a USI engine's spin options by SPSA, as fishtest does: game pairs of the engine at
    /// θ + cΔ against itself at θ − cΔ, every game kept in a record file, resumable, with the
    /// parameters' trajectories on a page.
    Tune(Box<tune::TuneCommand>),
    /// Opening books: build one from records, show a position's moves, generate match openings.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Convert game records between PSN, PSN2, KIF, KIFU, KI2, CSA and USI lines (input formats
    /// are detected from content); unreadable games are reported and skipped (exit status 1).
    Convert(convert::ConvertArgs),
    /// Analyse every position of every game with an engine (default: hisha at a fixed node
    /// count): a summary per game and side, and annotated records, JSON lines and evaluation
    /// graphs on request.
    Analyze(Box<analyze::AnalyzeArgs>),
    /// Solve a tsume problem with the df-pn solver (the side to move mates), or a file of them.
    Mate(mate::MateArgs),
    /// Search a fixed set of positions to a fixed depth (fresh hash) and print the total nodes
    /// and nodes/second; with one thread, also the search's signature (`Bench: <nodes>`).
    Bench {
        /// Search depth.
        #[arg(default_value_t = hisha::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads (Lazy SMP); the node count is a signature only with 1.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Evaluate with this YaneuraOu-format nn.bin (or a folder holding one, as the USI option
        /// EvalFile takes it) instead of the built-in net, or with `linear`, the linear
        /// evaluation (the one-thread count is then the signature of the search with that
        /// evaluation).
        #[arg(long, value_name = "PATH")]
        evalfile: Option<String>,
    },
    /// NNUE net files: re-write a YaneuraOu-format nn.bin (`export`), write a random one.
    #[command(subcommand)]
    Nnue(nnue::NnueCommand),
    /// The USI engine, as with no arguments.
    Usi {
        /// Also offer the search's tunable constants (margins, reductions, depth limits) as USI
        /// `spin` options, for a tuner such as SPSA; GUIs do not need them.
        #[arg(long)]
        tunable: bool,
    },
}

/// The parser of counts that must be at least 1 (`hisha match --games`, `--concurrency`,
/// `--shards`).
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}

/// A record format as a command-line value: one of [`Format::ALL`](hisha::record::Format::ALL), by
/// its [name](hisha::record::Format::name), in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatArg(pub hisha::record::Format);

impl clap::ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        const FORMATS: &[hisha::record::Format] = &hisha::record::Format::ALL;
        const ALL: [FormatArg; FORMATS.len()] = {
            let mut all = [FormatArg(FORMATS[0]); FORMATS.len()];
            let mut i = 1;
            while i < FORMATS.len() {
                all[i] = FormatArg(FORMATS[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()))
    }
}

/// Why a tool failed; the text is what `hisha: …` prints on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The position given cannot be set up.
    #[error(transparent)]
    Position(#[from] hisha::usi::position_spec::PositionSpecError),
    /// Standard output could not be written.
    #[error(transparent)]
    Output(#[from] std::io::Error),
    /// An input file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// An output file cannot be written.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A book file cannot be used.
    #[error(transparent)]
    BookLoad(#[from] hisha::book::BookLoadError),
    /// The built-in book does not parse.
    #[error(transparent)]
    Book(#[from] hisha::book::BookError),
    /// An output that would overwrite one of the inputs.
    #[error("{0}: the output is also an input; write to another file (the input is left as it was)")]
    OutputIsInput(String),
    /// Several openings for a format that holds one game per file.
    #[error("{output}: {format} holds one game per file; write openings to .psn, .csa or .usi")]
    OneGamePerFile {
        /// The output.
        output: String,
        /// Its format.
        format: hisha::record::Format,
    },
    /// The seed lines of `book openings --from` could not all be read (each was reported).
    #[error("unreadable seed lines (see above)")]
    UnreadableSeeds,
    /// `book build` read no game (why each input gave none was reported).
    #[error("no game could be read from the records: no book written")]
    NoGames,
    /// `book build` read games, but no position kept a move.
    #[error("{}", empty_book(*.games, *.max_ply, *.min_count))]
    EmptyBook {
        /// Games read.
        games: usize,
        /// `--max-ply`.
        max_ply: usize,
        /// `--min-count`.
        min_count: u64,
    },
    /// A net named by `bench --evalfile` (a file, or a folder holding `nn.bin`) cannot be used.
    #[error(transparent)]
    EvalFile(#[from] hisha::EvalFileError),
    /// A net file that cannot be used.
    #[error("{}", nnue::describe(path, source))]
    Net {
        /// The file.
        path: String,
        /// Why.
        source: hisha::eval::nnue::NnueError,
    },
    /// A mate suite file that is not one.
    #[error("{path}: {error}")]
    Suite {
        /// The file.
        path: String,
        /// Where and why.
        error: hisha::mate::suite::SuiteError,
    },
    /// A mate suite file without a problem.
    #[error("{0}: no problems in it")]
    EmptySuite(String),
    /// A suite problem whose SFEN is not a position.
    #[error("{path}: line {line}: {error}")]
    SuiteSfen {
        /// The file.
        path: String,
        /// The problem's line.
        line: usize,
        /// Why.
        error: hisha::position::sfen::SfenError,
    },
    /// Problems of a mate suite that were not solved.
    #[error("{path}: {} of {total} problems not solved: {}", failed.len(), failed.join(", "))]
    Unsolved {
        /// The file.
        path: String,
        /// How many problems it has.
        total: usize,
        /// Each problem not solved: line, expected, got.
        failed: Vec<String>,
    },
}

/// Why `book build` wrote no book although it read `games` games.
fn empty_book(games: usize, max_ply: usize, min_count: u64) -> String {
    format!(
        "{} gave no position before ply {max_ply} with a move played at least {}: no book written",
        inputs::counted(games, "game", "games"),
        inputs::counted(min_count.try_into().unwrap_or(usize::MAX), "time", "times")
    )
}

/// Runs what the command line asks for; `matches` are the parsed arguments `cli` came from.
pub fn run(cli: Cli, matches: &ArgMatches) -> ExitCode {
    let result = match cli.command {
        None => usi(Tunables::Hidden),
        Some(Command::Usi { tunable }) => usi(if tunable { Tunables::Offered } else { Tunables::Hidden }),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Handicaps) => handicaps::run(),
        Some(Command::Bench { depth, threads, evalfile }) => bench::run(depth, threads.into(), evalfile.as_deref()),
        Some(Command::Nnue(cmd)) => nnue::run(cmd),
        Some(Command::Mate(args)) => mate::run(&args),
        Some(Command::Match(cmd)) => return r#match::run(*cmd, matches.subcommand_matches("match")),
        Some(Command::Tune(cmd)) => return tune::run(*cmd, matches.subcommand_matches("tune")),
        Some(Command::Book(cmd)) => book::run(cmd),
        Some(Command::Convert(args)) => return convert::command(&args),
        Some(Command::Analyze(args)) => return analyze::command(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The USI engine on stdin and stdout, with a one-line notice on stderr for a person at a terminal.
fn usi(tunables: Tunables) -> Result<(), CliError> {
    if let Some(notice) = hisha::usi::terminal_notice(std::io::stdin().is_terminal()) {
        eprintln!("{notice}");
    }
    Ok(hisha::usi::run_with(std::io::BufReader::new(std::io::stdin()), std::io::stdout(), tunables)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn format_values_are_every_record_format_in_order_by_its_name() {
        let values: Vec<hisha::record::Format> = FormatArg::value_variants().iter().map(|f| f.0).collect();
        assert_eq!(values, hisha::record::Format::ALL);
        for f in FormatArg::value_variants() {
            let name = f.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name, Some(f.0.to_string()), "the value is the format's name");
        }
        let psn2 = FormatArg::from_str("psn2", false).map(|f| f.0);
        assert_eq!(psn2, Ok(hisha::record::Format::Psn2));
    }

    #[test]
    fn a_bad_format_is_refused_with_every_format_name() {
        // The list `hisha convert --help` and its errors printed when the names were a copy here.
        let e = Cli::try_parse_from(["hisha", "convert", "--to", "kif3", "in.kif"]).expect_err("no such format");
        let text = e.to_string();
        assert!(text.contains("invalid value 'kif3' for '--to <TO>'"), "{text}");
        assert!(text.contains("[possible values: psn, psn2, kif, kifu, ki2, ki2u, csa, usi]"), "{text}");
    }
}
