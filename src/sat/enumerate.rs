//! Enumeration with a bounded clause database and one call a solution.
//!
//! The space is searched a part at a time: the solutions whose first free
//! cells (see [`Encoding::free_cells`], in order) hold given values, fixed
//! by assumptions. Within a part each solution found is ruled out by a
//! clause over the free cells after those, under a guard variable of the
//! part's, so one call finds each solution and one more proves the part
//! done; then the guard is retired and its clauses with it. A part that
//! reaches [`BLOCKED`] solutions is split by the value of its next free
//! cell, each new part taking the solutions found that lie in it; one
//! that starts with half that many or more is split again at once. So at
//! most [`BLOCKED`] clauses are live, memory stays flat however many
//! solutions there are, and every call costs about the same: the time per
//! solution stays flat, where one permanent clause per solution made every
//! call slower than the last. A puzzle with few solutions is solved, and
//! its last solution proved the last, by one solver on one part.
//!
//! A part with at most [`DEEP`] free cells left is searched along paths
//! instead, by assumptions alone (see `Search::paths`): there a call that
//! fixes almost every cell costs less than one that meets the clauses.
//!
//! A part, or a sub-problem of a path, whose next cell has no value left,
//! or some group through it no way to take its values, is empty without a
//! call.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use varisat::{ExtendFormula, Lit, ProofFormat, Solver, Var};

use super::encode::Encoding;
use super::error::SatError;
#[cfg(test)]
use super::{encode::encode, error::Bounds};
use crate::puzzle::{Grid, MAX_SIZE};

/// What can stop an enumeration early: a flag, looked at before each call
/// and, if `within_calls`, inside them too (through varisat's proof output,
/// at a cost of 5-50% of its speed).
#[derive(Clone, Copy)]
pub(crate) struct Stop<'a> {
    pub(crate) flag: &'a AtomicBool,
    pub(crate) within_calls: bool,
}

/// Solutions found in a part before it is split.
const BLOCKED: u64 = 256;

/// Free cells left in a part searched along paths once it has
/// [`BEFORE_PATHS`] solutions.
const DEEP: usize = 16;

/// Solutions found by clauses in a part with few free cells left before
/// the rest are found along paths: enough that a puzzle with few solutions
/// needs no more calls than solutions and one.
const BEFORE_PATHS: u64 = 16;

/// When parts are split and how they are searched.
#[derive(Clone, Copy)]
struct Sizes {
    /// Solutions found in a part before it is split (at least one).
    blocked: u64,
    /// Free cells left in a part searched along paths.
    deep: usize,
    /// Solutions found by clauses in such a part before the paths.
    before_paths: u64,
}

/// What an enumeration did.
#[derive(Default)]
pub(crate) struct Tally {
    /// Solutions handed to the callback.
    pub solutions: u64,
    /// Calls to the SAT solver.
    pub calls: u64,
    /// The most blocking clauses live at once.
    pub peak_clauses: u64,
    /// Whether the space was exhausted.
    pub complete: bool,
}

/// Hands every solution of the formula in `encoding` to `on_solution`,
/// as [the module](self) describes.
/// Grids in `known` are blocked from the start and not handed out. Once
/// `stop` is set the search ends soon after, incomplete.
///
/// Only the solutions in `cubes` are handed out: each cube fixes cells
/// (row-major index) to values (from 1) by assumptions and is searched in
/// turn, its blocking clauses retired after it; `&[vec![]]` is the whole
/// space.
pub(crate) fn enumerate(
    encoding: &Encoding,
    known: &[Grid],
    cubes: &[Vec<(usize, usize)>],
    stop: Option<Stop<'_>>,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Tally, SatError> {
    enumerate_with(
        encoding,
        known,
        cubes,
        stop,
        Sizes { blocked: BLOCKED, deep: DEEP, before_paths: BEFORE_PATHS },
        on_solution,
    )
}

/// [`enumerate`] with parts of other sizes.
fn enumerate_with(
    encoding: &Encoding,
    known: &[Grid],
    cubes: &[Vec<(usize, usize)>],
    stop: Option<Stop<'_>>,
    sizes: Sizes,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Tally, SatError> {
    let mut solver = Solver::new();
    if let Some(stop) = stop.filter(|stop| stop.within_calls) {
        // varisat has no way to interrupt a call, but it stops with an
        // error when its proof cannot be written: a proof that fails once
        // the flag is set interrupts it.
        solver.write_proof(Interrupter(stop.flag), ProofFormat::Varisat);
    }
    let stop = stop.map(|stop| stop.flag);
    solver.add_formula(encoding.formula());
    for grid in known {
        solver.add_clause(&encoding.blocking_clause(grid));
    }
    let sizes = Sizes { blocked: sizes.blocked.max(1), ..sizes };
    let (base, cubed, assumptions) = (Vec::new(), vec![false; encoding.size().pow(2)], Vec::new());
    let tally = Tally::default();
    let mut search = Search { solver, encoding, sizes, stop, base, cubed, assumptions, tally };
    search.tally.complete = true;
    for cube in cubes {
        if search.space(cube, on_solution)?.is_break() {
            search.tally.complete = false;
            break;
        }
    }
    search.tally.peak_clauses += known.len() as u64;
    Ok(search.tally)
}

/// A proof "written" nowhere, which fails once the flag is set.
struct Interrupter<'a>(&'a AtomicBool);

impl Write for Interrupter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0.load(Ordering::Relaxed) { Err(io::Error::other("stopped")) } else { Ok(buf.len()) }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What one SAT call gave.
enum Call {
    /// A solution.
    Model(Grid),
    /// None: the sub-problem is empty.
    Empty,
    /// The search was asked to stop.
    Stopped,
}

/// A part of the space: the solutions whose first free cells hold
/// `prefix`, with the values (of every cell) of those found so far.
struct Part {
    prefix: Vec<u8>,
    found: Vec<Vec<u8>>,
}

/// The solver, the encoding it was loaded with, and what the search did.
struct Search<'a> {
    solver: Solver<'a>,
    encoding: &'a Encoding,
    sizes: Sizes,
    stop: Option<&'a AtomicBool>,
    /// The assumptions of the cube searched: its cells.
    base: Vec<Lit>,
    /// Whether each cell is one of the cube's.
    cubed: Vec<bool>,
    assumptions: Vec<Lit>,
    tally: Tally,
}

impl Search<'_> {
    /// Enumerates every solution in `cube`, one part of it at a time (see
    /// [the module](self)).
    fn space(
        &mut self,
        cube: &[(usize, usize)],
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, SatError> {
        self.base = cube.iter().map(|&(cell, value)| self.encoding.cell_var(cell, value).positive()).collect();
        self.cubed.fill(false);
        for &(cell, _) in cube {
            self.cubed[cell] = true;
        }
        let free: Vec<usize> =
            self.encoding.free_cells().iter().copied().filter(|&c| cube.iter().all(|&(f, _)| f != c)).collect();
        let mut pending = vec![Part { prefix: Vec::new(), found: Vec::new() }];
        while let Some(part) = pending.pop() {
            if part.prefix.len() < free.len() && part.found.len() as u64 >= self.sizes.blocked.div_ceil(2) {
                self.split(&free, part, &mut pending);
                continue;
            }
            match self.part(&free, part, on_solution)? {
                Ok(()) => {}
                Err(Some(full)) => self.split(&free, full, &mut pending),
                Err(None) => return Ok(ControlFlow::Break(())),
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Finds the solutions of `part` not yet found, until there are none
    /// (`Ok`) or enough are known that the part must be split
    /// (`Err(Some)`), or the enumeration is to stop (`Err(None)`), by
    /// [clauses](Self::clauses) under a guard of the part's own, retired
    /// after, and the clauses with it. A part with few free cells left goes
    /// on [along paths](Self::paths) once it has a few solutions.
    fn part(
        &mut self,
        free: &[usize],
        part: Part,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Result<(), Option<Part>>, SatError> {
        let depth = part.prefix.len();
        let guard = self.solver.new_var();
        for values in &part.found {
            self.solver.add_clause(&self.blocking(free, depth, guard, values));
        }
        self.assumptions.clone_from(&self.base);
        let prefix = free.iter().zip(&part.prefix);
        self.assumptions.extend(prefix.map(|(&cell, &v)| self.encoding.cell_var(cell, v.into()).positive()));
        self.assumptions.push(guard.positive());
        let deep = free.len() - depth <= self.sizes.deep;
        let most = if deep { self.sizes.before_paths } else { self.sizes.blocked };
        let outcome = match self.clauses(free, part, guard, most, on_solution) {
            Ok(Err(Some(_))) if deep => self.paths(free, depth, on_solution),
            outcome => outcome,
        };
        self.solver.assume(&[]);
        self.solver.add_clause(&[guard.negative()]);
        self.solver.hide_var(guard);
        outcome
    }

    /// The clause that rules out `values` on the free cells from `depth`
    /// on, under `guard`.
    fn blocking(&self, free: &[usize], depth: usize, guard: Var, values: &[u8]) -> Vec<Lit> {
        let cells = free[depth..].iter().map(|&cell| self.encoding.cell_var(cell, values[cell].into()).negative());
        cells.chain([guard.negative()]).collect()
    }

    /// [`Self::part`] by clauses: each solution found is blocked by a
    /// clause under `guard`, so the next call finds another, until `most`
    /// are known.
    fn clauses(
        &mut self,
        free: &[usize],
        mut part: Part,
        guard: Var,
        most: u64,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Result<(), Option<Part>>, SatError> {
        let depth = part.prefix.len();
        loop {
            if depth < free.len() && part.found.len() as u64 >= most {
                return Ok(Err(Some(part)));
            }
            let grid = match self.solve()? {
                Call::Model(grid) => grid,
                Call::Empty => return Ok(Ok(())),
                Call::Stopped => return Ok(Err(None)),
            };
            self.tally.solutions += 1;
            if on_solution(&grid).is_break() {
                return Ok(Err(None));
            }
            self.solver.add_clause(&self.blocking(free, depth, guard, grid.values()));
            part.found.push(grid.values().to_vec());
            self.tally.peak_clauses = self.tally.peak_clauses.max(part.found.len() as u64);
        }
    }

    /// [`Self::part`] along paths, for a part with few free cells left,
    /// where a call under assumptions that fix almost every cell costs
    /// less than one that meets the blocking clauses (the solutions known
    /// stay blocked by them). Given a solution M,
    /// every other agrees with M on the free cells before some position k
    /// and differs from it at k, for exactly one k: so the rest of the part
    /// splits into disjoint sub-problems, "cells before k as in M, cell k
    /// none of the values E", each solved under assumptions and split the
    /// same way along the solution it yields (its own k with one more value
    /// in E, and each later position). Never splits the part.
    fn paths(
        &mut self,
        free: &[usize],
        depth: usize,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Result<(), Option<Part>>, SatError> {
        let base = self.assumptions.clone();
        let mut pending = Vec::new();
        let mut current = Vec::new();
        let mut next = Some((depth, 0u32));
        while let Some((k, excluded)) = next.take().or_else(|| pending.pop()) {
            if !current.is_empty() {
                if self.exhausted(&current, free[k], excluded) {
                    continue;
                }
                self.assumptions.clone_from(&base);
                let prefix = free[depth..k].iter().map(|&cell| self.encoding.cell_var(cell, current[cell].into()));
                self.assumptions.extend(prefix.map(Var::positive));
                let others = (1..=self.encoding.size()).filter(|v| excluded & 1 << v != 0);
                self.assumptions.extend(others.map(|v| self.encoding.cell_var(free[k], v).negative()));
            }
            let grid = match self.solve()? {
                Call::Model(grid) => grid,
                Call::Empty => continue,
                Call::Stopped => return Ok(Err(None)),
            };
            self.tally.solutions += 1;
            if on_solution(&grid).is_break() {
                return Ok(Err(None));
            }
            current = grid.values().to_vec();
            if k < free.len() {
                pending.push((k, excluded | 1 << current[free[k]]));
                pending.extend((k + 1..free.len()).map(|j| (j, 1u32 << current[free[j]])));
            }
        }
        Ok(Ok(()))
    }

    /// Splits `part` by the value of its next free cell: one part for each
    /// value the cell may still take, holding the solutions found with it,
    /// pushed on `pending` unless it is empty on its face.
    fn split(&self, free: &[usize], part: Part, pending: &mut Vec<Part>) {
        let depth = part.prefix.len();
        let cell = free[depth];
        // The cells before `cell` are fixed in the part; a solution found
        // in it has their values (0 stands for a value not known).
        let mut current = part.found.first().cloned().unwrap_or_else(|| vec![0u8; self.encoding.size().pow(2)]);
        for (&cell, &v) in free.iter().zip(&part.prefix) {
            current[cell] = v;
        }
        for v in (1..=self.encoding.size() as u8).rev() {
            let excluded = !(1u32 << v) & !1;
            if self.exhausted(&current, cell, excluded) {
                continue;
            }
            let mut prefix = part.prefix.clone();
            prefix.push(v);
            let found = part.found.iter().filter(|values| values[cell] == v).cloned().collect();
            pending.push(Part { prefix, found });
        }
    }

    /// Whether no solution has the cells before `cell` and those of the
    /// cube as in `current` and none of `excluded` at `cell`: some full
    /// group through `cell` cannot give its open cells (`cell` and those
    /// after it, but the cube's) distinct values that their fixed peers
    /// leave them.
    fn exhausted(&self, current: &[u8], cell: usize, excluded: u32) -> bool {
        let n = self.encoding.size();
        let all = ((1u32 << n) - 1) << 1;
        let fixed = |c: usize| c < cell || self.cubed[c];
        let left = |open: usize| {
            let taken = self.encoding.peers(open).iter().filter(|&&peer| fixed(peer));
            all & !taken.fold(if open == cell { excluded } else { 0 }, |taken, &peer| taken | 1 << current[peer])
        };
        if left(cell) == 0 {
            return true;
        }
        // On the stack: this runs before every call.
        let mut open = [0u32; MAX_SIZE];
        self.encoding.groups_of(cell).iter().any(|&g| {
            let mut count = 0;
            for &c in self.encoding.full_groups()[g].iter().filter(|&&c| !fixed(c)) {
                open[count] = left(c);
                count += 1;
            }
            !matchable(&open[..count])
        })
    }

    /// One SAT call under the current assumptions.
    fn solve(&mut self) -> Result<Call, SatError> {
        let stopped = || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
        if stopped() {
            return Ok(Call::Stopped);
        }
        self.solver.assume(&self.assumptions);
        self.tally.calls += 1;
        match self.solver.solve() {
            Ok(true) => {
                let model = self.solver.model().expect("a satisfiable formula has a model");
                Ok(Call::Model(self.encoding.decode(&model)))
            }
            Ok(false) => Ok(Call::Empty),
            Err(_) if stopped() => Ok(Call::Stopped),
            Err(error) => Err(SatError::Solver(error.to_string())),
        }
    }
}

/// Whether each of the cells, whose allowed values are the bit sets
/// `allowed`, can take a value of its own (a bipartite matching, found by
/// augmenting paths).
fn matchable(allowed: &[u32]) -> bool {
    // `owner[v]`: the cell that holds value v, if any.
    let mut owner = [usize::MAX; 33];
    fn place(cell: usize, allowed: &[u32], owner: &mut [usize; 33], visited: &mut u32) -> bool {
        let mut values = allowed[cell] & !*visited;
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            *visited |= 1 << v;
            if owner[v] == usize::MAX || place(owner[v], allowed, owner, visited) {
                owner[v] = cell;
                return true;
            }
        }
        false
    }
    (0..allowed.len()).all(|cell| place(cell, allowed, &mut owner, &mut 0))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;
    use crate::puzzle::{Cage, Cell, Group, Op, Puzzle};

    /// One part never split, searched by clauses alone.
    const CLAUSES: Sizes = Sizes { blocked: u64::MAX, deep: 0, before_paths: 0 };

    /// One part never split, searched along paths alone.
    const PATHS: Sizes = Sizes { blocked: u64::MAX, deep: usize::MAX, before_paths: 1 };

    /// Parts split at `blocked` solutions, searched by clauses alone.
    fn parts(blocked: u64) -> Sizes {
        Sizes { blocked, deep: 0, before_paths: 0 }
    }

    /// Every solution found with parts of `sizes`, checked to be found once
    /// each.
    fn solutions(puzzle: &Puzzle, sizes: Sizes) -> HashSet<Grid> {
        let encoding = encode(puzzle, Bounds::tuples(1_000_000)).unwrap();
        let mut found = HashSet::new();
        let tally = enumerate_with(&encoding, &[], &[vec![]], None, sizes, &mut |grid| {
            assert!(found.insert(grid.clone()), "{grid:?} found twice");
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(tally.complete);
        assert_eq!(tally.solutions, found.len() as u64);
        found
    }

    /// A Sudoku of order `n` with boxes of `r`×`c` and the givens of the
    /// first rows, from the model alone.
    fn boxed(n: usize, (r, c): (usize, usize), givens: &[u8]) -> Puzzle {
        let boxes = (0..n)
            .map(|b| {
                let (top, left) = (b / (n / c) * r, b % (n / c) * c);
                Group::new((0..n).map(|i| Cell::new(top + i / c, left + i % c)).collect())
            })
            .collect();
        let givens =
            givens.iter().enumerate().map(|(i, &v)| Cage::new(Op::Given, u64::from(v), vec![Cell::new(i / n, i % n)]));
        Puzzle::new(n, boxes, givens.map(Result::unwrap).collect()).unwrap()
    }

    #[test]
    fn parts_split_at_each_solution_and_paths_find_the_known_counts() {
        let latin = Puzzle::new(4, vec![], vec![]).unwrap();
        assert_eq!(solutions(&latin, parts(1)).len(), 576);
        assert_eq!(solutions(&latin, PATHS).len(), 576);
        assert_eq!(solutions(&boxed(4, (2, 2), &[]), parts(1)).len(), 288);
        let six = boxed(6, (2, 3), &[1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3]);
        let found = solutions(&six, parts(1));
        assert_eq!(found.len(), 1408, "as the native backend counts");
        assert_eq!(found, solutions(&six, CLAUSES));
        assert_eq!(found, solutions(&six, PATHS));
        assert_eq!(found, solutions(&six, Sizes { blocked: 4, deep: 12, before_paths: 2 }));
    }

    #[test]
    fn known_grids_are_blocked_from_the_start() {
        let latin = Puzzle::new(4, vec![], vec![]).unwrap();
        let encoding = encode(&latin, Bounds::tuples(1000)).unwrap();
        let every = solutions(&latin, CLAUSES);
        let known: Vec<Grid> = every.iter().take(300).cloned().collect();
        let mut rest = HashSet::new();
        let tally = enumerate(&encoding, &known, &[vec![]], None, &mut |grid| {
            assert!(rest.insert(grid.clone()) && !known.contains(grid), "{grid:?} handed out again");
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(tally.complete);
        assert_eq!(rest.len() + known.len(), 576);
    }

    #[test]
    fn a_stop_in_a_small_part_or_on_a_path_stops_at_once() {
        let latin = Puzzle::new(4, vec![], vec![]).unwrap();
        let encoding = encode(&latin, Bounds::tuples(1000)).unwrap();
        for sizes in [parts(3), PATHS] {
            let mut seen = 0;
            let tally = enumerate_with(&encoding, &[], &[vec![]], None, sizes, &mut |_| {
                seen += 1;
                if seen == 100 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .unwrap();
            assert_eq!((seen, tally.solutions, tally.complete), (100, 100, false));
        }
    }

    #[test]
    fn matching_needs_a_value_for_each_cell() {
        assert!(matchable(&[0b0110, 0b0110]));
        assert!(!matchable(&[0b0010, 0b0010]));
        assert!(matchable(&[0b0010, 0b0110, 0b1110]));
        assert!(!matchable(&[0b0110, 0b0110, 0b0110]));
        assert!(!matchable(&[0b0000]));
        assert!(matchable(&[]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Parts split at one to three solutions, those with few free cells
        /// left searched along paths, find the same solutions as one part
        /// never split: Latin squares of order 1 to 4 with some cages of one
        /// to three cells, random ops and small random targets.
        #[test]
        fn small_parts_and_paths_find_what_clauses_find(
            n in 1usize..=4,
            order in any::<u64>(),
            cages in proptest::collection::vec((0usize..6, 1usize..=3, 1u32..=30), 0..6),
            blocked in 1u64..4,
            deep in 0usize..=16,
            before_paths in 1u64..4,
        ) {
            let mut indices: Vec<usize> = (0..n * n).collect();
            indices.sort_by_key(|&i| (i as u64 ^ order).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut cells = indices.into_iter().map(|i| Cell::new(i / n, i % n));
            let cages: Vec<Cage> = cages
                .into_iter()
                .filter_map(|(op, len, target)| {
                    let op = [Op::Add, Op::Mul, Op::Sub, Op::Div, Op::Any, Op::Given][op];
                    let len = match op { Op::Sub | Op::Div => 2, Op::Given => 1, _ => len };
                    let members: Vec<Cell> = cells.by_ref().take(len).collect();
                    let target = if op == Op::Given { target % n as u32 + 1 } else { target };
                    Cage::new(op, u64::from(target), members).ok()
                })
                .collect();
            let puzzle = Puzzle::new(n, vec![], cages).unwrap();
            prop_assert_eq!(solutions(&puzzle, Sizes { blocked, deep, before_paths }), solutions(&puzzle, CLAUSES));
        }
    }
}
