//! The plain checker: does a filled grid satisfy a puzzle?
//!
//! Written to be obviously right, not fast, and sharing no code with either
//! solver: it is the referee of the cross-check.

use std::fmt;

use itertools::Itertools;

use crate::puzzle::{Cage, Grid, Op, Puzzle};

/// Why a grid fails a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The grid is of another size than the puzzle.
    WrongSize {
        /// The puzzle's N.
        expected: usize,
        /// The grid's N.
        found: usize,
    },
    /// A value appears twice in an all-different group (the group's index in
    /// [`Puzzle::groups`]).
    Repeated {
        /// Index of the group.
        group: usize,
        /// The repeated value.
        value: u8,
    },
    /// A cage (its index in [`Puzzle::cages`]) does not reach its target.
    CageBroken {
        /// Index of the cage.
        cage: usize,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::WrongSize { expected, found } => {
                write!(f, "grid is {found}x{found}, puzzle is {expected}x{expected}")
            }
            Violation::Repeated { group, value } => {
                write!(f, "value {value} repeats in group {group}")
            }
            Violation::CageBroken { cage } => write!(f, "cage {cage} does not hold"),
        }
    }
}

/// Checks every group and every cage of `puzzle` against `grid`.
///
/// ```
/// use cagey::{Cage, Cell, Grid, Op, Puzzle, Violation, verify};
///
/// let cage = Cage::new(Op::Add, 3u64, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap();
/// let puzzle = Puzzle::new(2, vec![], vec![cage]).unwrap();
/// assert_eq!(verify(&puzzle, &Grid::new(2, vec![1, 2, 2, 1]).unwrap()), Ok(()));
/// let repeat = Grid::new(2, vec![1, 1, 2, 2]).unwrap();
/// assert!(matches!(verify(&puzzle, &repeat), Err(Violation::Repeated { value: 1, .. })));
/// ```
pub fn verify(puzzle: &Puzzle, grid: &Grid) -> Result<(), Violation> {
    if grid.size() != puzzle.size() {
        return Err(Violation::WrongSize { expected: puzzle.size(), found: grid.size() });
    }
    for (index, group) in puzzle.groups().iter().enumerate() {
        if let Some(value) = group.cells().iter().map(|&cell| grid[cell]).duplicates().next() {
            return Err(Violation::Repeated { group: index, value });
        }
    }
    for (index, cage) in puzzle.cages().iter().enumerate() {
        if !cage_holds(cage, grid) {
            return Err(Violation::CageBroken { cage: index });
        }
    }
    Ok(())
}

/// Whether the values of `grid` in the cage's cells satisfy the cage: its
/// op reaches its target and, for a distinct cage, no value repeats.
///
/// Sums, differences, quotients and products are computed exactly, as
/// decimal digits when they could outgrow a machine word, and compared with
/// the target's digits: no arithmetic here can overflow or round.
pub fn cage_holds(cage: &Cage, grid: &Grid) -> bool {
    let values: Vec<u64> = cage.cells().iter().map(|&cell| u64::from(grid[cell])).collect();
    if cage.is_distinct() && values.iter().duplicates().next().is_some() {
        return false;
    }
    let ops: &[Op] = match (cage.op(), values.len()) {
        (Op::Any, 1) => &[Op::Given],
        (Op::Any, 2) => &[Op::Add, Op::Sub, Op::Mul, Op::Div],
        (Op::Any, _) => &[Op::Add, Op::Mul],
        (op, _) => &[op],
    };
    let target = cage.target().digits();
    ops.iter().any(|&op| result(op, &values).is_some_and(|r| r == target))
}

/// The op applied to the values, in decimal; `None` where it gives no whole
/// number (a division with a remainder) or does not apply to this many values.
fn result(op: Op, values: &[u64]) -> Option<String> {
    match (op, values) {
        // At most 625 values of at most 25: far below u64::MAX.
        (Op::Add, _) => Some(values.iter().sum::<u64>().to_string()),
        (Op::Mul, _) => Some(decimal_product(values)),
        (Op::Sub, [a, b]) => Some(a.abs_diff(*b).to_string()),
        (Op::Div, [a, b]) => {
            let (big, small) = if a > b { (a, b) } else { (b, a) };
            (big % small == 0).then(|| (big / small).to_string())
        }
        (Op::Given, [a]) => Some(a.to_string()),
        _ => None,
    }
}

/// The exact product of small values, in decimal: schoolbook multiplication
/// of a digit list (least significant first) by one value at a time.
fn decimal_product(values: &[u64]) -> String {
    let mut digits: Vec<u64> = vec![1];
    for &v in values {
        let mut carry = 0;
        for d in &mut digits {
            let x = *d * v + carry;
            *d = x % 10;
            carry = x / 10;
        }
        while carry > 0 {
            digits.push(carry % 10);
            carry /= 10;
        }
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    digits.iter().rev().map(|d| char::from(b'0' + *d as u8)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Cell;

    fn cage(op: Op, target: u64, cells: &[(usize, usize)]) -> Cage {
        Cage::new(op, target, cells.iter().map(|&(r, c)| Cell::new(r, c)).collect()).unwrap()
    }

    // 1 2 3
    // 2 3 1
    // 3 1 2
    fn grid() -> Grid {
        Grid::new(3, vec![1, 2, 3, 2, 3, 1, 3, 1, 2]).unwrap()
    }

    #[test]
    fn every_op() {
        let g = grid();
        assert!(cage_holds(&cage(Op::Add, 6, &[(0, 0), (0, 1), (0, 2)]), &g));
        assert!(!cage_holds(&cage(Op::Add, 5, &[(0, 0), (0, 1), (0, 2)]), &g));
        assert!(cage_holds(&cage(Op::Mul, 6, &[(0, 0), (0, 1), (0, 2)]), &g));
        assert!(cage_holds(&cage(Op::Sub, 1, &[(0, 1), (0, 0)]), &g));
        assert!(!cage_holds(&cage(Op::Sub, 2, &[(0, 1), (0, 0)]), &g));
        assert!(cage_holds(&cage(Op::Div, 2, &[(0, 1), (0, 0)]), &g));
        assert!(!cage_holds(&cage(Op::Div, 2, &[(0, 1), (0, 2)]), &g));
        assert!(cage_holds(&cage(Op::Given, 3, &[(0, 2)]), &g));
        assert!(!cage_holds(&cage(Op::Given, 3, &[(0, 1)]), &g));
    }

    #[test]
    fn a_distinct_cage_holds_only_without_repeats() {
        let g = grid();
        // 1 and 3 in column 1, 3 again at C1: a sum of 7 either way.
        let cells = &[(0, 0), (1, 1), (2, 0)];
        assert!(cage_holds(&cage(Op::Add, 7, cells), &g));
        assert!(!cage_holds(&cage(Op::Add, 7, cells).with_distinct(true), &g));
        assert!(cage_holds(&cage(Op::Add, 6, &[(0, 0), (0, 1), (0, 2)]).with_distinct(true), &g));
    }

    #[test]
    fn no_op_cages_take_any_allowed_op() {
        let g = grid();
        // 2 and 3: 5, 1, 6 and nothing by division.
        for target in [5, 1, 6] {
            assert!(cage_holds(&cage(Op::Any, target, &[(0, 1), (0, 2)]), &g));
        }
        assert!(!cage_holds(&cage(Op::Any, 4, &[(0, 1), (0, 2)]), &g));
        // three cells: only sum or product; 3 - 2 - 1 = 0 and 3 / 1 ... do not count.
        assert!(cage_holds(&cage(Op::Any, 6, &[(0, 0), (0, 1), (0, 2)]), &g));
        assert!(!cage_holds(&cage(Op::Any, 3, &[(0, 0), (0, 1), (0, 2)]), &g));
        assert!(cage_holds(&cage(Op::Any, 2, &[(0, 1)]), &g));
    }

    #[test]
    fn products_are_exact_however_large() {
        assert_eq!(decimal_product(&[]), "1");
        assert_eq!(decimal_product(&[0, 7]), "0");
        assert_eq!(decimal_product(&[25; 25]), "88817841970012523233890533447265625");
        let factorial: Vec<u64> = (1..=25).collect();
        assert_eq!(decimal_product(&factorial), "15511210043330985984000000");
        // (25!)^2 > 2^128: a 50-cell cage of a 25x25 grid.
        let twice: Vec<u64> = factorial.iter().chain(&factorial).copied().collect();
        assert_eq!(decimal_product(&twice), "240597637008332048087335626345604448256000000000000");
    }

    #[test]
    fn groups_and_sizes() {
        let puzzle = Puzzle::new(3, vec![], vec![]).unwrap();
        assert_eq!(verify(&puzzle, &grid()), Ok(()));
        let bad = Grid::new(3, vec![1, 2, 3, 2, 3, 1, 3, 2, 1]).unwrap();
        assert!(matches!(verify(&puzzle, &bad), Err(Violation::Repeated { .. })));
        let small = Grid::new(1, vec![1]).unwrap();
        assert!(matches!(verify(&puzzle, &small), Err(Violation::WrongSize { .. })));
    }
}
