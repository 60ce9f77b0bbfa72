//! `hisha convert`: reads game records in any format hisha knows and writes them in one format,
//! one game at a time (files of any size stream through). Formats are detected from content and
//! the file extension; every game that cannot be read is reported on stderr with its file, line
//! and column and skipped (or, with `--keep-partial`, cut: its readable start kept), as is a file
//! that cannot be opened, is empty or whose format is unknown. A game that stops without an
//! ending (a cut file) is converted without a result, and the reader's warning is shown. A
//! summary of what was read (and how much of it without an ending), written, cut and skipped
//! (with the reasons) ends the run.
//!
//! Nothing is lost: an output file is written beside itself and renamed into place when complete
//! ([`hisha::output_file`]), an output that is also an input is refused, and KIF, KIFU and KI2,
//! which hold one game per file, get several games only with `--split` (one file each). A reader
//! that closes standard output early (`| head`) ends the run quietly with status 0, as ripgrep
//! does.

use super::FormatArg;
use super::inputs::{self, NoGames, counted, is_an_input, shown};
use hisha::output_file::{self, OutputFile};
use hisha::record::{Format, GameReader, GameRecord, RecordErrorKind, RecordWriter, game_path, game_paths};
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The exit statuses, as `hisha help convert` prints them.
const EXIT_STATUS: &str = "\
Exit status:
  0  every game was converted (also when --keep-partial cut games, when games stop without
     an ending (each is named), and when the reader of standard output closed it early, as
     `| head` does: the run then ends quietly)
  1  the output was written, but games or inputs were skipped (unreadable games, inputs that
     are missing, empty or of an unknown format)
  2  refused or failed, the output left as it was: a usage error, an output that is also an
     input, several games for one KIF, KIFU or KI2 file without --split, an output that cannot
     be written";

/// Options of `hisha convert`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct ConvertArgs {
    /// Input files (`-` = standard input).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Output file (`-` = standard output, the default). Written whole, then renamed into place.
    #[arg(short, long, default_value = "-")]
    pub output: String,
    /// Output format (default: from the output's extension: .psn, .psn2, .kif (Shift_JIS), .kifu,
    /// .ki2 (Shift_JIS), .ki2u, .csa, and .usi, .sfen or .txt for USI lines, one `startpos moves
    /// …` per game; psn on standard output; another extension is refused).
    #[arg(long)]
    pub to: Option<FormatArg>,
    /// Input format, when detection should not decide.
    #[arg(long)]
    pub from: Option<FormatArg>,
    /// One file per game: STEM-0001.EXT, STEM-0002.EXT … beside OUTPUT (needed for several games
    /// in KIF, KIFU or KI2, which hold one game per file). Files of the set numbered beyond the
    /// games written (left by an earlier, longer run) are removed, and named.
    #[arg(long)]
    pub split: bool,
    /// Keep the readable start of a game that breaks off (an illegal or unreadable move): the
    /// moves before the error, the error as a comment, the result unfinished (中断).
    #[arg(long)]
    pub keep_partial: bool,
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read successfully.
    pub read: usize,
    /// Of those, games the reader warned about: they stop without an ending, and were written
    /// without a result.
    pub no_ending: usize,
    /// Broken games whose readable start was kept (`--keep-partial`).
    pub cut: usize,
    /// Games written.
    pub written: usize,
    /// Games (and whole inputs) skipped.
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

/// Why a conversion stopped.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// An output would overwrite an input.
    #[error("{0}: the output is also an input; write to another file (the input is left as it was)")]
    OutputIsInput(String),
    /// Several games for a format that holds one per file.
    #[error("{output}: {format} holds one game per file, and the input has more than one (nothing written): {hint}")]
    SeveralGames {
        /// The output.
        output: String,
        /// Its format.
        format: Format,
        /// What to do instead.
        hint: String,
    },
    /// An output file whose extension names no format, without `--to`.
    #[error(
        "{0}: no record format has this extension (.psn, .psn2, .kif, .kifu, .ki2, .ki2u, .csa, .usi, .sfen, \
         .txt); name the file so or give --to"
    )]
    UnknownOutputFormat(String),
    /// `--split` without an output file name.
    #[error("--split writes files named after the output: give one with -o NAME.{0}")]
    SplitNeedsFile(Format),
    /// The output could not be written.
    #[error("{0}: {1}")]
    Write(String, io::Error),
    /// Whoever read standard output closed it.
    #[error("standard output was closed")]
    OutputClosed,
}

/// Runs `hisha convert` with its messages on stderr; the exit status as documented.
pub fn command(args: &ConvertArgs) -> ExitCode {
    let mut err = io::stderr();
    match run(args, &mut err) {
        Ok(s) => ExitCode::from(u8::from(s.skipped > 0)),
        Err(ConvertError::OutputClosed) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "hisha convert: {e}");
            ExitCode::from(2)
        }
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

/// `its first move`, `its first 4 moves`: the readable start of a broken game.
fn first_moves(start: &GameRecord) -> String {
    match start.moves.len() {
        1 => "its first move".to_string(),
        n => format!("its first {n} moves"),
    }
}

/// The output format: `--to`, else the output file's extension; PSN for standard output and for
/// a device or pipe (`/dev/null`). A file whose extension names no format is refused: writing
/// PSN into `games.xyz` would surprise whoever opens it.
fn output_format(args: &ConvertArgs) -> Result<Format, ConvertError> {
    if let Some(f) = args.to {
        return Ok(f.0);
    }
    let special = args.output == "-" || std::fs::metadata(&args.output).is_ok_and(|m| !m.is_file());
    match Format::from_path(&args.output) {
        Some(f) => Ok(f),
        None if special => Ok(Format::Psn),
        None => Err(ConvertError::UnknownOutputFormat(args.output.clone())),
    }
}

/// After `--split` wrote `written` files of the set `base`, removes (and names) those numbered
/// beyond them: left by an earlier, longer run, they would pass for games of this one.
fn remove_stale_files(base: &Path, written: usize, err: &mut dyn Write) -> Result<(), ConvertError> {
    let stale: Vec<PathBuf> =
        game_paths(base).unwrap_or_default().into_iter().filter(|(n, _)| *n > written).map(|(_, p)| p).collect();
    for p in &stale {
        std::fs::remove_file(p).map_err(|e| ConvertError::Write(p.display().to_string(), e))?;
    }
    if let (Some(first), Some(last)) = (stale.first(), stale.last()) {
        let range = if first == last {
            first.display().to_string()
        } else {
            format!("{} … {}", first.display(), last.display())
        };
        let _ = writeln!(err, "removed {range}: left by an earlier run, beyond the {written} files written");
    }
    Ok(())
}

/// Refuses, before anything is read or written, outputs that would overwrite an input.
fn check_outputs(args: &ConvertArgs, to: Format) -> Result<(), ConvertError> {
    if args.split {
        if args.output == "-" {
            return Err(ConvertError::SplitNeedsFile(to));
        }
        // Game files of an earlier run may be inputs now.
        for (_, p) in game_paths(Path::new(&args.output)).unwrap_or_default() {
            if is_an_input(&p, &args.inputs) {
                return Err(ConvertError::OutputIsInput(p.display().to_string()));
            }
        }
    } else if args.output != "-" && is_an_input(Path::new(&args.output), &args.inputs) {
        return Err(ConvertError::OutputIsInput(args.output.clone()));
    }
    Ok(())
}

/// Where one stream of games goes.
enum Stream {
    Stdout(BufWriter<StdoutLock<'static>>),
    File(OutputFile),
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Stdout(w) => w.write(buf),
            Stream::File(w) => w.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Stdout(w) => w.flush(),
            Stream::File(w) => w.flush(),
        }
    }
}

/// The output of a conversion.
enum Output {
    /// One stream. For a format that holds one game per file, written to a file, the first game
    /// is held back until it is known to be the only one.
    One { writer: RecordWriter<Stream>, name: String, one_game: bool, held: Option<Box<GameRecord>> },
    /// One file per game, numbered in order.
    Split { base: PathBuf, format: Format, files: usize },
}

impl Output {
    fn open(args: &ConvertArgs, to: Format) -> Result<Output, ConvertError> {
        if args.split {
            return Ok(Output::Split { base: PathBuf::from(&args.output), format: to, files: 0 });
        }
        let (stream, name, to_a_file) = if args.output == "-" {
            let stdout = Stream::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock()));
            (stdout, "standard output".to_string(), output_file::stdout_is_a_file())
        } else {
            let file =
                OutputFile::create(Path::new(&args.output)).map_err(|e| ConvertError::Write(args.output.clone(), e))?;
            // A device or FIFO (`/dev/null`, a named pipe) is a stream, like a pipe on stdout.
            let special = std::fs::metadata(&args.output).is_ok_and(|m| !m.is_file());
            (Stream::File(file), args.output.clone(), !special)
        };
        let one_game = to.one_game_per_file() && to_a_file;
        Ok(Output::One { writer: RecordWriter::new(stream, to, true), name, one_game, held: None })
    }

    fn write(&mut self, rec: GameRecord) -> Result<(), ConvertError> {
        match self {
            Output::One { one_game: true, held, writer, name } => {
                if held.is_some() {
                    let format = writer.format();
                    let hint = if matches!(writer.get_ref(), Stream::Stdout(_)) {
                        format!("with -o NAME.{} --split, one file per game", format.extension())
                    } else {
                        let p = Path::new(name.as_str());
                        let [a, b] = [1, 2].map(|n| game_path(p, n).display().to_string());
                        format!("--split writes {a}, {b}, … instead")
                    };
                    return Err(ConvertError::SeveralGames { output: name.clone(), format, hint });
                }
                *held = Some(Box::new(rec));
                Ok(())
            }
            Output::One { writer, name, .. } => write_one(writer, name, &rec),
            Output::Split { base, format, files } => {
                let path = game_path(base, *files + 1);
                let failed = |e| ConvertError::Write(path.display().to_string(), e);
                let mut w = RecordWriter::new(OutputFile::create(&path).map_err(failed)?, *format, true);
                w.write(&rec).map_err(failed)?;
                w.into_inner().commit().map_err(failed)?;
                *files += 1;
                Ok(())
            }
        }
    }

    /// Writes what is held back and puts the file in place; `None` or the files written.
    fn finish(self) -> Result<Option<(PathBuf, usize)>, ConvertError> {
        match self {
            Output::One { mut writer, name, held, .. } => {
                if let Some(rec) = held {
                    write_one(&mut writer, &name, &rec)?;
                }
                match writer.into_inner() {
                    Stream::File(f) => f.commit().map_err(|e| ConvertError::Write(name, e))?,
                    Stream::Stdout(mut s) => s.flush().map_err(|e| stdout_error(&name, e))?,
                }
                Ok(None)
            }
            Output::Split { base, files, .. } => Ok(Some((base, files))),
        }
    }
}

fn stdout_error(name: &str, e: io::Error) -> ConvertError {
    if e.kind() == io::ErrorKind::BrokenPipe { ConvertError::OutputClosed } else { ConvertError::Write(name.into(), e) }
}

fn write_one(writer: &mut RecordWriter<Stream>, name: &str, rec: &GameRecord) -> Result<(), ConvertError> {
    let to_stdout = matches!(writer.get_ref(), Stream::Stdout(_));
    writer.write(rec).map_err(|e| if to_stdout { stdout_error(name, e) } else { ConvertError::Write(name.into(), e) })
}

/// The games of `input`; an input that gives none is reported (and counted) as skipped.
fn games_of(
    input: &str,
    from: Option<Format>,
    err: &mut dyn Write,
    summary: &mut Summary,
) -> Option<GameReader<Box<dyn BufRead>>> {
    match inputs::games(input, from) {
        Ok(games) => Some(games),
        Err(why) => {
            let hint = if matches!(why, NoGames::UnknownFormat) { " (try --from)" } else { "" };
            let _ = writeln!(err, "{}: {why}{hint} (skipped)", shown(input));
            summary.skip(why.reason());
            None
        }
    }
}

/// Runs the conversion, reporting problems on `err`. An error means the run was refused or
/// failed (see [`ConvertError`]).
pub fn run(args: &ConvertArgs, err: &mut dyn Write) -> Result<Summary, ConvertError> {
    let to = output_format(args)?;
    check_outputs(args, to)?;
    let mut out = Output::open(args, to)?;
    let mut summary = Summary::default();
    for input in &args.inputs {
        let Some(mut games) = games_of(input, args.from.map(|f| f.0), err, &mut summary) else { continue };
        let name = shown(input);
        let mut seen = 0;
        while let Some(game) = games.next() {
            let i = seen;
            seen += 1;
            match game {
                Ok(rec) => {
                    summary.read += 1;
                    for w in games.warnings() {
                        let _ = writeln!(err, "{name}: game {}: {w}", i + 1);
                        summary.no_ending += 1;
                    }
                    out.write(rec)?;
                    summary.written += 1;
                }
                Err(e) => match (e.partial.as_deref(), args.keep_partial) {
                    (Some(start), true) => {
                        let _ = writeln!(err, "{name}: game {}: {e} (cut: kept {})", i + 1, first_moves(start));
                        summary.cut += 1;
                        out.write(start.clone())?;
                        summary.written += 1;
                    }
                    (start, _) => {
                        let hint =
                            start.map_or(String::new(), |s| format!("; --keep-partial keeps {}", first_moves(s)));
                        let _ = writeln!(err, "{name}: game {}: {e} (skipped{hint})", i + 1);
                        summary.skip(reason(&e.kind));
                    }
                },
            }
        }
        if seen == 0 {
            let _ = writeln!(err, "{name}: no games in it (skipped)");
            summary.skip("empty input");
        }
    }
    let files = out.finish()?;
    if let Some((base, n)) = &files {
        remove_stale_files(base, *n, err)?;
    }
    let _ = writeln!(err, "{}", summary_line(&summary, to, files, args.keep_partial));
    Ok(summary)
}

/// `read 2 games, wrote 2 as csa, skipped 3 (1 file not readable, 1 illegal move, 1 unknown
/// format)`; the games read without an ending, with `--keep-partial` the cut games, with
/// `--split` the files.
fn summary_line(s: &Summary, to: Format, files: Option<(PathBuf, usize)>, keep_partial: bool) -> String {
    let mut line = format!("read {}", counted(s.read, "game", "games"));
    if s.no_ending > 0 {
        line.push_str(&format!(" ({} without an ending)", s.no_ending));
    }
    if keep_partial || s.cut > 0 {
        line.push_str(&format!(", cut {} (kept up to the error)", s.cut));
    }
    line.push_str(&format!(", wrote {} as {to}", s.written));
    if let Some((base, n)) = files.filter(|(_, n)| *n > 0) {
        let first = game_path(&base, 1).display().to_string();
        let range = if n == 1 { first } else { format!("{first} … {}", game_path(&base, n).display()) };
        line.push_str(&format!(" in {} ({range})", counted(n, "file", "files")));
    }
    line.push_str(&format!(", skipped {}", s.skipped));
    if !s.reasons.is_empty() {
        let why: Vec<String> = s.reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
        line.push_str(&format!(" ({})", why.join(", ")));
    }
    line
}
