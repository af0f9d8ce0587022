//! What a text is read as, and what reading it gives.

use std::fmt;
use std::str::FromStr;

use crate::puzzle::{BoxShape, Puzzle};

/// A text format cagey reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The neknek KenKen format (`# N`, then one cage a line).
    KenKen,
    /// Sudoku: one puzzle a line, or an N-line grid.
    Sudoku,
    /// Game IDs of Simon Tatham's Keen (`6dn:…`), one a line.
    Keen,
    /// SudoCue short killer strings (9×9 Killer Sudoku), one a line.
    Killer,
    /// f-puzzles and SudokuPad links, payloads or JSON, one a line.
    FPuzzles,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "kenken" => Ok(Format::KenKen),
            "sudoku" => Ok(Format::Sudoku),
            "keen" => Ok(Format::Keen),
            "killer" => Ok(Format::Killer),
            "fpuzzles" | "f-puzzles" | "sudokupad" => Ok(Format::FPuzzles),
            _ => Err(format!("unknown format '{s}': expected kenken, sudoku, keen, killer or fpuzzles")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::KenKen => "kenken",
            Format::Sudoku => "sudoku",
            Format::Keen => "keen",
            Format::Killer => "killer",
            Format::FPuzzles => "fpuzzles",
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
    /// What the text held that constrains nothing and was left out (an
    /// f-puzzles link's title, pencil marks, drawings), with counts.
    pub ignored: Vec<String>,
}

impl Parsed {
    /// `puzzle`, read from `line`, with nothing ignored.
    pub fn new(puzzle: Puzzle, line: usize) -> Self {
        Parsed { puzzle, line, ignored: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_parse() {
        assert_eq!("2x3".parse(), Ok(Boxes::Shape(BoxShape { rows: 2, cols: 3 })));
        assert_eq!("none".parse(), Ok(Boxes::None));
        assert!("0x3".parse::<Boxes>().is_err());
        assert!("3".parse::<Boxes>().is_err());
    }
}
