//! `hisha perft`: leaf counts of the legal-move tree from a position, in total or per root move.

use super::CliError;
use hisha::perft;
use hisha::usi::position_spec;
use std::io::Write;
use std::time::Instant;

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

/// Runs `hisha perft`, printing to stdout.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let spec = match (&args.sfen, &args.handicap) {
        (Some(s), _) | (None, Some(s)) => s.clone(),
        (None, None) if args.position.is_empty() => "startpos".to_string(),
        (None, None) => args.position.join(" "),
    };
    let mut pos = position_spec::parse(&spec)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, args.depth.max(1)) {
            writeln!(out, "{m}: {n}")?;
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, args.depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(out, "Time (ms): {ms}")?;
    writeln!(out, "Nodes/second: {nps}")?;
    Ok(())
}
