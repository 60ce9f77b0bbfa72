//! GUI → engine command lines on any text: no panic; an error names a column inside the line
//! (one past the end for a missing word); what parses prints a line that parses to the same.
#![no_main]

use hisha::usi::command::{UsiCommand, UsiError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    match line.parse::<UsiCommand>() {
        Ok(cmd) => {
            let printed = cmd.to_string();
            let again: UsiCommand = printed.parse().unwrap_or_else(|e| panic!("{printed:?}: {e}"));
            assert_eq!(again.to_string(), printed);
        }
        Err(UsiError::Empty) => assert!(line.trim().is_empty()),
        Err(e) => {
            let column = e.column().expect("every error but an empty line has a column");
            assert!(column >= 1 && column <= line.chars().count() + 1, "{e} in {line:?}");
            assert!(e.to_string().starts_with(&format!("column {column}: ")), "{e}");
        }
    }
});
