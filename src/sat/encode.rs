//! The puzzle as CNF.
//!
//! Variable `(r·N + c)·N + v` (DIMACS numbering, from 1) is true when row
//! `r`, column `c` (both 0-based) holds value `v` (1-based); these N³ cell
//! variables come first, and one variable per allowed cage tuple follows.
//!
//! - every cell takes exactly one value;
//! - two cells that share a group never take the same value, and every
//!   value appears in every group of N cells;
//! - a one-cell cage is a unit clause (the empty clause if its target is
//!   no value of the grid);
//! - a larger cage is its list of allowed tuples (see `tuples.rs`), leaving
//!   out values given to a cell that shares a group with the tuple's: each
//!   tuple variable implies its cell values, the cage needs one of its
//!   tuples, and each cell value implies one of the tuples that support it
//!   or is forbidden outright if none does (a support encoding, so unit
//!   propagation is as strong as arc consistency on the cage).

use itertools::Itertools;
use varisat::{CnfFormula, ExtendFormula, Lit, Var};

use super::SatError;
use super::tuples::{CageShape, Refused, allowed_tuples};
use crate::puzzle::{Grid, Puzzle};

/// A puzzle's CNF with what is needed to read a model back.
pub struct Encoding {
    size: usize,
    formula: CnfFormula,
}

impl Encoding {
    /// N.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The clauses. Variables `1..=N³` are the cell variables.
    pub fn formula(&self) -> &CnfFormula {
        &self.formula
    }

    /// How many cage-tuple variables follow the N³ cell variables.
    pub fn tuple_vars(&self) -> usize {
        self.formula.var_count() - self.size.pow(3)
    }

    /// The grid a model describes: for each cell, the value whose variable
    /// is true.
    pub fn decode(&self, model: &[Lit]) -> Grid {
        let n = self.size;
        let mut values = vec![0u8; n * n];
        for lit in model.iter().filter(|l| l.is_positive()) {
            let index = lit.var().index();
            if index < n * n * n {
                values[index / n] = (index % n + 1) as u8;
            }
        }
        Grid::new(n, values).expect("every cell takes exactly one value in a model")
    }

    /// The clause that rules out `grid`: some cell takes another value.
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<Lit> {
        let n = self.size;
        (0..n * n).map(|cell| cell_var(n, cell, usize::from(grid.values()[cell])).negative()).collect()
    }
}

fn cell_var(size: usize, cell: usize, value: usize) -> Var {
    Var::from_index(cell * size + value - 1)
}

/// Encodes `puzzle`; a cage with more than `tuple_limit` allowed tuples is
/// refused before its clauses are built.
pub fn encode(puzzle: &Puzzle, tuple_limit: usize) -> Result<Encoding, SatError> {
    let n = puzzle.size();
    let cells = n * n;
    let x = |cell: usize, value: usize| cell_var(n, cell, value);
    let mut formula = CnfFormula::new();
    formula.set_var_count(cells * n);

    for cell in 0..cells {
        formula.add_clause(&(1..=n).map(|v| x(cell, v).positive()).collect::<Vec<_>>());
        for (a, b) in (1..=n).tuple_combinations() {
            formula.add_clause(&[x(cell, a).negative(), x(cell, b).negative()]);
        }
    }

    // Each pair of cells that share some group, once.
    let mut apart = vec![false; cells * cells];
    for group in puzzle.groups() {
        let members: Vec<usize> = group.cells().iter().map(|c| c.index(n)).collect();
        for (&a, &b) in members.iter().tuple_combinations() {
            apart[a * cells + b] = true;
            apart[b * cells + a] = true;
        }
        if members.len() == n {
            for v in 1..=n {
                formula.add_clause(&members.iter().map(|&c| x(c, v).positive()).collect::<Vec<_>>());
            }
        }
    }
    for (a, b) in (0..cells).tuple_combinations().filter(|&(a, b)| apart[a * cells + b]) {
        for v in 1..=n {
            formula.add_clause(&[x(a, v).negative(), x(b, v).negative()]);
        }
    }

    // The value of each one-cell cage, if the grid has it (bit v for value v).
    let mut given = vec![0u32; cells];
    for cage in puzzle.cages() {
        if let &[cell] = cage.cells() {
            let value = cage.target().digits().parse::<usize>().ok().filter(|v| (1..=n).contains(v));
            given[cell.index(n)] = value.map_or(0, |v| 1 << v);
        }
    }
    for (index, cage) in puzzle.cages().iter().enumerate() {
        let members: Vec<usize> = cage.cells().iter().map(|c| c.index(n)).collect();
        if let &[cell] = members.as_slice() {
            match given[cell].trailing_zeros() as usize {
                32 => formula.add_clause(&[]),
                value => formula.add_clause(&[x(cell, value).positive()]),
            }
            continue;
        }
        let pairs: Vec<Vec<bool>> =
            members.iter().map(|&a| members.iter().map(|&b| apart[a * cells + b]).collect()).collect();
        let domains: Vec<u32> = members
            .iter()
            .map(|&a| !(0..cells).filter(|&b| apart[a * cells + b]).fold(0, |taken, b| taken | given[b]))
            .collect();
        let target = cage.target().digits();
        let shape = CageShape { op: cage.op(), target, size: n as u8, apart: &pairs, domains: &domains };
        let tuples = allowed_tuples(&shape, tuple_limit).map_err(|refused| {
            let (cage, first_cell, cells) = (index, cage.cells()[0], members.len());
            match refused {
                Refused::TooMany => SatError::TooManyTuples { cage, first_cell, cells, limit: tuple_limit },
                Refused::TooLong(steps) => SatError::TuplesTooLong { cage, first_cell, cells, steps },
            }
        })?;
        let tuple_vars: Vec<Var> = (0..tuples.len()).map(|_| formula.new_var()).collect();
        formula.add_clause(&tuple_vars.iter().map(|t| t.positive()).collect::<Vec<_>>());
        for (tuple, t) in tuples.iter().zip(&tuple_vars) {
            for (&cell, &v) in members.iter().zip(tuple) {
                formula.add_clause(&[t.negative(), x(cell, v.into()).positive()]);
            }
        }
        for (i, &cell) in members.iter().enumerate() {
            for v in 1..=n {
                let mut clause = vec![x(cell, v).negative()];
                clause.extend(
                    tuples.iter().zip(&tuple_vars).filter(|(t, _)| usize::from(t[i]) == v).map(|(_, t)| t.positive()),
                );
                formula.add_clause(&clause);
            }
        }
    }
    Ok(Encoding { size: n, formula })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Cage, Cell, Op};

    #[test]
    fn cell_variables_follow_the_documented_numbering() {
        let puzzle = Puzzle::new(4, vec![], vec![]).unwrap();
        let encoding = encode(&puzzle, 10).unwrap();
        assert_eq!(cell_var(4, 0, 1).to_dimacs(), 1);
        assert_eq!(cell_var(4, 1, 1).to_dimacs(), 5);
        assert_eq!(cell_var(4, 6, 3).to_dimacs(), (4 + 2) * 4 + 3);
        assert_eq!(cell_var(4, 15, 4).to_dimacs(), 64);
        assert_eq!(encoding.formula().var_count(), 64);
        assert_eq!(encoding.tuple_vars(), 0);
    }

    #[test]
    fn the_tuple_limit_refuses_a_huge_cage() {
        let cells: Vec<Cell> = (0..9).flat_map(|r| [Cell::new(r, 0), Cell::new(r, 1)]).collect();
        let cage = Cage::new(Op::Add, 90, cells).unwrap();
        let puzzle = Puzzle::new(9, vec![], vec![cage]).unwrap();
        let error = encode(&puzzle, 1000).err().unwrap();
        assert!(matches!(error, SatError::TooManyTuples { cage: 0, cells: 18, limit: 1000, .. }), "{error}");
    }
}
