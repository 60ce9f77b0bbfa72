//! `hisha book build | show | openings`.

use crate::book::build::{BookBuilder, BuildOptions};
use crate::book::openings::{OpeningOptions, generate};
use crate::book::{BUILTIN, Book};
use crate::record::{Format, GameReader, GameRecord, RecordWriter};
use std::io::{BufReader, Write};

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

/// Runs a book tool.
pub fn run(cmd: BookCommand) -> Result<(), String> {
    match cmd {
        BookCommand::Build { records, output, max_ply, min_count } => {
            let mut builder = BookBuilder::new(BuildOptions { max_ply, min_count });
            let skipped = for_each_record(&records, &mut |r| builder.add(&r));
            let games = builder.games();
            let book = builder.finish();
            let mut f = std::io::BufWriter::new(std::fs::File::create(&output).map_err(|e| format!("{output}: {e}"))?);
            book.write(&mut f).map_err(|e| format!("{output}: {e}"))?;
            eprintln!("{games} games -> {} positions in {output} ({skipped} skipped)", book.len());
            Ok(())
        }
        BookCommand::Show { file, sfen } => {
            let start = std::time::Instant::now();
            let book = if file == "builtin" {
                Book::parse(BUILTIN).map_err(|e| e.to_string())?
            } else {
                Book::load(std::path::Path::new(&file))?
            };
            let loaded = start.elapsed();
            let pos = crate::usi::position_spec::parse_words(&sfen).map_err(|e| e.to_string())?;
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
            let mut seeds = Vec::new();
            if let Some(f) = from {
                if for_each_record(&[f], &mut |r| seeds.push(r)) > 0 {
                    return Err("unreadable seed lines (see above)".into());
                }
            }
            let opts = OpeningOptions { plies, count, balance, choose_depth: depth, check_depth, margin: 40, seed };
            let found = generate(&seeds, &opts, &mut |n| eprint!("\r{n}/{count}"));
            eprintln!();
            let format = Format::from_path(&output).unwrap_or(Format::Usi);
            let file = std::fs::File::create(&output).map_err(|e| format!("{output}: {e}"))?;
            let mut w = RecordWriter::new(file, format, true);
            for rec in &found {
                w.write(rec).map_err(|e| format!("{output}: {e}"))?;
            }
            let _ = std::io::stderr().flush();
            eprintln!("{} openings -> {output}", found.len());
            Ok(())
        }
    }
}
