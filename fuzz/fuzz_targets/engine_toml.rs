//! Engine definitions (`engines/*.toml`) on any text: no panic, and an error names the line and
//! column it is about.
#![no_main]

use hisha::client::config::EngineConfig;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match EngineConfig::from_toml(text, Path::new("/engines"), "fuzzed", "fuzzed.toml") {
        Ok(_) => {}
        Err(e) => {
            let (line, column) = e.at.expect("an error in a file's text has a place");
            assert!(line >= 1 && line <= text.split('\n').count(), "{e}");
            assert!(column >= 1, "{e}");
            assert!(e.to_string().contains(&format!("line {line}, column {column}: ")), "{e}");
        }
    }
});
