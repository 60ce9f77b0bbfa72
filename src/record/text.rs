//! Text decoding for record files: UTF-8 (with or without BOM) or Shift_JIS (what Shogidokoro and
//! `.kif` files use), decided per file.

use std::borrow::Cow;

/// Decodes record bytes: a UTF-8 BOM or valid UTF-8 means UTF-8, anything else is Shift_JIS
/// (malformed bytes become U+FFFD; they are reported where they break the format).
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            let (text, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
            text
        }
    }
}

/// Encodes text as Shift_JIS (characters it cannot hold become `?`-like numeric references,
/// which never happens for record text made of kanji, kana and ASCII).
pub fn encode_shift_jis(text: &str) -> Vec<u8> {
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    bytes.into_owned()
}

/// Splits text into lines, accepting `\n`, `\r\n` and lone `\r`.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_and_utf8_with_or_without_bom() {
        let s = "手合割：平手";
        assert_eq!(decode_text(s.as_bytes()), s);
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(s.as_bytes());
        assert_eq!(decode_text(&bom), s);
        assert_eq!(decode_text(&encode_shift_jis(s)), s);
    }
}
