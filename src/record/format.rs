//! Record formats: names, detection from content and file extension, reading any of them, and
//! a file writer that adds what a format needs once per file (PSN2's BOM, KIFU's version line)
//! and encodes `.kif` and `.ki2` as Shift_JIS.

use super::boundary::Sample;
use super::error::{RecordError, RecordWarning, RecordWarningKind};
use super::kif::ki2;
use super::psn::psn2;
use super::{GameRecord, csa, kif, partial, psn, text, usi_line};
use crate::position::sfen::SfenError;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PSN (read: all variants; written: the GUI dialect).
    Psn,
    /// PSN2 (MyShogi).
    Psn2,
    /// KIF in Shift_JIS.
    Kif,
    /// KIF in UTF-8 (`.kifu`).
    Kifu,
    /// KI2 in Shift_JIS (`.ki2`, as Kifu for Windows, Shogidokoro and cshogi read it).
    Ki2,
    /// KI2 in UTF-8 (`.ki2u`).
    Ki2u,
    /// CSA (read: V2.2 and V3.0; written: V3.0, UTF-8).
    Csa,
    /// One `startpos moves …` / `sfen … moves …` line per game.
    Usi,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 8] =
        [Format::Psn, Format::Psn2, Format::Kif, Format::Kifu, Format::Ki2, Format::Ki2u, Format::Csa, Format::Usi];

    /// The usual file extension: the format's name, but `.psn` for PSN2 too.
    pub fn extension(self) -> &'static str {
        if self == Format::Psn2 { "psn" } else { self.name() }
    }

    /// The format's name, as [`FromStr`] reads it (in any case), [`fmt::Display`] writes it and
    /// the command line takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Psn => "psn",
            Format::Psn2 => "psn2",
            Format::Kif => "kif",
            Format::Kifu => "kifu",
            Format::Ki2 => "ki2",
            Format::Ki2u => "ki2u",
            Format::Csa => "csa",
            Format::Usi => "usi",
        }
    }

    /// True for the formats that hold one game per file (KIF, KIFU, KI2, KI2U): cshogi and GUIs read a
    /// second game in the file as the continuation of the first.
    pub fn one_game_per_file(self) -> bool {
        matches!(self, Format::Kif | Format::Kifu | Format::Ki2 | Format::Ki2u)
    }

    /// The format a file name's extension suggests (`.psn` is taken as PSN; content decides PSN2).
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "psn" => Format::Psn,
            "psn2" => Format::Psn2,
            "kif" => Format::Kif,
            "kifu" => Format::Kifu,
            "ki2" => Format::Ki2,
            "ki2u" => Format::Ki2u,
            "csa" => Format::Csa,
            "usi" | "sfen" | "txt" => Format::Usi,
            _ => return None,
        })
    }
}

/// A format name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown record format {0:?} (psn, psn2, kif, kifu, ki2, ki2u, csa, usi)")]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;
    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseFormatError(s.to_string()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Guesses the format of decoded record text, falling back to the file extension.
pub fn detect_format(text: &str, path: Option<&str>) -> Option<Format> {
    // The families in the order their signs are trusted: PSN and CSA by their first line, then
    // KI2 and KIF by marks anywhere in the text, and USI lines, whose first words are plain, last.
    const SNIFFS: [fn(&Sample) -> Option<Format>; 4] = [psn::sniff, csa::sniff, kif::sniff, usi_line::sniff];
    let sample = Sample::new(text);
    let by_content = SNIFFS.iter().find_map(|sniff| sniff(&sample));
    let by_path = path.and_then(Format::from_path);
    // `.txt` says nothing about the content: it is taken for USI lines only when writing.
    let txt = path.is_some_and(|p| p.to_ascii_lowercase().ends_with(".txt"));
    match (by_content, by_path) {
        (Some(Format::Kif), Some(Format::Kifu)) => Some(Format::Kifu),
        (Some(Format::Ki2), Some(Format::Ki2u)) => Some(Format::Ki2u),
        (Some(c), _) => Some(c),
        (None, p) => p.filter(|_| !txt),
    }
}

/// Reads one game's text in `format`; its first line is line `first_line` of the file. An error
/// carries the game's readable start, if any ([`RecordError::partial`]); a game read whole comes
/// with what the reader warns about it.
pub(super) fn parse_game(
    text: &str,
    first_line: usize,
    format: Format,
) -> Result<(GameRecord, Option<RecordWarning>), RecordError> {
    let rec = parse_exact(text, first_line, format)
        .map_err(|e| partial::attach(e, text, first_line, |start| parse_exact(start, first_line, format)))?;
    let warning = no_ending(&rec, text, first_line, format);
    Ok((rec, warning))
}

/// The warning for a game whose text stops without an ending, in a format that writes one (USI
/// lines write none), at the game's last line that is not blank.
fn no_ending(rec: &GameRecord, text: &str, first_line: usize, format: Format) -> Option<RecordWarning> {
    if rec.result.is_some() || format == Format::Usi {
        return None;
    }
    let last = text::lines(text).enumerate().filter(|(_, l)| !l.trim().is_empty()).last().map_or(0, |(i, _)| i);
    let claimed = if format == Format::Psn { psn::unconfirmed_result(text) } else { None };
    Some(RecordWarning { line: first_line + last, kind: RecordWarningKind::NoEnding { claimed } })
}

fn parse_exact(text: &str, first_line: usize, format: Format) -> Result<GameRecord, RecordError> {
    match format {
        Format::Psn => psn::parse(text, first_line),
        Format::Psn2 => psn2::parse(text, first_line),
        Format::Kif | Format::Kifu => kif::parse(text, first_line),
        Format::Ki2 | Format::Ki2u => ki2::parse(text, first_line),
        Format::Csa => csa::parse(text, first_line),
        Format::Usi => usi_line::parse(text, first_line),
    }
}

/// Writes games of one format to a file or stream, one game at a time, flushing after each.
pub struct RecordWriter<W: Write> {
    out: W,
    format: Format,
    games: usize,
    at_file_start: bool,
}

impl<W: Write> RecordWriter<W> {
    /// A writer; `at_file_start` says whether the output is empty (a new file), so that a BOM or
    /// a CSA separator is written as needed when appending.
    pub fn new(out: W, format: Format, at_file_start: bool) -> RecordWriter<W> {
        RecordWriter { out, format, games: 0, at_file_start }
    }

    /// The format written.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Games written so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Appends one game and flushes.
    pub fn write(&mut self, rec: &GameRecord) -> io::Result<()> {
        let invalid = |e: SfenError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
        let first = self.at_file_start && self.games == 0;
        match self.format {
            Format::Psn => psn::write(&mut self.out, rec)?,
            Format::Psn2 => {
                if first {
                    self.out.write_all(text::BOM)?;
                }
                psn2::write(&mut self.out, rec)?;
            }
            Format::Kif => self.write_shift_jis(&kif::to_text(rec, false).map_err(invalid)?)?,
            Format::Kifu => self.out.write_all(kif::to_text(rec, first).map_err(invalid)?.as_bytes())?,
            Format::Ki2 => self.write_shift_jis(&ki2::to_text(rec).map_err(invalid)?)?,
            Format::Ki2u => self.out.write_all(ki2::to_text(rec).map_err(invalid)?.as_bytes())?,
            Format::Csa => {
                // V3.0: the first line of a file says its encoding; games after it follow a `/`.
                self.out.write_all(if first { b"'CSA encoding=UTF-8\n" } else { b"/\n" })?;
                self.out.write_all(csa::to_text(rec).map_err(invalid)?.as_bytes())?;
            }
            Format::Usi => usi_line::write(&mut self.out, rec)?,
        }
        self.out.flush()?;
        self.games += 1;
        Ok(())
    }

    /// Writes `text` in Shift_JIS, warning (once a run) when it has no character for some of it:
    /// they become numeric references (`M&#252;ller`), which no reader turns back.
    fn write_shift_jis(&mut self, text: &str) -> io::Result<()> {
        static WARNED: AtomicBool = AtomicBool::new(false);
        let (bytes, lacking) = text::encode_shift_jis(text);
        if !lacking.is_empty() && !WARNED.swap(true, Ordering::Relaxed) {
            let chars: Vec<String> = lacking.iter().map(|c| format!("{c:?}")).collect();
            let utf8 = if self.format == Format::Kif { Format::Kifu } else { Format::Ki2u };
            log::warn!(
                "{} files are Shift_JIS, which has no {}: written as numeric references (&#NNN;); \
                 name the file .{utf8} to write {} in UTF-8",
                self.format.name().to_uppercase(),
                chars.join(", "),
                self.format.name().to_uppercase(),
            );
        }
        self.out.write_all(&bytes)
    }

    /// The underlying writer, borrowed.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_tells_every_family_by_its_own_signs_in_order_of_trust() {
        // The rules of detect_format before the families took them over (commit 89d2cf0).
        let cases: [(&str, Option<&str>, Option<Format>); 24] = [
            ("[Sente \"a\"]\n1.P7g-7f\n", None, Some(Format::Psn)),
            ("[Black \"a\"]\n", None, Some(Format::Psn2)),
            ("[BLACK \"a\"]\n", None, Some(Format::Psn2)),
            ("{An opening comment.\nStill it.}\n\n[Opening \"A\"]\n7g7f\n", None, Some(Format::Psn)),
            ("{A comment and no header.}\n", None, None),
            ("# a note\n\n'CSA encoding=UTF-8\nV2.2\n", None, Some(Format::Csa)),
            ("V3.0\nPI\n+\n", None, Some(Format::Csa)),
            ("N+Alice\n", None, Some(Format::Csa)),
            ("PI\n+\n", None, Some(Format::Csa)),
            ("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n", None, Some(Format::Csa)),
            ("N+\n▲７六歩\n", None, Some(Format::Csa)),
            ("[Sente \"先手：A\"]\n", None, Some(Format::Psn)),
            ("先手：A\n▲７六歩　△３四歩\n", None, Some(Format::Ki2)),
            ("  ☗７六歩\n", Some("a.ki2u"), Some(Format::Ki2u)),
            ("手合割：平手\n", None, Some(Format::Kif)),
            ("   1 ７六歩(77)\n", None, Some(Format::Kif)),
            ("後手：B\n", Some("a.kifu"), Some(Format::Kifu)),
            ("startpos moves 7g7f\n", None, Some(Format::Usi)),
            ("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1\n", None, Some(Format::Usi)),
            ("position startpos moves 7g7f\n", Some("x.txt"), Some(Format::Usi)),
            ("hello\n", None, None),
            ("hello\n", Some("x.csa"), Some(Format::Csa)),
            ("hello\n", Some("x.txt"), None),
            ("", None, None),
        ];
        for (text, path, want) in cases {
            assert_eq!(detect_format(text, path), want, "{text:?} {path:?}");
        }
    }
}
