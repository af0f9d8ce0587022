//! The fewest extra givens that leave a puzzle one solution, the one kept:
//! each other solution must differ from it at a given cell, so the givens
//! are a set of cells that hits every other solution's set of differing
//! cells.

use std::ops::ControlFlow;

use crate::native::Report;
use crate::puzzle::verify::verify;
use crate::puzzle::{Cell, Grid, Puzzle};
use crate::solver::Solver;
use crate::solver::error::SolveError;

/// Extra givens that leave a puzzle exactly one solution: the one kept.
/// From [`Solver::suggest`](crate::Solver::suggest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// Cells, each with the value the kept solution has there, in order.
    pub givens: Vec<(Cell, u8)>,
    /// Whether no fewer givens would do: the other solutions were few
    /// enough to search every set of cells; otherwise the givens were
    /// chosen one at a time, each the cell that rules out the most of a
    /// sample of the solutions left.
    pub smallest: bool,
    /// Whether the givens are known to leave one solution: false when a
    /// timeout or an interrupt cut the search short.
    pub complete: bool,
}

/// A set of cells, one bit per cell (row-major).
pub(crate) type Cells = Vec<u64>;

/// Searches for a smallest hitting set in at most this many steps, then
/// settles for the smallest found.
const STEPS: u64 = 100_000;

/// The cells (row-major) where `other` differs from `keep`.
pub(crate) fn differences(keep: &Grid, other: &Grid) -> Cells {
    let mut cells = vec![0; keep.values().len().div_ceil(64)];
    for (i, (a, b)) in keep.values().iter().zip(other.values()).enumerate() {
        if a != b {
            cells[i / 64] |= 1 << (i % 64);
        }
    }
    cells
}

fn meets(a: &Cells, b: &Cells) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn members(set: &Cells) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| (0..64).filter(move |b| word & (1 << b) != 0).map(move |b| w * 64 + b))
}

/// A smallest set of cells that meets each of `sets`, and whether it is
/// known to be smallest (the search may run out of steps).
pub(crate) fn smallest_hitting_set(sets: &[Cells], words: usize) -> (Vec<usize>, bool) {
    let mut best = greedy_hitting_set(sets, words);
    let (mut chosen, mut steps) = (Vec::new(), 0);
    let open: Vec<&Cells> = sets.iter().collect();
    let exact = hit(&open, &mut chosen, &mut best, &mut steps);
    best.sort_unstable();
    (best, exact)
}

/// Greedy: the cell in the most sets not yet met, until every set is.
fn greedy_hitting_set(sets: &[Cells], words: usize) -> Vec<usize> {
    let (mut chosen, mut bits) = (Vec::new(), vec![0; words]);
    loop {
        let open: Vec<&Cells> = sets.iter().filter(|set| !meets(set, &bits)).collect();
        let Some(cell) = most_common(&open) else { return chosen };
        chosen.push(cell);
        bits[cell / 64] |= 1 << (cell % 64);
    }
}

/// The cell in the most of `sets` (the first of those, row-major).
pub(crate) fn most_common(sets: &[&Cells]) -> Option<usize> {
    let mut counts = std::collections::BTreeMap::new();
    for set in sets {
        for cell in members(set) {
            *counts.entry(cell).or_insert(0u64) += 1;
        }
    }
    counts.into_iter().max_by_key(|&(cell, count)| (count, std::cmp::Reverse(cell))).map(|(cell, _)| cell)
}

/// Branch and bound: extends `chosen` by each cell of the narrowest of the
/// sets it does not meet yet (`open`), keeping `best` the smallest full set
/// found. False if it ran out of steps.
fn hit(open: &[&Cells], chosen: &mut Vec<usize>, best: &mut Vec<usize>, steps: &mut u64) -> bool {
    *steps += 1;
    if *steps > STEPS {
        return false;
    }
    let Some(narrowest) = open.iter().min_by_key(|set| set.iter().map(|w| w.count_ones()).sum::<u32>()) else {
        if chosen.len() < best.len() {
            best.clone_from(chosen);
        }
        return true;
    };
    if chosen.len() + disjoint(open) >= best.len() {
        return true;
    }
    for cell in members(narrowest) {
        let (word, bit) = (cell / 64, 1 << (cell % 64));
        let still: Vec<&Cells> = open.iter().copied().filter(|set| set[word] & bit == 0).collect();
        chosen.push(cell);
        let done = hit(&still, chosen, best, steps);
        chosen.pop();
        if !done {
            return false;
        }
    }
    true
}

/// How many of `sets` can be picked with no cell in two of them: a lower
/// bound on the cells that meet them all.
fn disjoint(sets: &[&Cells]) -> usize {
    let mut by_size: Vec<&Cells> = sets.to_vec();
    by_size.sort_by_key(|set| set.iter().map(|w| w.count_ones()).sum::<u32>());
    let mut used: Cells = vec![0; sets.first().map_or(0, |s| s.len())];
    let mut count = 0;
    for set in by_size {
        if !meets(set, &used) {
            used.iter_mut().zip(set).for_each(|(u, s)| *u |= s);
            count += 1;
        }
    }
    count
}

impl Solver {
    /// Extra givens, from `keep` (a solution of the puzzle), that leave
    /// `keep` its only solution. With up to 5,000 other
    /// solutions they are a smallest such set (a hitting set of the cells
    /// where each other solution differs from `keep`); with more, they are
    /// chosen one at a time, each the cell that rules out the most of a
    /// sample of that many solutions, until the rest are few enough to
    /// finish exactly. Fails unless `keep` is a solution.
    pub fn suggest(&self, puzzle: &Puzzle, keep: &Grid) -> Result<Suggestion, SolveError> {
        verify(puzzle, keep).map_err(SolveError::NotASolution)?;
        let n = puzzle.size();
        let words = (n * n).div_ceil(64);
        let solver = self.until_deadline();
        let (mut givens, mut smallest) = (Vec::new(), true);
        let complete = loop {
            let cube: Vec<(usize, usize)> = givens.iter().map(|&c| (c, usize::from(keep.values()[c]))).collect();
            let (mut others, mut full) = (Vec::new(), false);
            let stats = solver.run(
                puzzle,
                &[cube],
                Report::Grid(&mut |grid| {
                    if grid != keep {
                        others.push(differences(keep, grid));
                    }
                    full = others.len() as u64 >= Self::SUGGEST_SAMPLE;
                    if full { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                }),
            )?;
            if stats.complete {
                let (cells, exact) = smallest_hitting_set(&others, words);
                smallest &= exact;
                givens.extend(cells);
                break true;
            }
            if !full {
                break false;
            }
            smallest = false;
            givens.extend(most_common(&others.iter().collect::<Vec<_>>()));
        };
        givens.sort_unstable();
        let givens = givens.into_iter().map(|c| (Cell::new(c / n, c % n), keep.values()[c])).collect();
        Ok(Suggestion { givens, smallest, complete })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(list: &[usize]) -> Cells {
        let mut set = vec![0; 1];
        list.iter().for_each(|&c| set[0] |= 1 << c);
        set
    }

    #[test]
    fn hitting_sets_are_smallest_and_greedy_ones_meet_everything() {
        let sets: Vec<Cells> = [[1, 2], [1, 3], [2, 3], [4, 5], [4, 6], [5, 6]].iter().map(|s| cells(s)).collect();
        let greedy = greedy_hitting_set(&sets, 1);
        assert!(sets.iter().all(|set| greedy.iter().any(|&c| set[0] & (1 << c) != 0)));
        let (smallest, exact) = smallest_hitting_set(&sets, 1);
        assert!(exact);
        assert_eq!(smallest.len(), 4, "two cells of each triangle");
        assert!(sets.iter().all(|set| smallest.iter().any(|&c| set[0] & (1 << c) != 0)));
        assert_eq!(smallest_hitting_set(&[], 1), (vec![], true));
        assert_eq!(disjoint(&sets.iter().collect::<Vec<_>>()), 2);
        // One cell can meet them all.
        let star: Vec<Cells> = [[0, 1], [0, 2], [0, 3]].iter().map(|s| cells(s)).collect();
        assert_eq!(smallest_hitting_set(&star, 1), (vec![0], true));
    }
}
