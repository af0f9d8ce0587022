//! Why a solver refuses a puzzle.

use thiserror::Error;

use crate::puzzle::verify::Violation;
use crate::sat::SatError;

/// A puzzle a backend refuses to solve, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The SAT backend refused or failed.
    #[error(transparent)]
    Sat(#[from] SatError),
    /// A grid given as a solution of the puzzle is not one.
    #[error("the grid to keep is not a solution: {0}")]
    NotASolution(Violation),
}
