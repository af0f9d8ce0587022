//! The SAT backend: the puzzle encoded as CNF (`encode.rs`) and solved with
//! varisat, one blocking clause per solution found.
//!
//! Depends on the puzzle model and varisat only; its cage arithmetic is
//! its own (`tuples.rs`), so that the cross-check against the native
//! backend means something.

mod big;
pub(crate) mod dimacs;
mod encode;
mod tuples;

use std::ops::ControlFlow;

use thiserror::Error;
use varisat::ExtendFormula;

use crate::puzzle::{Cell, Grid, Puzzle};
use crate::stats::Stats;
pub(crate) use encode::{Encoding, encode};

/// The default most allowed tuples for one cage: far above any ordinary
/// puzzle's, far below what would exhaust memory. The search for a cage's
/// tuples may make at most 100 comparisons per tuple of this limit.
pub const DEFAULT_TUPLE_LIMIT: usize = 1_000_000;

/// Why the SAT backend could not solve a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SatError {
    /// A cage has more allowed tuples than the limit.
    #[error(
        "cage {} (the one at {first_cell}, {cells} cells) has more than {limit} allowed tuples; \
         raise --tuple-limit to encode it anyway, or use the native backend",
        cage + 1
    )]
    TooManyTuples {
        /// Index of the cage in the puzzle.
        cage: usize,
        /// The cage's first cell.
        first_cell: Cell,
        /// How many cells it has.
        cells: usize,
        /// The limit it broke.
        limit: usize,
    },
    /// The search for a cage's allowed tuples ran past its step budget.
    #[error(
        "cage {} (the one at {first_cell}, {cells} cells) is too large to expand into allowed tuples \
         (the search took more than {steps} steps); raise --tuple-limit to allow more, or use the native backend",
        cage + 1
    )]
    TuplesTooLong {
        /// Index of the cage in the puzzle.
        cage: usize,
        /// The cage's first cell.
        first_cell: Cell,
        /// How many cells it has.
        cells: usize,
        /// The budget it broke.
        steps: u64,
    },
    /// varisat itself failed.
    #[error("the SAT solver failed: {0}")]
    Solver(String),
}

/// Hands every solution of `puzzle` to `on_solution` as it is found: solve,
/// decode the model, block that grid on its cell variables, solve again,
/// until unsatisfiable or the callback returns `Break`.
pub(crate) fn enumerate(
    puzzle: &Puzzle,
    tuple_limit: usize,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Stats, SatError> {
    let encoding = encode(puzzle, tuple_limit)?;
    let mut solver = varisat::Solver::new();
    solver.add_formula(encoding.formula());
    let (variables, clauses) = (encoding.formula().var_count() as u64, encoding.formula().len() as u64);
    // Each call to the solver finds a solution or ends the enumeration; each
    // solution but one that stopped it is blocked by a clause.
    let done = |solutions: u64, complete: bool| Stats {
        solutions,
        complete,
        variables: Some(variables),
        clauses: Some(clauses + solutions - u64::from(!complete)),
        sat_calls: Some(solutions + u64::from(complete)),
        ..Stats::default()
    };
    let mut solutions = 0;
    loop {
        if !solver.solve().map_err(|e| SatError::Solver(e.to_string()))? {
            return Ok(done(solutions, true));
        }
        let model = solver.model().expect("a satisfiable formula has a model");
        let grid = encoding.decode(&model);
        solutions += 1;
        if on_solution(&grid).is_break() {
            return Ok(done(solutions, false));
        }
        solver.add_clause(&encoding.blocking_clause(&grid));
    }
}
