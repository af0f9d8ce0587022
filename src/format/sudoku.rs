//! Sudoku text: one puzzle a line, or one puzzle laid out over N lines.
//!
//! A line puzzle is N² characters row by row: `.` or `0` for an empty
//! cell, `1`-`9` and then `A`, `B`, … for 10, 11, … (16×16 uses `1-9A-G`).
//! Text after whitespace or `:` is ignored (public corpora append ratings
//! or counts), and so are lines starting with `#`.
//!
//! A grid puzzle is N lines of N cells; spaces, tabs, `|`, `-` and `+`
//! are decoration, and lines holding only decoration are skipped. Grids are
//! separated by blank lines.
//!
//! Which of the two a block of consecutive lines is: lines, if its first
//! token is a valid line puzzle (of N ≥ 2, or a 1×1 alone on its line);
//! otherwise a grid if the block is N rows of N cells; otherwise lines if
//! the first token is N² characters long, and a grid if it is not. So
//! `.........` nine times is nine empty 3×3 puzzles: put spaces between the
//! cells of a grid to make it unambiguous.

use crate::format::error::{ParseError, ParseErrorKind, WriteError};
use crate::puzzle::{BoxShape, MAX_SIZE, Op, Puzzle, value_symbol};

use super::options::{Boxes, Parsed};
use super::reader::{Item, LineReader, read_all};

/// The value a character stands for: 0 for an empty cell.
fn char_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

fn is_decoration(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '\r' | '|' | '-' | '+')
}

/// The side N of a grid of `cells` cells, if that is a square of 1 to 25.
fn side(cells: usize) -> Option<usize> {
    (1..=MAX_SIZE).find(|n| n * n == cells)
}

/// Parses every puzzle in `text`; `source_name` is used in error messages.
pub fn parse(text: &str, source_name: &str, boxes: Boxes) -> Result<Vec<Parsed>, ParseError> {
    read_all(&mut Reader::new(boxes), text, source_name)
}

/// Reads Sudoku text a line at a time. A block is held until a blank line
/// ends it, or until it has more rows than a grid can, when its first line
/// shows it to be a block of line puzzles, read as they come from then on.
pub(super) struct Reader {
    boxes: Boxes,
    /// The block being read, while it may still be a grid.
    block: Vec<(usize, String)>,
    /// Its lines that are more than decoration.
    rows: usize,
    /// Bytes of text in `block`.
    held: usize,
    mode: Mode,
}

/// How the rest of a block is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Held whole: it may be a grid.
    Held,
    /// A block of line puzzles: each line on its own.
    Lines,
    /// A grid found bad before its end: skipped to the blank line.
    Skip,
}

impl Reader {
    pub(super) fn new(boxes: Boxes) -> Self {
        Reader { boxes, block: Vec::new(), rows: 0, held: 0, mode: Mode::Held }
    }

    /// Reads the held block, now known whole or known not to be a grid.
    fn read_block(&mut self, out: &mut dyn FnMut(Item)) {
        if self.block.is_empty() {
            return;
        }
        let block: Vec<(usize, &str)> = self.block.iter().map(|(line, text)| (*line, text.as_str())).collect();
        if is_line_block(&block) {
            for line in block.chunks(1) {
                self.hand_out(read_lines(line), out);
            }
            self.mode = Mode::Lines;
        } else {
            self.hand_out(read_grid(&block), out);
            self.mode = Mode::Skip;
        }
        self.block.clear();
        (self.rows, self.held) = (0, 0);
    }

    /// The puzzles of what a reader read, or its error.
    fn hand_out(&self, read: Result<Read, ReadError>, out: &mut dyn FnMut(Item)) {
        let read = match read {
            Ok(read) => read,
            Err(error) => return out(Err(error)),
        };
        for (line, column, givens) in read {
            let size = side(givens.len()).expect("readers return N² cells");
            let shape = match self.boxes {
                Boxes::Default => BoxShape::default_for(size),
                Boxes::None => None,
                Boxes::Shape(shape) => Some(shape),
            };
            let puzzle = Puzzle::sudoku(size, shape, &givens);
            out(puzzle.map(|puzzle| Parsed::new(puzzle, line)).map_err(|e| (line, column, ParseErrorKind::Invalid(e))));
        }
    }
}

impl LineReader for Reader {
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item)) {
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            return;
        }
        if trimmed.is_empty() {
            return self.finish(out);
        }
        match self.mode {
            Mode::Lines => self.hand_out(read_lines(&[(line_no, line)]), out),
            Mode::Skip => {}
            Mode::Held => {
                self.block.push((line_no, line.to_string()));
                self.held += line.len();
                self.rows += usize::from(!line.chars().all(is_decoration));
                // Too many rows for a grid: its first line tells how the
                // whole block reads.
                if self.rows > MAX_SIZE {
                    self.read_block(out);
                }
            }
        }
    }

    fn finish(&mut self, out: &mut dyn FnMut(Item)) {
        self.read_block(out);
        self.mode = Mode::Held;
    }

    fn held(&self) -> usize {
        self.held
    }
}

/// Givens of one puzzle, with the line and column where it starts.
type Read = Vec<(usize, usize, Vec<u8>)>;
type ReadError = (usize, usize, ParseErrorKind);

/// The first token of a line: its 1-based column and text, up to whitespace
/// or `:`.
fn first_token(line: &str) -> (usize, &str) {
    let start = line.len() - line.trim_start().len();
    let rest = &line[start..];
    let end = rest.find(|ch: char| ch.is_whitespace() || ch == ':').unwrap_or(rest.len());
    (line[..start].chars().count() + 1, &rest[..end])
}

fn is_line_block(block: &[(usize, &str)]) -> bool {
    // N lines of N cells are a grid, even when each line could also be a
    // puzzle of order √N (`1...` over four lines is a 4x4 grid, not four
    // 2x2 puzzles).
    if block.len() > 1 && grid_rows(block).is_some() {
        return false;
    }
    let (_, first) = block[0];
    let (_, token) = first_token(first);
    let Some(size) = side(token.chars().count()) else {
        return grid_rows(block).is_none();
    };
    if size == 1 && first.trim() != token {
        return false;
    }
    let valid = token.chars().all(|ch| char_value(ch).is_some_and(|v| usize::from(v) <= size));
    valid || grid_rows(block).is_none()
}

/// The rows of a block read as a grid, if it is N rows of N cells.
fn grid_rows<'a>(block: &[(usize, &'a str)]) -> Option<Vec<(usize, &'a str)>> {
    let rows: Vec<(usize, &str)> = block.iter().copied().filter(|(_, line)| !line.chars().all(is_decoration)).collect();
    let n = rows.len();
    let square = (2..=MAX_SIZE).contains(&n)
        && rows.iter().all(|(_, line)| line.chars().filter(|&ch| !is_decoration(ch)).count() == n);
    square.then_some(rows)
}

fn read_lines(block: &[(usize, &str)]) -> Result<Read, ReadError> {
    let mut out = Vec::with_capacity(block.len());
    for &(line, text) in block {
        let (column, token) = first_token(text);
        let length = token.chars().count();
        let Some(size) = side(length) else {
            // A character that is no cell is the likelier slip: name it.
            if let Some((i, found)) = token.chars().enumerate().find(|&(_, ch)| char_value(ch).is_none()) {
                let size = (1..=MAX_SIZE).find(|n| n * n >= length).unwrap_or(MAX_SIZE);
                return Err((line, column + i, ParseErrorKind::BadChar { found, size }));
            }
            let root = length.isqrt();
            let expected = match root * root == length {
                true => format!(
                    "a grid of at most {MAX_SIZE}×{MAX_SIZE} ({} characters; {length} is {root}×{root})",
                    MAX_SIZE * MAX_SIZE
                ),
                false => "N² characters for an N×N grid (16, 25, 36, 49, 64, 81, …, 625)".to_string(),
            };
            return Err((line, column, ParseErrorKind::BadLength { expected, found: length }));
        };
        let mut givens = Vec::with_capacity(size * size);
        read_cells(token.chars().enumerate().map(|(i, ch)| (column + i, ch)), size, line, &mut givens)?;
        out.push((line, column, givens));
    }
    Ok(out)
}

fn read_grid(block: &[(usize, &str)]) -> Result<Read, ReadError> {
    let rows: Vec<(usize, &str)> = block.iter().copied().filter(|(_, line)| !line.chars().all(is_decoration)).collect();
    let cells_in = |text: &str| {
        text.chars().enumerate().filter(|&(_, ch)| !is_decoration(ch)).map(|(i, ch)| (i + 1, ch)).collect::<Vec<_>>()
    };
    // A block of decoration alone (`|\t|`, `-----`) holds no puzzle.
    let Some(&(first_line, first_text)) = rows.first() else { return Ok(Vec::new()) };
    let size = cells_in(first_text).len();
    if size > MAX_SIZE {
        let expected = format!("at most {MAX_SIZE} cells in a grid row");
        return Err((first_line, 1, ParseErrorKind::BadLength { expected, found: size }));
    }
    let mut givens = Vec::with_capacity(size * size);
    for (i, &(line, text)) in rows.iter().enumerate() {
        let cells = cells_in(text);
        if i >= size || cells.len() != size {
            let (expected, found) = if i >= size {
                (format!("{size} rows for a grid whose first row has {size} cells"), rows.len())
            } else {
                (format!("{size} cells in this row, as in the grid's first row"), cells.len())
            };
            return Err((line, 1, ParseErrorKind::BadLength { expected, found }));
        }
        read_cells(cells.into_iter(), size, line, &mut givens)?;
    }
    if rows.len() < size {
        let (last_line, _) = rows[rows.len() - 1];
        let expected = format!("{size} rows for a grid whose first row has {size} cells");
        return Err((last_line, 1, ParseErrorKind::BadLength { expected, found: rows.len() }));
    }
    Ok(vec![(first_line, 1, givens)])
}

/// Appends to `values` the values of `(column, character)` pairs for an
/// N×N puzzle, into room made for the whole grid (a collected `Result`
/// would grow its vector cell by cell).
fn read_cells(
    cells: impl Iterator<Item = (usize, char)>,
    size: usize,
    line: usize,
    values: &mut Vec<u8>,
) -> Result<(), ReadError> {
    for (column, ch) in cells {
        let value = char_value(ch).filter(|&v| usize::from(v) <= size);
        values.push(value.ok_or((line, column, ParseErrorKind::BadChar { found: ch, size }))?);
    }
    Ok(())
}

/// Writes `puzzle` as one line of N² characters. Fails unless every cage is
/// a one-cell `!` given and the extra groups are the default boxes for N.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    let size = puzzle.size();
    let boxes = BoxShape::default_for(size).map(|b| b.groups(size)).unwrap_or_default();
    if puzzle.extra_groups() != boxes.as_slice() {
        return Err(WriteError::NotSudoku);
    }
    let mut line = vec!['.'; size * size];
    for cage in puzzle.cages() {
        if cage.op() != Op::Given {
            return Err(WriteError::NotSudoku);
        }
        // Given cages have one cell and a target in 1..=N, checked on creation.
        let value: u8 = cage.target().digits().parse().map_err(|_| WriteError::NotSudoku)?;
        if usize::from(value) > size {
            return Err(WriteError::NotSudoku);
        }
        line[cage.cells()[0].index(size)] = value_symbol(value);
    }
    let mut out: String = line.into_iter().collect();
    out.push('\n');
    Ok(out)
}

/// Writes `puzzle` as a grid of N lines, cells apart and `.` for an empty
/// one, with `|` and `-` between boxes; the grid reads back as the same
/// puzzle. Fails as [`write()`] does.
pub fn write_grid(puzzle: &Puzzle) -> Result<String, WriteError> {
    let line = write(puzzle)?;
    let n = puzzle.size();
    let cells: Vec<char> = line.trim_end().chars().collect();
    let shape = BoxShape::default_for(n);
    let mut out = String::new();
    for (r, row) in cells.chunks(n).enumerate() {
        if let Some(b) = shape.filter(|b| r > 0 && r % b.rows == 0) {
            let segment = "-".repeat(2 * b.cols - 1);
            let rule: Vec<String> = (0..n / b.cols).map(|_| segment.clone()).collect();
            out.push_str(&rule.join("-+-"));
            out.push('\n');
        }
        let mut text = String::new();
        for (c, ch) in row.iter().enumerate() {
            if c > 0 {
                text.push_str(if shape.is_some_and(|b| c % b.cols == 0) { " | " } else { " " });
            }
            text.push(*ch);
        }
        out.push_str(&text);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Cell;

    fn one(text: &str) -> Puzzle {
        let mut parsed = parse(text, "t", Boxes::Default).unwrap();
        assert_eq!(parsed.len(), 1, "{text}");
        parsed.remove(0).puzzle
    }

    fn err(text: &str) -> (usize, usize, ParseErrorKind) {
        let e = parse(text, "t", Boxes::Default).unwrap_err();
        (e.line, e.column, e.kind)
    }

    #[test]
    fn line_format_with_comments_and_trailing_text() {
        let text = "# header\n1..............2:7\n\n..3.............  rating 1.2\n";
        let parsed = parse(text, "t", Boxes::Default).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].line, 2);
        assert_eq!(parsed[0].puzzle.cages().len(), 2);
        assert_eq!(parsed[0].puzzle.extra_groups().len(), 4);
        assert_eq!(parsed[1].puzzle.cages()[0].cells(), [Cell::new(0, 2)]);
    }

    #[test]
    fn decoration_alone_is_no_puzzle() {
        // Found by the fuzz target: this read past the end of an empty grid.
        assert!(matches!(parse("|\t|", "t", Boxes::Default), Err(e) if e.kind == ParseErrorKind::Empty));
        assert!(matches!(parse("| |\n+-+\n", "t", Boxes::Default), Err(e) if e.kind == ParseErrorKind::Empty));
        assert_eq!(parse("| |\n\n1...\n", "t", Boxes::Default).unwrap().len(), 1);
    }

    #[test]
    fn n_lines_of_n_cells_are_a_grid() {
        let parsed = parse("1...\n....\n....\n...1\n", "t", Boxes::Default).unwrap();
        assert_eq!((parsed.len(), parsed[0].puzzle.size(), parsed[0].puzzle.cages().len()), (1, 4, 2));
        // Fewer lines than cells a line: each line is a puzzle.
        let parsed = parse("1...\n..2.\n", "t", Boxes::Default).unwrap();
        assert_eq!((parsed.len(), parsed[0].puzzle.size()), (2, 2));
    }

    #[test]
    fn letters_for_values_above_nine() {
        let mut line = "G".to_string();
        line.push_str(&".".repeat(255));
        let puzzle = one(&line);
        assert_eq!(puzzle.size(), 16);
        assert_eq!(puzzle.cages()[0].target().digits(), "16");
        assert_eq!(write(&puzzle).unwrap().trim_end(), line);
    }

    #[test]
    fn empty_five_by_five_has_no_boxes() {
        let puzzle = one(&"0".repeat(25));
        assert_eq!(puzzle.size(), 5);
        assert!(puzzle.extra_groups().is_empty());
        assert!(puzzle.cages().is_empty());
    }

    #[test]
    fn grid_layout() {
        let grid = "
            5 3 . | . 7 . | . . .
            6 . . | 1 9 5 | . . .
            . 9 8 | . . . | . 6 .
            ------+-------+------
            8 . . | . 6 . | . . 3
            4 . . | 8 . 3 | . . 1
            7 . . | . 2 . | . . 6
            ------+-------+------
            . 6 . | . . . | 2 8 .
            . . . | 4 1 9 | . . 5
            . . . | . 8 . | . 7 9
        ";
        let puzzle = one(grid);
        let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert_eq!(puzzle, one(line));
        let compact =
            "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
        assert_eq!(one(compact), puzzle);
        // Two grids separated by a blank line.
        let two = format!("{compact}\n{compact}");
        assert_eq!(parse(&two, "t", Boxes::Default).unwrap().len(), 2);
        // Written as a grid, it reads back the same.
        let written = write_grid(&puzzle).unwrap();
        assert!(written.starts_with("5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n"), "{written}");
        assert!(written.contains("\n------+-------+------\n"), "{written}");
        assert_eq!(one(&written), puzzle);
    }

    #[test]
    fn errors_say_where_and_what() {
        use ParseErrorKind::*;
        assert!(matches!(err("1..x............\n"), (1, 4, BadChar { found: 'x', .. })));
        assert!(matches!(err("5...............\n"), (1, 1, BadChar { found: '5', .. })));
        assert!(matches!(err("...............\n"), (1, 1, BadLength { found: 15, .. })));
        let (_, _, too_large) = err(&format!("{}\n", ".".repeat(900)));
        assert!(
            too_large.to_string().contains("a grid of at most 25×25 (625 characters; 900 is 30×30), found 900"),
            "{too_large}"
        );
        assert!(matches!(err("# c\n\n"), (1, 1, Empty)));
        assert!(matches!(err("1 2 . .\n. . 1 2\n. . .\n. . . .\n"), (3, 1, BadLength { found: 3, .. })));
        assert!(matches!(err("1 2 . .\n. . 5 2\n. . . .\n. . . .\n"), (2, 5, BadChar { found: '5', .. })));
        assert!(matches!(err("1 2 . .\n. . 1 2\n. . . .\n"), (3, 1, BadLength { found: 3, .. })));
    }

    #[test]
    fn box_override() {
        let text = ".".repeat(36);
        let shape = BoxShape { rows: 3, cols: 2 };
        let parsed = parse(&text, "t", Boxes::Shape(shape)).unwrap();
        assert_eq!(parsed[0].puzzle.extra_groups(), shape.groups(6).as_slice());
        let e = parse(&text, "t", Boxes::Shape(BoxShape { rows: 4, cols: 2 })).unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::Invalid(_)));
        let none = parse(&text, "t", Boxes::None).unwrap();
        assert!(none[0].puzzle.extra_groups().is_empty());
    }
}
