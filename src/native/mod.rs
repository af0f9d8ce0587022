//! The native backend: propagation on candidate bitsets and depth-first
//! search that branches on a most-constrained cell.
//!
//! Depends on the puzzle model only; its cage arithmetic is its own (see
//! `cage.rs`), so that the cross-check against the SAT backend and the
//! checker means something.

mod cage;
mod factors;
mod layout;
mod pairs;
mod propagate;

use std::ops::ControlFlow;

use crate::puzzle::{Grid, Puzzle};
use crate::stats::Stats;
use layout::Layout;
use propagate::{Candidates, Contradiction, Propagator};

/// What a native search did.
#[derive(Default)]
struct Counters {
    solutions: u64,
    nodes: u64,
    failures: u64,
}

/// Hands every solution of `puzzle` to `on_solution`, as it is found, until
/// the search space is exhausted or the callback returns `Break`.
///
/// Memory stays flat: one candidate array per level of the search, however
/// many solutions there are.
pub(crate) fn enumerate(puzzle: &Puzzle, on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>) -> Stats {
    let layout = Layout::new(puzzle);
    let mut search =
        Search { prop: Propagator::new(&layout), on_solution, counters: Counters::default(), stack: Vec::new() };
    let mut root: Candidates = vec![layout.full; layout.cell_count()];
    for &(cell, bit) in &layout.givens {
        root[cell] &= bit;
    }
    search.counters.nodes = 1;
    search.prop.start(&root);
    let given_clash = layout.givens.iter().any(|&(cell, _)| root[cell] == 0);
    let propagated = if given_clash { Err(Contradiction) } else { search.prop.run(&mut root) };
    let flow = match propagated {
        Ok(()) => search.branch(&root, 0),
        Err(_) => {
            search.counters.failures = 1;
            ControlFlow::Continue(())
        }
    };
    let Counters { solutions, nodes, failures } = search.counters;
    Stats { solutions, complete: flow.is_continue(), nodes: Some(nodes), failures: Some(failures), ..Stats::default() }
}

struct Search<'a, 'f> {
    prop: Propagator<'a>,
    on_solution: &'f mut dyn FnMut(&Grid) -> ControlFlow<()>,
    counters: Counters,
    /// Candidate arrays reused level by level, so that a node allocates
    /// nothing.
    stack: Vec<Candidates>,
}

impl Search<'_, '_> {
    /// Explores a propagated node at `depth`: reports it if every cell is
    /// fixed, or tries each candidate of a most-constrained cell.
    fn branch(&mut self, cands: &Candidates, depth: usize) -> ControlFlow<()> {
        let Some(cell) = most_constrained(cands) else {
            return self.report(cands);
        };
        if self.stack.len() <= depth {
            self.stack.push(Vec::with_capacity(cands.len()));
        }
        let mut child = std::mem::take(&mut self.stack[depth]);
        let mut choices = cands[cell];
        let mut flow = ControlFlow::Continue(());
        while choices != 0 && flow.is_continue() {
            let bit = choices & choices.wrapping_neg();
            choices &= choices - 1;
            child.clone_from(cands);
            self.counters.nodes += 1;
            match self.prop.assign(&mut child, cell, bit) {
                Ok(()) => flow = self.branch(&child, depth + 1),
                Err(_) => self.counters.failures += 1,
            }
        }
        self.stack[depth] = child;
        flow
    }

    fn report(&mut self, cands: &Candidates) -> ControlFlow<()> {
        let values = cands.iter().map(|c| c.trailing_zeros() as u8 + 1).collect();
        let grid = Grid::new(self.prop.layout.size, values).expect("a fixed candidate array is a grid");
        self.counters.solutions += 1;
        (self.on_solution)(&grid)
    }
}

/// An unfixed cell with the fewest candidates, or `None` if every cell is
/// fixed.
fn most_constrained(cands: &Candidates) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    for (cell, &c) in cands.iter().enumerate() {
        let count = c.count_ones();
        if count > 1 && best.is_none_or(|(b, _)| count < b) {
            best = Some((count, cell));
            if count == 2 {
                break;
            }
        }
    }
    best.map(|(_, cell)| cell)
}
