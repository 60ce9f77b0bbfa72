//! `hisha convert`: reads game records in any format hisha knows and writes them in one format,
//! one game at a time (files of any size stream through). Formats are detected from content and
//! the file extension; every game that cannot be read is reported on stderr with its file, line
//! and column and skipped, as is a file that cannot be opened or whose format is unknown. A
//! summary of what was read, written and skipped (with the reasons) ends the run; the exit status
//! says whether anything was skipped.

use crate::record::{Format, GameReader, RecordErrorKind, RecordWriter};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read successfully.
    pub read: usize,
    /// Games written.
    pub written: usize,
    /// Games (and whole files) skipped.
    pub skipped: usize,
    /// Why, with how often: `illegal move`, `unknown format` …
    pub reasons: BTreeMap<&'static str, usize>,
}

impl Summary {
    fn skip(&mut self, reason: &'static str) {
        self.skipped += 1;
        *self.reasons.entry(reason).or_default() += 1;
    }
}

fn reason(kind: &RecordErrorKind) -> &'static str {
    match kind {
        RecordErrorKind::Syntax(_) => "syntax error",
        RecordErrorKind::BadPosition(_) => "bad start position",
        RecordErrorKind::IllegalMove { .. } => "illegal move",
        RecordErrorKind::Ambiguous { .. } => "ambiguous move",
        RecordErrorKind::Io(_) => "read error",
    }
}

fn open(input: &str) -> std::io::Result<Box<dyn BufRead>> {
    Ok(if input == "-" {
        Box::new(BufReader::with_capacity(1 << 16, std::io::stdin()))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, std::fs::File::open(input)?))
    })
}

/// Runs the conversion, reporting problems on `err`. An error is returned only when the output
/// cannot be written.
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
        let reader = match open(input) {
            Ok(r) => r,
            Err(e) => {
                let _ = writeln!(err, "{input}: {e} (skipped)");
                summary.skip("file not readable");
                continue;
            }
        };
        let path = (input != "-").then_some(input.as_str());
        let games = match args.from {
            Some(f) => GameReader::new(reader, f),
            None => GameReader::detect(reader, path),
        };
        if games.format().is_none() {
            let _ = writeln!(err, "{input}: not a record format hisha knows (try --from) (skipped)");
            summary.skip("unknown format");
            continue;
        }
        for (i, game) in games.enumerate() {
            match game {
                Ok(rec) => {
                    summary.read += 1;
                    writer.write(&rec).map_err(|e| format!("{}: {e}", args.output))?;
                    summary.written += 1;
                }
                Err(e) => {
                    let _ = writeln!(err, "{input}: game {}: {e} (skipped)", i + 1);
                    summary.skip(reason(&e.kind));
                }
            }
        }
    }
    let mut line =
        format!("read {} games, wrote {} as {to}, skipped {}", summary.read, summary.written, summary.skipped);
    if !summary.reasons.is_empty() {
        let why: Vec<String> = summary.reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
        line.push_str(&format!(" ({})", why.join(", ")));
    }
    let _ = writeln!(err, "{line}");
    Ok(summary)
}
