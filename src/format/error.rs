//! Typed errors of reading and writing puzzles as text (a puzzle's own
//! structural errors, [`InvalidPuzzle`], sit with the model).

use std::fmt;

use thiserror::Error;

use crate::puzzle::{Cell, InvalidPuzzle, MAX_SIZE, Op, Target, value_symbol};

/// A text that could not be read as a puzzle, with where and why.
///
/// Displays as `FILE:LINE:COLUMN: what was wrong, and what was expected`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{source_name}:{line}:{column}: {kind}")]
pub struct ParseError {
    /// The file name (or `<stdin>`), as given to the parser.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// What went wrong while parsing, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Nothing but blank lines and comments.
    Empty,
    /// A second puzzle where one was expected (`"…".parse::<Puzzle>()`).
    MorePuzzles,
    /// A KenKen puzzle that does not start with `# N`.
    MissingSize {
        /// What was found instead.
        found: String,
    },
    /// A size that is not a number from 1 to 25.
    BadSize {
        /// The text of the size.
        found: String,
    },
    /// A KenKen header line with more than `# N` and `boxes RxC`.
    BadHeader {
        /// The header line.
        found: String,
    },
    /// A `boxes` header option that is not a shape R×C with R·C = N.
    BadBoxes {
        /// The text of the shape.
        found: String,
        /// N.
        size: usize,
    },
    /// A cage line with an op that is not one of `+ - * / ! ?` or an alias.
    UnknownOp {
        /// The text of the op.
        found: String,
    },
    /// A cage target that is not a positive whole number.
    BadTarget {
        /// The text of the target.
        found: String,
    },
    /// A `!` target that is not a value of the grid.
    BadGiven {
        /// The text of the target.
        found: String,
        /// N.
        size: usize,
    },
    /// A field that is not a cell name like `B3`, or a cell outside the grid.
    BadCell {
        /// The text of the cell.
        found: String,
        /// N.
        size: usize,
    },
    /// A cell named twice in one cage.
    RepeatedCell {
        /// The cell.
        cell: Cell,
    },
    /// A cell that an earlier cage already holds, on a line that does
    /// not say it may overlap.
    CellInTwoCages {
        /// The cell.
        cell: Cell,
        /// The line of the earlier cage.
        first_line: usize,
    },
    /// A cell given a value that an earlier line gave it another.
    TwoGivens {
        /// The cell.
        cell: Cell,
        /// The earlier value.
        first: Target,
        /// The line of the earlier given.
        first_line: usize,
    },
    /// A word before a cage's op that is not `distinct` or `overlap`, or
    /// one of them twice.
    BadMarker {
        /// The word.
        found: String,
    },
    /// A cage with a cell count its op does not allow.
    WrongCellCount {
        /// The op.
        op: Op,
        /// How many cells were given.
        found: usize,
    },
    /// A `# N` line with no cage after it, in a file of several puzzles
    /// (a repeated or stray size line).
    NoCages,
    /// A Keen game ID that cannot be read.
    BadKeenId {
        /// The text where reading stopped (at most 12 characters).
        found: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A cage line with an op and no target or no cells.
    MissingField {
        /// What was expected next.
        expected: &'static str,
    },
    /// A killer string that cannot be read.
    BadKiller {
        /// The character where reading stopped.
        found: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A Sudoku character that is no value for this size.
    BadChar {
        /// The character.
        found: char,
        /// N.
        size: usize,
    },
    /// A Sudoku line or grid row of the wrong length.
    BadLength {
        /// What would have been right.
        expected: String,
        /// How many cells were found.
        found: usize,
    },
    /// An f-puzzles or SudokuPad link, payload or JSON that cannot be read.
    BadLink {
        /// Why, and what was expected.
        reason: String,
    },
    /// f-puzzles constraints the model cannot hold, by name and count.
    Unsupported {
        /// `thermometer (3), arrow (1)`.
        what: String,
    },
    /// A puzzle whose embedded solution does not solve it as read.
    WrongSolution {
        /// Where the solution fails.
        why: String,
    },
    /// Any other structural problem, as the model reports it.
    Invalid(InvalidPuzzle),
}

/// Input text as a message shows it: control characters escaped (a NUL
/// as `\0`), and past 40 characters cut short with `…`.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => write!(f, "no puzzle found: expected a KenKen '# N' line or a Sudoku grid"),
            ParseErrorKind::MorePuzzles => write!(f, "a second puzzle starts here: expected one"),
            ParseErrorKind::MissingSize { found } => {
                write!(f, "expected a size line '# N' to start a KenKen puzzle, found '{}'", shown(found))
            }
            ParseErrorKind::BadSize { found } => {
                write!(f, "bad size '{}': expected a whole number from 1 to {MAX_SIZE}", shown(found))
            }
            ParseErrorKind::BadHeader { found } => {
                write!(f, "bad header '{}': expected '# N', then 'boxes RxC' or 'killer' or both", shown(found))
            }
            ParseErrorKind::BadBoxes { found, size } => {
                write!(f, "bad boxes '{}': expected RxC with R times C = {size}, like 2x3", shown(found))
            }
            ParseErrorKind::UnknownOp { found } => {
                write!(f, "unknown op '{}': expected one of + - * / ! ? (or x × ÷ − =)", shown(found))
            }
            ParseErrorKind::BadTarget { found } => {
                write!(f, "bad target '{}': expected a positive whole number", shown(found))
            }
            ParseErrorKind::BadGiven { found, size } => {
                write!(f, "bad given '{}': a '!' cage holds a value from 1 to {size}", shown(found))
            }
            ParseErrorKind::BadCell { found, size } => {
                let last_row = char::from(b'A' + (*size as u8) - 1);
                // An example that is a cell of this grid: B3, or B2 or A1 in the smallest.
                let example = format!("{}{}", char::from(b'A' + (*size as u8).min(2) - 1), size.min(&3));
                write!(
                    f,
                    "bad cell '{}': expected a row A-{last_row} and a column 1-{size}, like {example}",
                    shown(found)
                )
            }
            ParseErrorKind::RepeatedCell { cell } => {
                write!(f, "cell {cell} is named twice in this cage")
            }
            ParseErrorKind::CellInTwoCages { cell, first_line } => write!(
                f,
                "cell {cell} is already in the cage on line {first_line}: \
                 start the line with 'overlap' if this cage may share cells"
            ),
            ParseErrorKind::TwoGivens { cell, first, first_line } => {
                write!(f, "cell {cell} is already given {first} on line {first_line}")
            }
            ParseErrorKind::BadMarker { found } => write!(
                f,
                "unexpected '{}': expected an op (+ - * / ! ?), or 'distinct' or 'overlap' once each before it",
                shown(found)
            ),
            ParseErrorKind::WrongCellCount { op, found } => {
                write!(f, "a '{op}' cage needs {}, found {found}", op.cell_count_rule())
            }
            ParseErrorKind::BadKeenId { found, expected } => {
                write!(f, "bad Keen game ID '{}': expected {expected}", shown(found))
            }
            ParseErrorKind::BadKiller { found, expected } => {
                write!(f, "bad killer string at '{}': expected {expected}", shown(found))
            }
            ParseErrorKind::NoCages => write!(
                f,
                "this size line starts a puzzle with no cages: expected cage lines after it \
                 (a lone '# N' is a Latin square only as a file's one puzzle)"
            ),
            ParseErrorKind::MissingField { expected } => {
                write!(f, "line ends early: expected {expected}")
            }
            ParseErrorKind::BadChar { found, size } => {
                let last = value_symbol(*size as u8);
                let found = found.escape_debug();
                write!(f, "bad character '{found}': expected '.' or '0' for an empty cell, or a value 1-{last}")
            }
            ParseErrorKind::BadLength { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ParseErrorKind::BadLink { reason } => write!(f, "{reason}"),
            ParseErrorKind::Unsupported { what } => write!(f, "f-puzzles constraints cagey cannot solve: {what}"),
            ParseErrorKind::WrongSolution { why } => write!(
                f,
                "the solution the link carries does not solve the puzzle as read ({why}): \
                 is the link damaged, or a constraint read wrong?"
            ),
            ParseErrorKind::Invalid(invalid) => write!(f, "{invalid}"),
        }
    }
}

/// A puzzle that a text format cannot express.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The Sudoku format has givens only, and the default boxes.
    #[error("the Sudoku format expresses only one-cell '!' cages and the default boxes for the size")]
    NotSudoku,
    /// A Keen game ID has blocks in one piece covering the grid, with `+ - * /` clues.
    #[error("a Keen game ID cannot hold {0}: only cages in one piece, covering the grid, with + - * / clues")]
    NotKeen(&'static str),
    /// A killer string holds a 9×9 Killer Sudoku: the 3×3 boxes, distinct
    /// `+` cages (or none) covering each cell once, givens outside them.
    #[error(
        "a killer string cannot hold {0}: only a 9x9 Sudoku's boxes with distinct '+' cages covering each cell \
         once at most, sums up to 45, each cage joined by a king's move, givens outside the cages"
    )]
    NotKiller(&'static str),
    /// f-puzzles shows regions, the global rules, Killer cages, XV pairs,
    /// Kropki dots, little killers, and KenKen cages by their labels.
    #[error("f-puzzles cannot show {0}")]
    NotFPuzzles(String),
}
