//! One change to one cage, instead of extra givens, that leaves a kept
//! solution the only one: a new op and target for the cage (retargeting),
//! or the cage split in two.

use std::time::Instant;

use crate::puzzle::verify::verify;
use crate::puzzle::{Cage, Cell, Grid, Op, Puzzle, in_one_piece};
use crate::solver::Solver;
use crate::solver::error::SolveError;

/// A change to one cage of a puzzle, from
/// [`Solver::cage_changes`](crate::Solver::cage_changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageChange {
    /// The index of the cage in [`Puzzle::cages`].
    pub cage: usize,
    /// What replaces it: one cage with another op and target, or two cages
    /// that split its cells.
    pub into: Vec<Cage>,
}

/// Splits are tried for cages of at most this many cells.
const SPLIT_CELLS: usize = 8;

/// The changes to try, every new cage holding in `keep`: first another op
/// for a cage (its target worked out from `keep`), for each cage in turn;
/// then every split of a cage in two parts (each in one piece, if the cage
/// is), each part with the cage's op where it allows the part's cell count
/// (a part of one cell becomes a `!` cage). A distinct (Killer) cage keeps
/// its `+` and is split into distinct `+` cages, one-cell ones included.
pub(crate) fn candidates(puzzle: &Puzzle, keep: &Grid) -> Vec<CageChange> {
    let cages = || puzzle.cages().iter().enumerate().filter(|(_, cage)| cage.cells().len() > 1);
    let mut changes = Vec::new();
    for (index, cage) in cages() {
        for op in [Op::Add, Op::Sub, Op::Mul, Op::Div] {
            if op != cage.op() && op.allows_cell_count(cage.cells().len()) && !cage.is_distinct() {
                changes.extend(part(op, cage.cells(), keep).map(|cage| CageChange { cage: index, into: vec![cage] }));
            }
        }
    }
    for (index, cage) in cages().filter(|(_, cage)| cage.cells().len() <= SPLIT_CELLS) {
        let cells = cage.cells();
        // Part B takes the cells of `mask`; cell 0 stays in part A.
        for mask in 1..(1u32 << (cells.len() - 1)) {
            let in_b = |i: usize| i > 0 && mask & (1 << (i - 1)) != 0;
            let [a, b]: [Vec<Cell>; 2] =
                [false, true].map(|side| (0..cells.len()).filter(|&i| in_b(i) == side).map(|i| cells[i]).collect());
            // A cage in one piece splits into pieces.
            if in_one_piece(cells) && !(in_one_piece(&a) && in_one_piece(&b)) {
                continue;
            }
            let op = |part: &[Cell]| match cage.op() {
                _ if cage.is_distinct() => Op::Add,
                _ if part.len() == 1 => Op::Given,
                Op::Any => Op::Add,
                op => op,
            };
            let into: Option<Vec<Cage>> =
                [&a, &b].into_iter().map(|part| part_cage(cage, op(part), part, keep)).collect();
            changes.extend(into.map(|into| CageChange { cage: index, into }));
        }
    }
    changes
}

/// The cage over `cells` with `op` that `keep` meets, keeping a no-op
/// cage's `?`, if its cell count allows it, and a distinct cage's rule.
fn part_cage(cage: &Cage, op: Op, cells: &[Cell], keep: &Grid) -> Option<Cage> {
    let made = part(op, cells, keep)?;
    let made = match cage.op() {
        Op::Any if cells.len() > 1 => Cage::new(Op::Any, made.target().clone(), cells.to_vec()).ok()?,
        _ => made,
    };
    Some(made.with_distinct(cage.is_distinct()))
}

/// The cage over `cells` with `op` whose target is what `keep`'s values
/// there give, if that op can take them (a whole quotient, a positive
/// difference, a product within 64 bits).
fn part(op: Op, cells: &[Cell], keep: &Grid) -> Option<Cage> {
    let values: Vec<u64> = cells.iter().map(|&cell| u64::from(keep[cell])).collect();
    let target = match (op, &values[..]) {
        (Op::Given, &[v]) => v,
        (Op::Add, _) => values.iter().sum(),
        (Op::Mul, _) => values.iter().try_fold(1u64, |p, &v| p.checked_mul(v))?,
        (Op::Sub, &[a, b]) => a.abs_diff(b),
        (Op::Div, &[a, b]) => {
            let (big, small) = (a.max(b), a.min(b));
            if big % small != 0 {
                return None;
            }
            big / small
        }
        _ => return None,
    };
    Cage::new(op, target, cells.to_vec()).ok()
}

/// `puzzle` with cage `change.cage` replaced by `change.into`.
pub(crate) fn apply(puzzle: &Puzzle, change: &CageChange) -> Option<Puzzle> {
    let mut cages: Vec<Cage> = puzzle.cages().to_vec();
    cages.splice(change.cage..=change.cage, change.into.iter().cloned());
    Puzzle::new(puzzle.size(), puzzle.extra_groups().to_vec(), cages).ok()
}

impl Solver {
    /// Up to `most` changes to one cage each, instead of givens, that leave
    /// `keep` (a solution of the puzzle) its only solution: another op for
    /// a cage, with the target `keep` gives it, or a cage split in two
    /// (see [`CageChange`]). Fails unless `keep` is a solution.
    pub fn cage_changes(&self, puzzle: &Puzzle, keep: &Grid, most: usize) -> Result<Vec<CageChange>, SolveError> {
        verify(puzzle, keep).map_err(SolveError::NotASolution)?;
        let solver = self.until_deadline();
        let deadline = solver.deadline();
        let mut found = Vec::new();
        for change in candidates(puzzle, keep) {
            if found.len() >= most || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            // The plain checker, too, must find `keep` a solution still.
            let Some(changed) = apply(puzzle, &change).filter(|p| verify(p, keep).is_ok()) else {
                continue;
            };
            if solver.uniqueness(&changed)?.is_unique() {
                found.push(change);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killer_cage_is_only_split_into_killer_cages() {
        let text = "# 4 boxes 2x2 killer\n+ 10 A1 A2 B1 B2\n+ 10 A3 A4 B3 B4\n+ 10 C1 C2 D1 D2\n+ 10 C3 C4 D3 D4\n";
        let puzzle: Puzzle = text.parse().unwrap();
        let keep = Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
        let changes = candidates(&puzzle, &keep);
        assert!(!changes.is_empty());
        for change in &changes {
            assert!(change.into.iter().all(|c| c.is_distinct() && c.op() == Op::Add), "{change:?}");
            assert!(apply(&puzzle, change).is_some_and(|p| verify(&p, &keep).is_ok()));
        }
    }
}
