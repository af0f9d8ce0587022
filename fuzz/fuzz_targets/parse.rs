//! Any bytes, as text, through every parser, whole and a line at a time
//! reading on past errors: puzzles or errors, never a panic or a hang. Run
//! with `cargo +nightly fuzz run parse` from the repository's root (see the
//! README).
#![no_main]

use cagey::format::{self, Boxes, Format, ParseOptions, Parser};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let formats = [Format::KenKen, Format::Sudoku, Format::Keen, Format::Killer, Format::FPuzzles];
    for format in [None].into_iter().chain(formats.map(Some)) {
        let options = ParseOptions { format, boxes: Boxes::Default };
        let whole = format::parse(&text, "fuzz", &options);
        if let Ok(parsed) = &whole {
            assert!(!parsed.is_empty());
        }
        let mut parser = Parser::new("fuzz", options);
        let mut first = None;
        for line in text.lines() {
            parser.push(line);
            first = first.or_else(|| parser.by_ref().find(Result::is_err));
        }
        parser.finish();
        first = first.or_else(|| parser.by_ref().find(Result::is_err));
        assert_eq!(whole.err(), first.map(|e| e.unwrap_err()));
    }
});
