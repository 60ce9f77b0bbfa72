//! Text of record files: decoding (UTF-8 with or without BOM, or Shift_JIS, which Shogidokoro and
//! `.kif` files use), line splitting (`\n`, `\r\n` or a lone `\r`), and fast Shift_JIS encoding
//! for the KIF writer.

use std::borrow::Cow;
use std::cell::RefCell;

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// True if a line that is not plain ASCII is UTF-8: valid UTF-8 without C1 control characters
/// (U+0080 to U+009F, which no text holds). Shift_JIS half-width kana followed by a two-byte
/// character can be valid UTF-8 (`ﾂ：` is C2 81 46, U+0081 `F`), but only as such a control.
pub(super) fn is_utf8_line(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|s| !s.chars().any(is_c1_control))
}

/// Decodes record bytes. A UTF-8 BOM means UTF-8; otherwise the first line that is not plain
/// ASCII decides: UTF-8 (`is_utf8_line`) means UTF-8, anything else Shift_JIS. Malformed bytes
/// and C1 controls (`without_c1_controls`) become U+FFFD; they are reported where they break the
/// format. [`super::GameReader`] decides
/// the same way line by line, so both read the same games.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    let (bytes, bom) = strip_boms(bytes);
    let utf8 = bom || bytes.split(|&b| b == b'\n' || b == b'\r').find(|l| !l.is_ascii()).is_none_or(is_utf8_line);
    let text =
        if utf8 { String::from_utf8_lossy(bytes) } else { encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0 };
    without_c1_controls(text)
}

/// `bytes` without the UTF-8 byte-order marks they start with, and whether there was one. All
/// are stripped: a second mark read as text (U+FEFF) would be written first in the file and
/// stripped on the next reading, so the record would change on its second trip.
pub(super) fn strip_boms(mut bytes: &[u8]) -> (&[u8], bool) {
    let mut bom = false;
    while let Some(rest) = bytes.strip_prefix(BOM) {
        (bytes, bom) = (rest, true);
    }
    (bytes, bom)
}

/// True for a C1 control character, U+0080 to U+009F.
fn is_c1_control(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
}

/// Decoded text with its C1 control characters replaced by U+FFFD, like other bytes that are no
/// character. No record text holds them; they come from stray bytes (Shift_JIS as the WHATWG
/// decoder reads it maps a lone 0x80 to U+0080). Kept, they would be written back as UTF-8 that
/// [`is_utf8_line`] rightly takes for Shift_JIS, and the text would change on every trip.
pub(super) fn without_c1_controls(text: Cow<'_, str>) -> Cow<'_, str> {
    if text.chars().any(is_c1_control) {
        Cow::Owned(text.chars().map(|c| if is_c1_control(c) { '\u{fffd}' } else { c }).collect())
    } else {
        text
    }
}

thread_local! {
    /// Shift_JIS bytes of the BMP characters met so far (0 = not looked up yet, 1 = none).
    static SJIS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// The Shift_JIS encoding of one non-ASCII character (two bytes, or one for half-width kana),
/// `None` when Shift_JIS has no such character.
fn sjis_of(c: char) -> Option<u16> {
    let mut buf = [0u8; 4];
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf));
    match (unmappable, bytes.as_ref()) {
        (false, [a, b]) => Some(u16::from_be_bytes([*a, *b])),
        (false, [a]) => Some(*a as u16),
        _ => None,
    }
}

/// Encodes text as Shift_JIS, exactly as `encoding_rs` does: characters Shift_JIS lacks become
/// HTML numeric references (record text is kanji, kana and ASCII, which it has; a player's name
/// may not be), and are listed, each once, after the bytes. Looked-up characters are remembered,
/// so a KIF file costs a table read per character instead of an encoder search.
pub fn encode_shift_jis(text: &str) -> (Vec<u8>, Vec<char>) {
    let mut out = Vec::with_capacity(text.len());
    let mut lacking = Vec::new();
    SJIS.with(|cell| {
        let mut table = cell.borrow_mut();
        if table.is_empty() {
            table.resize(0x10000, 0);
        }
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c as u8);
                continue;
            }
            let code = match table.get(c as usize).copied() {
                Some(0) | None => {
                    let v = sjis_of(c).unwrap_or(1);
                    if let Some(slot) = table.get_mut(c as usize) {
                        *slot = v;
                    }
                    v
                }
                Some(v) => v,
            };
            match code {
                1 => {
                    out.extend_from_slice(format!("&#{};", c as u32).as_bytes());
                    if !lacking.contains(&c) {
                        lacking.push(c);
                    }
                }
                v if v < 0x100 => out.push(v as u8),
                v => out.extend_from_slice(&v.to_be_bytes()),
            }
        }
    });
    (out, lacking)
}

/// Lines of text: split at `\n`, `\r\n` or a lone `\r`, without the terminators. A final line
/// terminator does not start another (empty) line.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// Iterator of [`lines`]; also tells where each line starts and ends.
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Lines<'a> {
    /// The next line as (start, end without terminator, start of the following line).
    pub fn next_span(&mut self) -> Option<(usize, usize, usize)> {
        if self.at >= self.text.len() {
            return None;
        }
        let bytes = self.text.as_bytes();
        let start = self.at;
        let rel = bytes[start..].iter().position(|&b| b == b'\n' || b == b'\r');
        let (end, next) = match rel {
            None => (bytes.len(), bytes.len()),
            Some(i) => {
                let end = start + i;
                let next = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') { end + 2 } else { end + 1 };
                (end, next)
            }
        };
        self.at = next;
        Some((start, end, next))
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let (start, end, _) = self.next_span()?;
        Some(&self.text[start..end])
    }
}

/// The 1-based character column of byte offset `at` in `line`.
pub fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(1, |s| s.chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_and_utf8_with_or_without_bom() {
        let s = "手合割：平手";
        assert_eq!(decode_text(s.as_bytes()), s);
        let mut bom = BOM.to_vec();
        bom.extend_from_slice(s.as_bytes());
        assert_eq!(decode_text(&bom), s);
        assert_eq!(decode_text(&encode_shift_jis(s).0), s);
    }

    #[test]
    fn the_cached_encoder_agrees_with_encoding_rs() {
        // Everything the KIF and KI2 writers use, half-width kana, and a character Shift_JIS
        // lacks (written as a numeric reference).
        let s = "先手：ａｂ　▲７六歩(77)△同　銀成不成打 馬龍竜 ｶﾅ 手数----指手 まで5手で後手の勝ち\n";
        let (expected, _, bad) = encoding_rs::SHIFT_JIS.encode(s);
        assert!(!bad);
        assert_eq!(encode_shift_jis(s), (expected.to_vec(), vec![]));
        assert_eq!(encode_shift_jis(s), (expected.to_vec(), vec![]), "again, from the cache");
        assert_eq!(encode_shift_jis("a😀b").0, encoding_rs::SHIFT_JIS.encode("a😀b").0.as_ref());
        assert_eq!(encode_shift_jis("Müller 😀 ü"), (b"M&#252;ller &#128512; &#252;".to_vec(), vec!['ü', '😀']));
    }

    #[test]
    fn lines_split_at_every_kind_of_line_end() {
        let got: Vec<&str> = lines("a\nb\r\nc\rd\r\r\ne\n").collect();
        assert_eq!(got, ["a", "b", "c", "d", "", "e"]);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("x").collect::<Vec<_>>(), ["x"]);
        assert_eq!(column("ab手c", 5), 4);
    }
}
