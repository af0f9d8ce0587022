//! Reading and writing puzzles as text: the neknek KenKen format and the
//! Sudoku line and grid formats, with auto-detection.

pub mod kenken;
pub mod sudoku;

use std::fmt;
use std::str::FromStr;

use crate::error::{ParseError, ParseErrorKind};
use crate::puzzle::{BoxShape, Puzzle};

/// A text format cagey reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The neknek KenKen format (`# N`, then one cage a line).
    KenKen,
    /// Sudoku: one puzzle a line, or an N-line grid.
    Sudoku,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "kenken" => Ok(Format::KenKen),
            "sudoku" => Ok(Format::Sudoku),
            _ => Err(format!("unknown format '{s}': expected kenken or sudoku")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::KenKen => "kenken",
            Format::Sudoku => "sudoku",
        })
    }
}

/// Which boxes a Sudoku gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Boxes {
    /// [`BoxShape::default_for`] the size.
    #[default]
    Default,
    /// No boxes: a plain Latin square with givens.
    None,
    /// Boxes of this shape.
    Shape(BoxShape),
}

impl FromStr for Boxes {
    type Err = String;

    /// `default`, `none`, or `RxC` such as `2x3`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("bad box shape '{s}': expected RxC (like 2x3), 'none' or 'default'");
        match s.to_ascii_lowercase().as_str() {
            "default" => Ok(Boxes::Default),
            "none" => Ok(Boxes::None),
            other => {
                let (r, c) = other.split_once('x').ok_or_else(bad)?;
                let rows = r.parse().map_err(|_| bad())?;
                let cols = c.parse().map_err(|_| bad())?;
                if rows == 0 || cols == 0 {
                    return Err(bad());
                }
                Ok(Boxes::Shape(BoxShape { rows, cols }))
            }
        }
    }
}

/// How to read a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Boxes for Sudoku puzzles.
    pub boxes: Boxes,
}

/// One puzzle read from a text, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
}

/// Guesses the format from the first meaningful line: a `# N` size line or
/// a cage line means KenKen, anything else Sudoku (whose `#` lines are
/// comments). `None` for a text with no meaningful line.
pub fn detect(text: &str) -> Option<Format> {
    for line in text.lines() {
        let fields = fields(line);
        let Some(&(_, first)) = fields.first() else {
            continue;
        };
        if let Some(rest) = first.strip_prefix('#') {
            // `# N` or `#N`, perhaps with `boxes RxC` after it.
            let words: Vec<&str> =
                [rest].into_iter().filter(|r| !r.is_empty()).chain(fields[1..].iter().map(|f| f.1)).collect();
            let is_size = words.first().is_some_and(|s| s.parse::<u32>().is_ok());
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

/// The fields of a line split at spaces and tabs, each with its 1-based
/// column in characters.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (byte, ch) in line.char_indices() {
        column += 1;
        let blank = ch == ' ' || ch == '\t' || ch == '\r';
        match (blank, start) {
            (true, Some((b, c))) => {
                out.push((c, &line[b..byte]));
                start = None;
            }
            (false, None) => start = Some((byte, column)),
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &line[b..]));
    }
    out
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
    }

    #[test]
    fn fields_carry_columns() {
        assert_eq!(fields(" +\t3  A1"), [(2, "+"), (4, "3"), (7, "A1")]);
        assert_eq!(fields("÷ 2 B1"), [(1, "÷"), (3, "2"), (5, "B1")]);
    }

    #[test]
    fn box_shapes_parse() {
        assert_eq!("2x3".parse(), Ok(Boxes::Shape(BoxShape { rows: 2, cols: 3 })));
        assert_eq!("none".parse(), Ok(Boxes::None));
        assert!("0x3".parse::<Boxes>().is_err());
        assert!("3".parse::<Boxes>().is_err());
    }
}
