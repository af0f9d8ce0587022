//! The one solver abstraction: every backend streams solutions through
//! [`Solver::enumerate`], and `first`, `count`, `uniqueness` and
//! `solutions` are written once on top of it.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use thiserror::Error;

use crate::puzzle::{Grid, Puzzle};
use crate::{native, sat};

/// What a search did: how many solutions it handed out, whether it ran to
/// the end, and counters particular to the backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solutions handed to the callback.
    pub solutions: u64,
    /// Whether the whole search space was explored (no early stop).
    pub complete: bool,
    /// Named counters of the backend (`nodes`, `failures`, …), in a fixed
    /// order.
    pub counters: Vec<(&'static str, u64)>,
}

impl Stats {
    /// The counter called `name`, if the backend keeps one.
    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
}

/// A puzzle a backend refuses to solve, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The SAT backend refused or failed.
    #[error(transparent)]
    Sat(#[from] sat::SatError),
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

/// A solver of puzzles that finds every solution.
pub trait Solver {
    /// Hands each solution of `puzzle` to `on_solution` as it is found, each
    /// exactly once, until there are no more or the callback returns `Break`.
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError>;

    /// The first solution found, if any.
    fn first(&self, puzzle: &Puzzle) -> Result<(Option<Grid>, Stats), SolveError> {
        let mut found = None;
        let stats = self.enumerate(puzzle, &mut |grid| {
            found = Some(grid.clone());
            ControlFlow::Break(())
        })?;
        Ok((found, stats))
    }

    /// Counts solutions, stopping at `limit` if one is given. Stores none.
    fn count(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<(Count, Stats), SolveError> {
        if limit == Some(0) {
            return Ok((Count { count: 0, complete: false }, Stats::default()));
        }
        let mut count = 0u64;
        let stats = self.enumerate(puzzle, &mut |_| {
            count += 1;
            if limit.is_some_and(|l| count >= l) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })?;
        Ok((Count { count, complete: stats.complete }, stats))
    }

    /// Whether the puzzle has no, one or several solutions; stops at the
    /// second.
    fn uniqueness(&self, puzzle: &Puzzle) -> Result<(Uniqueness, Stats), SolveError> {
        let mut found = Vec::with_capacity(2);
        let stats = self.enumerate(puzzle, &mut |grid| {
            found.push(grid.clone());
            if found.len() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })?;
        let mut found = found.into_iter();
        let verdict = match (found.next(), found.next()) {
            (None, _) => Uniqueness::None,
            (Some(one), None) => Uniqueness::Unique(one),
            (Some(one), Some(two)) => Uniqueness::Multiple(one, two),
        };
        Ok((verdict, stats))
    }

    /// Up to `limit` solutions (all of them with `None`), in the order found.
    fn solutions(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<(Vec<Grid>, Stats), SolveError> {
        let mut found = Vec::new();
        if limit == Some(0) {
            return Ok((found, Stats::default()));
        }
        let stats = self.enumerate(puzzle, &mut |grid| {
            found.push(grid.clone());
            if limit.is_some_and(|l| found.len() as u64 >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok((found, stats))
    }
}

/// The backends cagey carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Propagation on candidate bitsets and depth-first search.
    #[default]
    Native,
    /// CNF with cages as allowed tuples, solved by varisat, one blocking
    /// clause per solution.
    Sat,
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 2] = [Backend::Native, Backend::Sat];

    /// The backend's name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Native => "native",
            Backend::Sat => "sat",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown backend '{s}': expected native or sat"))
    }
}

/// A backend with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// Which backend.
    pub backend: Backend,
    /// The SAT backend refuses a cage with more allowed tuples than this.
    pub tuple_limit: usize,
}

impl Engine {
    /// The backend with default settings.
    pub fn new(backend: Backend) -> Self {
        Engine { backend, tuple_limit: sat::DEFAULT_TUPLE_LIMIT }
    }
}

impl Solver for Engine {
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        Ok(match self.backend {
            Backend::Native => {
                let s = native::enumerate(puzzle, on_solution);
                Stats {
                    solutions: s.solutions,
                    complete: s.complete,
                    counters: vec![("nodes", s.nodes), ("failures", s.failures)],
                }
            }
            Backend::Sat => {
                let s = sat::enumerate(puzzle, self.tuple_limit, on_solution)?;
                Stats {
                    solutions: s.solutions,
                    complete: s.complete,
                    counters: vec![("variables", s.variables), ("clauses", s.clauses), ("sat_calls", s.sat_calls)],
                }
            }
        })
    }
}

/// A backend solves with its default settings.
impl Solver for Backend {
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        Engine::new(*self).enumerate(puzzle, on_solution)
    }
}
