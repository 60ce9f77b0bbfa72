//! Game records: every reader and writer (round trips over generated games, the seed documents'
//! examples, the GUI dialects byte for byte), streaming and encodings, `hisha convert`, no-panic
//! property tests, cross-checks with cshogi (moves, and the winner of every result kind), and the
//! reading/writing benchmark (ignored; see `records/bench.rs`). One test binary keeps the release
//! build of CI short.

mod outside;
mod support;

mod records {
    mod bench;
    mod convert;
    mod convert_outputs;
    mod cshogi;
    mod cshogi_results;
    mod endings;
    mod games;
    mod kif_csa_formats;
    mod props;
    mod psn_formats;
    mod readers_results;
    mod round_trips;
    mod streaming;
}
