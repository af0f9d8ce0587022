//! Reading and writing puzzles as text: the neknek KenKen format, the
//! Sudoku line and grid formats, Keen game IDs, SudoCue killer strings and
//! f-puzzles links, with auto-detection.

mod detect;
mod error;
mod fields;
pub mod fpuzzles;
pub mod keen;
pub mod kenken;
pub mod killer;
mod options;
mod reader;
mod stream;
pub mod sudoku;

pub use detect::detect;
pub use error::{ParseError, ParseErrorKind, WriteError};
pub use options::{Boxes, Format, ParseOptions, Parsed};
pub use stream::Parser;

use std::str::FromStr;

use crate::puzzle::{Cell, Puzzle};

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

/// One puzzle in any format cagey reads, detected; an error if the text
/// holds none or more than one.
///
/// ```
/// let puzzle: cagey::Puzzle = "# 3\n+ 6 A1 A2 A3\n".parse().unwrap();
/// assert_eq!(puzzle.size(), 3);
/// let two = "1...\n..2.\n".parse::<cagey::Puzzle>().unwrap_err();
/// assert_eq!(two.to_string(), "<string>:2:1: a second puzzle starts here: expected one");
/// ```
impl FromStr for Puzzle {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        let mut parsed = parse(text, STRING, &ParseOptions::default())?.into_iter();
        let first = parsed.next().ok_or_else(|| at(STRING, 1, ParseErrorKind::Empty))?;
        match parsed.next() {
            Some(second) => Err(at(STRING, second.line, ParseErrorKind::MorePuzzles)),
            None => Ok(first.puzzle),
        }
    }
}

/// A cell by its KenKen name (`B3`: row letter, column number) or its
/// Sudoku name (`r2c3`), in a grid of up to [`MAX_SIZE`](crate::MAX_SIZE).
///
/// ```
/// use cagey::Cell;
/// assert_eq!("B3".parse::<Cell>().unwrap(), Cell::new(1, 2));
/// assert_eq!(Cell::parse("r2c3").unwrap(), Cell::new(1, 2));
/// assert!(Cell::parse("Z0").is_err());
/// ```
impl FromStr for Cell {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Cell, ParseError> {
        let size = crate::puzzle::MAX_SIZE;
        let sudoku = || {
            let (row, col) = text.strip_prefix(['r', 'R'])?.split_once(['c', 'C'])?;
            let (row, col) = (row.parse::<usize>().ok()?.checked_sub(1)?, col.parse::<usize>().ok()?.checked_sub(1)?);
            (row < size && col < size).then_some(Cell::new(row, col))
        };
        kenken::parse_cell(text, size)
            .or_else(sudoku)
            .ok_or_else(|| at("<cell>", 1, ParseErrorKind::BadCell { found: text.to_string(), size }))
    }
}

impl Cell {
    /// [`Cell::from_str`]: `B3` or `r2c3`.
    pub fn parse(text: &str) -> Result<Cell, ParseError> {
        text.parse()
    }
}

/// The source name of a puzzle parsed from a string.
const STRING: &str = "<string>";

/// An error at the start of `line` of `source_name`.
fn at(source_name: &str, line: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { source_name: source_name.to_string(), line, column: 1, kind }
}
