//! Reading and writing puzzles as text: the neknek KenKen format, the
//! Sudoku line and grid formats, and Keen game IDs, with auto-detection.

mod detect;
mod error;
mod fields;
pub mod keen;
pub mod kenken;
mod options;
mod reader;
mod stream;
pub mod sudoku;

pub use detect::detect;
pub use error::{ParseError, ParseErrorKind, WriteError};
pub use options::{Boxes, Format, ParseOptions, Parsed};
pub use stream::Parser;

/// Parses every puzzle in `text`, detecting the format unless the options
/// force one. `source_name` names the text in error messages. To read a
/// long text as it comes, a line at a time, use [`Parser`].
///
/// ```
/// use cagey::format::{self, Boxes, Format, ParseOptions};
///
/// let sudoku = "1...\n..2.\n"; // two 2x2 Latin squares with one given each
/// let options = ParseOptions { format: Some(Format::Sudoku), boxes: Boxes::None };
/// let parsed = format::parse(sudoku, "two.txt", &options).unwrap();
/// assert_eq!((parsed.len(), parsed[1].line, parsed[1].puzzle.size()), (2, 2, 2));
///
/// let error = format::parse("# 4\n+ 3 A1 Z9\n", "bad.txt", &ParseOptions::default()).unwrap_err();
/// assert_eq!(error.to_string(), "bad.txt:2:8: bad cell 'Z9': expected a row A-D and a column 1-4, like B3");
/// ```
pub fn parse(text: &str, source_name: &str, options: &ParseOptions) -> Result<Vec<Parsed>, ParseError> {
    stream::parse(text, source_name, options)
}
