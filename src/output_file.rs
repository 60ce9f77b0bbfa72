//! Writing an output file without ever harming the file it replaces or a file the program reads.
//! [`OutputFile`] writes a regular file (new or existing) to a temporary file in the same folder
//! and renames it over the target only once it is complete and on disk, so an error, a full disk
//! or a crash leaves the old file as it was (the temporary file is removed on error; only a kill
//! can leave one behind, named `.NAME.hisha-PID-N.tmp`). [`same_file`] tells whether an output is
//! one of the inputs, through symlinks and hard links too, so that commands can refuse that.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Temporary files made by this process so far (part of their names).
static TEMPS: AtomicUsize = AtomicUsize::new(0);

/// Where the bytes go until [`OutputFile::commit`].
enum Target {
    /// A temporary file, renamed over `target` on commit.
    Replace { out: BufWriter<File>, temp: PathBuf, target: PathBuf },
    /// A device or pipe (`/dev/null`, a FIFO), written directly: renaming over it would replace
    /// the device node, and writing it destroys nothing.
    Special(BufWriter<File>),
    /// Committed or given up.
    Done,
}

/// An output file under construction (see the module documentation).
pub struct OutputFile {
    target: Target,
}

impl OutputFile {
    /// Starts writing `path`. A symlink is followed, so that the file it points to is replaced and
    /// the link kept; the new file gets the permissions of the file it replaces. A folder is
    /// refused.
    pub fn create(path: &Path) -> io::Result<OutputFile> {
        let target = match fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a folder")),
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new().write(true).open(path)?;
                return Ok(OutputFile { target: Target::Special(BufWriter::with_capacity(1 << 16, file)) });
            }
            Ok(_) => fs::canonicalize(path)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
            Err(e) => return Err(e),
        };
        let name = target.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let n = TEMPS.fetch_add(1, Ordering::Relaxed);
        let temp = folder.join(format!(".{}.hisha-{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
        let file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        if let Ok(m) = fs::metadata(&target) {
            // Best effort: a file system without permissions keeps its defaults.
            let _ = file.set_permissions(m.permissions());
        }
        Ok(OutputFile { target: Target::Replace { out: BufWriter::with_capacity(1 << 16, file), temp, target } })
    }

    /// Finishes the file: flushes it, syncs it to disk and renames it over the target (then syncs
    /// the folder, so that the rename survives a crash). On error the target is left as it was.
    pub fn commit(mut self) -> io::Result<()> {
        match std::mem::replace(&mut self.target, Target::Done) {
            Target::Replace { out, temp, target } => {
                let result = finish_temp(out, &temp, &target);
                if result.is_err() {
                    let _ = fs::remove_file(&temp);
                }
                result
            }
            Target::Special(mut out) => out.flush(),
            Target::Done => Ok(()),
        }
    }
}

/// Flushes, syncs and renames a temporary file over `target`.
fn finish_temp(out: BufWriter<File>, temp: &Path, target: &Path) -> io::Result<()> {
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()?;
    drop(file);
    fs::rename(temp, target)?;
    if let Some(folder) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        // Opening a folder to sync it works on Unix only; elsewhere the rename is already durable.
        if let Ok(dir) = File::open(folder) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Replace { out, .. } | Target::Special(out) => out.write(buf),
            Target::Done => Err(io::Error::other("output file already finished")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.target {
            Target::Replace { out, .. } | Target::Special(out) => out.write_all(buf),
            Target::Done => Err(io::Error::other("output file already finished")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Replace { out, .. } | Target::Special(out) => out.flush(),
            Target::Done => Ok(()),
        }
    }
}

impl Drop for OutputFile {
    /// An output never committed is given up: its temporary file is removed.
    fn drop(&mut self) {
        if let Target::Replace { temp, .. } = std::mem::replace(&mut self.target, Target::Done) {
            let _ = fs::remove_file(temp);
        }
    }
}

/// True when `a` and `b` name the same regular file: the same device and inode on Unix (so
/// through symlinks and hard links), else the same canonical path. Devices and pipes are never
/// "the same file" here, as writing one cannot destroy what another name reads.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else { return false };
    ma.is_file() && mb.is_file() && (same_inode(&ma, &mb) || same_canonical(a, b))
}

fn same_canonical(a: &Path, b: &Path) -> bool {
    matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// The metadata of what standard input (`fd` 0) or output (`fd` 1) is connected to; `None` when
/// it cannot be told (or off Unix).
#[cfg(unix)]
fn std_stream_metadata(fd: std::os::fd::BorrowedFd<'_>) -> Option<fs::Metadata> {
    File::from(fd.try_clone_to_owned().ok()?).metadata().ok()
}

/// True when standard input is redirected from the regular file `path` (`hisha … - -o x < x`).
pub fn stdin_is(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stdin = io::stdin();
        let (Some(a), Ok(b)) = (std_stream_metadata(stdin.as_fd()), fs::metadata(path)) else { return false };
        a.is_file() && b.is_file() && same_inode(&a, &b)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// True when standard output is redirected to a regular file (`hisha … > x.kif`), not a terminal
/// or a pipe.
pub fn stdout_is_a_file() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stdout = io::stdout();
        std_stream_metadata(stdout.as_fd()).is_some_and(|m| m.is_file())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::temp_dir;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .map(|r| r.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    #[test]
    fn an_output_replaces_its_file_only_when_committed() {
        let dir = temp_dir("output-file-commit");
        let path = dir.join("out.psn");
        fs::write(&path, "old").expect("io");
        let mut out = OutputFile::create(&path).expect("io");
        out.write_all(b"new").expect("io");
        out.flush().expect("io");
        assert_eq!(fs::read_to_string(&path).ok().as_deref(), Some("old"), "untouched until commit");
        assert_eq!(names(&dir).len(), 2, "a temporary file beside it: {:?}", names(&dir));
        out.commit().expect("io");
        assert_eq!(fs::read_to_string(&path).ok().as_deref(), Some("new"));
        assert_eq!(names(&dir), ["out.psn"], "no temporary file left");
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn an_output_given_up_leaves_the_old_file_and_no_temporary_file() {
        let dir = temp_dir("output-file-drop");
        let path = dir.join("out.kif");
        fs::write(&path, "old").expect("io");
        {
            let mut out = OutputFile::create(&path).expect("io");
            out.write_all(b"half a record").expect("io");
        }
        assert_eq!(fs::read_to_string(&path).ok().as_deref(), Some("old"));
        assert_eq!(names(&dir), ["out.kif"]);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn a_folder_is_refused_as_an_output() {
        let dir = temp_dir("output-file-folder");
        let e = OutputFile::create(&dir).err().map(|e| e.kind());
        assert_eq!(e, Some(io::ErrorKind::IsADirectory));
        let _ = fs::remove_dir_all(dir);
    }

    #[cfg(unix)]
    #[test]
    fn an_output_through_a_symlink_replaces_the_file_and_keeps_the_link() {
        let dir = temp_dir("output-file-symlink");
        let (real, link) = (dir.join("real.csa"), dir.join("link.csa"));
        fs::write(&real, "old").expect("io");
        std::os::unix::fs::symlink(&real, &link).expect("io");
        let mut out = OutputFile::create(&link).expect("io");
        out.write_all(b"new").expect("io");
        out.commit().expect("io");
        assert_eq!(fs::read_to_string(&real).ok().as_deref(), Some("new"));
        assert!(fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        let _ = fs::remove_dir_all(dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_directly() {
        let mut out = OutputFile::create(Path::new("/dev/null")).expect("io");
        out.write_all(b"gone").expect("io");
        out.commit().expect("io");
        assert!(fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()), "still the device");
    }

    #[cfg(unix)]
    #[test]
    fn same_file_sees_through_symlinks_and_hard_links_but_not_devices() {
        let dir = temp_dir("output-file-same");
        let (a, b) = (dir.join("a.psn"), dir.join("b.psn"));
        fs::write(&a, "x").expect("io");
        fs::write(&b, "x").expect("io");
        std::os::unix::fs::symlink(&a, dir.join("sym.psn")).expect("io");
        fs::hard_link(&a, dir.join("hard.psn")).expect("io");
        assert!(same_file(&a, &dir.join("sym.psn")));
        assert!(same_file(&a, &dir.join("hard.psn")));
        assert!(same_file(&a, &dir.join(".").join("a.psn")));
        assert!(!same_file(&a, &b), "equal contents are not the same file");
        assert!(!same_file(&a, &dir.join("missing.psn")));
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
        let _ = fs::remove_dir_all(dir);
    }
}
