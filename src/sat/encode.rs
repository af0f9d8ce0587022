//! The puzzle as CNF.
//!
//! Variable `(r·N + c)·N + v` (DIMACS numbering, from 1) is true when row
//! `r`, column `c` (both 0-based) holds value `v` (1-based); these N³ cell
//! variables come first; the variables of the cages' diagrams follow.
//!
//! - every cell takes exactly one value;
//! - two cells that share a group never take the same value, and every
//!   value appears in every group of N cells;
//! - a one-cell cage is a unit clause (the empty clause if its target is
//!   no value of the grid);
//! - a larger cage is the decision diagram of its allowed tuples (see
//!   `diagram.rs`), leaving out values given to a cell that shares a group
//!   with the tuple's, encoded so that unit propagation is as strong as arc
//!   consistency on the cage (see [`Encoder::diagram`]).

use itertools::Itertools;
use varisat::{CnfFormula, ExtendFormula, Lit, Var};

use super::diagram::{CageShape, Diagram, Refused, diagram};
use super::error::{Bounds, SatError};
use crate::puzzle::{Cage, Grid, Op, Puzzle};

/// A puzzle's CNF with what is needed to read a model back and to split
/// the search space.
pub struct Encoding {
    size: usize,
    formula: CnfFormula,
    /// Cells in row-major order, leaving out those whose value the earlier
    /// ones force: one-cell cages, and the last cell of each full group.
    free: Vec<usize>,
    /// For each cell, the other cells that share a group with it.
    peers: Vec<Vec<usize>>,
    /// The groups of N cells, each in row-major order.
    full_groups: Vec<Vec<usize>>,
    /// For each cell, the full groups it is in.
    groups_of: Vec<Vec<usize>>,
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

    /// The variable that is true when `cell` (row-major index) holds `value`.
    pub fn cell_var(&self, cell: usize, value: usize) -> Var {
        cell_var(self.size, cell, value)
    }

    /// The cells whose values fix every other cell's: all but the one-cell
    /// cages and the last cell (row-major) of each group of N cells, in
    /// row-major order. Once the cells before one of them are fixed, so is
    /// every cell before it.
    pub fn free_cells(&self) -> &[usize] {
        &self.free
    }

    /// The other cells that share a group with `cell`, in row-major order.
    pub fn peers(&self, cell: usize) -> &[usize] {
        &self.peers[cell]
    }

    /// The groups of N cells (each holds every value), in row-major order.
    pub fn full_groups(&self) -> &[Vec<usize>] {
        &self.full_groups
    }

    /// Indices into [`full_groups`](Self::full_groups) of the groups `cell` is in.
    pub fn groups_of(&self, cell: usize) -> &[usize] {
        &self.groups_of[cell]
    }

    /// The clause that rules out `grid`: some cell takes another value.
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<Lit> {
        let n = self.size;
        (0..n * n).map(|cell| cell_var(n, cell, usize::from(grid.values()[cell])).negative()).collect()
    }
}

/// The value a one-cell cage gives its cell, if its target is one.
fn one_value(cage: &Cage, n: usize) -> Option<usize> {
    cage.target().digits().parse::<usize>().ok().filter(|v| (1..=n).contains(v))
}

fn cell_var(size: usize, cell: usize, value: usize) -> Var {
    Var::from_index(cell * size + value - 1)
}

/// Leftover sums of groups (see [`Encoder::leftovers`]) are encoded up to
/// this many cells, and this many arcs.
const LEFTOVER_MOST_CELLS: usize = 6;
const LEFTOVER_MOST_ARCS: usize = 20_000;

/// Bytes a literal of the formula costs, loaded into varisat too (measured:
/// 1.88 GB for 29.6 million literals, a 25x25 with 25 six-cell cages).
pub const BYTES_PER_LITERAL: u64 = 64;

/// Encodes `puzzle`; a cage with more allowed tuples than `bounds` allows,
/// or a formula that would take more memory, is refused before its clauses
/// are built.
pub fn encode(puzzle: &Puzzle, bounds: Bounds) -> Result<Encoding, SatError> {
    let n = puzzle.size();
    let mut formula = CnfFormula::new();
    formula.set_var_count(n * n * n);
    let mut encoder = Encoder { n, formula, apart: vec![false; n.pow(4)], given: vec![0; n * n] };
    encoder.cells();
    encoder.groups(puzzle);
    encoder.read_givens(puzzle);
    let mut literals: u64 = encoder.formula.iter().map(|clause| clause.len() as u64).sum();
    for (index, cage) in puzzle.cages().iter().enumerate() {
        literals += encoder.cage(index, cage, bounds, literals)?;
    }
    encoder.leftovers(puzzle);
    let mut forced = vec![false; n * n];
    for cage in puzzle.cages().iter().filter(|cage| cage.cells().len() == 1) {
        forced[cage.cells()[0].index(n)] = true;
    }
    let full_groups: Vec<Vec<usize>> = puzzle
        .groups()
        .iter()
        .filter(|group| group.cells().len() == n)
        .map(|group| group.cells().iter().map(|c| c.index(n)).sorted().collect())
        .collect();
    let mut groups_of = vec![Vec::new(); n * n];
    for (index, group) in full_groups.iter().enumerate() {
        forced[*group.last().expect("a group of N cells")] = true;
        for &cell in group {
            groups_of[cell].push(index);
        }
    }
    let free = (0..n * n).filter(|&cell| !forced[cell]).collect();
    let peers = (0..n * n).map(|a| (0..n * n).filter(|&b| b != a && encoder.apart(a, b)).collect()).collect();
    Ok(Encoding { size: n, formula: encoder.formula, free, peers, full_groups, groups_of })
}

/// The formula under construction, with what the cages need to know.
struct Encoder {
    n: usize,
    formula: CnfFormula,
    /// `apart[a·N² + b]`: cells `a` and `b` share some group.
    apart: Vec<bool>,
    /// The value of each one-cell cage, if the grid has it (bit v for
    /// value v).
    given: Vec<u32>,
}

impl Encoder {
    fn x(&self, cell: usize, value: usize) -> Var {
        cell_var(self.n, cell, value)
    }

    fn apart(&self, a: usize, b: usize) -> bool {
        self.apart[a * self.n * self.n + b]
    }

    /// The values `cell` may take (bit v for value v): all but those given
    /// to a cell it shares a group with.
    fn domain(&self, cell: usize) -> u32 {
        let cells = self.n * self.n;
        !(0..cells).filter(|&b| self.apart(cell, b)).fold(0, |taken, b| taken | self.given[b])
    }

    /// Every cell takes exactly one value.
    fn cells(&mut self) {
        let n = self.n;
        for cell in 0..n * n {
            self.formula.add_clause(&(1..=n).map(|v| self.x(cell, v).positive()).collect::<Vec<_>>());
            for (a, b) in (1..=n).tuple_combinations() {
                self.formula.add_clause(&[self.x(cell, a).negative(), self.x(cell, b).negative()]);
            }
        }
    }

    /// Cells that share a group differ (one clause per pair of cells and
    /// value, however many groups they share); a group of N cells holds
    /// every value.
    fn groups(&mut self, puzzle: &Puzzle) {
        let (n, cells) = (self.n, self.n * self.n);
        for group in puzzle.groups() {
            let members: Vec<usize> = group.cells().iter().map(|c| c.index(n)).collect();
            for (&a, &b) in members.iter().tuple_combinations() {
                self.apart[a * cells + b] = true;
                self.apart[b * cells + a] = true;
            }
            if members.len() == n {
                for v in 1..=n {
                    self.formula.add_clause(&members.iter().map(|&c| self.x(c, v).positive()).collect::<Vec<_>>());
                }
            }
        }
        let peers: Vec<(usize, usize)> = (0..cells).tuple_combinations().filter(|&(a, b)| self.apart(a, b)).collect();
        for (a, b) in peers {
            for v in 1..=n {
                self.formula.add_clause(&[self.x(a, v).negative(), self.x(b, v).negative()]);
            }
        }
    }

    /// The value each one-cell cage gives its cell; a cell given two
    /// different values (by overlapping cages) is left with none.
    fn read_givens(&mut self, puzzle: &Puzzle) {
        let n = self.n;
        let mut seen = vec![false; n * n];
        for cage in puzzle.cages() {
            if let &[cell] = cage.cells() {
                let cell = cell.index(n);
                let value = one_value(cage, n).map_or(0, |v| 1 << v);
                let first = !std::mem::replace(&mut seen[cell], true);
                self.given[cell] = if first || self.given[cell] == value { value } else { 0 };
            }
        }
    }

    /// A one-cell cage as a unit clause (empty if its target is no value);
    /// a larger one as its allowed tuples (distinct ones without repeats).
    /// The literals it added, counted before they are: with the `before`
    /// of the cages so far, they must fit the memory bound.
    fn cage(&mut self, index: usize, cage: &Cage, bounds: Bounds, before: u64) -> Result<u64, SatError> {
        let tuple_limit = bounds.tuples;
        let n = self.n;
        let members: Vec<usize> = cage.cells().iter().map(|c| c.index(n)).collect();
        if let &[cell] = members.as_slice() {
            match one_value(cage, n) {
                None => self.formula.add_clause(&[]),
                Some(value) => self.formula.add_clause(&[self.x(cell, value).positive()]),
            }
            return Ok(1);
        }
        let distinct = cage.is_distinct();
        let pairs: Vec<Vec<bool>> = members
            .iter()
            .map(|&a| members.iter().map(|&b| a != b && (distinct || self.apart(a, b))).collect())
            .collect();
        let domains: Vec<u32> = members.iter().map(|&a| self.domain(a)).collect();
        let target = cage.target().digits();
        let shape = CageShape { op: cage.op(), target, size: n as u8, apart: &pairs, domains: &domains };
        let diagram = diagram(&shape, tuple_limit).map_err(|refused| {
            let (cage, first_cell, cells) = (index, cage.cells()[0], members.len());
            match refused {
                Refused::TooMany => SatError::TooManyTuples { cage, first_cell, cells, limit: tuple_limit },
                Refused::TooLong(steps) => SatError::TuplesTooLong { cage, first_cell, cells, steps },
            }
        })?;
        // Each arc: at most three binary clauses and a place in two
        // supports; each cell value: its support.
        let literals = diagram.arc_count() as u64 * 8 + (members.len() * (n + 1)) as u64;
        let bytes = (before + literals).saturating_mul(BYTES_PER_LITERAL);
        if let Some(budget) = bounds.memory.filter(|&budget| bytes > budget) {
            let (cage, first_cell) = (index, cage.cells()[0]);
            return Err(SatError::TooLarge { cage, first_cell, bytes, budget });
        }
        if diagram.is_empty() {
            self.formula.add_clause(&[]);
        } else {
            self.diagram(&members, &diagram);
        }
        Ok(literals)
    }

    /// Sums implied by the rest, encoded as cages when they have few
    /// cells, so that the solver reasons about a whole group of N cells
    /// (which sum to N(N+1)/2) at once. Innies: the cells of a group
    /// outside the `+` cages (and givens) wholly inside it make its sum
    /// less their targets. Outies: when the cages that meet a group cover
    /// it once over, their cells outside it make their targets less the
    /// group's sum.
    /// Only puzzles with distinct cages get them: on KenKen they cost more
    /// than they prune.
    fn leftovers(&mut self, puzzle: &Puzzle) {
        if !puzzle.cages().iter().any(Cage::is_distinct) {
            return;
        }
        let n = self.n;
        let full = (n * (n + 1) / 2) as u64;
        let sums: Vec<(Vec<usize>, u64, bool)> = puzzle
            .cages()
            .iter()
            .filter_map(|cage| {
                let sum = match cage.op() {
                    Op::Add => cage.target().digits().parse::<u64>().ok(),
                    Op::Given => one_value(cage, n).map(|v| v as u64),
                    _ => None,
                }?;
                Some((cage.cells().iter().map(|c| c.index(n)).collect(), sum, cage.op() == Op::Add))
            })
            .collect();
        for group in puzzle.groups().iter().filter(|group| group.cells().len() == n) {
            let members: Vec<usize> = group.cells().iter().map(|c| c.index(n)).collect();
            let mut inside = vec![false; n * n];
            members.iter().for_each(|&c| inside[c] = true);
            self.innies(&members, &inside, full, &sums);
            self.outies(&members, &inside, full, &sums);
        }
    }

    /// The innies of a group (see [`Self::leftovers`]).
    fn innies(&mut self, members: &[usize], inside: &[bool], total: u64, sums: &[(Vec<usize>, u64, bool)]) {
        let mut covered = vec![false; inside.len()];
        let (mut left, mut adds) = (total, 0);
        for (cells, sum, add) in sums {
            if cells.iter().all(|&c| inside[c] && !covered[c]) {
                cells.iter().for_each(|&c| covered[c] = true);
                left = left.saturating_sub(*sum);
                adds += usize::from(*add);
            }
        }
        let rest: Vec<usize> = members.iter().copied().filter(|&c| !covered[c]).collect();
        // With givens alone, the rest must take the values missing: the
        // groups' clauses say so already.
        if adds > 0 {
            self.sum(&rest, left);
        }
    }

    /// The outies of a group (see [`Self::leftovers`]).
    fn outies(&mut self, members: &[usize], inside: &[bool], total: u64, sums: &[(Vec<usize>, u64, bool)]) {
        let mut covered = vec![false; inside.len()];
        let (mut outside, mut sum) = (Vec::new(), 0);
        for (cells, target, _) in sums.iter().filter(|(cells, ..)| cells.iter().any(|&c| inside[c])) {
            if cells.iter().any(|&c| covered[c]) {
                return;
            }
            cells.iter().for_each(|&c| covered[c] = true);
            outside.extend(cells.iter().copied().filter(|&c| !inside[c]));
            sum += target;
        }
        if members.iter().all(|&c| covered[c]) && sum >= total {
            self.sum(&outside, sum - total);
        }
    }

    /// `cells` sum to `target`, as a cage when there are a few of them; the
    /// values of cells that share a group differ.
    fn sum(&mut self, cells: &[usize], target: u64) {
        if cells.is_empty() || cells.len() > LEFTOVER_MOST_CELLS {
            return;
        }
        let apart: Vec<Vec<bool>> = cells.iter().map(|&a| cells.iter().map(|&b| self.apart(a, b)).collect()).collect();
        let domains: Vec<u32> = cells.iter().map(|&a| self.domain(a)).collect();
        let target = target.to_string();
        let shape = CageShape { op: Op::Add, target: &target, size: self.n as u8, apart: &apart, domains: &domains };
        match diagram(&shape, LEFTOVER_MOST_ARCS) {
            Ok(diagram) if diagram.is_empty() => self.formula.add_clause(&[]),
            Ok(diagram) => self.diagram(cells, &diagram),
            Err(_) => {}
        }
    }

    /// A cage's diagram as clauses on which unit propagation is as strong
    /// as arc consistency on the cage: a variable for each arc and node;
    /// an arc implies its cell value and both its nodes; a node implies
    /// one of the arcs that leave it and one of those that reach it; a
    /// cell value implies one of the arcs of its value in its layer. The
    /// root and the end always hold and need no variable; an arc from the
    /// root is its cell value, a node with one arc in is that arc, and an
    /// arc alone out of its node is that node.
    fn diagram(&mut self, members: &[usize], diagram: &Diagram) {
        let n = self.n;
        // A node's literal; `None` for the root and the end, which hold.
        let mut nodes: Vec<Option<Lit>> = vec![None];
        for (layer, (&cell, arcs)) in members.iter().zip(&diagram.arcs).enumerate() {
            let next_count = diagram.nodes[layer + 1] as usize;
            let mut out_degree = vec![0u32; nodes.len()];
            for arc in arcs {
                out_degree[arc.from as usize] += 1;
            }
            let lits: Vec<Lit> = arcs
                .iter()
                .map(|arc| {
                    let value = self.x(cell, arc.value.into()).positive();
                    match nodes[arc.from as usize] {
                        // The root's arcs differ in value: each is its value.
                        None => value,
                        Some(node) if out_degree[arc.from as usize] == 1 => {
                            self.formula.add_clause(&[!node, value]);
                            node
                        }
                        Some(node) => {
                            let lit = self.formula.new_var().positive();
                            self.formula.add_clause(&[!lit, node]);
                            self.formula.add_clause(&[!lit, value]);
                            lit
                        }
                    }
                })
                .collect();
            // The arcs leaving each node, reaching each next node, and of
            // each value, gathered once.
            let mut leaving = vec![Vec::new(); nodes.len()];
            let mut reaching = vec![Vec::new(); next_count];
            let mut of_value = vec![Vec::new(); n + 1];
            for (arc, &lit) in arcs.iter().zip(&lits) {
                leaving[arc.from as usize].push(lit);
                reaching[arc.to as usize].push(lit);
                of_value[usize::from(arc.value)].push(lit);
            }
            for (node, out) in nodes.iter().zip(&leaving) {
                if let Some(node) = node.filter(|_| out.len() > 1) {
                    self.formula.add_clause(&[&[!node], out.as_slice()].concat());
                }
            }
            for (v, supports) in of_value.iter().enumerate().skip(1) {
                let value = self.x(cell, v).positive();
                if supports.as_slice() != [value] {
                    self.formula.add_clause(&[&[!value], supports.as_slice()].concat());
                }
            }
            if layer + 1 == members.len() {
                break;
            }
            nodes = reaching
                .iter()
                .map(|arcs_in| {
                    if let &[arc] = arcs_in.as_slice() {
                        return Some(arc);
                    }
                    let node = self.formula.new_var().positive();
                    for &arc in arcs_in {
                        self.formula.add_clause(&[!arc, node]);
                    }
                    self.formula.add_clause(&[&[!node], arcs_in.as_slice()].concat());
                    Some(node)
                })
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Cage, Cell, Op};

    #[test]
    fn cell_variables_follow_the_documented_numbering() {
        let puzzle = Puzzle::new(4, vec![], vec![]).unwrap();
        let encoding = encode(&puzzle, Bounds::tuples(10)).unwrap();
        assert_eq!(cell_var(4, 0, 1).to_dimacs(), 1);
        assert_eq!(cell_var(4, 1, 1).to_dimacs(), 5);
        assert_eq!(cell_var(4, 6, 3).to_dimacs(), (4 + 2) * 4 + 3);
        assert_eq!(cell_var(4, 15, 4).to_dimacs(), 64);
        assert_eq!(encoding.formula().var_count(), 64);
        assert_eq!(encoding.tuple_vars(), 0);
    }

    #[test]
    fn the_memory_bound_refuses_a_large_formula_before_building_it() {
        let cages = (0..4).map(|r| Cage::new(Op::Add, 10, (0..4).map(|c| Cell::new(r, c)).collect()).unwrap());
        let puzzle = Puzzle::new(4, vec![], cages.collect()).unwrap();
        let small = Bounds { tuples: 1000, memory: Some(10_000) };
        let error = encode(&puzzle, small).err().unwrap();
        assert!(matches!(error, SatError::TooLarge { budget: 10_000, .. }), "{error}");
        let roomy = Bounds { tuples: 1000, memory: Some(100_000_000) };
        assert!(encode(&puzzle, roomy).is_ok());
    }

    #[test]
    fn a_group_gets_the_sum_its_cages_leave() {
        // Row A of a 4x4: 1 + 2 (a Killer cage) and a 4 leave 3 to A4,
        // which loses 1, 2, 4.
        let cages = vec![
            Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap().with_distinct(true),
            Cage::new(Op::Given, 4, vec![Cell::new(0, 2)]).unwrap(),
        ];
        let puzzle = Puzzle::new(4, vec![], cages).unwrap();
        let encoding = encode(&puzzle, Bounds::tuples(1000)).unwrap();
        let units: Vec<Lit> = encoding.formula().iter().filter(|c| c.len() == 1).map(|c| c[0]).collect();
        for v in [1, 2, 4] {
            assert!(units.contains(&cell_var(4, 3, v).negative()), "A4 is not {v}: {units:?}");
        }
        assert!(!units.contains(&cell_var(4, 3, 3).negative()));
        // A column's cells lie in no cage: nothing is left to it.
        let column = encode(&Puzzle::new(4, vec![], vec![]).unwrap(), Bounds::tuples(1000)).unwrap();
        assert!(column.formula().iter().all(|c| c.len() > 1));
    }

    #[test]
    fn cells_that_stick_out_of_a_group_get_what_its_cages_leave() {
        // Row A of a 4x4 (sum 10) is covered by 1 + 2 (A1 A2) and + 8 (A3
        // A4 B4): B4 sticks out and makes 3 + 8 - 10 = 1, where the cage
        // alone would let it be 1, 3 or 4.
        let cages = vec![
            Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap().with_distinct(true),
            Cage::new(Op::Add, 8, vec![Cell::new(0, 2), Cell::new(0, 3), Cell::new(1, 3)]).unwrap().with_distinct(true),
        ];
        let puzzle = Puzzle::new(4, vec![], cages).unwrap();
        let encoding = encode(&puzzle, Bounds::tuples(1000)).unwrap();
        let units: Vec<Lit> = encoding.formula().iter().filter(|c| c.len() == 1).map(|c| c[0]).collect();
        let b4 = 4 + 3;
        for v in [2, 3, 4] {
            assert!(units.contains(&cell_var(4, b4, v).negative()), "B4 is not {v}: {units:?}");
        }
        assert!(!units.contains(&cell_var(4, b4, 1).negative()));
    }

    #[test]
    fn the_tuple_limit_refuses_a_huge_cage() {
        let cells: Vec<Cell> = (0..9).flat_map(|r| [Cell::new(r, 0), Cell::new(r, 1)]).collect();
        let cage = Cage::new(Op::Add, 90, cells).unwrap();
        let puzzle = Puzzle::new(9, vec![], vec![cage]).unwrap();
        let error = encode(&puzzle, Bounds::tuples(1000)).err().unwrap();
        assert!(matches!(error, SatError::TooManyTuples { cage: 0, cells: 18, limit: 1000, .. }), "{error}");
    }
}
