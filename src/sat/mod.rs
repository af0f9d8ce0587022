//! The SAT backend: the puzzle encoded as CNF (`encode.rs`) and solved with
//! varisat, one blocking clause per solution found.
//!
//! Depends on the puzzle model and varisat only; its cage arithmetic is
//! its own (`tuples.rs`), so that the cross-check against the native
//! backend means something.

mod big;
pub(crate) mod dimacs;
mod encode;
mod error;
mod tuples;

use std::ops::ControlFlow;

use varisat::ExtendFormula;

use crate::puzzle::{Grid, Puzzle};
use crate::stats::Stats;
pub(crate) use encode::{Encoding, encode};
pub use error::{DEFAULT_TUPLE_LIMIT, SatError};

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
