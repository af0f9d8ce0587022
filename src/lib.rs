//! cagey solves Latin-square puzzles — KenKen (with the no-op variant) and
//! Sudoku of any box shape — and finds **every** solution.
//!
//! Every puzzle becomes one [`Puzzle`]: an N×N grid with all-different
//! [`Group`]s and arithmetic [`Cage`]s, read from text by [`format`](mod@format) or
//! built directly. A [`Solver`] runs one of two backends ([`Backend::Native`],
//! propagation and search; [`Backend::Sat`], CNF on varisat) that share no
//! constraint code, or both as a portfolio ([`Backend::Auto`], the default:
//! native first, racing SAT on hard puzzles), and hands each solution
//! [`Grid`] to a callback as it is found ([`Enumerate::enumerate`]); `first`, `count`, `uniqueness` and
//! `solutions` are built on that. [`verify()`] checks any grid independently
//! of both, [`check`] compares the solution sets of two solvers, and
//! [`generate`] makes random puzzles to compare them on. For puzzle setters,
//! [`Solver::analyze`] finds the cells fixed in every solution and the open
//! ones, [`Solver::suggest`] the fewest givens that make a puzzle unique, and
//! [`Solver::certify`] a [`Certificate`] of uniqueness that anyone can check.
//!
//! ```
//! fn main() -> Result<(), cagey::Error> {
//!     let puzzle: cagey::Puzzle = "# 3\n+ 6 A1 A2 A3\n- 1 B1 B2\n".parse()?;
//!     let solver = cagey::Solver::default();
//!     println!("{} solutions", solver.count(&puzzle, None)?.count());
//!     println!("unique: {}", solver.uniqueness(&puzzle)?.is_unique());
//!     Ok(())
//! }
//! ```
//!
//! Every result carries the search's [`Stats`]; [`format`](mod@format) reads
//! files of many puzzles:
//!
//! ```
//! use cagey::{Backend, Solver, Uniqueness, format};
//!
//! // The seeds' 5×5 KenKen, which has exactly three solutions.
//! let text = "# 5
//! + 14 A1 A2 B1 B2
//! - 3 A3 B3
//! / 4 A4 A5
//! - 2 B4 B5
//! - 2 C1 C2
//! * 40 C3 D3 D4 E4
//! + 9 C4 C5 D5
//! / 2 D1 E1
//! * 12 D2 E2 E3
//! ! 5 E5
//! ";
//! let parsed = format::parse(text, "5x5m.txt", &Default::default()).unwrap();
//! let puzzle = &parsed[0].puzzle;
//!
//! let solver = Solver::new(Backend::Native);
//! let count = solver.count(puzzle, None).unwrap();
//! assert_eq!(count.count(), 3);
//! assert!(count.is_complete() && count.stats.nodes.is_some());
//!
//! let solutions = Solver::new(Backend::Sat).solutions(puzzle, None).unwrap().grids;
//! assert_eq!(solutions.len(), 3);
//! for grid in &solutions {
//!     assert!(cagey::verify(puzzle, grid).is_ok());
//! }
//! let verdict = solver.uniqueness(puzzle).unwrap();
//! assert!(!verdict.is_unique() && matches!(verdict.uniqueness, Uniqueness::Multiple(..)));
//! ```
//!
//! The library needs none of the command line's crates: build it with
//! `default-features = false` to leave out the `cli` feature (clap,
//! indicatif, rayon, serde_json). The `serde` feature derives `Serialize`
//! for [`Stats`].
#![warn(missing_docs)]

// The layers, each using only the ones above it in this list.
mod crosscheck;
pub mod format;
mod native;
mod puzzle;
mod sat;
mod setter;
mod solver;

pub use crosscheck::{check, generate};
pub use format::{ParseError, ParseErrorKind, WriteError};
pub use puzzle::backend::Backend;
pub use puzzle::stats::Stats;
pub use puzzle::verify::{Violation, verify};
pub use puzzle::{BoxShape, Cage, Cell, Grid, Group, InvalidPuzzle, MAX_SIZE, Op, Puzzle, Target};
pub use sat::SatError;
pub use setter::analysis::Analysis;
pub use setter::cage_change::CageChange;
pub use setter::certificate::{Certificate, CertificateError};
pub use setter::suggest::Suggestion;
pub use solver::error::SolveError;
pub use solver::{Cnf, Count, Enumerate, First, InvalidShard, Solutions, Solver, SolverBuilder, Uniqueness, Verdict};

/// Any error of the library, for code that does not tell them apart: each
/// of the library's errors converts into it with `?`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Text that is not a puzzle.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A puzzle a text format cannot hold.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A puzzle that breaks the model's rules.
    #[error(transparent)]
    Invalid(#[from] InvalidPuzzle),
    /// A puzzle a solver refuses.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The SAT encoding refused.
    #[error(transparent)]
    Sat(#[from] SatError),
    /// A certificate that could not be made or does not hold.
    #[error(transparent)]
    Certificate(#[from] CertificateError),
    /// A shard outside `1..=count`.
    #[error(transparent)]
    Shard(#[from] InvalidShard),
}
