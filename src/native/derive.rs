//! Sums the rules imply, derived once per puzzle and handed to the search
//! as constraints of their own: redundant by construction, there for
//! speed. The search revises them as it does cages.
//!
//! The law of leftovers: a region made of whole groups of N cells (one
//! group; K rows or K columns side by side; the first K of the other
//! groups, when those do not overlap, like boxes) holds each value K
//! times, so its values sum to K·N(N+1)/2. Take the cages of known sum
//! (`+` cages and givens) so that none shares a cell with another, and
//! give the region some of them: those with most of their cells in it, or
//! all that reach into it. The region's cells that no cage given to it
//! covers (the *innies*) less those cages' cells outside it (the
//! *outies*) sum to the region's sum less the cages'.

use super::factors;
use super::tuning::DERIVED_MOST_CELLS;
use crate::puzzle::{Op, Puzzle};

/// A sum the rules imply: the values of the cells `plus`, less those of
/// the cells `minus`, make `total`. Cells are indices, row-major.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Derived {
    pub plus: Vec<usize>,
    pub minus: Vec<usize>,
    pub total: i64,
}

/// The sums `puzzle` implies beyond its cages (see the module's doc), of
/// at most [`DERIVED_MOST_CELLS`] cells with at most two on one side, for
/// puzzles with distinct cages (Killers), where the sums of distinct
/// values leave few combinations.
pub(super) fn derived(puzzle: &Puzzle) -> Vec<Derived> {
    let n = puzzle.size();
    if !puzzle.cages().iter().any(|cage| cage.is_distinct() && cage.cells().len() > 1) {
        return Vec::new();
    }
    let known = known_sums(puzzle);
    let mut out: Vec<Derived> = Vec::new();
    for (inside, count) in regions(puzzle) {
        let total = (n * (n + 1) / 2 * count) as i64;
        let within = |cells: &[usize]| cells.iter().filter(|&&c| inside[c]).count();
        // The cages with most of their cells in the region, and all that
        // reach into it.
        let mut given_to: [Vec<usize>; 2] = Default::default();
        for (k, (cells, _)) in known.iter().enumerate() {
            let w = within(cells);
            if 2 * w > cells.len() {
                given_to[0].push(k);
            }
            if w > 0 {
                given_to[1].push(k);
            }
        }
        for chosen in &given_to {
            let mut covered = vec![false; n * n];
            let (mut minus, mut total) = (Vec::new(), total);
            for &k in chosen {
                let (cells, sum) = &known[k];
                total -= sum;
                for &c in cells {
                    covered[c] = true;
                    if !inside[c] {
                        minus.push(c);
                    }
                }
            }
            let plus: Vec<usize> = (0..n * n).filter(|&c| inside[c] && !covered[c]).collect();
            minus.sort_unstable();
            let sum = match (plus.len(), minus.len()) {
                (0, 0) => continue,
                (a, b) if a + b > DERIVED_MOST_CELLS || a.min(b) > 2 => continue,
                // The larger side adds, so that fewer values are turned.
                (a, b) if a >= b => Derived { plus, minus, total },
                _ => Derived { plus: minus, minus: plus, total: -total },
            };
            if !out.contains(&sum) && !is_cage(puzzle, &sum) {
                out.push(sum);
            }
        }
    }
    out
}

/// The cells (as indices) and sums of the cages whose values sum to a
/// known number, none sharing a cell with one before it.
fn known_sums(puzzle: &Puzzle) -> Vec<(Vec<usize>, i64)> {
    let n = puzzle.size();
    let mut taken = vec![false; n * n];
    let mut known = Vec::new();
    for cage in puzzle.cages().iter().filter(|cage| cage.op() == Op::Add || cage.cells().len() == 1) {
        let Some(sum) = factors::decimal(cage.target().digit_bytes()).and_then(|s| i64::try_from(s).ok()) else {
            continue;
        };
        let cells: Vec<usize> = cage.cells().iter().map(|c| c.index(n)).collect();
        if cells.iter().all(|&c| !taken[c]) {
            cells.iter().for_each(|&c| taken[c] = true);
            known.push((cells, sum));
        }
    }
    known
}

/// The regions of whole groups (see the module's doc): their cells and
/// how many groups each is made of.
fn regions(puzzle: &Puzzle) -> Vec<(Vec<bool>, usize)> {
    let n = puzzle.size();
    let mut regions: Vec<(Vec<bool>, usize)> = Vec::new();
    let mut others: Vec<Vec<bool>> = Vec::new();
    for group in puzzle.groups().iter().filter(|group| group.cells().len() == n) {
        let mut inside = vec![false; n * n];
        group.cells().iter().for_each(|cell| inside[cell.index(n)] = true);
        let line = group.cells().windows(2).all(|w| w[0].row == w[1].row)
            || group.cells().windows(2).all(|w| w[0].col == w[1].col);
        if !line {
            others.push(inside.clone());
        }
        regions.push((inside, 1));
    }
    for k in 2..n {
        for first in 0..=n - k {
            let rows = (0..n * n).map(|i| (first..first + k).contains(&(i / n))).collect();
            let cols = (0..n * n).map(|i| (first..first + k).contains(&(i % n))).collect();
            regions.extend([(rows, k), (cols, k)]);
        }
    }
    let apart =
        others.iter().enumerate().all(|(i, a)| others[..i].iter().all(|b| a.iter().zip(b).all(|(x, y)| !(x & y))));
    if apart {
        let mut union = vec![false; n * n];
        for (k, group) in others.iter().enumerate().take(others.len().saturating_sub(1)) {
            union.iter_mut().zip(group).for_each(|(u, &g)| *u |= g);
            if k > 0 && !regions.iter().any(|(cells, _)| *cells == union) {
                regions.push((union.clone(), k + 1));
            }
        }
    }
    regions
}

/// Whether `sum` says no more than a `+` cage of the puzzle.
fn is_cage(puzzle: &Puzzle, sum: &Derived) -> bool {
    let n = puzzle.size();
    sum.minus.is_empty()
        && puzzle.cages().iter().any(|cage| {
            cage.op() == Op::Add
                && factors::decimal(cage.target().digit_bytes()) == u64::try_from(sum.total).ok()
                && cage.cells().len() == sum.plus.len()
                && cage.cells().iter().all(|c| sum.plus.contains(&c.index(n)))
        })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::puzzle::{Cage, Cell, Group};

    fn cage(op: Op, target: u64, cells: &[(usize, usize)]) -> Cage {
        Cage::new(op, target, cells.iter().map(|&(r, c)| Cell::new(r, c)).collect()).unwrap().with_distinct(true)
    }

    fn sum(plus: &[usize], minus: &[usize], total: i64) -> Derived {
        Derived { plus: plus.to_vec(), minus: minus.to_vec(), total }
    }

    #[test]
    fn innies_and_outies_of_a_row() {
        // Row A: 1+2 in A1 A2, 4 given in A3, so A4 holds 10 - 7 = 3; the
        // cage over A4 B4 crosses row A, so B4 holds 3 + 4 + 5 - 10 = 2.
        let cages = vec![
            cage(Op::Add, 3, &[(0, 0), (0, 1)]),
            cage(Op::Given, 4, &[(0, 2)]),
            cage(Op::Add, 5, &[(0, 3), (1, 3)]),
        ];
        let puzzle = Puzzle::new(4, vec![], cages).unwrap();
        let found = derived(&puzzle);
        assert!(found.contains(&sum(&[3], &[], 3)), "{found:?}");
        assert!(found.contains(&sum(&[7], &[], 2)), "{found:?}");
        assert!(found.contains(&sum(&[11, 15], &[], 5)), "column 4 less A4 B4: {found:?}");
        let kenken = Puzzle::new(4, vec![], vec![cage(Op::Add, 3, &[(0, 0), (0, 1)]).with_distinct(false)]).unwrap();
        assert!(derived(&kenken).is_empty(), "only Killers get derived sums");
    }

    #[test]
    fn a_cage_mostly_in_a_row_leaves_innies_less_outies() {
        // Row A of a 4×4: a cage of 7 over A1 A2 B2 gives A3 + A4 - B2 = 10 - 7.
        let cages = vec![cage(Op::Add, 7, &[(0, 0), (0, 1), (1, 1)]), cage(Op::Add, 9, &[(2, 0), (2, 1), (3, 0)])];
        let puzzle = Puzzle::new(4, vec![], cages).unwrap();
        let found = derived(&puzzle);
        assert!(found.contains(&sum(&[2, 3], &[5], 3)), "{found:?}");
        // Rows A and B leave A3 A4 B1 B3 B4: too many cells to keep.
        assert!(!found.iter().any(|d| d.plus.len() + d.minus.len() > DERIVED_MOST_CELLS), "{found:?}");
    }

    /// A random Killer on a grid that fills boxes of `rows`×`cols`, from
    /// `seed`, with the grid it was planted on.
    fn planted(rows: usize, cols: usize, seed: u64) -> (Puzzle, Vec<usize>) {
        let n = rows * cols;
        let mut state = seed | 1;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        // A grid whose rows, columns and boxes hold every value, its values
        // and rows within bands shuffled.
        let mut symbols: Vec<usize> = (1..=n).collect();
        for i in (1..n).rev() {
            symbols.swap(i, next(i + 1));
        }
        let mut order: Vec<usize> = (0..n).collect();
        for band in 0..cols {
            for i in (1..rows).rev() {
                order.swap(band * rows + i, band * rows + next(i + 1));
            }
        }
        let grid: Vec<usize> =
            (0..n * n).map(|i| symbols[((order[i / n] % rows) * cols + order[i / n] / rows + i % n) % n]).collect();
        // Cages grown from cells in a random order, of up to four cells
        // whose planted values differ; a third of them without a sum.
        let mut caged = vec![false; n * n];
        let mut cages = Vec::new();
        for start in 0..n * n {
            let start = (start * 7 + next(n * n)) % (n * n);
            if caged[start] {
                continue;
            }
            let (mut cells, want) = (vec![start], 1 + next(4));
            caged[start] = true;
            while cells.len() < want {
                let from = cells[next(cells.len())];
                let (r, c) = (from / n, from % n);
                let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)][next(4)];
                let cell = near.0 * n + near.1;
                if near.0 < n && near.1 < n && !caged[cell] && cells.iter().all(|&c| grid[c] != grid[cell]) {
                    caged[cell] = true;
                    cells.push(cell);
                } else if next(4) == 0 {
                    break;
                }
            }
            let sum: usize = cells.iter().map(|&c| grid[c]).sum();
            let cells = cells.iter().map(|&c| Cell::new(c / n, c % n)).collect();
            let op = if next(3) == 0 { Op::Any } else { Op::Add };
            cages.push(Cage::new(op, sum as u64, cells).unwrap().with_distinct(true));
        }
        let boxes = (0..n)
            .map(|b| {
                let (top, left) = (b / rows * rows, b % rows * cols);
                Group::new((0..n).map(|i| Cell::new(top + i / cols, left + i % cols)).collect())
            })
            .collect();
        (Puzzle::new(n, boxes, cages).unwrap(), grid)
    }

    proptest! {
        /// Every solution of a puzzle meets every sum derived from it, so
        /// adding them leaves the solution set as it was: here, the grid
        /// each random Killer was planted on.
        #[test]
        fn derived_sums_hold_on_the_planted_grid(shape in prop::sample::select(vec![(2, 2), (2, 3), (3, 3)]), seed: u64) {
            let (puzzle, grid) = planted(shape.0, shape.1, seed);
            for sum in derived(&puzzle) {
                let value = |cells: &[usize]| cells.iter().map(|&c| grid[c] as i64).sum::<i64>();
                prop_assert_eq!(value(&sum.plus) - value(&sum.minus), sum.total, "{:?}", sum);
            }
        }
    }
}
