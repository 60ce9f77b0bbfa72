//! `hisha handicaps`: the sixteen built-in start positions.

use super::CliError;
use hisha::Handicap;
use std::io::Write;

/// Prints one tab-separated line per start position: id, English name, KIF name, SFEN.
pub fn run() -> Result<(), CliError> {
    let out = std::io::stdout();
    let mut out = out.lock();
    for h in Handicap::ALL {
        writeln!(out, "{}\t{}\t{}\t{}", h.id(), h.english(), h.kif_name(), h.sfen())?;
    }
    Ok(())
}
