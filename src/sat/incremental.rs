//! One solver kept across many questions asked under assumptions: is there
//! a solution with this cell at this value?

use varisat::Solver;

use super::encode::{Encoding, encode};
use super::error::{Bounds, SatError};
use crate::puzzle::{Grid, Puzzle};

/// A puzzle loaded once into varisat, asked a question at a time.
pub(crate) struct Incremental {
    encoding: Encoding,
    solver: Solver<'static>,
    /// Calls to the solver so far.
    pub(crate) calls: u64,
}

impl Incremental {
    /// Encodes `puzzle` within `bounds`.
    pub(crate) fn new(puzzle: &Puzzle, bounds: Bounds) -> Result<Incremental, SatError> {
        let encoding = encode(puzzle, bounds)?;
        let mut solver = Solver::new();
        solver.add_formula(encoding.formula());
        Ok(Incremental { encoding, solver, calls: 0 })
    }

    /// A solution with each `(cell, value)` (row-major index, value from 1)
    /// as given, if there is one.
    pub(crate) fn solution_with(&mut self, fixed: &[(usize, usize)]) -> Option<Grid> {
        let assumptions: Vec<_> =
            fixed.iter().map(|&(cell, value)| self.encoding.cell_var(cell, value).positive()).collect();
        self.solver.assume(&assumptions);
        self.calls += 1;
        // varisat fails only when writing a proof, and this one writes none.
        let found = self.solver.solve().expect("a solve without a proof");
        found.then(|| self.encoding.decode(&self.solver.model().expect("a model after SAT")))
    }
}
