//! Reading and writing puzzles as text: the neknek KenKen format and the
//! Sudoku line and grid formats, with auto-detection.

mod fields;
pub mod kenken;
mod options;
pub mod sudoku;

use crate::error::{ParseError, ParseErrorKind};
use fields::fields;
pub use options::{Boxes, Format, ParseOptions, Parsed};

/// Guesses the format from the first meaningful line: a `# N` size line or
/// a cage line means KenKen, anything else Sudoku (whose `#` lines are
/// comments). `None` for a text with no meaningful line.
pub fn detect(text: &str) -> Option<Format> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for line in text.lines() {
        let fields = fields(line);
        let Some(&(_, first)) = fields.first() else {
            continue;
        };
        if let Some(rest) = first.strip_prefix('#') {
            // `# N` or `#N`, perhaps with `boxes RxC` after it.
            let words: Vec<&str> =
                [rest].into_iter().filter(|r| !r.is_empty()).chain(fields[1..].iter().map(|f| f.1)).collect();
            let is_size = words.first().is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
            if is_size && (words.len() == 1 || (words.len() == 3 && words[1] == "boxes")) {
                return Some(Format::KenKen);
            }
            continue;
        }
        if crate::puzzle::Op::from_symbol(first).is_some() && fields.len() > 1 {
            return Some(Format::KenKen);
        }
        return Some(Format::Sudoku);
    }
    None
}

/// Parses every puzzle in `text`, detecting the format unless the options
/// force one. `source_name` names the text in error messages.
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
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = options.format.or_else(|| detect(text));
    match format {
        Some(Format::KenKen) => kenken::parse(text, source_name),
        Some(Format::Sudoku) => sudoku::parse(text, source_name, options.boxes),
        None => {
            Err(ParseError { source_name: source_name.to_string(), line: 1, column: 1, kind: ParseErrorKind::Empty })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(detect("# 4\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("\n#5\n"), Some(Format::KenKen));
        assert_eq!(detect("# 9 boxes 3x3\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("# a comment\n1...\n"), Some(Format::Sudoku));
        assert_eq!(detect("....\n"), Some(Format::Sudoku));
        assert_eq!(detect("5 3 . | . 7 ."), Some(Format::Sudoku));
        assert_eq!(detect("# only a comment\n\n"), None);
        // A byte-order mark, as some editors write, changes nothing.
        assert_eq!(detect("\u{feff}# 4\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("\u{feff}1...\n"), Some(Format::Sudoku));
    }
}
