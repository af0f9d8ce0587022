//! The cross-check: run several solvers on one puzzle and compare what they
//! return, solution by solution, with every grid verified by the checker.

use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::backend::{SolveError, Solver, Stats};
use crate::puzzle::{Cage, Grid, Op, Puzzle};
use crate::verify::{Violation, verify};

/// What one solver returned.
#[derive(Clone, Debug)]
pub struct Run {
    /// The solver's name.
    pub name: String,
    /// Solutions returned (at most the limit).
    pub count: u64,
    /// Whether the solver ran to the end rather than to the limit.
    pub complete: bool,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The solver's statistics.
    pub stats: Stats,
}

/// The first thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// A solver returned a grid that does not satisfy the puzzle.
    Invalid {
        /// The solver's name.
        solver: String,
        /// The grid.
        grid: Grid,
        /// What the checker found wrong.
        violation: Violation,
    },
    /// A solver returned the same grid twice.
    Repeated {
        /// The solver's name.
        solver: String,
        /// The grid.
        grid: Grid,
    },
    /// One solver found a solution another, which ran to the end, did not.
    Missing {
        /// The solver that found it.
        found_by: String,
        /// The solver that did not.
        missed_by: String,
        /// The solution.
        grid: Grid,
    },
    /// The counts differ where a limit cut a run short, so that the sets
    /// cannot be compared.
    Counts {
        /// Each solver's name, count and whether it ran to the end.
        counts: Vec<(String, u64, bool)>,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disagreement::Invalid { solver, grid, violation } => {
                write!(f, "{solver} returned a grid that breaks the puzzle ({violation}):\n{grid}")
            }
            Disagreement::Repeated { solver, grid } => write!(f, "{solver} returned this grid twice:\n{grid}"),
            Disagreement::Missing { found_by, missed_by, grid } => {
                write!(f, "{found_by} found this solution and {missed_by} did not:\n{grid}")
            }
            Disagreement::Counts { counts } => {
                let parts: Vec<String> = counts
                    .iter()
                    .map(|(name, count, complete)| format!("{name} {count}{}", if *complete { "" } else { "+" }))
                    .collect();
                write!(f, "the counts differ: {}", parts.join(", "))
            }
        }
    }
}

/// The outcome of a cross-check.
#[derive(Clone, Debug)]
pub struct Report {
    /// One run per solver, in the order given.
    pub runs: Vec<Run>,
    /// `None` when every solver returned the same valid solutions.
    pub disagreement: Option<Disagreement>,
}

impl Report {
    /// Whether every solver agreed.
    pub fn agree(&self) -> bool {
        self.disagreement.is_none()
    }
}

/// Runs each named solver on `puzzle`, up to `limit` solutions each, and
/// compares: every grid must pass [`verify`], none may repeat, and the
/// solution sets must be equal. Where the limit cut a run short, the sets
/// cannot be compared and the counts (all at the limit) are.
pub fn cross_check(puzzle: &Puzzle, solvers: &[(&str, &dyn Solver)], limit: Option<u64>) -> Result<Report, SolveError> {
    let mut runs = Vec::new();
    let mut sets: Vec<HashSet<Grid>> = Vec::new();
    let mut disagreement = None;
    for &(name, solver) in solvers {
        let mut set = HashSet::new();
        let mut problem = None;
        let started = Instant::now();
        let stats = solver.enumerate(puzzle, &mut |grid| {
            if let Err(violation) = verify(puzzle, grid) {
                problem = Some(Disagreement::Invalid { solver: name.to_string(), grid: grid.clone(), violation });
                return ControlFlow::Break(());
            }
            if !set.insert(grid.clone()) {
                problem = Some(Disagreement::Repeated { solver: name.to_string(), grid: grid.clone() });
                return ControlFlow::Break(());
            }
            if limit.is_some_and(|l| set.len() as u64 >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        let elapsed = started.elapsed();
        disagreement = disagreement.or(problem);
        runs.push(Run { name: name.to_string(), count: set.len() as u64, complete: stats.complete, elapsed, stats });
        sets.push(set);
    }
    if disagreement.is_none() {
        disagreement = compare(&runs, &sets);
    }
    Ok(Report { runs, disagreement })
}

fn compare(runs: &[Run], sets: &[HashSet<Grid>]) -> Option<Disagreement> {
    if runs.iter().all(|r| r.complete) {
        for (i, a) in sets.iter().enumerate() {
            for (j, b) in sets.iter().enumerate() {
                if let Some(grid) = a.iter().filter(|g| !b.contains(*g)).min() {
                    let (found_by, missed_by) = (runs[i].name.clone(), runs[j].name.clone());
                    return Some(Disagreement::Missing { found_by, missed_by, grid: grid.clone() });
                }
            }
        }
        return None;
    }
    let same = runs.iter().all(|r| r.count == runs[0].count);
    (!same)
        .then(|| Disagreement::Counts { counts: runs.iter().map(|r| (r.name.clone(), r.count, r.complete)).collect() })
}

/// Makes a puzzle on which the solvers disagree smaller while they still
/// disagree: drops cages (clues, for a Sudoku) one at a time, then merges
/// neighbouring `+` or `*` cages (their targets added or multiplied, so a
/// solution of both stays a solution). Returns the smallest puzzle found.
pub fn shrink(puzzle: &Puzzle, solvers: &[(&str, &dyn Solver)], limit: Option<u64>) -> Result<Puzzle, SolveError> {
    let disagrees = |p: &Puzzle| cross_check(p, solvers, limit).map(|r| !r.agree());
    let mut current = puzzle.clone();
    'smaller: loop {
        let cages = current.cages();
        let mut candidates: Vec<Vec<Cage>> = (0..cages.len())
            .map(|i| cages.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c.clone()).collect())
            .collect();
        for (i, a) in cages.iter().enumerate() {
            for (j, b) in cages.iter().enumerate().skip(i + 1) {
                if let Some(merged) = merge(a, b) {
                    let mut next: Vec<Cage> =
                        cages.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, c)| c.clone()).collect();
                    next.push(merged);
                    candidates.push(next);
                }
            }
        }
        for cages in candidates {
            let Ok(next) = Puzzle::new(current.size(), current.extra_groups().to_vec(), cages) else { continue };
            if disagrees(&next)? {
                current = next;
                continue 'smaller;
            }
        }
        return Ok(current);
    }
}

/// Two touching cages of the same op `+` or `*` as one.
fn merge(a: &Cage, b: &Cage) -> Option<Cage> {
    let touching =
        a.cells().iter().any(|x| b.cells().iter().any(|y| x.row.abs_diff(y.row) + x.col.abs_diff(y.col) == 1));
    let (x, y): (u64, u64) = (a.target().digits().parse().ok()?, b.target().digits().parse().ok()?);
    let target = match (a.op(), b.op()) {
        (Op::Add, Op::Add) => x.checked_add(y)?,
        (Op::Mul, Op::Mul) => x.checked_mul(y)?,
        _ => return None,
    };
    let cells = a.cells().iter().chain(b.cells()).copied().collect();
    touching.then(|| Cage::new(a.op(), target, cells).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;

    /// A solver that drops its `skip`-th solution.
    struct Dropping(usize);

    impl Solver for Dropping {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            let mut seen = 0;
            Backend::Native.enumerate(puzzle, &mut |grid| {
                seen += 1;
                if seen == self.0 { ControlFlow::Continue(()) } else { on_solution(grid) }
            })
        }
    }

    /// A solver that returns every solution twice, or a broken grid.
    struct Faulty {
        repeat: bool,
    }

    impl Solver for Faulty {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            Backend::Native.enumerate(puzzle, &mut |grid| {
                if self.repeat {
                    on_solution(grid)?;
                    on_solution(grid)
                } else {
                    let n = grid.size();
                    let mut values = grid.values().to_vec();
                    values.swap(0, 1);
                    on_solution(&Grid::new(n, values).unwrap())
                }
            })
        }
    }

    fn latin(n: usize) -> Puzzle {
        Puzzle::new(n, vec![], vec![]).unwrap()
    }

    #[test]
    fn agreeing_backends() {
        let report = cross_check(&latin(4), &[("native", &Backend::Native), ("sat", &Backend::Sat)], None).unwrap();
        assert!(report.agree(), "{:?}", report.disagreement);
        assert_eq!(report.runs.iter().map(|r| r.count).collect::<Vec<_>>(), [576, 576]);
    }

    #[test]
    fn a_dropped_solution_is_caught_and_shown() {
        let report = cross_check(&latin(3), &[("native", &Backend::Native), ("dropping", &Dropping(5))], None).unwrap();
        let Some(Disagreement::Missing { found_by, missed_by, .. }) = report.disagreement else {
            panic!("{:?}", report.disagreement);
        };
        assert_eq!((found_by.as_str(), missed_by.as_str()), ("native", "dropping"));
    }

    #[test]
    fn repeated_and_invalid_grids_are_caught() {
        let report = cross_check(&latin(3), &[("faulty", &Faulty { repeat: true })], None).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Repeated { .. })));
        let report = cross_check(&latin(3), &[("faulty", &Faulty { repeat: false })], None).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Invalid { .. })));
    }

    #[test]
    fn limits_compare_counts() {
        let solvers: [(&str, &dyn Solver); 2] = [("native", &Backend::Native), ("sat", &Backend::Sat)];
        let report = cross_check(&latin(4), &solvers, Some(100)).unwrap();
        assert!(report.agree());
        assert!(report.runs.iter().all(|r| r.count == 100 && !r.complete));
        let solvers: [(&str, &dyn Solver); 2] = [("native", &Backend::Native), ("dropping", &Dropping(1))];
        let report = cross_check(&latin(3), &solvers, Some(12)).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Counts { .. })), "{:?}", report.disagreement);
    }
}
