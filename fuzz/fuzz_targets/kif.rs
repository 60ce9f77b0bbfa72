//! The KIF reader (Shift_JIS or UTF-8) on any bytes: no panic, whole-text and streaming reading agree, errors point
//! into the input, and every game read writes back and reads back the same.
#![no_main]

use hisha::record::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hisha_fuzz::check_reader(data, Format::Kif));
