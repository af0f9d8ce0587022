//! Constraints the rules imply, derived once per puzzle and handed to the
//! search as cages of their own: redundant by construction, there for
//! speed. The search does not know a derived cage from a given one.
//!
//! The law of leftovers: a region made of whole groups of N cells (one
//! group, or K rows or K columns side by side) holds each value K times,
//! so its values sum to K·N(N+1)/2. Of the cages of known sum (`+` cages
//! and givens), taken so that none shares a cell with another:
//!
//! - *innies*: those wholly inside the region leave the rest of its cells
//!   the region's sum less theirs;
//! - *outies*: when those inside and those crossing its edge cover the
//!   region, the crossing cages' cells outside it sum to what the cages
//!   have beyond the region's sum.

use super::factors;
use super::tuning::DERIVED_MOST_CELLS;
use crate::puzzle::{Cage, Cell, Op, Puzzle};

/// The cages `puzzle` implies beyond its own (see the module's doc), for
/// puzzles with distinct cages (Killers), where the sums of distinct
/// values leave few combinations.
pub(super) fn derived(puzzle: &Puzzle) -> Vec<Cage> {
    let n = puzzle.size();
    if !puzzle.cages().iter().any(|cage| cage.is_distinct() && cage.cells().len() > 1) {
        return Vec::new();
    }
    // Cages whose values sum to a known number, none sharing a cell.
    let mut taken = vec![false; n * n];
    let mut known: Vec<(&[Cell], u64)> = Vec::new();
    for cage in puzzle.cages().iter().filter(|cage| cage.op() == Op::Add || cage.cells().len() == 1) {
        let Some(sum) = factors::decimal(cage.target().digit_bytes()) else { continue };
        if cage.cells().iter().all(|c| !taken[c.index(n)]) {
            cage.cells().iter().for_each(|c| taken[c.index(n)] = true);
            known.push((cage.cells(), sum));
        }
    }
    let house = (n * (n + 1) / 2) as u64;
    let mut regions: Vec<(Vec<bool>, u64)> = Vec::new();
    for group in puzzle.groups().iter().filter(|group| group.cells().len() == n) {
        let mut inside = vec![false; n * n];
        group.cells().iter().for_each(|cell| inside[cell.index(n)] = true);
        regions.push((inside, house));
    }
    for k in 2..n {
        for first in 0..=n - k {
            let rows = (0..n * n).map(|i| (first..first + k).contains(&(i / n))).collect();
            let cols = (0..n * n).map(|i| (first..first + k).contains(&(i % n))).collect();
            regions.extend([(rows, house * k as u64), (cols, house * k as u64)]);
        }
    }
    let mut out: Vec<Cage> = Vec::new();
    let mut keep = |cells: Vec<Cell>, sum: u64| {
        if (1..=DERIVED_MOST_CELLS).contains(&cells.len()) && sum > 0 {
            let cage = Cage::new(Op::Add, sum, cells).expect("distinct cells, a positive sum");
            if !puzzle.cages().contains(&cage) && !out.contains(&cage) {
                out.push(cage);
            }
        }
    };
    for (inside, total) in &regions {
        let (mut covered, mut within_cages) = (vec![false; n * n], vec![false; n * n]);
        let (mut sum_in, mut sum_all, mut outside) = (0u64, 0u64, Vec::new());
        for &(cells, sum) in &known {
            let within = cells.iter().filter(|c| inside[c.index(n)]).count();
            if within == 0 {
                continue;
            }
            cells.iter().for_each(|c| covered[c.index(n)] = true);
            sum_all = sum_all.saturating_add(sum);
            if within == cells.len() {
                cells.iter().for_each(|c| within_cages[c.index(n)] = true);
                sum_in = sum_in.saturating_add(sum);
            } else {
                outside.extend(cells.iter().copied().filter(|c| !inside[c.index(n)]));
            }
        }
        let rest: Vec<Cell> =
            (0..n * n).filter(|&i| inside[i] && !within_cages[i]).map(|i| Cell::new(i / n, i % n)).collect();
        if sum_in < *total {
            keep(rest, total - sum_in);
        }
        let whole = (0..n * n).all(|i| !inside[i] || covered[i]);
        if whole && sum_all > *total {
            outside.sort_unstable();
            keep(outside, sum_all - total);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cage(op: Op, target: u64, cells: &[(usize, usize)]) -> Cage {
        Cage::new(op, target, cells.iter().map(|&(r, c)| Cell::new(r, c)).collect()).unwrap().with_distinct(true)
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
        let plain = |target: u64, cells: &[(usize, usize)]| cage(Op::Add, target, cells).with_distinct(false);
        assert!(found.contains(&plain(3, &[(0, 3)])), "{found:?}");
        assert!(found.contains(&plain(2, &[(1, 3)])), "{found:?}");
        assert!(found.contains(&plain(5, &[(2, 3), (3, 3)])), "column 4 less A4 B4: {found:?}");
        let kenken = Puzzle::new(4, vec![], vec![plain(3, &[(0, 0), (0, 1)])]).unwrap();
        assert!(derived(&kenken).is_empty(), "only Killers get derived cages");
    }
}
