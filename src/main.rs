//! The `hisha` binary: parses the command line ([`cli`]) and runs what it asks for.

mod cli;

use clap::{CommandFactory, FromArgMatches};
use cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    cli::run(cli, &matches)
}
