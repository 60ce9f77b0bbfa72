//! `hisha match`: the arguments are [`hisha::arena::MatchArgs`]; the match runner is
//! [`hisha::arena::main`].

use clap::ArgMatches;
use hisha::arena::MatchArgs;

/// Groups the `--engine` words by occurrence, from the matches of the `match` subcommand (clap's
/// derive flattens them into one list).
pub fn group_engines(args: &mut MatchArgs, matches: &ArgMatches) {
    args.engines = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default();
}
