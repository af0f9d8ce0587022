//! The groups of f-puzzles' global rules, the same for reading and writing.

use crate::puzzle::{BoxShape, Cell};

/// The global rules: f-puzzles' key for each.
pub(super) const RULES: [&str; 5] = ["diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups"];

/// The all-different groups of `rule` (one of [`RULES`]) on an N×N grid,
/// each sorted row by row.
pub(super) fn groups(rule: &str, n: usize) -> Vec<Vec<Cell>> {
    let mut groups: Vec<Vec<Cell>> = match rule {
        "diagonal+" => vec![(0..n).map(|i| Cell::new(n - 1 - i, i)).collect()],
        "diagonal-" => vec![(0..n).map(|i| Cell::new(i, i)).collect()],
        "antiknight" => pairs(n, &[(1, 2), (2, 1), (1, -2), (2, -1)]),
        "antiking" => pairs(n, &[(1, 1), (1, -1)]),
        "disjointgroups" => BoxShape::default_for(n).map_or_else(Vec::new, |shape| {
            let positions = (0..shape.rows).flat_map(|i| (0..shape.cols).map(move |j| (i, j)));
            positions
                .map(|(i, j)| {
                    let cells = (0..n * n).map(|c| Cell::new(c / n, c % n));
                    cells.filter(|cell| cell.row % shape.rows == i && cell.col % shape.cols == j).collect()
                })
                .collect()
        }),
        _ => unreachable!("a rule of RULES"),
    };
    for group in &mut groups {
        group.sort_by_key(|cell| (cell.row, cell.col));
    }
    groups
}

/// Every pair of cells a step of `steps` apart.
fn pairs(n: usize, steps: &[(isize, isize)]) -> Vec<Vec<Cell>> {
    let mut pairs = Vec::new();
    for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
        for &(dr, dc) in steps {
            let (r2, c2) = (r as isize + dr, c as isize + dc);
            if (0..n as isize).contains(&r2) && (0..n as isize).contains(&c2) {
                pairs.push(vec![Cell::new(r, c), Cell::new(r2 as usize, c2 as usize)]);
            }
        }
    }
    pairs
}
