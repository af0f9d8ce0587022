//! Where a puzzle's solutions differ: for each cell, every value it takes
//! in some solution, found by asking an engine for a solution with that
//! cell at that value — never by listing the solutions, so that it works
//! however many there are.

use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

use itertools::Itertools;

use crate::native::{self, Report};
use crate::puzzle::backend::Backend;
use crate::puzzle::{Cell, Grid, Puzzle, value_symbol};
use crate::sat;
use crate::solver::Solver;
use crate::solver::error::SolveError;

/// For each cell of a puzzle, the values it takes in some solution: a
/// cell with one value is *fixed* (the backbone of the puzzle), a cell with
/// more is *open*. From [`Solver::analyze`](crate::Solver::analyze).
///
/// ```
/// use cagey::{Cell, Solver, format};
///
/// // The seeds' 4×4 no-op KenKen: three solutions, which differ in seven cells.
/// let text = "# 4\n? 3 A1 A2\n? 5 A3 A4\n! 3 B1\n? 8 B2 B3 B4\n? 2 C2 C3\n? 7 C4 D4\n? 6 D1 D2 D3\n";
/// let puzzle = &format::parse(text, "noop.txt", &Default::default()).unwrap()[0].puzzle;
/// let analysis = Solver::default().analyze(puzzle).unwrap();
/// assert!(analysis.complete());
/// assert_eq!(analysis.values(Cell::new(3, 0)), [2]);
/// assert_eq!(analysis.values(Cell::new(2, 1)), [1, 2, 4]);
/// assert_eq!(analysis.open().len(), 7);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    size: usize,
    /// For each cell (row-major), bit `v - 1` for each value v it takes.
    values: Vec<u32>,
    first: Option<Grid>,
    complete: bool,
}

impl Analysis {
    /// N.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The first solution found, if the puzzle has any.
    pub fn first(&self) -> Option<&Grid> {
        self.first.as_ref()
    }

    /// Whether every cell was settled. A search cut short (a timeout, an
    /// interrupt) leaves cells whose values are only those seen so far.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The values `cell` takes in some solution, in order; none when the
    /// puzzle has no solution.
    pub fn values(&self, cell: Cell) -> Vec<u8> {
        let set = self.values[cell.index(self.size)];
        (1..=self.size as u8).filter(|&v| set & (1 << (v - 1)) != 0).collect()
    }

    /// The cells with the same value in every solution, with that value.
    pub fn fixed(&self) -> Vec<(Cell, u8)> {
        self.cells().filter_map(|cell| if let [v] = self.values(cell)[..] { Some((cell, v)) } else { None }).collect()
    }

    /// The cells that take more than one value, with their values.
    pub fn open(&self) -> Vec<(Cell, Vec<u8>)> {
        self.cells().map(|cell| (cell, self.values(cell))).filter(|(_, values)| values.len() > 1).collect()
    }

    /// The analysis that a full list of `solutions` gives: the plain way,
    /// to cross-check [`Solver::analyze`](crate::Solver::analyze) where the
    /// solutions are few.
    pub fn of_solutions(size: usize, solutions: &[Grid]) -> Analysis {
        let mut analysis =
            Analysis { size, values: vec![0; size * size], first: solutions.first().cloned(), complete: true };
        for grid in solutions {
            analysis.add(grid);
        }
        analysis
    }

    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.size * self.size).map(|i| Cell::new(i / self.size, i % self.size))
    }

    /// Adds the values of a solution.
    fn add(&mut self, grid: &Grid) {
        for (set, &value) in self.values.iter_mut().zip(grid.values()) {
            *set |= 1 << (value - 1);
        }
    }
}

/// The grid as the seeds print a solution, each fixed cell with its value
/// and each open cell with all of its values run together (`14` for 1 or
/// 4), every cell as wide as the widest.
impl fmt::Display for Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size;
        let text: Vec<String> =
            self.cells().map(|cell| self.values(cell).into_iter().map(value_symbol).collect()).collect();
        let width = text.iter().map(String::len).max().unwrap_or(1).max(1);
        let segment = |i: usize| "-".repeat(width + usize::from(i > 0) + usize::from(i + 1 < n));
        let rule = (0..n).map(segment).join("+");
        for (r, row) in text.chunks(n).enumerate() {
            if r > 0 {
                writeln!(f, "{rule}")?;
            }
            let mut cells =
                row.iter().map(|t| if t.len() == 1 { format!("{t:^width$}") } else { format!("{t:<width$}") });
            writeln!(f, "{}", cells.join(" | ").trim_end())?;
        }
        Ok(())
    }
}

/// Analyses a puzzle of size `size` with `ask`, which gives a solution, or
/// one with a cell at a value (row-major index, value from 1), or none;
/// `stop` cuts it short. Each solution found settles a value for every cell
/// at once; each "none" rules one value out of one cell.
pub(crate) fn analyze(
    size: usize,
    ask: &mut dyn FnMut(Option<(usize, usize)>) -> Option<Grid>,
    stop: &dyn Fn() -> bool,
) -> Analysis {
    let mut analysis = Analysis { size, values: vec![0; size * size], first: None, complete: false };
    if stop() {
        return analysis;
    }
    let Some(first) = ask(None) else {
        analysis.complete = true;
        return analysis;
    };
    analysis.add(&first);
    analysis.first = Some(first);
    for cell in 0..size * size {
        for value in 1..=size {
            if analysis.values[cell] & (1 << (value - 1)) != 0 {
                continue;
            }
            if stop() {
                return analysis;
            }
            if let Some(grid) = ask(Some((cell, value))) {
                analysis.add(&grid);
            }
        }
    }
    analysis.complete = true;
    analysis
}

impl Solver {
    /// For each cell, the values it takes in some solution: which cells are
    /// fixed and which open, however many solutions there are. Each value
    /// is settled by asking for a solution with the cell at that value — SAT
    /// under assumptions on one solver, or native on the search space cut
    /// to that value; auto asks SAT, or native when the encoding is refused.
    /// A timeout or an interrupt leaves it incomplete.
    pub fn analyze(&self, puzzle: &Puzzle) -> Result<Analysis, SolveError> {
        let deadline = self.deadline();
        let past = || deadline.is_some_and(|d| Instant::now() >= d);
        let stop = || past() || self.interrupted();
        let incremental = match self.backend() {
            Backend::Native => None,
            Backend::Sat => Some(sat::Incremental::new(puzzle, self.bounds())?),
            Backend::Auto => sat::Incremental::new(puzzle, self.bounds()).ok(),
        };
        let size = puzzle.size();
        Ok(match incremental {
            Some(mut sat) => analyze(size, &mut |fixed| sat.solution_with(fixed.as_slice()), &stop),
            None => {
                let mut ask = |fixed: Option<(usize, usize)>| {
                    let mut found = None;
                    let cube = Vec::from_iter(fixed);
                    native::enumerate_until(
                        puzzle,
                        &[cube],
                        &mut |_, _| stop(),
                        Report::Grid(&mut |grid| {
                            found = Some(grid.clone());
                            ControlFlow::Break(())
                        }),
                    );
                    found
                };
                analyze(size, &mut ask, &stop)
            }
        })
    }
}

impl Solver {
    /// For each cell (row-major) and value (from 1), how many solutions put
    /// the value in the cell, counted up to `cap` (at least 1): the shape of
    /// the true candidates the f-puzzles solver protocol answers. Values
    /// `analysis` (of the same puzzle) rules out count 0 without a search;
    /// with a cap of 1 no search is needed at all. A timeout or an
    /// interrupt leaves counts short.
    pub fn true_candidates(&self, puzzle: &Puzzle, analysis: &Analysis, cap: u64) -> Result<Vec<u64>, SolveError> {
        let n = puzzle.size();
        let cap = cap.max(1);
        let mut counts = vec![0; n * n * n];
        for cell in 0..n * n {
            for value in analysis.values(Cell::new(cell / n, cell % n)) {
                let value = usize::from(value);
                counts[cell * n + value - 1] = if cap == 1 {
                    1
                } else {
                    let mut found = 0;
                    self.run(
                        puzzle,
                        &[vec![(cell, value)]],
                        crate::native::Report::Count(&mut || {
                            found += 1;
                            if found >= cap { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                        }),
                    )?;
                    found
                };
            }
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_list_of_solutions_gives_fixed_and_open_cells() {
        let a = Grid::new(2, vec![1, 2, 2, 1]).unwrap();
        let b = Grid::new(2, vec![2, 1, 1, 2]).unwrap();
        let one = Analysis::of_solutions(2, std::slice::from_ref(&a));
        assert_eq!((one.fixed().len(), one.open().len()), (4, 0));
        let two = Analysis::of_solutions(2, &[a, b]);
        assert_eq!(two.open()[0], (Cell::new(0, 0), vec![1, 2]));
        assert!(two.fixed().is_empty());
        assert_eq!(two.to_string(), "12 | 12\n---+---\n12 | 12\n");
        assert_eq!(one.to_string(), "1 | 2\n--+--\n2 | 1\n", "as a solution prints");
        let none = Analysis::of_solutions(2, &[]);
        assert!(none.first().is_none() && none.values(Cell::new(0, 0)).is_empty());
    }
}
