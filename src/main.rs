//! The `hisha` binary: parses the command line and dispatches to the library.

use clap::Parser;
use hisha::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => hisha::usi::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
            .map_err(|e| e.to_string()),
        Some(Command::Perft(args)) => hisha::tools::perft_command(&args),
        Some(Command::Handicaps) => hisha::tools::handicaps_command(),
        Some(Command::Bench { depth }) => hisha::tools::bench_command(depth),
        Some(Command::Match(args)) => hisha::arena::run(*args),
        Some(Command::Convert(args)) => match hisha::convert::run(&args, &mut std::io::stderr()) {
            Ok(s) if s.skipped == 0 => Ok(()),
            Ok(s) => Err(format!("{} game(s) skipped", s.skipped)),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha: {e}");
            ExitCode::FAILURE
        }
    }
}
