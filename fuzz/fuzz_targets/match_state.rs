//! The match state file (`<output>.state`, what `hisha match --resume` and `--merge` read) on any
//! bytes, written to a file and read with `arena::state::load`: no panic; a bad line is named by
//! its number and its text, which are the file's; only text that is not UTF-8 is unreadable; a
//! state read has one game per line that is neither the header nor blank, engine names without
//! the separators, and time controls (`tc1`, `tc2`) that write back and read the same.
#![no_main]

use hisha::arena::state::{self, StateError};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The file each input is written to: one per process, on a RAM disk where there is one.
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let dir = if shm.is_dir() { shm } else { std::env::temp_dir() };
        dir.join(format!("hisha-fuzz-{}.psn.state", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let path = path();
    std::fs::write(path, data).expect("the fuzzer's own file is writable");
    let read = state::load(path);
    let text = std::str::from_utf8(data);
    match read {
        Ok(st) => {
            let text = text.expect("a state read is UTF-8");
            let game_lines = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count();
            assert_eq!(st.games.len(), game_lines, "one game per game line");
            for g in &st.games {
                assert!(!g.black.contains(['\t', '\n']) && !g.white.contains(['\t', '\n']), "{g:?}");
            }
            if let Some(identity) = &st.identity {
                for tc in &identity.time_controls {
                    assert_eq!(tc.to_string().parse().as_ref(), Ok(tc), "{tc}");
                }
            }
        }
        Err(StateError::BadLine { path: p, line, text: shown }) => {
            assert_eq!(&p, path);
            let text = text.expect("a file read line by line is UTF-8");
            let lines: Vec<&str> = text.lines().collect();
            assert!(line >= 1 && line <= lines.len(), "line {line} of {}", lines.len());
            assert_eq!(lines[line - 1], shown, "the line named is the line shown");
        }
        Err(StateError::File(e)) => {
            assert!(text.is_err(), "only text that is not UTF-8 is unreadable: {e}");
            assert_eq!(&e.path, path);
        }
    }
});
