//! Engine → GUI lines (as the match runner reads any engine) on any text: no panic, and the line
//! printed from what was read reads back to the same line.
#![no_main]

use hisha::usi::response::UsiResponse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let Ok(r) = line.parse::<UsiResponse>();
    let printed = r.to_string();
    let Ok(again) = printed.parse::<UsiResponse>();
    assert_eq!(again.to_string(), printed, "from {line:?}");
});
