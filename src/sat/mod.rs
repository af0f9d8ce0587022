//! The SAT backend: the puzzle encoded as CNF (`encode.rs`) and solved with
//! varisat, each solution blocked by a clause until the part of the search
//! space it lies in is done (`enumerate.rs`).
//!
//! Depends on the puzzle model and varisat only; its cage arithmetic is
//! its own (`diagram.rs`), so that the cross-check against the native
//! backend means something.

mod big;
mod diagram;
pub(crate) mod dimacs;
mod encode;
mod enumerate;
mod error;
mod incremental;
pub(crate) mod proof;

use std::ops::ControlFlow;

use crate::puzzle::stats::Stats;
use crate::puzzle::{Grid, Puzzle};
pub(crate) use encode::{Encoding, encode};
pub(crate) use enumerate::Stop;
pub(crate) use error::Bounds;
pub use error::{DEFAULT_TUPLE_LIMIT, SatError};
pub(crate) use incremental::Incremental;

/// Hands every solution of `puzzle` but those in `blocked` to
/// `on_solution` as it is found, with a bounded set of blocking clauses (see
/// `enumerate.rs`), until there are no more, the callback returns `Break`
/// or `stop` is set; only those in `cubes` (see `enumerate.rs`).
pub(crate) fn enumerate(
    puzzle: &Puzzle,
    bounds: Bounds,
    blocked: &[Grid],
    cubes: &[Vec<(usize, usize)>],
    stop: Option<Stop<'_>>,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Stats, SatError> {
    let encoding = encode(puzzle, bounds)?;
    let tally = enumerate::enumerate(&encoding, blocked, cubes, stop, on_solution)?;
    let formula = encoding.formula();
    Ok(Stats {
        solutions: tally.solutions,
        complete: tally.complete,
        variables: Some(formula.var_count() as u64),
        clauses: Some(formula.len() as u64 + tally.peak_clauses),
        sat_calls: Some(tally.calls),
        ..Stats::default()
    })
}
