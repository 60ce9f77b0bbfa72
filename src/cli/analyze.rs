//! `hisha analyze`: every position of every game in the inputs searched by an engine
//! ([`hisha::analyze`]), with a summary per game and side on stdout, and on request the games
//! annotated (`-o`), one JSON object per position (`--json`) and evaluation graphs (`--svg`).
//! Outputs are checked before any search starts: one that is also an input is refused, and every
//! file is opened beside itself then (one that cannot be written is refused before hours of
//! analysis, not after), written at the end and renamed into place ([`hisha::output_file`]).
//! Inputs that hold no game at all are an error, with nothing written.

use super::FormatArg;
use super::inputs::{self, counted, is_an_input, shown};
use hisha::analyze::{self, EngineSetup, GameAnalysis};
use hisha::client::tc::TimeControl;
use hisha::output_file::OutputFile;
use hisha::record::{Format, GameRecord, RecordWriter, game_path};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The exit statuses, as `hisha help analyze` prints them.
const EXIT_STATUS: &str = "\
Exit status:
  0  every game was analysed and every output written
  1  the outputs were written, but some input or game could not be read, or the engine failed
     on some positions (they are reported, and left out of the outputs); or the inputs hold no
     game at all (nothing written)
  2  refused or failed: a usage error, a bad --engine, an output that is also an input, an
     output that cannot be written (all checked before the engine starts)";

/// Options of `hisha analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct AnalyzeArgs {
    /// Record files in any format hisha reads (`-` = standard input).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Write the games annotated to this file (format from --format or the extension, else PSN;
    /// KIF, KIFU and KI2 hold one game per file: several games go to STEM-0001.EXT, …).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Format of the annotated records (psn, psn2, kif, kifu, ki2, csa, usi).
    #[arg(long)]
    pub format: Option<FormatArg>,
    /// Write one JSON object per analysed position to this file (one per line).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the evaluation graph as SVG: FILE (several games: STEM-0001.svg, …) or DIR/ (one
    /// game-0001.svg per game).
    #[arg(long, value_name = "FILE|DIR/")]
    pub svg: Option<String>,
    /// The engine, as `hisha match --engine` takes it (default: hisha itself).
    #[arg(long = "engine", num_args = 1.., value_name = "SPEC")]
    pub engine: Vec<String>,
    /// Folder of engine definitions for `--engine NAME`.
    #[arg(long, default_value = "engines")]
    pub engines_dir: PathBuf,
    /// Search limit per position: nodes=N, depth=N or st=MS (a fixed node count is reproducible).
    #[arg(long, default_value = "nodes=100000")]
    pub tc: TimeControl,
    /// Lines per position (the engine's MultiPV); the further lines go to the JSON.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub multipv: u32,
    /// Engine processes at once (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub concurrency: Option<u64>,
    /// Analyse only the moves of plies A to B (1-based, inclusive): `--plies 20-40`.
    #[arg(long, value_name = "A-B", value_parser = parse_plies)]
    pub plies: Option<(usize, usize)>,
    /// Seconds to wait for `usiok` and `readyok` (an engine's own `usi_timeout` overrides it).
    #[arg(long, default_value_t = 30)]
    pub usi_timeout: u64,
    /// Seconds an untimed (nodes/depth) search may take before the engine is deemed stalled.
    #[arg(long, default_value_t = 300)]
    pub stall_timeout: u64,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Parses `A-B` (1 ≤ A ≤ B).
fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?} is not A-B with 1 <= A <= B");
    let (a, b) = s.split_once('-').ok_or_else(bad)?;
    let (a, b): (usize, usize) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// Why a run was refused or failed before it wrote anything.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("{0}: the output is also an input; write to another file (the input is left as it was)")]
    OutputIsInput(String),
    #[error(transparent)]
    Engine(#[from] hisha::client::config::ConfigError),
    #[error("{0}: {1}")]
    Write(String, io::Error),
}

/// Runs `hisha analyze`; the exit status as documented.
pub fn command(args: &AnalyzeArgs) -> ExitCode {
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("hisha analyze: {e}");
            ExitCode::from(2)
        }
    }
}

/// The annotated records' format.
fn output_format(args: &AnalyzeArgs) -> Format {
    let from_path = args.output.as_deref().and_then(|p| Format::from_path(&p.to_string_lossy()));
    args.format.map(|f| f.0).or(from_path).unwrap_or(Format::Psn)
}

/// The files game `n` (1-based) of `games` is written to, for a path that holds one game or,
/// when `several`, one file per game.
fn per_game(path: &Path, n: usize, several: bool) -> PathBuf {
    if several { game_path(path, n) } else { path.to_path_buf() }
}

/// The SVG file of game `n`.
fn svg_path(spec: &str, n: usize, games: usize) -> PathBuf {
    if spec.ends_with('/') || Path::new(spec).is_dir() {
        Path::new(spec).join(format!("game-{n:04}.svg"))
    } else {
        per_game(Path::new(spec), n, games > 1)
    }
}

/// The files the run writes for `games` games.
struct OutputPaths {
    /// The annotated records: one file, or one per game (KIF, KIFU and KI2 with several games).
    records: Vec<PathBuf>,
    /// The JSON lines.
    json: Option<PathBuf>,
    /// One evaluation graph per game.
    svgs: Vec<PathBuf>,
}

impl OutputPaths {
    fn new(args: &AnalyzeArgs, games: usize) -> OutputPaths {
        let games = games.max(1);
        let records = match &args.output {
            Some(o) if output_format(args).one_game_per_file() && games > 1 => {
                (1..=games).map(|n| per_game(o, n, true)).collect()
            }
            Some(o) => vec![o.clone()],
            None => Vec::new(),
        };
        let svgs = args.svg.as_ref().map_or_else(Vec::new, |s| (1..=games).map(|n| svg_path(s, n, games)).collect());
        OutputPaths { records, json: args.json.clone(), svgs }
    }

    fn all(&self) -> impl Iterator<Item = &PathBuf> {
        self.records.iter().chain(&self.json).chain(&self.svgs)
    }
}

/// Reads every game of every input, reporting on stderr what the readers warn about and what
/// cannot be read; false if an input or a game could not be read, or an input holds no game.
fn read_inputs(inputs: &[String]) -> (Vec<(GameRecord, Format)>, bool) {
    let mut games = Vec::new();
    let mut all_read = true;
    for input in inputs {
        let name = shown(input);
        let mut reader = match inputs::games(input, None) {
            Ok(r) => r,
            Err(why) => {
                eprintln!("{name}: {why} (skipped)");
                all_read = false;
                continue;
            }
        };
        let Some(format) = reader.format() else { continue };
        let mut seen = 0;
        while let Some(game) = reader.next() {
            seen += 1;
            match game {
                Ok(rec) => {
                    for w in reader.warnings() {
                        eprintln!("{name}: game {seen}: {w}");
                    }
                    games.push((rec, format));
                }
                Err(e) => {
                    eprintln!("{name}: game {seen}: {e} (skipped)");
                    all_read = false;
                }
            }
        }
        if seen == 0 {
            eprintln!("{name}: no games in it (skipped)");
            all_read = false;
        }
    }
    (games, all_read)
}

/// Runs the analysis: Ok(false) when some input, game or position was left out.
fn run(args: &AnalyzeArgs) -> Result<bool, Refused> {
    // Outputs named after the games are checked again once the games are counted.
    refuse_inputs_among(&OutputPaths::new(args, 1), &args.inputs)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let setup = EngineSetup::new(
        &args.engine,
        &args.engines_dir,
        args.tc,
        args.multipv,
        args.concurrency.map_or(cores, |c| c as usize),
        Duration::from_secs(args.usi_timeout),
        Duration::from_secs(args.stall_timeout),
    )?;
    let (games, all_read) = read_inputs(&args.inputs);
    if games.is_empty() {
        eprintln!("hisha analyze: no game to analyse in the inputs (nothing written)");
        return Ok(false);
    }
    let paths = OutputPaths::new(args, games.len());
    refuse_inputs_among(&paths, &args.inputs)?;
    // Opened now, beside their targets: an output that cannot be written is refused before the
    // search, not after it.
    let files = open_outputs(args, &paths)?;
    let records: Vec<GameRecord> = games.iter().map(|(r, _)| r.clone()).collect();
    let bar = progress_bar(args.quiet);
    let analyses = analyze::analyse_games(&setup, &records, args.plies, |done, total| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut complete = all_read;
    let mut stdout = io::stdout().lock();
    for (n, ((rec, format), analysis)) in games.iter().zip(&analyses).enumerate() {
        for (i, failure) in analysis.positions.iter().filter_map(|(i, r)| r.as_ref().err().map(|e| (i, e))) {
            eprintln!("game {}: position after {}: {failure}", n + 1, counted(*i, "ply", "plies"));
            complete = false;
        }
        let _ = write!(stdout, "{}", analyze::summary(n + 1, rec, analysis, *format));
    }
    let formats: Vec<Format> = games.iter().map(|(_, f)| *f).collect();
    write_outputs(args, files, &records, &formats, &analyses)?;
    Ok(complete)
}

/// Refuses outputs that would overwrite an input.
fn refuse_inputs_among(paths: &OutputPaths, inputs: &[String]) -> Result<(), Refused> {
    match paths.all().find(|p| is_an_input(p, inputs)) {
        Some(p) => Err(Refused::OutputIsInput(p.display().to_string())),
        None => Ok(()),
    }
}

/// A progress bar on stderr when it is a terminal.
fn progress_bar(quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} positions  {elapsed} ETA {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// An output file being written, with its name for messages.
type Opened = (PathBuf, OutputFile);

/// The output files, each opened beside its target (the folder of `--svg DIR/` made first).
struct OutputFiles {
    records: Vec<Opened>,
    json: Option<Opened>,
    svgs: Vec<Opened>,
}

fn open_outputs(args: &AnalyzeArgs, paths: &OutputPaths) -> Result<OutputFiles, Refused> {
    if let Some(spec) = args.svg.as_ref().filter(|s| s.ends_with('/')) {
        std::fs::create_dir_all(spec).map_err(|e| Refused::Write(spec.clone(), e))?;
    }
    let open = |p: &PathBuf| -> Result<Opened, Refused> {
        let file = OutputFile::create(p).map_err(|e| Refused::Write(p.display().to_string(), e))?;
        Ok((p.clone(), file))
    };
    Ok(OutputFiles {
        records: paths.records.iter().map(open).collect::<Result<_, _>>()?,
        json: paths.json.as_ref().map(open).transpose()?,
        svgs: paths.svgs.iter().map(open).collect::<Result<_, _>>()?,
    })
}

/// Writes an opened file whole and renames it into place.
fn finish((path, mut file): Opened, write: impl FnOnce(&mut OutputFile) -> io::Result<()>) -> Result<(), Refused> {
    let failed = |e| Refused::Write(path.display().to_string(), e);
    write(&mut file).map_err(failed)?;
    file.commit().map_err(failed)
}

/// Writes the annotated records, the JSON lines and the graphs into the files opened for them
/// (the graphs' moves in the notation of each game's input, `formats`, as the summary writes them).
fn write_outputs(
    args: &AnalyzeArgs,
    files: OutputFiles,
    records: &[GameRecord],
    formats: &[Format],
    analyses: &[GameAnalysis],
) -> Result<(), Refused> {
    let format = output_format(args);
    let mut annotated = records.iter().zip(analyses).map(|(r, a)| analyze::annotate(r, a, format));
    if files.records.len() > 1 {
        for (file, rec) in files.records.into_iter().zip(annotated) {
            finish(file, |f| RecordWriter::new(f, format, true).write(&rec))?;
        }
    } else if let Some(file) = files.records.into_iter().next() {
        finish(file, |f| {
            let mut w = RecordWriter::new(f, format, true);
            annotated.try_for_each(|rec| w.write(&rec))
        })?;
    }
    if let Some(file) = files.json {
        finish(file, |f| {
            for report in analyses.iter().flat_map(|a| &a.reports) {
                serde_json::to_writer(&mut *f, report)?;
                f.write_all(b"\n")?;
            }
            Ok(())
        })?;
    }
    let games = records.iter().zip(analyses).zip(formats);
    for (n, (file, ((rec, analysis), format))) in files.svgs.into_iter().zip(games).enumerate() {
        let text = analyze::svg(n + 1, rec, analysis, *format);
        finish(file, |f| f.write_all(text.as_bytes()))?;
    }
    Ok(())
}
