//! The `hisha` binary: parses the command line and dispatches to the library.

use clap::{CommandFactory, FromArgMatches};
use hisha::cli::{Cli, Command};
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        None => {
            if let Some(notice) = hisha::usi::terminal_notice(std::io::stdin().is_terminal()) {
                eprintln!("{notice}");
            }
            hisha::usi::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout()).map_err(|e| e.to_string())
        }
        Some(Command::Perft(args)) => hisha::tools::perft_command(&args),
        Some(Command::Handicaps) => hisha::tools::handicaps_command(),
        Some(Command::Bench { depth }) => hisha::tools::bench_command(depth),
        Some(Command::Mate { sfen, bench, time, nodes, max_ply, hash }) => {
            let limits = hisha::tools::MateArgs { time_ms: time, nodes, max_ply, hash_mib: hash };
            match bench {
                Some(file) => hisha::tools::mate_bench_command(&file, &limits),
                None => hisha::tools::mate_command(&sfen, &limits),
            }
        }
        Some(Command::Match(mut args)) => {
            if let Some(m) = matches.subcommand_matches("match") {
                args.group_engines(m);
            }
            return hisha::arena::main(*args);
        }
        Some(Command::Book(cmd)) => hisha::book_cli::run(cmd),
        Some(Command::Convert(args)) => return hisha::convert::command(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hisha: {e}");
            ExitCode::FAILURE
        }
    }
}
