//! `hisha book build | show | openings`.

use super::CliError;
use super::inputs::{self, counted, is_an_input, shown};
use hisha::book::{BUILTIN, Book};
use hisha::book_tools::build::{BookBuilder, BuildOptions};
use hisha::book_tools::openings::{OpeningOptions, generate};
use hisha::output_file::OutputFile;
use hisha::record::{Format, GameRecord, RecordWriter};
use std::io::{IsTerminal, Write};
use std::path::Path;

/// The book tools.
#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Build a YaneuraOu-format book from game records in any format hisha reads.
    Build {
        /// Record files.
        #[arg(required = true)]
        records: Vec<String>,
        /// Output book file.
        #[arg(short, long)]
        output: String,
        /// Only positions before this ply.
        #[arg(long, default_value_t = 40)]
        max_ply: usize,
        /// Only moves played at least this often.
        #[arg(long, default_value_t = 1)]
        min_count: u64,
    },
    /// Print the book moves of a position (`builtin` = the book hisha carries).
    Show {
        /// Book file.
        file: String,
        /// The position: an SFEN, `startpos moves 7g7f 3c3d`, `sfen … moves …` or a handicap name.
        #[arg(required = true)]
        sfen: Vec<String>,
    },
    /// Generate balanced match openings by short searches.
    Openings {
        /// Output file (`.psn` keeps the opening names; `.usi` writes plain lines).
        #[arg(short, long)]
        output: String,
        /// Plies per opening.
        #[arg(long, default_value_t = 16)]
        plies: usize,
        /// Number of openings.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Keep positions scored within ±CP at the check depth.
        #[arg(long, default_value_t = 150)]
        balance: i32,
        /// Seed lines (records with `Opening` tags); default: the start position.
        #[arg(long)]
        from: Option<String>,
        /// Depth of the move-choosing searches.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Depth of the balance check.
        #[arg(long, default_value_t = 8)]
        check_depth: u32,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// What reading record files gave besides the games.
#[derive(Clone, Copy, Debug, Default)]
struct ReadCounts {
    /// Games read.
    read: usize,
    /// Of those, games that stop without an ending (their result unknown).
    no_ending: usize,
    /// Games and files that could not be read.
    skipped: usize,
}

/// Reads the games of record files one at a time (any format hisha reads, detected from content
/// and extension; `-` = standard input), reporting on stderr unreadable games and files and, when
/// `endings_matter`, games that stop without an ending (seed lines have none by design).
fn for_each_record(paths: &[String], endings_matter: bool, f: &mut dyn FnMut(GameRecord)) -> ReadCounts {
    let mut counts = ReadCounts::default();
    for p in paths {
        let name = shown(p);
        let mut games = match inputs::games(p, None) {
            Ok(games) => games,
            Err(why) => {
                eprintln!("{name}: {why} (skipped)");
                counts.skipped += 1;
                continue;
            }
        };
        let mut seen = 0;
        while let Some(g) = games.next() {
            seen += 1;
            match g {
                Ok(r) => {
                    counts.read += 1;
                    if !games.warnings().is_empty() {
                        counts.no_ending += 1;
                    }
                    for w in games.warnings().iter().filter(|_| endings_matter) {
                        eprintln!("{name}: game {seen}: {w}");
                    }
                    f(r)
                }
                Err(e) => {
                    eprintln!("{name}: game {seen}: {e} (skipped)");
                    counts.skipped += 1;
                }
            }
        }
        if seen == 0 {
            eprintln!("{name}: no games in it (skipped)");
            counts.skipped += 1;
        }
    }
    counts
}

/// Refuses an output that would overwrite one of the inputs (`-` = standard input).
fn refuse_output_among(output: &str, inputs: &[String]) -> Result<(), CliError> {
    if is_an_input(Path::new(output), inputs) {
        return Err(CliError::OutputIsInput(output.to_string()));
    }
    Ok(())
}

/// Runs a book tool.
pub fn run(cmd: BookCommand) -> Result<(), CliError> {
    match cmd {
        BookCommand::Build { records, output, max_ply, min_count } => {
            refuse_output_among(&output, &records)?;
            let mut builder = BookBuilder::new(BuildOptions { max_ply, min_count });
            let counts = for_each_record(&records, true, &mut |r| builder.add(&r));
            let games = builder.games();
            let book = builder.finish();
            if games == 0 {
                return Err(CliError::NoGames);
            }
            if book.is_empty() {
                return Err(CliError::EmptyBook { games, max_ply, min_count });
            }
            // Written beside the output and renamed into place: an earlier book stays whole on error.
            let failed = |source| CliError::Write { path: output.clone(), source };
            let mut f = OutputFile::create(Path::new(&output)).map_err(failed)?;
            book.write(&mut f).map_err(failed)?;
            f.commit().map_err(failed)?;
            let no_ending = match counts.no_ending {
                0 => String::new(),
                n => format!(", {n} without an ending scored as draws"),
            };
            eprintln!(
                "{} -> {} in {output} ({} skipped{no_ending})",
                counted(games, "game", "games"),
                counted(book.len(), "position", "positions"),
                counts.skipped
            );
            Ok(())
        }
        BookCommand::Show { file, sfen } => {
            let start = std::time::Instant::now();
            let book = if file == "builtin" { Book::parse(BUILTIN)? } else { Book::load(Path::new(&file))? };
            let loaded = start.elapsed();
            let pos = hisha::usi::position_spec::parse_words(&sfen)?;
            let t = std::time::Instant::now();
            let moves = book.probe(&pos);
            let lookup = t.elapsed();
            for m in moves {
                let ponder = m.ponder.map_or("none".to_string(), |p| p.to_string());
                println!(
                    "{} {ponder} {} {} {}{}",
                    m.mv,
                    m.value,
                    m.depth,
                    m.count,
                    if pos.is_legal(m.mv) { "" } else { "  (illegal here)" }
                );
            }
            eprintln!(
                "{}, loaded in {} ms, lookup {} µs",
                counted(book.len(), "position", "positions"),
                loaded.as_millis(),
                lookup.as_micros()
            );
            Ok(())
        }
        BookCommand::Openings { output, plies, count, balance, from, depth, check_depth, seed } => {
            let format = Format::from_path(&output).unwrap_or(Format::Usi);
            if format.one_game_per_file() && count > 1 {
                return Err(CliError::OneGamePerFile { output, format });
            }
            refuse_output_among(&output, from.as_slice())?;
            let mut seeds = Vec::new();
            if let Some(f) = from {
                if for_each_record(&[f], false, &mut |r| seeds.push(r)).skipped > 0 {
                    return Err(CliError::UnreadableSeeds);
                }
            }
            let opts = OpeningOptions { plies, count, balance, choose_depth: depth, check_depth, margin: 40, seed };
            // The count redraws in place on a terminal only: a log gets no carriage returns.
            let terminal = std::io::stderr().is_terminal();
            let found = generate(&seeds, &opts, &mut |n| {
                if terminal {
                    eprint!("\r{n}/{count}");
                }
            });
            if terminal {
                eprintln!();
            }
            let failed = |source| CliError::Write { path: output.clone(), source };
            let mut w = RecordWriter::new(OutputFile::create(Path::new(&output)).map_err(failed)?, format, true);
            for rec in &found {
                w.write(rec).map_err(failed)?;
            }
            w.into_inner().commit().map_err(failed)?;
            let _ = std::io::stderr().flush();
            eprintln!("{} -> {output}", counted(found.len(), "opening", "openings"));
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("hisha-book-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("dir");
        d
    }

    #[test]
    fn book_build_refuses_an_output_that_is_one_of_its_records() {
        let dir = temp_dir("build");
        let records = dir.join("games.usi");
        std::fs::write(&records, "startpos moves 7g7f 3c3d\n").expect("write");
        let path = records.display().to_string();
        let cmd = BookCommand::Build { records: vec![path.clone()], output: path.clone(), max_ply: 40, min_count: 1 };
        let e = run(cmd).expect_err("refused");
        assert!(e.to_string().contains("the output is also an input"), "{e}");
        assert_eq!(std::fs::read_to_string(&records).expect("kept"), "startpos moves 7g7f 3c3d\n");
        // Another name is written, with no temporary file left beside it.
        let book = dir.join("book.db").display().to_string();
        run(BookCommand::Build { records: vec![path], output: book, max_ply: 40, min_count: 1 }).expect("builds");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["book.db", "games.usi"]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn book_openings_refuses_kif_for_several_openings_and_its_seed_file_as_output() {
        let dir = temp_dir("openings");
        let seeds = dir.join("seeds.psn");
        std::fs::write(&seeds, "[Opening \"x\"]\n1.P7g-7f\n").expect("write");
        let openings = |output: &std::path::Path, count| BookCommand::Openings {
            output: output.display().to_string(),
            plies: 2,
            count,
            balance: 150,
            from: Some(seeds.display().to_string()),
            depth: 1,
            check_depth: 1,
            seed: 1,
        };
        let e = run(openings(&dir.join("o.kif"), 2)).expect_err("refused");
        assert!(e.to_string().contains("kif holds one game per file; write openings to .psn, .csa or .usi"), "{e}");
        let e = run(openings(&seeds, 2)).expect_err("refused");
        assert!(e.to_string().contains("the output is also an input"), "{e}");
        assert_eq!(std::fs::read_to_string(&seeds).expect("kept"), "[Opening \"x\"]\n1.P7g-7f\n");
        let _ = std::fs::remove_dir_all(dir);
    }
}
