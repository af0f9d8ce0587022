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

use std::fmt::Write as _;

use crate::error::{ParseError, ParseErrorKind, WriteError};
use crate::puzzle::{Cage, Cell, MAX_SIZE, Op, Puzzle};

use super::{Parsed, fields};

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
        if let Some(rest) = first.strip_prefix('#') {
            if let Some(done) = current.take() {
                puzzles.push(done.finish().map_err(|(l, k)| error(l, 1, k))?);
            }
            let (size_column, size_text) = match (rest, fields.get(1)) {
                ("", Some(&(c, t))) if fields.len() == 2 => (c, t.to_string()),
                ("", None) => (column, String::new()),
                _ if fields.len() == 1 => (column + 1, rest.to_string()),
                _ => (column, line.trim().to_string()),
            };
            let size = size_text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_SIZE).contains(n))
                .ok_or_else(|| error(line_no, size_column, ParseErrorKind::BadSize { found: size_text }))?;
            current = Some(Builder::new(size, line_no));
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

/// A puzzle being read: its size, its cages so far, and which line holds
/// each caged cell.
struct Builder {
    size: usize,
    line: usize,
    cages: Vec<Cage>,
    owner: Vec<Option<usize>>,
}

impl Builder {
    fn new(size: usize, line: usize) -> Self {
        Builder { size, line, cages: Vec::new(), owner: vec![None; size * size] }
    }

    /// Reads one cage line; an error carries its column.
    fn add_cage(&mut self, line: usize, fields: &[(usize, &str)]) -> Result<(), (usize, ParseErrorKind)> {
        let (op_column, op_text) = fields[0];
        let op = Op::from_symbol(op_text).ok_or_else(|| {
            let found = op_text.to_string();
            (op_column, ParseErrorKind::UnknownOp { found })
        })?;
        let &(target_column, target_text) = fields.get(1).ok_or((
            op_column + op_text.chars().count(),
            ParseErrorKind::MissingField { expected: "a target after the op" },
        ))?;
        let target = target_text.parse::<u64>().ok().filter(|&t| t > 0).ok_or_else(|| {
            let found = target_text.to_string();
            (target_column, ParseErrorKind::BadTarget { found })
        })?;
        if fields.len() < 3 {
            let expected = "one or more cells after the target, like A1 A2";
            let column = target_column + target_text.chars().count();
            return Err((column, ParseErrorKind::MissingField { expected }));
        }
        let mut cells: Vec<Cell> = Vec::with_capacity(fields.len() - 2);
        for &(column, text) in &fields[2..] {
            let cell = parse_cell(text, self.size).ok_or_else(|| {
                let found = text.to_string();
                (column, ParseErrorKind::BadCell { found, size: self.size })
            })?;
            if cells.contains(&cell) {
                return Err((column, ParseErrorKind::RepeatedCell { cell }));
            }
            if let Some(first_line) = self.owner[cell.index(self.size)] {
                return Err((column, ParseErrorKind::CellInTwoCages { cell, first_line }));
            }
            cells.push(cell);
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
            Puzzle::new(self.size, Vec::new(), self.cages).map_err(|e| (self.line, ParseErrorKind::Invalid(e)))?;
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

/// Writes `puzzle` in canonical KenKen form: `# N`, then one cage a line
/// with the canonical op symbol. Fails if the puzzle has groups beyond rows
/// and columns, which the format cannot express.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    if !puzzle.extra_groups().is_empty() {
        return Err(WriteError::ExtraGroups);
    }
    let mut out = format!("# {}\n", puzzle.size());
    for cage in puzzle.cages() {
        write!(out, "{} {}", cage.op(), cage.target()).unwrap();
        for cell in cage.cells() {
            write!(out, " {cell}").unwrap();
        }
        out.push('\n');
    }
    Ok(out)
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
        assert!(matches!(kind("# 4\n+ 99999999999999999999 A1\n"), (2, 3, BadTarget { .. })));
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
        assert!(matches!(kind("# 4 5\n"), (1, 1, BadSize { .. })));
        assert!(matches!(kind("\n\n"), (1, 1, Empty)));
    }

    #[test]
    fn writes_canonical_form() {
        let parsed = parse("#3\nx 6\tA1 A2 A3\n=  2 B1\n", "t").unwrap();
        assert_eq!(write(&parsed[0].puzzle).unwrap(), "# 3\n* 6 A1 A2 A3\n! 2 B1\n");
    }
}
