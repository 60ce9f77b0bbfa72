//! `hisha book build | show | openings`.

use super::CliError;
use hisha::book::{BUILTIN, Book};
use hisha::book_tools::build::{BookBuilder, BuildOptions};
use hisha::book_tools::openings::{OpeningOptions, generate};
use hisha::output_file::{self, OutputFile};
use hisha::record::{Format, GameReader, GameRecord, RecordWriter};
use std::io::{BufReader, Write};
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

/// Reads the games of record files one at a time (any format hisha reads, detected from content
/// and extension; `-` = standard input), reporting unreadable games and files on stderr. Returns
/// the number of games skipped.
fn for_each_record(paths: &[String], f: &mut dyn FnMut(GameRecord)) -> usize {
    let mut skipped = 0;
    for p in paths {
        let input: Box<dyn std::io::BufRead> = if p == "-" {
            Box::new(BufReader::new(std::io::stdin()))
        } else {
            match std::fs::File::open(p) {
                Ok(file) => Box::new(BufReader::with_capacity(1 << 16, file)),
                Err(e) => {
                    eprintln!("{p}: {e} (skipped)");
                    skipped += 1;
                    continue;
                }
            }
        };
        let games = GameReader::detect(input, (p != "-").then_some(p.as_str()));
        if games.format().is_none() {
            eprintln!("{p}: not a record format hisha knows (skipped)");
            skipped += 1;
            continue;
        }
        for (i, g) in games.enumerate() {
            match g {
                Ok(r) => f(r),
                Err(e) => {
                    eprintln!("{p}: game {}: {e} (skipped)", i + 1);
                    skipped += 1;
                }
            }
        }
    }
    skipped
}

/// Refuses an output that would overwrite one of the inputs (`-` = standard input).
fn refuse_output_among(output: &str, inputs: &[String]) -> Result<(), CliError> {
    let out = Path::new(output);
    let clash =
        |i: &String| if i == "-" { output_file::stdin_is(out) } else { output_file::same_file(Path::new(i), out) };
    if inputs.iter().any(clash) {
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
            let skipped = for_each_record(&records, &mut |r| builder.add(&r));
            let games = builder.games();
            let book = builder.finish();
            // Written beside the output and renamed into place: an earlier book stays whole on error.
            let failed = |source| CliError::Write { path: output.clone(), source };
            let mut f = OutputFile::create(Path::new(&output)).map_err(failed)?;
            book.write(&mut f).map_err(failed)?;
            f.commit().map_err(failed)?;
            eprintln!("{games} games -> {} positions in {output} ({skipped} skipped)", book.len());
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
                "{} positions, loaded in {} ms, lookup {} µs",
                book.len(),
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
                if for_each_record(&[f], &mut |r| seeds.push(r)) > 0 {
                    return Err(CliError::UnreadableSeeds);
                }
            }
            let opts = OpeningOptions { plies, count, balance, choose_depth: depth, check_depth, margin: 40, seed };
            let found = generate(&seeds, &opts, &mut |n| eprint!("\r{n}/{count}"));
            eprintln!();
            let failed = |source| CliError::Write { path: output.clone(), source };
            let mut w = RecordWriter::new(OutputFile::create(Path::new(&output)).map_err(failed)?, format, true);
            for rec in &found {
                w.write(rec).map_err(failed)?;
            }
            w.into_inner().commit().map_err(failed)?;
            let _ = std::io::stderr().flush();
            eprintln!("{} openings -> {output}", found.len());
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
