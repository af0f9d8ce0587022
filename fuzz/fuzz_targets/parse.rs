//! Any bytes, as text, through every parser: puzzles or an error, never a
//! panic or a hang. Run with `cargo +nightly fuzz run parse` from the
//! repository's root (see the README).
#![no_main]

use cagey::format::{self, Boxes, Format, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    for format in [None, Some(Format::KenKen), Some(Format::Sudoku)] {
        let options = ParseOptions { format, boxes: Boxes::Default };
        if let Ok(parsed) = format::parse(&text, "fuzz", &options) {
            assert!(!parsed.is_empty());
        }
    }
});
