//! `hisha convert`: reads game records in any format hisha knows and writes them in one format.
//! Formats are detected from content (and the file extension); every game that cannot be read is
//! reported on stderr with its file, line and column and skipped; the exit status says whether
//! anything was skipped.

use crate::record::{Format, RecordWriter, detect_format, read_games};
use std::io::{Read, Write};

/// Options of `hisha convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Input files (`-` = standard input).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Output file (`-` = standard output, the default).
    #[arg(short, long, default_value = "-")]
    pub output: String,
    /// Output format (default: from the output file's extension, else psn).
    #[arg(long)]
    pub to: Option<Format>,
    /// Input format, when detection should not decide.
    #[arg(long)]
    pub from: Option<Format>,
}

/// What a conversion did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read successfully.
    pub read: usize,
    /// Games written.
    pub written: usize,
    /// Games skipped (unreadable).
    pub skipped: usize,
}

fn load(input: &str) -> std::io::Result<Vec<u8>> {
    if input == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(input)
    }
}

/// Runs the conversion, reporting problems on `err`.
pub fn run(args: &ConvertArgs, err: &mut dyn Write) -> Result<Summary, String> {
    let to = args.to.or_else(|| Format::from_path(&args.output)).unwrap_or(Format::Psn);
    let out: Box<dyn Write> = if args.output == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::File::create(&args.output).map_err(|e| format!("{}: {e}", args.output))?,
        ))
    };
    let mut writer = RecordWriter::new(out, to, true);
    let mut summary = Summary::default();
    for input in &args.inputs {
        let bytes = load(input).map_err(|e| format!("{input}: {e}"))?;
        let text = crate::record::decode_text(&bytes);
        let path = (input != "-").then_some(input.as_str());
        let Some(format) = args.from.or_else(|| detect_format(&text, path)) else {
            let _ = writeln!(err, "{input}: not a record format hisha knows (try --from)");
            summary.skipped += 1;
            continue;
        };
        for (i, game) in read_games(&bytes, format).into_iter().enumerate() {
            match game {
                Ok(rec) => {
                    summary.read += 1;
                    writer.write(&rec).map_err(|e| format!("{}: {e}", args.output))?;
                    summary.written += 1;
                }
                Err(e) => {
                    summary.skipped += 1;
                    let _ = writeln!(err, "{input}: game {}: {e} (skipped)", i + 1);
                }
            }
        }
    }
    let _ =
        writeln!(err, "read {} games, wrote {} as {to}, skipped {}", summary.read, summary.written, summary.skipped);
    Ok(summary)
}
