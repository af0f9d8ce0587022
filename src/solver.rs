//! The one public solver: a [`Backend`] with its settings. Every question
//! (`first`, `count`, `uniqueness`, `solutions`) is written once, on top of
//! [`Enumerate::enumerate`], which streams solutions to a callback.

use std::fmt;
use std::io;
use std::ops::ControlFlow;

use crate::backend::Backend;
use crate::error::SolveError;
use crate::puzzle::{Grid, Puzzle};
use crate::stats::Stats;
use crate::{native, portfolio, sat};

/// Anything that hands out every solution of a puzzle: a [`Solver`], or a
/// solver of your own that [`check::cross_check`](crate::check::cross_check)
/// should compare with cagey's.
pub trait Enumerate {
    /// Hands each solution of `puzzle` to `on_solution` as it is found, each
    /// exactly once, until there are no more or the callback returns `Break`.
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError>;
}

/// The number of solutions of a puzzle, possibly cut short by a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found.
    pub count: u64,
    /// `true` if this is every solution; `false` if the limit stopped the
    /// search (there may be more).
    pub complete: bool,
}

impl fmt::Display for Count {
    /// `3`, or `1000+` when the limit cut the count short.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.count, if self.complete { "" } else { "+" })
    }
}

/// Whether a puzzle has exactly one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Grid),
    /// At least two: the first two found.
    Multiple(Grid, Grid),
}

/// Finds every solution of a puzzle with one backend.
///
/// ```
/// use cagey::{Backend, Puzzle, Solver, Uniqueness};
///
/// // The 4x4 Sudoku grids: 288 of them.
/// let empty = Puzzle::sudoku(4, cagey::BoxShape::default_for(4), &[0; 16]).unwrap();
/// let native = Solver::new(Backend::Native);
/// assert_eq!(native.count(&empty, None).unwrap().0.count, 288);
///
/// // The SAT backend, with a tighter bound on the tuples of one cage.
/// let sat = Solver::builder().backend(Backend::Sat).tuple_limit(10_000).build();
/// assert!(matches!(sat.uniqueness(&empty).unwrap().0, Uniqueness::Multiple(..)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solver {
    backend: Backend,
    tuple_limit: usize,
}

/// Settings for a [`Solver`], from [`Solver::builder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverBuilder(Solver);

impl SolverBuilder {
    /// The backend (default [`Backend::Auto`]).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.0.backend = backend;
        self
    }

    /// The SAT backend refuses a cage with more allowed tuples than this
    /// ([`SatError::TooManyTuples`](crate::SatError::TooManyTuples)), rather
    /// than exhaust memory. Default [`Solver::DEFAULT_TUPLE_LIMIT`].
    pub fn tuple_limit(mut self, limit: usize) -> Self {
        self.0.tuple_limit = limit;
        self
    }

    /// The solver.
    pub fn build(self) -> Solver {
        self.0
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(Backend::default())
    }
}

impl Solver {
    /// The default most allowed tuples for one cage in the SAT encoding: far
    /// above any ordinary puzzle's, far below what would exhaust memory.
    pub const DEFAULT_TUPLE_LIMIT: usize = sat::DEFAULT_TUPLE_LIMIT;

    /// `backend` with default settings.
    pub const fn new(backend: Backend) -> Self {
        Solver { backend, tuple_limit: Self::DEFAULT_TUPLE_LIMIT }
    }

    /// Settings beyond the backend, starting from the defaults.
    pub fn builder() -> SolverBuilder {
        SolverBuilder(Solver::default())
    }

    /// The backend this solver runs.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The first solution found, if any.
    pub fn first(&self, puzzle: &Puzzle) -> Result<(Option<Grid>, Stats), SolveError> {
        first(self, puzzle)
    }

    /// Counts solutions, stopping at `limit` if one is given. Stores none.
    pub fn count(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<(Count, Stats), SolveError> {
        count(self, puzzle, limit)
    }

    /// Whether the puzzle has no, one or several solutions; stops at the
    /// second.
    pub fn uniqueness(&self, puzzle: &Puzzle) -> Result<(Uniqueness, Stats), SolveError> {
        uniqueness(self, puzzle)
    }

    /// Up to `limit` solutions (all of them with `None`), in the order found.
    pub fn solutions(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<(Vec<Grid>, Stats), SolveError> {
        solutions(self, puzzle, limit)
    }

    /// The SAT backend's encoding of `puzzle`, to write as DIMACS CNF for
    /// another SAT solver (whatever this solver's backend; its tuple limit
    /// applies).
    pub fn cnf(&self, puzzle: &Puzzle) -> Result<Cnf, SolveError> {
        Ok(Cnf(sat::encode(puzzle, self.tuple_limit)?))
    }
}

impl Enumerate for Solver {
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        let stats = match self.backend {
            Backend::Native => native::enumerate(puzzle, on_solution),
            Backend::Sat => sat::enumerate(puzzle, self.tuple_limit, &[], None, on_solution)?,
            Backend::Auto => return portfolio::enumerate(puzzle, self.tuple_limit, on_solution),
        };
        Ok(Stats { answered_by: Some(self.backend), ..stats })
    }
}

/// A puzzle as CNF, from [`Solver::cnf`].
pub struct Cnf(sat::Encoding);

impl Cnf {
    /// Writes DIMACS CNF, with comment lines that give the variable
    /// numbering (variable `(r·N + c)·N + v` is true when row `r`, column `c`,
    /// both from 0, holds `v`), plus a clause ruling out each grid of
    /// `blocked`: the formula is then satisfiable exactly when the puzzle has
    /// a solution besides those.
    pub fn write_dimacs(&self, out: &mut dyn io::Write, blocked: &[Grid]) -> io::Result<()> {
        sat::dimacs::write(out, &self.0, blocked)
    }
}

/// The first solution `solver` finds, if any.
pub(crate) fn first(solver: &dyn Enumerate, puzzle: &Puzzle) -> Result<(Option<Grid>, Stats), SolveError> {
    let mut found = None;
    let stats = solver.enumerate(puzzle, &mut |grid| {
        found = Some(grid.clone());
        ControlFlow::Break(())
    })?;
    Ok((found, stats))
}

/// Counts the solutions `solver` finds, up to `limit`.
pub(crate) fn count(solver: &dyn Enumerate, puzzle: &Puzzle, limit: Option<u64>) -> Result<(Count, Stats), SolveError> {
    if limit == Some(0) {
        return Ok((Count { count: 0, complete: false }, Stats::default()));
    }
    let mut count = 0u64;
    let stats = solver.enumerate(puzzle, &mut |_| {
        count += 1;
        if limit.is_some_and(|l| count >= l) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    Ok((Count { count, complete: stats.complete }, stats))
}

/// None, one or the first two solutions `solver` finds.
pub(crate) fn uniqueness(solver: &dyn Enumerate, puzzle: &Puzzle) -> Result<(Uniqueness, Stats), SolveError> {
    let (found, stats) = solutions(solver, puzzle, Some(2))?;
    let mut found = found.into_iter();
    let verdict = match (found.next(), found.next()) {
        (None, _) => Uniqueness::None,
        (Some(one), None) => Uniqueness::Unique(one),
        (Some(one), Some(two)) => Uniqueness::Multiple(one, two),
    };
    Ok((verdict, stats))
}

/// Up to `limit` of the solutions `solver` finds.
pub(crate) fn solutions(
    solver: &dyn Enumerate,
    puzzle: &Puzzle,
    limit: Option<u64>,
) -> Result<(Vec<Grid>, Stats), SolveError> {
    let mut found = Vec::new();
    if limit == Some(0) {
        return Ok((found, Stats::default()));
    }
    let stats = solver.enumerate(puzzle, &mut |grid| {
        found.push(grid.clone());
        if limit.is_some_and(|l| found.len() as u64 >= l) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    Ok((found, stats))
}
