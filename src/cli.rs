//! Command-line interface: with no subcommand `hisha` speaks USI; subcommands run the tools.

use clap::{Parser, Subcommand};

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
    Perft(PerftArgs),
    /// List the sixteen built-in start positions: id, English name, KIF name, SFEN.
    Handicaps,
    /// Play a match between two USI engines (default: hisha against itself), writing every game
    /// to a record file, with statistics, adjudication, resume and shards.
    Match(Box<crate::arena::MatchArgs>),
    /// Opening books: build one from records, show a position's moves, generate match openings.
    #[command(subcommand)]
    Book(crate::book_cli::BookCommand),
    /// Convert game records between PSN, PSN2, KIF, KIFU, KI2, CSA and USI lines (input formats
    /// are detected from content); unreadable games are reported and skipped (exit status 1).
    Convert(crate::convert::ConvertArgs),
    /// Solve a tsume problem with the df-pn solver (the side to move mates), or a file of them.
    Mate {
        /// The position: an SFEN, `startpos moves …`, `sfen … moves …` or a handicap name; omit
        /// with --bench.
        #[arg(required_unless_present = "bench")]
        sfen: Vec<String>,
        /// Solve every line of FILE (`SFEN plies|nomate [slow] [# source]`) and print totals; exit
        /// status 1 if any problem is not solved (a wrong answer, or unknown within the limits).
        #[arg(long)]
        bench: Option<String>,
        /// Time limit per problem in ms.
        #[arg(long)]
        time: Option<u64>,
        /// Node limit.
        #[arg(long)]
        nodes: Option<u64>,
        /// Longest mate searched, in plies ("nomate" then means none within this many plies).
        #[arg(long)]
        max_ply: Option<u32>,
        /// Table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
    },
    /// Search a fixed set of positions to a fixed depth (one thread, fresh hash) and print the
    /// total nodes (the search's signature) and nodes/second.
    Bench {
        /// Search depth.
        #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
}

/// Arguments of `hisha perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// The position (default: the even start): an SFEN, `startpos moves …`, `sfen … moves …` or a
    /// handicap name, as `hisha mate` and `hisha book show` take it.
    #[arg(conflicts_with_all = ["sfen", "handicap"])]
    pub position: Vec<String>,
    /// Start from this position (an SFEN, or `startpos moves …` / `sfen … moves …`).
    #[arg(long, conflicts_with = "handicap")]
    pub sfen: Option<String>,
    /// Start from a handicap position (`lance`, `2-piece`, `香落ち`, `Rook and Lance` …), optionally
    /// followed by `moves …`.
    #[arg(long)]
    pub handicap: Option<String>,
    /// Print `<usi-move>: <count>` for each root move.
    #[arg(long)]
    pub divide: bool,
}
