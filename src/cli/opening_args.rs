//! The flags of the openings the games start from, the same for `hisha match` and `hisha tune`
//! (flattened into both commands' arguments).

use hisha::arena::OpeningSettings;
use std::path::PathBuf;

/// The openings file and how much of each opening is played.
#[derive(Debug, clap::Args)]
pub struct OpeningArgs {
    /// Openings: SFEN / `startpos moves …` lines or a record file (default: the built-in copy of
    /// book/openings.psn).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Plies of each opening to play before the engines take over.
    #[arg(long, default_value_t = 24)]
    pub opening_plies: usize,
}

impl OpeningArgs {
    /// The library's settings of the openings.
    pub fn settings(self) -> OpeningSettings {
        OpeningSettings { file: self.openings, plies: self.opening_plies }
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Command};
    use clap::{CommandFactory, Parser};
    use hisha::arena::OpeningSettings;

    /// The openings settings `hisha WORDS…` parses to, for `match` and `tune`.
    fn parsed(words: &[&str]) -> OpeningSettings {
        let cli = Cli::try_parse_from(words).expect("parses");
        match cli.command {
            Some(Command::Match(cmd)) => cmd.openings.settings(),
            Some(Command::Tune(cmd)) => cmd.openings.settings(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn both_commands_read_the_same_flags_into_the_settings() {
        // The defaults of `--help`: the built-in book, 24 plies.
        let default = OpeningSettings { file: None, plies: 24 };
        assert_eq!(parsed(&["hisha", "match"]), default);
        assert_eq!(parsed(&["hisha", "tune", "p.txt", "--iterations", "1"]), default);
        let given = OpeningSettings { file: Some("o.psn".into()), plies: 8 };
        let flags = ["--openings", "o.psn", "--opening-plies", "8"];
        assert_eq!(parsed(&[&["hisha", "match"][..], &flags].concat()), given);
        assert_eq!(parsed(&[&["hisha", "tune", "p.txt", "--iterations", "1"][..], &flags].concat()), given);
    }

    #[test]
    fn tune_says_how_it_uses_the_openings() {
        let help = |name: &str| {
            let mut cli = Cli::command();
            let sub = cli.find_subcommand_mut(name).expect("subcommand");
            sub.render_help().to_string()
        };
        // The sentence `hisha tune --help` had before the flags were shared.
        let tune_only = "shuffled with the seed, one per iteration";
        assert!(help("tune").contains(tune_only), "{}", help("tune"));
        assert!(!help("match").contains(tune_only), "{}", help("match"));
        assert!(help("match").contains("Plies of each opening to play before the engines take over"));
    }
}
