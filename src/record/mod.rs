//! Game records independent of notation (psn.md, kif-csa.md): the [`GameRecord`] model, and
//! readers and writers for PSN (1998, Draft 1 and the GUI dialect), PSN2, KIF/KIFU, KI2, CSA and
//! plain USI lines.
//!
//! Readers stream: [`GameReader`] reads any `BufRead` one game at a time and yields one
//! `Result<GameRecord, RecordError>` per game; a broken game is reported with its line and column
//! and the reader goes on with the next. A reader never invents a move or a result: a game whose
//! text stops without an ending (a cut file) reads with no result, and the reader warns
//! ([`RecordWarning`], from [`GameReader::warnings`]); a construct left open (a PSN `{`) is an
//! error at its start, not a swallower of what follows. Writers append one game at a time to any `Write` and
//! flush, so a crash loses at most the game in progress.
//!
//! Times are kept in milliseconds. CSA (V3.0, `T0.512`) writes them so; the other text formats
//! store whole seconds, rounded, so a round trip through them keeps times exactly when they are
//! whole seconds.
//!
//! Layout: one folder per dialect family (`kif/`: KIF, KIFU, KI2, board diagrams, kanji, engine
//! comments; `csa/`; `psn/`: PSN, PSN2 and their tokenizer; `usi_line`). Each family reads and
//! writes its formats and, in its `detect` part, says whether a text is written in one of them
//! (`sniff`) and where its games start (`GameBoundaries`), through the types of `boundary`;
//! `format` (detection, the writer) and `stream` (splitting a file into games) only combine the
//! families. The families share the model (`game`), `builder`, `text`, `error`, `partial`,
//! `promotion` and `result_words`, and import neither `format` nor `stream` (but the [`Format`]
//! type).

mod boundary;
mod builder;
mod csa;
mod ending;
mod error;
mod format;
mod game;
mod kif;
mod partial;
mod per_game;
mod promotion;
mod psn;
mod result_words;
mod stream;
mod text;
mod time_control;
mod usi_line;

pub use kif::ki2;
pub use psn::notation;

pub use format::{Format, ParseFormatError, RecordWriter, detect_format};
pub use game::{EngineInfo, GameRecord, MoveRecord, Score, Start, Variation};
pub use per_game::{game_path, game_paths};
pub use stream::{GameReader, read_games};
pub use time_control::{ParseTimeControlError, TimeControl};

pub(crate) use csa::move_text as csa_move_text;
pub use error::{RecordError, RecordErrorKind, RecordWarning, RecordWarningKind};
use format::parse_game;
pub(crate) use result_words::{reason_from_id, reason_id};
pub use text::decode_text;
pub(crate) use text::lines;
