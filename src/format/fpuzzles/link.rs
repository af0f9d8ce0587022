//! What f-puzzles and SudokuPad payloads are made of: LZ-String base64.

use crate::format::error::ParseErrorKind;

/// A link, payload or JSON that cannot be read, and why.
pub(super) fn bad(reason: impl Into<String>) -> ParseErrorKind {
    ParseErrorKind::BadLink { reason: reason.into() }
}

/// Whether `text` starts as LZ-String's base64 of a JSON object does
/// (`N4Ig` for `{"`; SudokuPad's zipped JSON has its keys unquoted).
pub(super) fn payload_start(text: &str) -> bool {
    text.starts_with("N4")
}

/// `text` as an error shows it: at most 24 characters.
pub(super) fn shorten(text: &str) -> String {
    let mut out: String = text.chars().take(24).collect();
    if text.chars().nth(24).is_some() {
        out.push('…');
    }
    out
}

/// LZ-String base64 text decompressed, if it is that.
pub(super) fn decompress(data: &str) -> Option<String> {
    // Links pass through chat clients that turn '+' into spaces.
    let data = data.replace(' ', "+");
    let utf16 = lz_str::decompress_from_base64(&data)?;
    String::from_utf16(&utf16).ok().filter(|text| !text.is_empty())
}

/// LZ-String base64 of `json`, as f-puzzles writes its payloads.
pub(super) fn compress(json: &str) -> String {
    // lz-str pads with one '=' more than the JavaScript library whose links
    // setters share; the padding means nothing to either decoder.
    let mut text = lz_str::compress_to_base64(json).trim_end_matches('=').to_string();
    while text.len() % 4 != 0 {
        text.push('=');
    }
    text
}
