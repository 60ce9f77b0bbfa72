//! Training files: YaneuraOu `PackedSfenValue` records (40 bytes each, `FILE.psv`) with a sidecar
//! index of whole games (`FILE.psv.games`, one line `<game id><TAB><records>` per game, in file
//! order), so that held-out sets can be whole games and an interrupted generator can resume.
//!
//! Writing is crash-safe by order: a game's records are written and flushed first, then its
//! index line. On opening for append, records beyond the indexed ones (a game cut off by a
//! crash) are cut away, as is a last index line without its newline.

use hisha_nnue::packed_sfen::{PackedSfenValue, RECORD_BYTES};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One game's place in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpan {
    /// The game's id (unique within its generator run and shard).
    pub id: u64,
    /// Index of its first record.
    pub start: usize,
    /// Number of records.
    pub len: usize,
}

/// The index file of `data`.
pub fn index_path(data: &Path) -> PathBuf {
    let mut s = data.as_os_str().to_owned();
    s.push(".games");
    PathBuf::from(s)
}

fn err(path: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: {e}", path.display())
}

/// Parses an index; `complete_only` drops a last line without its newline (an interrupted write).
fn parse_index(path: &Path, text: &str, complete_only: bool) -> Result<(Vec<GameSpan>, usize), String> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut bytes = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') && complete_only {
            break;
        }
        let mut fields = line.trim_end().split('\t');
        let parsed = (fields.next().map(str::parse::<u64>), fields.next().map(str::parse::<usize>), fields.next());
        let (Some(Ok(id)), Some(Ok(len)), None) = parsed else {
            return Err(err(path, format!("line {}: expected <game id><TAB><records>", n + 1)));
        };
        games.push(GameSpan { id, start, len });
        start += len;
        bytes += line.len();
    }
    Ok((games, bytes))
}

/// Appends whole games to a training file and its index.
pub struct GameWriter {
    data: BufWriter<File>,
    index: File,
    records: usize,
    done: BTreeSet<u64>,
}

impl GameWriter {
    /// Opens `path` for appending, creating it (and its index) if needed, after cutting away
    /// what a crash left unindexed. A file with records but no index is refused (it is not ours).
    pub fn open(path: &Path) -> Result<GameWriter, String> {
        let ipath = index_path(path);
        let (text, has_index) = match std::fs::read(&ipath) {
            Ok(b) => (String::from_utf8(b).map_err(|_| err(&ipath, "not UTF-8"))?, true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), false),
            Err(e) => return Err(err(&ipath, e)),
        };
        let (games, index_bytes) = parse_index(&ipath, &text, true)?;
        let records: usize = games.iter().map(|g| g.len).sum();
        let data = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(path);
        let data = data.map_err(|e| err(path, e))?;
        let size = data.metadata().map_err(|e| err(path, e))?.len();
        let indexed = (records * RECORD_BYTES) as u64;
        if size < indexed {
            return Err(err(path, format!("{size} bytes, but its index lists {records} records")));
        }
        if !has_index && size > 0 {
            return Err(err(path, format!("has records but no index {}: not written by this tool", ipath.display())));
        }
        data.set_len(indexed).map_err(|e| err(path, e))?;
        let index = OpenOptions::new().create(true).truncate(false).write(true).open(&ipath);
        let mut index = index.map_err(|e| err(&ipath, e))?;
        index.set_len(index_bytes as u64).map_err(|e| err(&ipath, e))?;
        let mut data = BufWriter::new(data);
        data.seek(SeekFrom::End(0)).map_err(|e| err(path, e))?;
        index.seek(SeekFrom::End(0)).map_err(|e| err(&ipath, e))?;
        let done = games.iter().map(|g| g.id).collect();
        Ok(GameWriter { data, index, records, done })
    }

    /// Records in the file.
    pub fn records(&self) -> usize {
        self.records
    }

    /// Ids of the games already in the file.
    pub fn done(&self) -> &BTreeSet<u64> {
        &self.done
    }

    /// Appends game `id`'s records (all or nothing, as far as a reader of the index can tell).
    pub fn append(&mut self, id: u64, records: &[PackedSfenValue]) -> std::io::Result<()> {
        for r in records {
            self.data.write_all(&r.to_bytes())?;
        }
        self.data.flush()?;
        self.data.get_ref().sync_data()?;
        writeln!(self.index, "{id}\t{}", records.len())?;
        self.records += records.len();
        self.done.insert(id);
        Ok(())
    }
}

/// Reads every record of a file.
pub fn read_records(path: &Path) -> Result<Vec<PackedSfenValue>, String> {
    let mut bytes = Vec::new();
    File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)).map_err(|e| err(path, e))?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(err(path, format!("{} bytes: not a whole number of {RECORD_BYTES}-byte records", bytes.len())));
    }
    let records = bytes.chunks_exact(RECORD_BYTES).map(|c| {
        let mut r = [0; RECORD_BYTES];
        r.copy_from_slice(c);
        PackedSfenValue::from_bytes(&r)
    });
    Ok(records.collect())
}

/// The games of a file: from its index if it has one (which must cover the file exactly),
/// otherwise guessed from the records, a new game starting wherever the game ply does not grow
/// (files of other generators; a boundary between two games is missed only if the second
/// starts at a later ply than the first ended).
pub fn read_games(path: &Path, records: &[PackedSfenValue]) -> Result<Vec<GameSpan>, String> {
    let ipath = index_path(path);
    match File::open(&ipath) {
        Ok(f) => {
            let mut text = String::new();
            BufReader::new(f).read_to_string(&mut text).map_err(|e| err(&ipath, e))?;
            let (games, _) = parse_index(&ipath, &text, false)?;
            let indexed: usize = games.iter().map(|g| g.len).sum();
            if indexed != records.len() {
                return Err(err(&ipath, format!("lists {indexed} records, the file has {}", records.len())));
            }
            Ok(games)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(games_by_ply(records)),
        Err(e) => Err(err(&ipath, e)),
    }
}

/// Games guessed from the game ply (see [`read_games`]).
pub fn games_by_ply(records: &[PackedSfenValue]) -> Vec<GameSpan> {
    let mut games: Vec<GameSpan> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        match games.last_mut() {
            Some(g) if records[i - 1].game_ply < r.game_ply => g.len += 1,
            _ => games.push(GameSpan { id: games.len() as u64, start: i, len: 1 }),
        }
    }
    games
}

/// Writes `records` to `path` with an index of `games` (spans into `records`, written in order),
/// or without an index if `games` is `None`. Refuses to overwrite an existing file.
pub fn write_file(path: &Path, records: &[PackedSfenValue], games: Option<&[GameSpan]>) -> Result<(), String> {
    let create = |p: &Path| OpenOptions::new().write(true).create_new(true).open(p).map_err(|e| err(p, e));
    let mut out = BufWriter::new(create(path)?);
    let mut write = |r: &PackedSfenValue| out.write_all(&r.to_bytes());
    match games {
        Some(games) => {
            let ipath = index_path(path);
            let mut index = BufWriter::new(create(&ipath)?);
            for g in games {
                records[g.start..g.start + g.len].iter().try_for_each(&mut write).map_err(|e| err(path, e))?;
                writeln!(index, "{}\t{}", g.id, g.len).map_err(|e| err(&ipath, e))?;
            }
            index.flush().map_err(|e| err(&ipath, e))?;
        }
        None => records.iter().try_for_each(&mut write).map_err(|e| err(path, e))?,
    }
    out.flush().map_err(|e| err(path, e))
}

/// A fresh, empty folder for a test's files: `hisha-nnue-NAME-PID` in the system's temp folder.
#[cfg(test)]
pub fn test_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hisha-nnue-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[cfg(test)]
mod tests {
    use super::*;
    use hisha::Position;
    use hisha_nnue::packed_sfen::PackedSfen;

    fn record(ply: u16) -> PackedSfenValue {
        let sfen = PackedSfen::pack(&Position::startpos()).expect("packable");
        PackedSfenValue { sfen, score: ply as i16, mv: 0, game_ply: ply, game_result: 0, padding: 0 }
    }

    fn temp(name: &str) -> PathBuf {
        test_dir(&format!("store-{name}")).join("data.psv")
    }

    #[test]
    fn a_resumed_writer_drops_the_game_a_crash_cut_off() {
        let path = temp("resume");
        let mut w = GameWriter::open(&path).expect("new file");
        w.append(7, &[record(10), record(11)]).expect("write");
        w.append(3, &[record(20)]).expect("write");
        drop(w);
        // A crash while writing game 9: two records but no index line, and half a line.
        let mut f = OpenOptions::new().append(true).open(&path).expect("data");
        f.write_all(&record(30).to_bytes()).expect("write");
        f.write_all(&record(31).to_bytes()[..17]).expect("write");
        OpenOptions::new().append(true).open(index_path(&path)).expect("index").write_all(b"9\t").expect("write");
        let mut w = GameWriter::open(&path).expect("resume");
        assert_eq!(w.records(), 3);
        assert_eq!(w.done().iter().copied().collect::<Vec<_>>(), vec![3, 7]);
        w.append(9, &[record(40)]).expect("write");
        drop(w);
        let records = read_records(&path).expect("read");
        assert_eq!(records.iter().map(|r| r.game_ply).collect::<Vec<_>>(), vec![10, 11, 20, 40]);
        let games = read_games(&path, &records).expect("index");
        let spans: Vec<_> = games.iter().map(|g| (g.id, g.start, g.len)).collect();
        assert_eq!(spans, vec![(7, 0, 2), (3, 2, 1), (9, 3, 1)]);
    }

    #[test]
    fn a_file_with_records_but_no_index_is_not_appended_to() {
        let path = temp("foreign");
        std::fs::write(&path, record(1).to_bytes()).expect("write");
        let e = GameWriter::open(&path).err().expect("refused");
        assert!(e.contains("no index"), "{e}");
        // Read as a foreign file, its games come from the plies.
        let records = vec![record(5), record(6), record(9), record(4), record(4), record(8)];
        let spans: Vec<_> = games_by_ply(&records).iter().map(|g| (g.start, g.len)).collect();
        assert_eq!(spans, vec![(0, 3), (3, 1), (4, 2)]);
    }

    #[test]
    fn a_torn_record_or_a_wrong_index_is_an_error() {
        let path = temp("torn");
        std::fs::write(&path, [0u8; 41]).expect("write");
        assert!(read_records(&path).expect_err("error").contains("not a whole number"));
        std::fs::write(&path, [record(1).to_bytes(), record(2).to_bytes()].concat()).expect("write");
        std::fs::write(index_path(&path), "0\t3\n").expect("write");
        let records = read_records(&path).expect("read");
        assert!(read_games(&path, &records).expect_err("error").contains("lists 3 records"));
        std::fs::write(index_path(&path), "0\tx\n").expect("write");
        assert!(read_games(&path, &records).expect_err("error").contains("line 1"));
    }
}
