//! Streaming: telling the games of a file apart line by line, so that a reader holds one game at a
//! time. [`GameReader`] reads any `BufRead` (a file, standard input), decodes each line (UTF-8 with
//! or without BOM, or Shift_JIS, decided at the first non-ASCII line), detects the format if asked
//! and yields one `Result<GameRecord, RecordError>` per game; [`split`] does the same over text in
//! memory without copying.

use super::boundary::{Cut, GameBoundaries};
use super::error::{RecordError, RecordErrorKind, RecordWarning};
use super::{Format, GameRecord, csa, detect_format, kif, parse_game, psn, text, usi_line};
use std::collections::VecDeque;
use std::io::BufRead;

/// The boundary rules of the format read, chosen from its family.
#[derive(Clone, Debug)]
enum Splitter {
    Psn(psn::Boundaries),
    Kif(kif::KifBoundaries),
    Ki2(kif::Ki2Boundaries),
    Csa(csa::Boundaries),
    Usi(usi_line::Boundaries),
}

impl Splitter {
    fn new(format: Format) -> Splitter {
        match format {
            Format::Psn | Format::Psn2 => Splitter::Psn(psn::Boundaries::default()),
            Format::Kif | Format::Kifu => Splitter::Kif(kif::KifBoundaries::default()),
            Format::Ki2 | Format::Ki2u => Splitter::Ki2(kif::Ki2Boundaries::default()),
            Format::Csa => Splitter::Csa(csa::Boundaries),
            Format::Usi => Splitter::Usi(usi_line::Boundaries),
        }
    }

    /// What `line` means for the boundaries, and whether it makes its game worth reporting.
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        match self {
            Splitter::Psn(b) => b.cut(line),
            Splitter::Kif(b) => b.cut(line),
            Splitter::Ki2(b) => b.cut(line),
            Splitter::Csa(b) => b.cut(line),
            Splitter::Usi(b) => b.cut(line),
        }
    }
}

/// Reads every game of `bytes` in `format` (UTF-8 with or without BOM, or Shift_JIS). For a
/// file too large to hold, or to hear the reader's warnings, use [`GameReader`], which reads one
/// game at a time.
pub fn read_games(bytes: &[u8], format: Format) -> Vec<Result<GameRecord, RecordError>> {
    let text = text::decode_text(bytes);
    split(&text, format).map(|(first, game)| parse_game(game, first, format).map(|(rec, _)| rec)).collect()
}

/// The games of text in memory: (first line number, the game's text).
fn split(text: &str, format: Format) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut splitter = Splitter::new(format);
    let mut lines = text::lines(text);
    let mut line_no = 0usize;
    // The game being gathered: (first line, byte start, byte end, has content).
    let mut current: Option<(usize, usize, usize, bool)> = None;
    let mut done = false;
    std::iter::from_fn(move || {
        while !done {
            let Some((start, end, next)) = lines.next_span() else {
                done = true;
                break;
            };
            line_no += 1;
            let (cut, content) = splitter.cut(&text[start..end]);
            let finished = match cut {
                Cut::Line => {
                    let g = current.get_or_insert((line_no, start, next, false));
                    g.2 = next;
                    g.3 |= content;
                    None
                }
                Cut::Starts => current.replace((line_no, start, next, content)),
                Cut::Separates => current.take(),
            };
            if let Some((first, s, e, true)) = finished {
                return Some((first, &text[s..e]));
            }
        }
        match current.take() {
            Some((first, s, e, true)) => Some((first, &text[s..e])),
            _ => None,
        }
    })
}

/// How the lines of a stream are decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    /// Only ASCII seen so far.
    Unknown,
    Utf8,
    ShiftJis,
}

/// Reads games one at a time from a `BufRead`.
pub struct GameReader<R: BufRead> {
    input: R,
    format: Option<Format>,
    splitter: Splitter,
    encoding: Encoding,
    /// Physical lines read so far.
    line_no: usize,
    /// Decoded lines read ahead (for format detection) and not yet split.
    ahead: VecDeque<(usize, String)>,
    /// The game being gathered: its first line, its text, and whether it has content.
    game: Option<(usize, String, bool)>,
    raw: Vec<u8>,
    /// Lines split off a raw line at lone `\r`s, waiting.
    pending: VecDeque<Vec<u8>>,
    failed: bool,
    /// Detection saw no text but blank lines.
    blank: bool,
    /// Detection was stopped by this read error.
    detect_error: Option<String>,
    /// What the reader warns about the game yielded last.
    warnings: Vec<RecordWarning>,
}

/// How much text format detection looks at.
const DETECT_BYTES: usize = 64 * 1024;

impl<R: BufRead> GameReader<R> {
    /// A reader of `format` games.
    pub fn new(input: R, format: Format) -> GameReader<R> {
        GameReader {
            input,
            format: Some(format),
            splitter: Splitter::new(format),
            encoding: Encoding::Unknown,
            line_no: 0,
            ahead: VecDeque::new(),
            game: None,
            raw: Vec::new(),
            pending: VecDeque::new(),
            failed: false,
            blank: false,
            detect_error: None,
            warnings: Vec::new(),
        }
    }

    /// A reader that detects the format from the first 64 KiB of text (and the file name `path`,
    /// if given). `None` for the format means it could not be told; the reader then yields
    /// nothing.
    pub fn detect(input: R, path: Option<&str>) -> GameReader<R> {
        let mut r = GameReader::new(input, Format::Psn);
        let mut sample = String::new();
        while sample.len() < DETECT_BYTES {
            match r.read_line() {
                Some(Ok(line)) => {
                    sample.push_str(&line);
                    sample.push('\n');
                    r.ahead.push_back((r.line_no, line));
                }
                Some(Err(e)) => {
                    r.detect_error = Some(e.to_string());
                    break;
                }
                None => break,
            }
        }
        r.blank = sample.trim().is_empty();
        r.format = detect_format(&sample, path);
        if let Some(f) = r.format {
            r.splitter = Splitter::new(f);
        }
        r
    }

    /// The format read (`None`: detection failed).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// True when detection found nothing but blank lines (an empty input).
    pub fn is_blank(&self) -> bool {
        self.blank && self.detect_error.is_none()
    }

    /// The read error that stopped detection, if one did.
    pub fn read_error(&self) -> Option<&str> {
        self.detect_error.as_deref()
    }

    /// What the reader warns about the game it yielded last (read with `while let Some(game) =
    /// reader.next()`): a game that stops without an ending, say.
    pub fn warnings(&self) -> &[RecordWarning] {
        &self.warnings
    }

    /// Reads and decodes the next physical line.
    fn read_line(&mut self) -> Option<std::io::Result<String>> {
        let bytes = match self.pending.pop_front() {
            Some(b) => b,
            None => {
                self.raw.clear();
                match self.input.read_until(b'\n', &mut self.raw) {
                    Ok(0) => return None,
                    Ok(_) => {}
                    Err(e) => return Some(Err(e)),
                }
                let mut line: &[u8] = &self.raw;
                if self.line_no == 0 && self.pending.is_empty() {
                    let (rest, bom) = text::strip_boms(line);
                    if bom {
                        line = rest;
                        self.encoding = Encoding::Utf8;
                    }
                }
                let line = line.strip_suffix(b"\n").unwrap_or(line);
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                // Lone `\r`s end lines too.
                let mut parts = line.split(|&b| b == b'\r');
                let first = parts.next().unwrap_or_default().to_vec();
                self.pending.extend(parts.map(<[u8]>::to_vec));
                first
            }
        };
        self.line_no += 1;
        Some(Ok(self.decode(bytes)))
    }

    fn decode(&mut self, bytes: Vec<u8>) -> String {
        if self.encoding == Encoding::Unknown && !bytes.is_ascii() {
            self.encoding = if text::is_utf8_line(&bytes) { Encoding::Utf8 } else { Encoding::ShiftJis };
        }
        let text = match self.encoding {
            Encoding::ShiftJis => encoding_rs::SHIFT_JIS.decode_without_bom_handling(&bytes).0.into_owned(),
            _ => String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        };
        text::without_c1_controls(text.into()).into_owned()
    }

    fn finish(&mut self, game: Option<(usize, String, bool)>) -> Option<Result<GameRecord, RecordError>> {
        let (first, text, true) = game? else { return None };
        let format = self.format?;
        Some(parse_game(&text, first, format).map(|(rec, warning)| {
            self.warnings.extend(warning);
            rec
        }))
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.warnings.clear();
        if self.format.is_none() || self.failed {
            return None;
        }
        loop {
            let (n, line) = match self.ahead.pop_front() {
                Some(l) => l,
                None => match self.read_line() {
                    Some(Ok(l)) => (self.line_no, l),
                    Some(Err(e)) => {
                        self.failed = true;
                        let kind = RecordErrorKind::Io(e.to_string());
                        return Some(Err(RecordError::new(self.line_no + 1, 1, kind)));
                    }
                    None => {
                        let game = self.game.take();
                        return self.finish(game);
                    }
                },
            };
            let (cut, content) = self.splitter.cut(&line);
            let finished = match cut {
                Cut::Line => {
                    let g = self.game.get_or_insert_with(|| (n, String::new(), false));
                    g.1.push_str(&line);
                    g.1.push('\n');
                    g.2 |= content;
                    None
                }
                Cut::Starts => self.game.replace((n, format!("{line}\n"), content)),
                Cut::Separates => self.game.take(),
            };
            if let Some(rec) = self.finish(finished) {
                return Some(rec);
            }
        }
    }
}
