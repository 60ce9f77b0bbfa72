//! How PSN and PSN2 text is recognised, and where its games start: at a header after the body
//! of the previous game, or at a header key the current game already has.

use crate::record::Format;
use crate::record::boundary::{Cut, GameBoundaries, Sample};

/// PSN2 when the first header is a `[Black …]`/`[BLACK …]` tag, PSN for any other header; a
/// PSN file may open with a `{ … }` comment, and then its first header (within 200 lines) decides.
pub(crate) fn sniff(sample: &Sample) -> Option<Format> {
    let mut lines = sample.significant_lines();
    let mut first = lines.next().unwrap_or("");
    if first.starts_with('{') {
        first = std::iter::once(first).chain(lines).take(200).find(|l| l.starts_with('[')).unwrap_or(first);
    }
    if first.starts_with("[Black") || first.starts_with("[BLACK") {
        Some(Format::Psn2)
    } else if first.starts_with('[') {
        Some(Format::Psn)
    } else {
        None
    }
}

/// The game boundaries of PSN and PSN2.
#[derive(Clone, Debug, Default)]
pub(crate) struct Boundaries {
    /// Inside a `{ … }` comment (they do not nest, and a full header line ends one left open).
    in_comment: bool,
    /// The current game has text after its headers.
    seen_body: bool,
    /// The header keys of the current game. A key seen again starts a new game, so a game of
    /// headers only (no moves, no result) stays apart from the next one. Keys are compared as
    /// written: a game may hold `WhiteTimeSetting` and `WhiteTImeSetting`, two tags to the writer.
    header_keys: Vec<String>,
}

/// The key of a PSN header line `[Key "Value"]`; `None` for any other line.
fn header_key(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = t.strip_prefix('[')?.strip_suffix(']').filter(|inner| !inner.is_empty())?;
    let key = inner.split(|c: char| c.is_whitespace() || c == '"').next().unwrap_or("");
    Some(key.to_string())
}

/// True for a header line with a quoted value, `[Key "Value"]` (straight or curly quotes): what
/// ends a comment left open, where `[note]` could still be a comment's text.
fn is_full_header(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[') && t.ends_with(']') && t.contains(['"', '“', '”'])
}

impl GameBoundaries for Boundaries {
    fn cut(&mut self, line: &str) -> (Cut, bool) {
        // A `{` left open does not swallow the games after it: a full header line ends it (the
        // game with the open comment then fails to read, at its `{`).
        if self.in_comment && is_full_header(line) {
            self.in_comment = false;
        }
        if let Some(key) = header_key(line).filter(|_| !self.in_comment) {
            let starts = std::mem::replace(&mut self.seen_body, false) || self.header_keys.contains(&key);
            if starts {
                self.header_keys.clear();
            }
            self.header_keys.push(key);
            return (if starts { Cut::Starts } else { Cut::Line }, true);
        }
        let mut outside = false;
        for &c in line.as_bytes() {
            match c {
                b'{' => self.in_comment = true,
                b'}' => self.in_comment = false,
                c if !self.in_comment && !c.is_ascii_whitespace() => outside = true,
                _ => {}
            }
        }
        self.seen_body |= !line.trim().is_empty();
        (Cut::Line, outside)
    }
}
