//! The neknek KenKen text format.
//!
//! ```text
//! # 5
//! +   14  A1 A2 B1 B2
//! -   3   A3 B3
//! !   5   E5
//! ```
//!
//! A `# N` line starts each puzzle; each further line is a cage: an op, a
//! target and cells, separated by spaces or tabs. A cell is a row letter
//! (`A` is the first row) and a 1-based column number (`B3`, `A10`).
//! Blank lines are ignored; a file may hold several puzzles.
//!
//! Targets are positive whole numbers of any length (the product of a full
//! row of a 25×25 grid, 25!, has 26 digits); a `!` target is a value from
//! 1 to N.
//!
//! Two extensions carry the rest of the model, so that Killer Sudoku and
//! other variants are written and read like any KenKen:
//!
//! - `# N boxes RxC` adds Sudoku boxes of R rows by C columns (R·C = N):
//!   `# 9 boxes 3x3` starts a Killer Sudoku.
//! - A line `distinct A1 B2 C3` adds an all-different group: those cells
//!   hold distinct values (a diagonal, a jigsaw region).
//!
//! ```text
//! # 4 boxes 2x2
//! distinct A1 B2 C3 D4
//! + 7 A1 A2 B1
//! ```

use std::fmt::Write as _;

use itertools::Itertools;

use crate::error::{ParseError, ParseErrorKind};
use crate::puzzle::{BoxShape, Cage, Cell, Group, InvalidPuzzle, MAX_SIZE, Op, Puzzle, Target};

use super::fields::fields;
use super::options::{Boxes, Parsed};

/// Parses every puzzle in `text`; `source_name` is used in error messages.
pub fn parse(text: &str, source_name: &str) -> Result<Vec<Parsed>, ParseError> {
    let error =
        |line: usize, column: usize, kind| ParseError { source_name: source_name.to_string(), line, column, kind };
    let mut puzzles = Vec::new();
    let mut current: Option<Builder> = None;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let fields = fields(line);
        let Some(&(column, first)) = fields.first() else {
            continue;
        };
        if first.starts_with('#') {
            if let Some(done) = current.take() {
                puzzles.push(done.finish().map_err(|(l, k)| error(l, 1, k))?);
            }
            let builder = header(&fields).map_err(|(c, k)| error(line_no, c, k))?;
            current = Some(Builder { line: line_no, ..builder });
            continue;
        }
        let Some(builder) = current.as_mut() else {
            let kind = ParseErrorKind::MissingSize { found: line.trim().to_string() };
            return Err(error(line_no, column, kind));
        };
        builder.add_cage(line_no, &fields).map_err(|(c, k)| error(line_no, c, k))?;
    }
    if let Some(done) = current {
        puzzles.push(done.finish().map_err(|(l, k)| error(l, 1, k))?);
    }
    if puzzles.is_empty() {
        return Err(error(1, 1, ParseErrorKind::Empty));
    }
    Ok(puzzles)
}

/// Reads a `# N` or `# N boxes RxC` line (`#N` too) into an empty
/// puzzle; an error carries its column.
fn header(fields: &[(usize, &str)]) -> Result<Builder, (usize, ParseErrorKind)> {
    let (column, first) = fields[0];
    let rest = &first[1..];
    // The fields after `#`, with the size first.
    let mut words: Vec<(usize, &str)> = Vec::with_capacity(fields.len());
    if !rest.is_empty() {
        words.push((column + 1, rest));
    }
    words.extend_from_slice(&fields[1..]);
    let bad_header = |c: usize| (c, ParseErrorKind::BadHeader { found: join(fields) });
    let Some(&(size_column, size_text)) = words.first() else {
        return Err((column, ParseErrorKind::BadSize { found: String::new() }));
    };
    let size = size_text
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_SIZE).contains(n))
        .ok_or_else(|| (size_column, ParseErrorKind::BadSize { found: size_text.to_string() }))?;
    let mut builder = Builder::new(size);
    match words[1..] {
        [] => {}
        [(_, "boxes"), (shape_column, shape_text)] => {
            let shape = match shape_text.parse::<Boxes>() {
                Ok(Boxes::Shape(shape)) if shape.rows * shape.cols == size => shape,
                _ => {
                    let found = shape_text.to_string();
                    return Err((shape_column, ParseErrorKind::BadBoxes { found, size }));
                }
            };
            builder.groups = shape.groups(size);
        }
        [(c, _), ..] => return Err(bad_header(c)),
    }
    Ok(builder)
}

fn join(fields: &[(usize, &str)]) -> String {
    fields.iter().map(|&(_, f)| f).join(" ")
}

/// A puzzle being read: its size and groups, its cages so far, and which
/// line holds each caged cell.
struct Builder {
    size: usize,
    line: usize,
    groups: Vec<Group>,
    cages: Vec<Cage>,
    owner: Vec<Option<usize>>,
}

impl Builder {
    fn new(size: usize) -> Self {
        Builder { size, line: 0, groups: Vec::new(), cages: Vec::new(), owner: vec![None; size * size] }
    }

    /// Reads the cells of a line, from field `from` on; an error carries
    /// its column.
    fn cells(&self, fields: &[(usize, &str)], from: usize) -> Result<Vec<Cell>, (usize, ParseErrorKind)> {
        let mut cells: Vec<Cell> = Vec::with_capacity(fields.len() - from);
        for &(column, text) in &fields[from..] {
            let cell = parse_cell(text, self.size).ok_or_else(|| {
                let found = text.to_string();
                (column, ParseErrorKind::BadCell { found, size: self.size })
            })?;
            if cells.contains(&cell) {
                return Err((column, ParseErrorKind::RepeatedCell { cell }));
            }
            cells.push(cell);
        }
        Ok(cells)
    }

    /// Reads a `distinct` line: a group of at most N cells.
    fn add_group(&mut self, fields: &[(usize, &str)]) -> Result<(), (usize, ParseErrorKind)> {
        let (column, keyword) = fields[0];
        if fields.len() < 2 {
            let expected = "cells after 'distinct', like A1 B2";
            return Err((column + keyword.len(), ParseErrorKind::MissingField { expected }));
        }
        let cells = self.cells(fields, 1)?;
        if cells.len() > self.size {
            return Err((
                column,
                ParseErrorKind::Invalid(InvalidPuzzle::GroupTooLarge { cells: cells.len(), size: self.size }),
            ));
        }
        self.groups.push(Group::new(cells));
        Ok(())
    }

    /// Reads one cage line (or a `distinct` line); an error carries its
    /// column.
    fn add_cage(&mut self, line: usize, fields: &[(usize, &str)]) -> Result<(), (usize, ParseErrorKind)> {
        let (op_column, op_text) = fields[0];
        if op_text == "distinct" {
            return self.add_group(fields);
        }
        let op = Op::from_symbol(op_text).ok_or_else(|| {
            let found = op_text.to_string();
            (op_column, ParseErrorKind::UnknownOp { found })
        })?;
        let &(target_column, target_text) = fields.get(1).ok_or((
            op_column + op_text.chars().count(),
            ParseErrorKind::MissingField { expected: "a target after the op" },
        ))?;
        let target = Target::from_decimal(target_text).filter(|t| t.digits() != "0").ok_or_else(|| {
            let found = target_text.to_string();
            (target_column, ParseErrorKind::BadTarget { found })
        })?;
        if op == Op::Given && !target.digits().parse::<usize>().is_ok_and(|v| (1..=self.size).contains(&v)) {
            let found = target_text.to_string();
            return Err((target_column, ParseErrorKind::BadGiven { found, size: self.size }));
        }
        if fields.len() < 3 {
            let expected = "one or more cells after the target, like A1 A2";
            let column = target_column + target_text.chars().count();
            return Err((column, ParseErrorKind::MissingField { expected }));
        }
        let cells = self.cells(fields, 2)?;
        for (&cell, &(column, _)) in cells.iter().zip(&fields[2..]) {
            if let Some(first_line) = self.owner[cell.index(self.size)] {
                return Err((column, ParseErrorKind::CellInTwoCages { cell, first_line }));
            }
        }
        if !op.allows_cell_count(cells.len()) {
            let found = cells.len();
            return Err((op_column, ParseErrorKind::WrongCellCount { op, found }));
        }
        for cell in &cells {
            self.owner[cell.index(self.size)] = Some(line);
        }
        let cage = Cage::new(op, target, cells).map_err(|e| (op_column, ParseErrorKind::Invalid(e)))?;
        self.cages.push(cage);
        Ok(())
    }

    fn finish(self) -> Result<Parsed, (usize, ParseErrorKind)> {
        let puzzle =
            Puzzle::new(self.size, self.groups, self.cages).map_err(|e| (self.line, ParseErrorKind::Invalid(e)))?;
        Ok(Parsed { puzzle, line: self.line })
    }
}

/// `B3` → row 1, column 2; `None` unless it names a cell of an N×N grid.
fn parse_cell(text: &str, size: usize) -> Option<Cell> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let digits = chars.as_str();
    if !letter.is_ascii_uppercase() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row = usize::from(letter as u8 - b'A');
    let col = digits.parse::<usize>().ok()?.checked_sub(1)?;
    (row < size && col < size).then_some(Cell::new(row, col))
}

/// Writes `puzzle` in canonical KenKen form: `# N` (with `boxes RxC` when
/// its first extra groups are the boxes of that shape), a `distinct` line
/// for each other extra group, then one cage a line with the canonical op
/// symbol. Every puzzle of the model can be written.
pub fn write(puzzle: &Puzzle) -> String {
    let n = puzzle.size();
    let mut groups = puzzle.extra_groups();
    let mut out = format!("# {n}");
    let boxes = (1..=n).filter(|r| n % r == 0).map(|rows| BoxShape { rows, cols: n / rows }).find(|shape| {
        let tiles = shape.groups(n);
        groups.len() >= tiles.len() && groups[..tiles.len()] == tiles[..]
    });
    if let Some(shape) = boxes {
        write!(out, " boxes {shape}").unwrap();
        groups = &groups[shape.groups(n).len()..];
    }
    out.push('\n');
    for group in groups {
        out.push_str("distinct");
        for cell in group.cells() {
            write!(out, " {cell}").unwrap();
        }
        out.push('\n');
    }
    for cage in puzzle.cages() {
        write!(out, "{} {}", cage.op(), cage.target()).unwrap();
        for cell in cage.cells() {
            write!(out, " {cell}").unwrap();
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (usize, usize, ParseErrorKind) {
        let e = parse(text, "t").unwrap_err();
        (e.line, e.column, e.kind)
    }

    #[test]
    fn reads_every_op_and_alias() {
        let text = "# 4\n+ 3 A1 A2\n- 1 A3 A4\nx 12 B1 B2\n÷ 2 B3 B4\n= 1 C1\n? 7 C2 C3 C4\n× 4 D1\n− 3\tD2 D3\n";
        let parsed = parse(text, "t").unwrap();
        let ops: Vec<Op> = parsed[0].puzzle.cages().iter().map(Cage::op).collect();
        use Op::*;
        assert_eq!(ops, [Add, Sub, Mul, Div, Given, Any, Mul, Sub]);
        assert_eq!(parsed[0].puzzle.uncaged_cells(), [Cell::new(3, 3)]);
    }

    #[test]
    fn several_puzzles_and_large_sizes() {
        let text = "# 2\n\n+ 3 A1 A2\n#12\n! 12 L12\n# 25\n! 25 Y25\n";
        let parsed = parse(text, "t").unwrap();
        let sizes: Vec<(usize, usize)> = parsed.iter().map(|p| (p.puzzle.size(), p.line)).collect();
        assert_eq!(sizes, [(2, 1), (12, 4), (25, 6)]);
    }

    #[test]
    fn errors_say_where_and_what() {
        use ParseErrorKind::*;
        assert!(matches!(kind("# 4\n% 3 A1 A2\n"), (2, 1, UnknownOp { .. })));
        assert!(matches!(kind("# 4\n+ 0 A1 A2\n"), (2, 3, BadTarget { .. })));
        assert!(matches!(kind("# 4\n+ -3 A1 A2\n"), (2, 3, BadTarget { .. })));
        assert!(matches!(kind("# 4\n+ 1e3 A1\n"), (2, 3, BadTarget { .. })));
        assert!(matches!(kind("# 4\n! 5 A1\n"), (2, 3, BadGiven { .. })));
        assert!(matches!(kind("# 4\n= 99999999999999999999999 A1\n"), (2, 3, BadGiven { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1 E2\n"), (2, 8, BadCell { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1 A5\n"), (2, 8, BadCell { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1 A0\n"), (2, 8, BadCell { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1 1A\n"), (2, 8, BadCell { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1 A1\n"), (2, 8, RepeatedCell { .. })));
        assert!(matches!(kind("# 4\n+ 3 A1\n+ 3 B1 A1\n"), (3, 8, CellInTwoCages { first_line: 2, .. })));
        assert!(matches!(kind("# 4\n- 3 A1\n"), (2, 1, WrongCellCount { .. })));
        assert!(matches!(kind("# 4\n/ 2 A1 A2 A3\n"), (2, 1, WrongCellCount { .. })));
        assert!(matches!(kind("# 4\n! 2 A1 A2\n"), (2, 1, WrongCellCount { .. })));
        assert!(matches!(kind("# 4\n+\n"), (2, 2, MissingField { .. })));
        assert!(matches!(kind("# 4\n+ 3\n"), (2, 4, MissingField { .. })));
        assert!(matches!(kind("+ 3 A1 A2\n"), (1, 1, MissingSize { .. })));
        assert!(matches!(kind("# 26\n"), (1, 3, BadSize { .. })));
        assert!(matches!(kind("# 0\n"), (1, 3, BadSize { .. })));
        assert!(matches!(kind("#\n"), (1, 1, BadSize { .. })));
        assert!(matches!(kind("# 4 5\n"), (1, 5, BadHeader { .. })));
        assert!(matches!(kind("# 4 boxes 3x3\n"), (1, 11, BadBoxes { .. })));
        assert!(matches!(kind("# 4 boxes\n"), (1, 5, BadHeader { .. })));
        assert!(matches!(kind("# 4\ndistinct\n"), (2, 9, MissingField { .. })));
        assert!(matches!(kind("# 2\ndistinct A1 B2 A2\n"), (2, 1, Invalid(InvalidPuzzle::GroupTooLarge { .. }))));
        assert!(matches!(kind("# 4\ndistinct A1 A1\n"), (2, 13, RepeatedCell { .. })));
        assert!(matches!(kind("\n\n"), (1, 1, Empty)));
    }

    #[test]
    fn writes_canonical_form() {
        let parsed = parse("#3\nx 6\tA1 A2 A3\n=  2 B1\n", "t").unwrap();
        assert_eq!(write(&parsed[0].puzzle), "# 3\n* 6 A1 A2 A3\n! 2 B1\n");
    }

    #[test]
    fn boxes_groups_and_huge_targets_round_trip() {
        let text = "# 6 boxes 2x3\ndistinct A1 B2 C3\n* 15511210043330985984000000 A1 A2\n+ 7 F6\n";
        let parsed = parse(text, "t").unwrap();
        let puzzle = &parsed[0].puzzle;
        assert_eq!(puzzle.extra_groups().len(), 7);
        assert_eq!(puzzle.extra_groups()[..6], BoxShape { rows: 2, cols: 3 }.groups(6)[..]);
        assert_eq!(puzzle.cages()[0].target().digits(), "15511210043330985984000000");
        assert_eq!(write(puzzle), text);
        // Groups that are not a tiling of boxes are written one by one.
        let text = "# 4\ndistinct A1 A2 B1 B2\n";
        assert_eq!(write(&parse(text, "t").unwrap()[0].puzzle), text);
    }
}
