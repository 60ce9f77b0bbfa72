//! One game per file. KIF, KIFU and KI2 hold one game each: cshogi, and GUIs, read a second game
//! in the same file as the continuation of the first. Several games therefore go to
//! `STEM-0001.EXT`, `STEM-0002.EXT`, … beside the name given (`games.kif` → `games-0001.kif`),
//! at least four digits. `hisha convert --split` numbers the games in order, `hisha match` by game
//! number.

use std::io;
use std::path::{Path, PathBuf};

/// The file of game `n` of the set named `path`: `games.kif`, 3 → `games-0003.kif`.
pub fn game_path(path: &Path, n: usize) -> PathBuf {
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n:04}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n:04}"),
    };
    path.with_file_name(name)
}

/// The number of the game file `name` of the set `stem`.`ext`, if it is one.
fn game_number(name: &str, stem: &str, ext: Option<&str>) -> Option<usize> {
    let rest = name.strip_prefix(stem)?.strip_prefix('-')?;
    let digits = match ext {
        Some(e) => rest.strip_suffix(e)?.strip_suffix('.')?,
        None => rest,
    };
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The game files of the set named `path` that exist, in game order.
pub fn game_paths(path: &Path) -> io::Result<Vec<(usize, PathBuf)>> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        if let Some(n) = game_number(&entry.file_name().to_string_lossy(), &stem, ext.as_deref()) {
            found.push((n, path.with_file_name(entry.file_name())));
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_files_are_numbered_beside_the_name_given() {
        assert_eq!(game_path(Path::new("out/games.kif"), 3), Path::new("out/games-0003.kif"));
        assert_eq!(game_path(Path::new("g.ki2"), 12345), Path::new("g-12345.ki2"));
        assert_eq!(game_path(Path::new("games"), 1), Path::new("games-0001"));
        assert_eq!(game_number("games-0003.kif", "games", Some("kif")), Some(3));
        assert_eq!(game_number("games-12345.kif", "games", Some("kif")), Some(12345));
        assert_eq!(game_number("games-3.kif", "games", Some("kif")), None, "four digits at least");
        assert_eq!(game_number("games-0003.kifu", "games", Some("kif")), None);
        assert_eq!(game_number("games.kif", "games", Some("kif")), None);
    }

    #[test]
    fn the_game_files_of_a_set_are_found_in_order() {
        let dir = crate::testing::temp_dir("per-game");
        for name in ["g-0010.kif", "g-0002.kif", "g.kif", "g-0003.psn", "h-0001.kif"] {
            std::fs::write(dir.join(name), "").expect("write");
        }
        let found = game_paths(&dir.join("g.kif")).expect("reads the folder");
        assert_eq!(found, [(2, dir.join("g-0002.kif")), (10, dir.join("g-0010.kif"))]);
        let _ = std::fs::remove_dir_all(dir);
    }
}
