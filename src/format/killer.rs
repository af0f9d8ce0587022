//! SudoCue short killer strings: the forums' way of posting a 9×9 Killer
//! Sudoku, one puzzle in 81 characters, row by row.
//!
//! Each character is a cage's sum, at one cell of the cage (its root), or
//! an arrow to the neighbouring cell that leads, arrow by arrow, to the
//! root: `<` `>` `^` `v` left, right, up, down; `` ` `` up-left, `'`
//! up-right, `,` down-left, `.` down-right. A sum is `0`–`9`, `A`–`Z` for
//! 10–35, `a`–`j` for 36–45. Every cage's digits differ (the Killer rule);
//! a sum of `0` gives no sum, so such a cage is an all-different group.
//!
//! ```text
//! G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^
//! ```
//!
//! Text after the string (past whitespace) and `#` lines are ignored.

use std::collections::VecDeque;

use crate::format::error::{ParseError, ParseErrorKind, WriteError};
use crate::puzzle::{BoxShape, Cage, Cell, Group, Op, Puzzle};

use super::fields::fields;
use super::options::Parsed;
use super::reader::{Item, LineReader, read_all};

/// The grid size a killer string describes.
const N: usize = 9;

/// The neighbour each arrow points to, as (row step, column step).
const ARROWS: [(char, (isize, isize)); 8] = [
    ('<', (0, -1)),
    ('>', (0, 1)),
    ('^', (-1, 0)),
    ('v', (1, 0)),
    ('`', (-1, -1)),
    ('\'', (-1, 1)),
    (',', (1, -1)),
    ('.', (1, 1)),
];

/// Parses every killer string in `text`; `source_name` is used in error
/// messages.
pub fn parse(text: &str, source_name: &str) -> Result<Vec<Parsed>, ParseError> {
    read_all(&mut Reader, text, source_name)
}

/// Whether `field` looks like a killer string: 81 characters of sums and
/// arrows, with an arrow that no Sudoku line has.
pub(super) fn looks_like(field: &str) -> bool {
    field.chars().count() == N * N
        && field.chars().all(|c| sum_of(c).is_some() || arrow(c).is_some())
        && field.chars().any(|c| arrow(c).is_some() && c != '.')
}

/// Reads killer strings, one a line.
pub(super) struct Reader;

impl LineReader for Reader {
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item)) {
        let Some(&(column, first)) = fields(line).first() else { return };
        if first.starts_with('#') {
            return;
        }
        out(read(first).map(|puzzle| Parsed::new(puzzle, line_no)).map_err(|(at, kind)| (line_no, column + at, kind)));
    }

    fn finish(&mut self, _out: &mut dyn FnMut(Item)) {}

    fn held(&self) -> usize {
        0
    }
}

fn sum_of(c: char) -> Option<u64> {
    match c {
        '0'..='9' => Some(c as u64 - '0' as u64),
        'A'..='Z' => Some(c as u64 - 'A' as u64 + 10),
        'a'..='j' => Some(c as u64 - 'a' as u64 + 36),
        _ => None,
    }
}

fn arrow(c: char) -> Option<(isize, isize)> {
    ARROWS.iter().find(|(a, _)| *a == c).map(|&(_, step)| step)
}

/// The character of a sum from 0 to 45.
fn sum_char(sum: u64) -> char {
    let sum = sum as u8;
    char::from(match sum {
        0..=9 => b'0' + sum,
        10..=35 => b'A' + sum - 10,
        _ => b'a' + sum - 36,
    })
}

fn bad(found: &str, expected: &'static str) -> ParseErrorKind {
    ParseErrorKind::BadKiller { found: found.to_string(), expected }
}

/// One killer string as a puzzle; an error carries its column (from 0).
fn read(text: &str) -> Result<Puzzle, (usize, ParseErrorKind)> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != N * N {
        let expected = "81 characters of sums and arrows (a 9x9 killer string)".to_string();
        return Err((0, ParseErrorKind::BadLength { expected, found: chars.len() }));
    }
    // Each cell's next cell towards its root, or its sum if it is one.
    let mut next = [None; N * N];
    let mut sums = [None; N * N];
    for (i, &c) in chars.iter().enumerate() {
        if let Some(sum) = sum_of(c) {
            sums[i] = Some(sum);
        } else if let Some((dr, dc)) = arrow(c) {
            let (r, c) = ((i / N) as isize + dr, (i % N) as isize + dc);
            if !(0..N as isize).contains(&r) || !(0..N as isize).contains(&c) {
                return Err((i, bad(&chars[i].to_string(), "an arrow to a cell inside the grid")));
            }
            next[i] = Some(r as usize * N + c as usize);
        } else {
            let expected = "a sum (0-9, A-Z, a-j) or an arrow (< > ^ v ` ' , .)";
            return Err((i, bad(&chars[i].to_string(), expected)));
        }
    }
    let mut root = [usize::MAX; N * N];
    for start in 0..N * N {
        let mut at = start;
        for _ in 0..N * N {
            match next[at] {
                Some(to) => at = to,
                None => break,
            }
        }
        if next[at].is_some() {
            return Err((start, bad(&chars[start].to_string(), "arrows that lead to a sum, not round in a loop")));
        }
        root[start] = at;
    }
    let mut groups = BoxShape { rows: 3, cols: 3 }.groups(N);
    let mut cages = Vec::new();
    for (r, sum) in sums.iter().enumerate() {
        let Some(sum) = *sum else { continue };
        let cells: Vec<Cell> = (0..N * N).filter(|&i| root[i] == r).map(|i| Cell::new(i / N, i % N)).collect();
        if cells.len() > N {
            return Err((r, bad(&chars[r].to_string(), "a cage of at most 9 cells, whose digits differ")));
        }
        match sum {
            0 if cells.len() > 1 => groups.push(Group::new(cells)),
            0 => {}
            _ => cages.push(Cage::new(Op::Add, sum, cells).expect("a positive sum").with_distinct(true)),
        }
    }
    Puzzle::new(N, groups, cages).map_err(|e| (0, ParseErrorKind::Invalid(e)))
}

/// Writes a 9×9 Killer Sudoku as a killer string: the default 3×3 boxes,
/// then any all-different groups (cages with no sum), then distinct `+`
/// cages and givens outside them, covering each cell once at most, each
/// cage's cells joined by a king's move, sums up to 45. The root of each
/// cage is its first cell (row by row); a cell in no cage is a cage of its
/// own with no sum.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    let not = |what| Err(WriteError::NotKiller(what));
    let boxes = BoxShape { rows: 3, cols: 3 }.groups(N);
    let extra = puzzle.extra_groups();
    if puzzle.size() != N || extra.len() < boxes.len() || extra[..boxes.len()] != boxes[..] {
        return not("a grid other than a 9x9 with its 3x3 boxes");
    }
    let mut parts: Vec<(u64, &[Cell])> = extra[boxes.len()..].iter().map(|g| (0, g.cells())).collect();
    for cage in puzzle.cages() {
        let one = cage.cells().len() == 1;
        if !(one || cage.op() == Op::Add && cage.is_distinct()) {
            return not("a cage that is not a distinct '+' cage");
        }
        match cage.target().digits().parse::<u64>() {
            Ok(sum @ 1..=45) => parts.push((sum, cage.cells())),
            _ => return not("a sum above 45"),
        }
    }
    let mut chars = [None; N * N];
    for (sum, cells) in parts {
        if cells.iter().any(|c| chars[c.index(N)].is_some()) {
            return not("a cell in two cages, or a given inside a cage");
        }
        let joined = king_tree(cells).ok_or(WriteError::NotKiller("a cage whose cells a king's move does not join"))?;
        for (cell, to) in cells.iter().zip(joined) {
            chars[cell.index(N)] = Some(match to {
                None => sum_char(sum),
                Some(to) => {
                    let step = (to.row as isize - cell.row as isize, to.col as isize - cell.col as isize);
                    ARROWS.iter().find(|(_, s)| *s == step).expect("a king's move").0
                }
            });
        }
    }
    Ok(chars.iter().map(|c| c.unwrap_or('0')).collect())
}

/// For each of `cells`, the cell it points to on the way to the first of
/// them (none for the first): a tree grown along rows and columns, and by
/// a diagonal step only where no other step reaches a cell; `None` if some
/// cell cannot be reached by a king's steps inside the cage.
fn king_tree(cells: &[Cell]) -> Option<Vec<Option<Cell>>> {
    let first = *cells.iter().min()?;
    let mut to: Vec<Option<Option<Cell>>> = cells.iter().map(|&c| (c == first).then_some(None)).collect();
    let mut queue = VecDeque::from([first]);
    loop {
        while let Some(at) = queue.pop_front() {
            for j in 0..cells.len() {
                if to[j].is_none() && cells[j].row.abs_diff(at.row) + cells[j].col.abs_diff(at.col) == 1 {
                    to[j] = Some(Some(at));
                    queue.push_back(cells[j]);
                }
            }
        }
        let reached: Vec<Cell> = (0..cells.len()).filter(|&j| to[j].is_some()).map(|j| cells[j]).collect();
        let diagonal = (0..cells.len()).find_map(|j| {
            let near = |c: &&Cell| c.row.abs_diff(cells[j].row) == 1 && c.col.abs_diff(cells[j].col) == 1;
            to[j].is_none().then(|| reached.iter().find(near).map(|&at| (j, at))).flatten()
        });
        match diagonal {
            Some((j, at)) => {
                to[j] = Some(Some(at));
                queue.push_back(cells[j]);
            }
            None => break,
        }
    }
    to.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";

    #[test]
    fn the_first_forum_killer_reads_as_its_cages() {
        let puzzle = &parse(FIRST, "t").unwrap()[0].puzzle;
        assert_eq!(puzzle.extra_groups().len(), 9);
        let first = &puzzle.cages()[0];
        assert_eq!((first.op(), first.target().digits(), first.is_distinct()), (Op::Add, "16", true));
        assert!(first.cells().contains(&Cell::new(0, 2)) && first.cells().contains(&Cell::new(1, 0)));
        let cells: usize = puzzle.cages().iter().map(|c| c.cells().len()).sum();
        assert_eq!(cells, 81);
        let total: u64 = puzzle.cages().iter().map(|c| c.target().digits().parse::<u64>().unwrap()).sum();
        assert_eq!(total, 405, "every cell in a cage, so the sums make nine houses'");
        let written = write(puzzle).unwrap();
        assert_eq!(&parse(&written, "t").unwrap()[0].puzzle, puzzle);
        assert!(!written.contains(['`', '\'', ',', '.']), "cages joined side by side need no diagonal: {written}");
    }

    #[test]
    fn loops_bad_characters_and_arrows_off_the_grid_are_errors_at_their_column() {
        let at = |text: &str| parse(text, "t").map(|_| ()).unwrap_err();
        let mut looped: Vec<char> = FIRST.chars().collect();
        (looped[0], looped[1]) = ('>', '<');
        let error = at(&looped.iter().collect::<String>());
        assert!(matches!(error.kind, ParseErrorKind::BadKiller { .. }), "{error}");
        assert!(error.to_string().contains("loop"), "{error}");
        let error = at(&format!("x{}", &FIRST[1..]));
        assert_eq!(
            (error.column, error.kind.clone()),
            (1, bad("x", "a sum (0-9, A-Z, a-j) or an arrow (< > ^ v ` ' , .)"))
        );
        let error = at(&format!("<{}", &FIRST[1..]));
        assert!(error.to_string().contains("inside the grid"), "{error}");
        assert!(matches!(at(&FIRST[1..]).kind, ParseErrorKind::BadLength { found: 80, .. }));
    }

    #[test]
    fn sumless_cages_are_groups_and_write_back() {
        let mut text: Vec<char> = FIRST.chars().collect();
        text[0] = '0';
        let puzzle = &parse(&text.iter().collect::<String>(), "t").unwrap()[0].puzzle;
        assert_eq!(puzzle.extra_groups().len(), 10);
        assert_eq!(puzzle.extra_groups()[9].cells().len(), 4);
        assert_eq!(&parse(&write(puzzle).unwrap(), "t").unwrap()[0].puzzle, puzzle);
        assert!(write(puzzle).unwrap().starts_with("0<<"));
        let diagonal = Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(1, 1)]).unwrap().with_distinct(true);
        let boxes = BoxShape { rows: 3, cols: 3 }.groups(9);
        let written = write(&Puzzle::new(9, boxes, vec![diagonal]).unwrap()).unwrap();
        assert_eq!(&written[..11], "3000000000`");
    }

    #[test]
    fn only_killers_that_fit_are_written() {
        let sudoku = Puzzle::sudoku(9, BoxShape::default_for(9), &[0; 81]).unwrap();
        assert_eq!(write(&sudoku).unwrap(), "0".repeat(81));
        let plain = Puzzle::new(9, vec![], vec![]).unwrap();
        assert!(write(&plain).is_err());
        let boxes = BoxShape { rows: 3, cols: 3 }.groups(9);
        let apart = Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(0, 2)]).unwrap().with_distinct(true);
        assert!(write(&Puzzle::new(9, boxes.clone(), vec![apart]).unwrap()).is_err());
        let kenken = Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap();
        assert!(write(&Puzzle::new(9, boxes.clone(), vec![kenken.clone()]).unwrap()).is_err());
        let killer = kenken.with_distinct(true);
        let given = Cage::new(Op::Given, 1, vec![Cell::new(0, 0)]).unwrap();
        assert!(write(&Puzzle::new(9, boxes.clone(), vec![killer.clone(), given]).unwrap()).is_err());
        assert!(write(&Puzzle::new(9, boxes, vec![killer]).unwrap()).unwrap().starts_with("3<0"));
    }
}
