//! Time controls (`hisha match --tc`, `--tc1`, `--tc2`, an engine file's `tc`, the state file's
//! `tc1`/`tc2`, a record's `TimeControl` tag) on any text: no panic; an error quotes the text;
//! an accepted control displays in a form that parses back to the same control and displays the
//! same again.
#![no_main]

use hisha::client::tc::TimeControl;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match text.parse::<TimeControl>() {
        Ok(tc) => {
            let shown = tc.to_string();
            let again: TimeControl = shown.parse().unwrap_or_else(|e| panic!("{text:?} shows as {shown:?}: {e}"));
            assert_eq!(again, tc, "{text:?} shows as {shown:?}");
            assert_eq!(again.to_string(), shown);
        }
        Err(e) => {
            assert_eq!(e.0, text);
            assert!(e.to_string().contains(&format!("{text:?}")), "{e}");
        }
    }
});
