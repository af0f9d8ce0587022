//! Why the SAT backend refuses a puzzle, and the bound behind most refusals.

use thiserror::Error;

use crate::puzzle::Cell;

/// The default most arcs of one cage's decision diagram of allowed tuples:
/// far above any ordinary puzzle's, far below what would exhaust memory.
/// The search that builds a diagram may try at most 100 values per arc of
/// this limit.
pub const DEFAULT_TUPLE_LIMIT: usize = 1_000_000;

/// How large an encoding may grow: arcs of one cage's diagram of allowed
/// tuples, and bytes of the whole formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) tuples: usize,
    pub(crate) memory: Option<u64>,
}

impl Bounds {
    /// Only a bound on the tuples of one cage.
    #[cfg(test)]
    pub(crate) fn tuples(tuples: usize) -> Self {
        Bounds { tuples, memory: None }
    }
}

/// Why the SAT backend could not solve a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SatError {
    /// A cage's allowed tuples take more arcs of a decision diagram than
    /// the limit.
    #[error(
        "cage {} (the one at {first_cell}, {cells} cells) has too many allowed tuples: more than {limit} arcs \
         of a decision diagram; raise --tuple-limit to encode it anyway",
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
    /// The search that builds a cage's diagram of allowed tuples ran past
    /// its step budget.
    #[error(
        "cage {} (the one at {first_cell}, {cells} cells) is too large to expand into allowed tuples \
         (the search took more than {steps} steps); raise --tuple-limit to allow more",
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
    /// The formula would take more memory than the budget.
    #[error(
        "the SAT encoding would take about {} MB by cage {} (the one at {first_cell}), more than the memory \
         budget of {} MB; raise --memory to encode it anyway",
        bytes / 1_000_000,
        cage + 1,
        budget / 1_000_000
    )]
    TooLarge {
        /// Index of the cage that went past the budget.
        cage: usize,
        /// Its first cell.
        first_cell: Cell,
        /// The estimated bytes of the formula up to that cage.
        bytes: u64,
        /// The budget.
        budget: u64,
    },
    /// varisat itself failed.
    #[error("the SAT solver failed: {0}")]
    Solver(String),
}
