//! cagey solves Latin-square puzzles — KenKen (with the no-op variant) and
//! Sudoku of any box shape — and finds **every** solution.
//!
//! Every puzzle becomes one [`Puzzle`]: an N×N grid with all-different
//! groups and arithmetic [`Cage`]s. A [`Backend`] enumerates its solutions
//! through the [`Solver`] trait, handing each [`Grid`] to a callback as it
//! is found; [`verify()`] checks any grid independently of every solver.
//!
//! The two backends, [`native`] (propagation and search) and [`sat`] (CNF on
//! varisat), share no constraint code; [`check`] compares their solution
//! sets, and [`generate`] makes random puzzles to compare them on.
//!
//! ```
//! use cagey::{Backend, Solver, format};
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
//! let (count, _stats) = Backend::Native.count(puzzle, None).unwrap();
//! assert_eq!(count.count, 3);
//!
//! let (solutions, _) = Backend::Native.solutions(puzzle, None).unwrap();
//! for grid in &solutions {
//!     assert!(cagey::verify(puzzle, grid).is_ok());
//! }
//! ```
#![warn(missing_docs)]

pub mod backend;
pub mod check;
pub mod error;
pub mod format;
pub mod generate;
pub mod native;
pub mod puzzle;
pub mod sat;
pub mod verify;

pub use backend::{Backend, Count, Engine, SolveError, Solver, Stats, Uniqueness};
pub use error::{InvalidPuzzle, ParseError, ParseErrorKind, WriteError};
pub use puzzle::{BoxShape, Cage, Cell, Grid, Group, MAX_SIZE, Op, Puzzle, Target, value_symbol};
pub use verify::{Violation, verify};
