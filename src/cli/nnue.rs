//! `hisha nnue`: NNUE net files. `export IN OUT` reads a YaneuraOu-format `nn.bin` (checking its
//! shape and hashes as `EvalFile` does) and writes it again in that format; `random OUT` writes a
//! deterministic random net (for speed measurements and tests: it plays badly). Both print the
//! net's shape on stderr.

use super::CliError;
use hisha::eval::nnue::{Architecture, Network, NnueError, Spread};
use hisha::output_file::{self, OutputFile};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `hisha nnue` tools.
#[derive(Debug, clap::Subcommand)]
pub enum NnueCommand {
    /// Read a YaneuraOu-format nn.bin (HalfKP or K+P) and write it in that format (byte for byte
    /// what a net hisha writes; refused if unreadable).
    Export {
        /// The net to read.
        input: PathBuf,
        /// Where to write it (not the input).
        output: PathBuf,
    },
    /// Write a random net of YaneuraOu's 256x2-32-32 shape (deterministic for a seed).
    Random {
        /// The input features.
        #[arg(long, value_enum, default_value_t = FeaturesArg::Halfkp)]
        features: FeaturesArg,
        /// The seed of the weights.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write it.
        output: PathBuf,
    },
}

/// The input features of `hisha nnue random`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FeaturesArg {
    /// HalfKP(Friend): `halfkp_256x2-32-32`.
    Halfkp,
    /// K+P: `kp_256x2-32-32`.
    Kp,
}

/// Reads the net at `path`.
pub fn load(path: &Path) -> Result<Arc<Network>, CliError> {
    let net = Network::load_file(path).map_err(|source| CliError::Net { path: path.display().to_string(), source })?;
    Ok(Arc::new(net))
}

/// The shape of `net` in words, e.g. `HalfKP(Friend) 256x2-32-32`.
pub fn shape(net: &Network) -> String {
    let a = net.architecture();
    format!("{} {}x2-{}-{}", a.features.name(), a.l1, a.l2, a.l3)
}

/// Runs an `nnue` tool.
pub fn run(cmd: NnueCommand) -> Result<(), CliError> {
    let (net, output) = match cmd {
        NnueCommand::Export { input, output } => {
            if output_file::same_file(&input, &output) {
                return Err(CliError::OutputIsInput(output.display().to_string()));
            }
            (load(&input)?, output)
        }
        NnueCommand::Random { features, seed, output } => {
            let arch = match features {
                FeaturesArg::Halfkp => Architecture::HALFKP_256X2_32_32,
                FeaturesArg::Kp => Architecture::KP_256X2_32_32,
            };
            (Arc::new(Network::random(arch, seed, Spread::Typical)), output)
        }
    };
    let failed = |source| CliError::Write { path: output.display().to_string(), source };
    let mut file = OutputFile::create(&output).map_err(failed)?;
    net.write(&mut file).map_err(failed)?;
    file.commit().map_err(failed)?;
    eprintln!("{}: {}", output.display(), shape(&net));
    Ok(())
}

/// A net that cannot be read, with its path (the error of [`NnueError::Io`] names it already).
pub fn describe(path: &str, e: &NnueError) -> String {
    match e {
        NnueError::Io { .. } => e.to_string(),
        _ => format!("{path}: {e}"),
    }
}
