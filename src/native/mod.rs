//! The native backend: propagation on one bitboard per value, and
//! depth-first search that branches first where it last came to a dead
//! end, then where candidates are few and failures many, restarting with
//! nogoods when failures pile up; on grids above 16×16 the root is probed
//! first (values whose placement fails leave it), and from 10×10 up at the
//! first restart. On a grid with no cages
//! but its givens, the last open cells go to a search of their own
//! (`endgame.rs`).
//!
//! Depends on the puzzle model only; its cage arithmetic is its own (see
//! `cage.rs`), so that the cross-check against the SAT backend and the
//! checker means something.

mod bands;
mod cage;
mod derive;
mod distinct;
mod divisors;
mod endgame;
mod factors;
mod layout;
mod memo;
mod nogoods;
mod pairs;
mod propagate;
mod spare;
mod tuning;

use std::ops::ControlFlow;

use crate::puzzle::stats::Stats;
use crate::puzzle::{Grid, Puzzle};
use endgame::Endgame;
use layout::Layout;
use layout::members;
use nogoods::{Decision, Nogoods};
use propagate::{Bits, Boards, Contradiction, Propagator, and, and_not, count, has, is_empty};
use tuning::{
    ASK_EVERY, DECISIONS_BLAMED_UP_TO, FIRST_RESTART, LOOSE_AFTER_NODES, LOOSE_NODES_A_FAILURE, PEERS_A_FAILURE,
    PROBE_ABOVE, PROBE_ON_RESTART_ABOVE,
};

/// What a native search did.
#[derive(Default)]
struct Counters {
    solutions: u64,
    nodes: u64,
    failures: u64,
    complete: bool,
}

/// What a search does with each solution it finds.
pub(crate) enum Report<'f> {
    /// Hands the solution's grid to the callback.
    Grid(&'f mut dyn FnMut(&Grid) -> ControlFlow<()>),
    /// Tells the callback that one more was found, without building its
    /// grid: for a count, which has no use for it.
    Count(&'f mut dyn FnMut() -> ControlFlow<()>),
}

impl Report<'_> {
    /// Reports `grid`, a solution, as this report says.
    pub fn solution(&mut self, grid: &Grid) -> ControlFlow<()> {
        match self {
            Report::Grid(on_solution) => on_solution(grid),
            Report::Count(on_solution) => on_solution(),
        }
    }
}

/// [`enumerate_until`], never giving up.
#[cfg(test)]
pub(crate) fn enumerate(
    puzzle: &Puzzle,
    cubes: &[Vec<(usize, usize)>],
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Stats {
    enumerate_until(puzzle, cubes, &mut |_, _| false, Report::Grid(on_solution))
}

/// Reports every solution of `puzzle` as `report` says, as it is found,
/// until the search space is exhausted or its callback returns `Break`; asks
/// `give_up(failures, solutions)` every [`ASK_EVERY`] failures (and
/// probes, see [`PROBE_ABOVE`]), and stops there (incomplete) when it says
/// so.
///
/// Memory stays flat: one set of boards per level of the search, however
/// many solutions there are, and one path per restart.
///
/// Only the solutions in `cubes` are handed out: each cube fixes cells
/// (row-major index) to values (from 1) and is searched on its own;
/// `&[vec![]]` is the whole space.
pub(crate) fn enumerate_until<'f>(
    puzzle: &Puzzle,
    cubes: &[Vec<(usize, usize)>],
    give_up: &'f mut dyn FnMut(u64, u64) -> bool,
    report: Report<'f>,
) -> Stats {
    let restarts = Some(Restarts { first: FIRST_RESTART, after_a_solution: false });
    enumerate_with(puzzle, cubes, restarts, Probe::for_size, give_up, report)
}

/// When the root of each cube is probed (see [`Search::probe`]).
#[derive(Clone, Copy)]
enum Probe {
    Never,
    /// Before the search.
    AtStart,
    /// At the first restart, once the search has shown itself hard (the
    /// probes' contradictions then weigh on their cells while the learnt
    /// weights are still light).
    AtFirstRestart,
}

impl Probe {
    /// Above [`PROBE_ABOVE`] at the start, above [`PROBE_ON_RESTART_ABOVE`]
    /// at the first restart, else never.
    fn for_size(size: usize) -> Probe {
        match size {
            s if s > PROBE_ABOVE => Probe::AtStart,
            s if s > PROBE_ON_RESTART_ABOVE => Probe::AtFirstRestart,
            _ => Probe::Never,
        }
    }

    /// The run (0 for the first, before any restart) whose root is probed.
    fn run(self) -> Option<usize> {
        match self {
            Probe::Never => None,
            Probe::AtStart => Some(0),
            Probe::AtFirstRestart => Some(1),
        }
    }
}

/// When a search restarts from the root.
#[derive(Clone, Copy)]
struct Restarts {
    /// Failures before the first restart; each run allows half as many
    /// again as the one before, so that the search ends.
    first: u64,
    /// Whether it still restarts once it has found a solution. Restarts
    /// cure the heavy tail of looking for a solution; on the way through a
    /// whole tree (counting every solution) they reshuffle the same work
    /// and lose the part of it on the abandoned path.
    after_a_solution: bool,
}

/// [`enumerate_until`], restarting as `restarts` says, or never, and
/// probing the root as `probe` says for the grid's size.
fn enumerate_with<'f>(
    puzzle: &Puzzle,
    cubes: &[Vec<(usize, usize)>],
    restarts: Option<Restarts>,
    probe: fn(usize) -> Probe,
    give_up: &'f mut dyn FnMut(u64, u64) -> bool,
    report: Report<'f>,
) -> Stats {
    let layout = Layout::new(puzzle);
    let probe = probe(layout.size);
    // 9×9, the size of nearly every Sudoku and KenKen, and the large sizes
    // of `generate` and Sudoku (12, 16, 20, 25) have their own copies of
    // the search with the size a constant: the loops over the values then
    // have a known count, unrolled. Every other size reads it from the
    // layout.
    macro_rules! by_size {
        ($(($fw:literal, $n:literal))*; $($w:literal)*) => {
            match (layout.shape.words, layout.size) {
                $(($fw, $n) => search::<$fw, $n>(&layout, cubes, restarts, probe, give_up, report),)*
                $(($w, _) => search::<$w, 0>(&layout, cubes, restarts, probe, give_up, report),)*
                (words, _) => unreachable!("a grid of {words} words: sizes stop at 25"),
            }
        };
    }
    let Counters { solutions, nodes, failures, complete } =
        by_size!((2, 9) (3, 12) (4, 16) (7, 20) (10, 25); 1 2 3 4 5 6 7 8 9 10);
    spare::give(layout);
    Stats { solutions, complete, nodes: Some(nodes), failures: Some(failures), ..Stats::default() }
}

/// Why a search stopped before the end.
enum Stop {
    /// The callback, or `give_up`, asked to.
    Asked,
    /// Failures reached the cutoff: start again from the root.
    Restart,
}

/// The search for grids of `W` words a set of cells, probing the root of
/// each cube when `probe` says.
fn search<'f, const W: usize, const N: usize>(
    layout: &Layout,
    cubes: &[Vec<(usize, usize)>],
    restarts: Option<Restarts>,
    probe: Probe,
    give_up: &'f mut dyn FnMut(u64, u64) -> bool,
    report: Report<'f>,
) -> Counters {
    let mut search = Search::<W, N>::new(layout, restarts, give_up, report);
    let mut root = std::mem::take(&mut search.levels.root);
    search.counters.complete = 'cubes: {
        for cube in cubes {
            search.nogoods = Nogoods::default();
            search.probed.clear();
            search.cutoff = restarts.map_or(u64::MAX, |r| r.first);
            search.solutions_before = search.counters.solutions;
            for run in 0.. {
                search.prop.root(&mut root);
                for &(cell, value) in cube {
                    let others = search.prop.values(&root, cell) & !(1 << (value - 1));
                    search.prop.remove(&mut root, cell, others);
                }
                for &(cell, gone) in &search.probed {
                    search.prop.remove(&mut root, cell, gone);
                }
                search.counters.nodes += 1;
                let root_holds = search.propagate(&mut root).and_then(|()| match probe.run() == Some(run) {
                    true => search.probe(&mut root),
                    false => Ok(ControlFlow::Continue(())),
                });
                // The cutoff counts the search's failures, not the probes'.
                search.failures_before = search.counters.failures;
                let flow = match root_holds {
                    Ok(ControlFlow::Continue(())) => search.branch(&mut root, 0),
                    Ok(stop) => stop,
                    Err(_) => {
                        search.counters.failures += 1;
                        ControlFlow::Continue(())
                    }
                };
                match flow {
                    ControlFlow::Continue(()) => break,
                    ControlFlow::Break(Stop::Asked) => break 'cubes false,
                    ControlFlow::Break(Stop::Restart) => {
                        search.cutoff = search.cutoff.saturating_add((search.cutoff / 2).max(1));
                    }
                }
            }
        }
        true
    };
    search.levels.root = root;
    search.finish()
}

/// The boards of the root and of each level below it, the path to the
/// current node and the grid of the solutions: sized for one puzzle but
/// kept on the thread for the next (see `spare.rs`).
#[derive(Default)]
struct Levels<const W: usize> {
    root: Vec<Bits<W>>,
    /// Boards reused level by level, so that a node allocates nothing.
    stack: Vec<Vec<Bits<W>>>,
    /// The decisions from the root to the current node.
    path: Vec<Decision>,
    /// The grid each solution is handed out in, refilled for the next.
    grid: Option<Grid>,
    /// The endgame's cells, and scratch space for it: a byte a cell.
    endgame: Option<Box<Endgame>>,
    numbers: Vec<u8>,
}

struct Search<'a, 'f, const W: usize, const N: usize> {
    prop: Propagator<'a, W, N>,
    report: Report<'f>,
    give_up: &'f mut dyn FnMut(u64, u64) -> bool,
    counters: Counters,
    levels: Box<Levels<W>>,
    nogoods: Nogoods,
    /// Failures allowed in this run before a restart, and failures before it.
    cutoff: u64,
    failures_before: u64,
    /// Solutions found before this cube's search.
    solutions_before: u64,
    restart_after_a_solution: bool,
    /// Up to how many open cells a node is left to the endgame (see
    /// `endgame.rs`), while the search fails often and once it seldom
    /// does; none, if there are cages to revise or restarts after a
    /// solution, whose nogoods the endgame would not see. A nogood of a
    /// run with no solution rules out none, and the endgame may ignore it.
    endgame_open: [usize; 2],
    /// The last cell every value of which failed: branched on first
    /// wherever it is open, until one of its values holds (see
    /// [`Search::most_constrained`]); none is kept where decisions are
    /// blamed.
    last_conflict: Option<usize>,
    /// The values probing took from cells at the root of this cube (cell,
    /// values as a set), taken again at each restart.
    probed: Vec<(usize, u32)>,
    /// How many open peers weigh as much as a contradiction in a cell's
    /// heft in choosing the cell to branch on (see
    /// [`Search::most_constrained`]), if its open peers add to it: on grids
    /// with no cages but their givens, where a cell's peers are all it is
    /// constrained by.
    peers_a_failure: Option<u64>,
    /// Whether a decision whose value fails at once weighs on its cell, in
    /// place of last-conflict reasoning (see [`DECISIONS_BLAMED_UP_TO`]).
    blame_decisions: bool,
}

impl<'a, 'f, const W: usize, const N: usize> Search<'a, 'f, W, N> {
    fn new(
        layout: &'a Layout,
        restarts: Option<Restarts>,
        give_up: &'f mut dyn FnMut(u64, u64) -> bool,
        report: Report<'f>,
    ) -> Self {
        let prop = Propagator::new(layout);
        let endgame_open = match layout.cage_count() == 0 && !restarts.is_some_and(|r| r.after_a_solution) {
            true => endgame::open_up_to(layout.size, prop.looks_for_hidden_while_placed()),
            false => [0; 2],
        };
        Search {
            prop,
            report,
            give_up,
            counters: Counters::default(),
            levels: spare::take(),
            nogoods: Nogoods::default(),
            cutoff: restarts.map_or(u64::MAX, |r| r.first),
            restart_after_a_solution: restarts.is_some_and(|r| r.after_a_solution),
            endgame_open,
            failures_before: 0,
            solutions_before: 0,
            last_conflict: None,
            probed: Vec::new(),
            peers_a_failure: (layout.cage_count() == 0)
                .then_some(PEERS_A_FAILURE[usize::from(layout.size > DECISIONS_BLAMED_UP_TO)]),
            blame_decisions: layout.cage_count() == 0 && layout.size <= DECISIONS_BLAMED_UP_TO,
        }
    }

    /// What the search did, giving its buffers back to the thread.
    fn finish(self) -> Counters {
        let mut levels = self.levels;
        levels.path.clear();
        spare::give(levels);
        self.prop.finish();
        self.counters
    }

    /// Propagates, with the nogoods, until neither prunes anything more.
    fn propagate(&mut self, boards: &mut Boards<W>) -> Result<(), Contradiction> {
        self.prop.run(boards)?;
        while self.nogoods.apply(&mut self.prop, boards)? {
            self.prop.run(boards)?;
        }
        Ok(())
    }

    /// Probes the propagated root: tries every candidate of every open
    /// cell, and takes from the root each whose placement propagates to a
    /// contradiction (noted in `probed`), until a pass takes none. Each
    /// probe counts as a node, each value taken as a failure, and the
    /// contradictions weigh on their cells as the search's do. Fails if
    /// the root does; breaks off if `give_up` says so (asked every
    /// [`ASK_EVERY`] probes).
    ///
    /// A value that fails on its own never holds, so the root can lose it
    /// once and for all; what the search would find out about it under
    /// every decision above, and forget at each restart, is known before
    /// the first.
    fn probe(&mut self, root: &mut Boards<W>) -> Result<ControlFlow<Stop>, Contradiction> {
        if self.levels.stack.is_empty() {
            self.levels.stack.push(Vec::with_capacity(root.len()));
        }
        let mut child = std::mem::take(&mut self.levels.stack[0]);
        let result = self.probe_with(root, &mut child);
        self.levels.stack[0] = child;
        result
    }

    /// [`Search::probe`], with `child` for the boards of each probe.
    fn probe_with(
        &mut self,
        root: &mut Boards<W>,
        child: &mut Vec<Bits<W>>,
    ) -> Result<ControlFlow<Stop>, Contradiction> {
        let size = self.prop.size();
        let mut probes = 0u64;
        let mut taken = true;
        while taken {
            taken = false;
            for cell in members(&and_not(&self.prop.all, &root[size])) {
                let mut choices = self.prop.values(root, cell);
                while choices != 0 && !has(&root[size], cell) {
                    let v = choices.trailing_zeros() as usize;
                    choices &= choices - 1;
                    probes += 1;
                    if probes % ASK_EVERY == 0 && (self.give_up)(self.counters.failures, self.counters.solutions) {
                        return Ok(ControlFlow::Break(Stop::Asked));
                    }
                    child.clear();
                    child.extend_from_slice(root);
                    self.prop.propagated(root);
                    self.counters.nodes += 1;
                    self.prop.place(child, cell, v);
                    if self.propagate(child).is_ok() {
                        continue;
                    }
                    self.counters.failures += 1;
                    self.probed.push((cell, 1 << v));
                    self.prop.propagated(root);
                    self.prop.remove(root, cell, 1 << v);
                    self.propagate(root)?;
                    choices &= self.prop.values(root, cell);
                    taken = true;
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Explores a propagated node at `depth`: reports it if every cell is
    /// placed, or tries each candidate of a most-constrained cell. Leaves
    /// `boards` as the last candidate's child.
    fn branch(&mut self, boards: &mut Boards<W>, depth: usize) -> ControlFlow<Stop> {
        if self.endgame_open[1] > 0 {
            let open = and_not(&self.prop.all, &boards[self.prop.size()]);
            let count = open.iter().map(|w| w.count_ones() as usize).sum();
            let c = &self.counters;
            let loose = c.nodes >= LOOSE_AFTER_NODES && c.failures * LOOSE_NODES_A_FAILURE < c.nodes;
            if (1..=self.endgame_open[usize::from(loose)]).contains(&count) {
                let levels = &mut *self.levels;
                levels.numbers.resize(self.prop.all.len() * 64, 0);
                let mut endgame = levels.endgame.take().unwrap_or_default();
                let size = self.prop.size();
                let mut places = [0; endgame::MAX_VALUES];
                let places = &mut places[..size];
                let mut open = endgame.take(&open, self.prop.groups(), &boards[..size], &mut levels.numbers, places);
                let flow = match endgame.settle(places, &mut open) {
                    Some(pairs) => self.end_branch(&endgame, boards, places, open, pairs),
                    None => {
                        self.counters.failures += 1;
                        ControlFlow::Continue(())
                    }
                };
                self.levels.endgame = Some(endgame);
                return flow;
            }
        }
        let Some(cell) = self.most_constrained(boards) else {
            return self.report(boards, None).map_break(|()| Stop::Asked);
        };
        if self.levels.stack.len() <= depth {
            self.levels.stack.push(Vec::with_capacity(boards.len()));
        }
        let mut child = std::mem::take(&mut self.levels.stack[depth]);
        let mut choices = self.prop.values(boards, cell);
        let mut flow = ControlFlow::Continue(());
        self.levels.path.push(Decision { cell, value: 0, finished: 0 });
        let mut held = false;
        while choices != 0 && flow.is_continue() {
            let v = choices.trailing_zeros() as usize;
            choices &= choices - 1;
            self.levels.path[depth].value = v;
            self.prop.propagated(boards);
            // The last value works in this node's boards, which no one
            // reads after it: one copy fewer.
            let node = if choices == 0 {
                &mut *boards
            } else {
                child.clear();
                child.extend_from_slice(boards);
                &mut child[..]
            };
            self.counters.nodes += 1;
            self.prop.place(node, cell, v);
            match self.propagate(node) {
                Ok(()) => {
                    held = true;
                    if self.last_conflict == Some(cell) {
                        self.last_conflict = None;
                    }
                    flow = self.branch(node, depth + 1);
                }
                Err(_) => {
                    self.counters.failures += 1;
                    if self.blame_decisions {
                        self.prop.blame([cell]);
                    }
                    let (failures, solutions) = (self.counters.failures, self.counters.solutions);
                    if failures % ASK_EVERY == 0 && (self.give_up)(failures, solutions) {
                        flow = ControlFlow::Break(Stop::Asked);
                    }
                }
            }
            if flow.is_continue() {
                self.levels.path[depth].finished |= 1 << v;
                let may_restart = self.counters.solutions == self.solutions_before || self.restart_after_a_solution;
                if may_restart && self.counters.failures - self.failures_before >= self.cutoff {
                    self.nogoods.learn(&self.levels.path);
                    flow = ControlFlow::Break(Stop::Restart);
                }
            }
        }
        if flow.is_continue() && !held && !self.blame_decisions {
            self.last_conflict = Some(cell);
        }
        self.levels.path.pop();
        self.levels.stack[depth] = child;
        flow
    }

    /// Explores the endgame's node of `places` with `open` cells left, of
    /// which `pairs` have two values (see `endgame.rs`): reports it if
    /// none are, or tries each value of one.
    fn end_branch(
        &mut self,
        endgame: &Endgame,
        boards: &Boards<W>,
        places: &[u64],
        open: u64,
        pairs: u64,
    ) -> ControlFlow<Stop> {
        if open == 0 {
            return self.report(boards, Some((endgame, places))).map_break(|()| Stop::Asked);
        }
        let cell = Endgame::choose(places, open, pairs);
        let mut child = [0; endgame::MAX_VALUES];
        let child = &mut child[..places.len()];
        // The cell's values found first, with no branch on each value.
        let mut values =
            places.iter().enumerate().fold(0u32, |values, (v, place)| values | ((place >> cell) as u32 & 1) << v);
        while values != 0 {
            let value = values.trailing_zeros() as usize;
            values &= values - 1;
            self.counters.nodes += 1;
            endgame.place(places, child, cell, value);
            let mut left = open & !(1 << cell);
            if let Some(pairs) = endgame.settle(child, &mut left) {
                self.end_branch(endgame, boards, child, left, pairs)?;
            } else {
                self.counters.failures += 1;
                let (failures, solutions) = (self.counters.failures, self.counters.solutions);
                if failures % ASK_EVERY == 0 && (self.give_up)(failures, solutions) {
                    return ControlFlow::Break(Stop::Asked);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The last conflict (the last cell every value of which failed, if
    /// it is open and none of its values has held since), or else the
    /// unplaced cell with the fewest candidates per unit of weight (the
    /// first such; see [`lightest_load`]); `None` if every cell is placed.
    ///
    /// The last conflict comes first because, where the search has just
    /// run into a dead end under one choice, the same cell often ends the
    /// sibling choices too, and trying it first finds that at once instead
    /// of under every decision below (last-conflict reasoning, Lecoutre et
    /// al.). Weight is
    /// learnt from contradictions (dom/wdeg), so that the search turns to
    /// where it keeps failing instead of trying the same dead end under
    /// every choice above it. Candidate counts are kept bit-sliced, one set
    /// per binary digit, so that every cell is counted at once.
    ///
    /// On a grid with no cages but its givens, a cell's open peers add to
    /// its weight (dom/wdeg with the degree in the graph of the groups'
    /// constraints; see [`PEERS_A_FAILURE`]). With cages, peers are not all
    /// that constrains a cell, and they are left out. On such a grid up to
    /// 9×9, a decision whose value fails at once weighs on its cell too, and
    /// there is no last conflict (see [`DECISIONS_BLAMED_UP_TO`]).
    fn most_constrained(&self, boards: &Boards<W>) -> Option<usize> {
        let size = self.prop.size();
        let open = and_not(&self.prop.all, &boards[size]);
        if is_empty(&open) {
            return None;
        }
        if let Some(cell) = self.last_conflict.filter(|&c| has(&open, c)) {
            return Some(cell);
        }
        // As many binary digits as a count up to the size needs.
        let planes = (usize::BITS - size.leading_zeros()) as usize;
        let mut digits = [[0u64; W]; 5];
        for board in &boards[..size] {
            let mut carry = *board;
            for digit in &mut digits[..planes] {
                let next = and(digit, &carry);
                for i in 0..W {
                    digit[i] ^= carry[i];
                }
                carry = next;
            }
        }
        let degree = self.peers_a_failure.map(|a_failure| Degree {
            peers: self.prop.peers(),
            most: self.prop.most_peers(),
            a_failure,
        });
        lightest_load(&open, &digits[..planes], degree, self.prop.weight(), self.prop.max_weight)
    }

    /// Reports a solution: `boards` with every cell placed, or those of an
    /// endgame's node with the endgame's cells placed as `places` say.
    fn report(&mut self, boards: &Boards<W>, endgame: Option<(&Endgame, &[u64])>) -> ControlFlow<()> {
        self.counters.solutions += 1;
        let on_solution = match &mut self.report {
            Report::Grid(on_solution) => on_solution,
            Report::Count(on_solution) => return on_solution(),
        };
        let size = self.prop.size();
        let grid = match &mut self.levels.grid {
            Some(grid) if grid.size() == size => grid,
            kept => kept.insert(Grid::new(size, vec![1; size * size]).expect("ones make a grid")),
        };
        // Every placed cell is in exactly one value's board.
        grid.refill(|values| {
            for (v, board) in boards[..size].iter().enumerate() {
                // `for_each`, not `for`: a loop per word (see `Members::fold`).
                members(board).for_each(|cell| values[cell] = v as u8 + 1);
            }
            if let Some((endgame, places)) = endgame {
                for (v, place) in places.iter().enumerate() {
                    members(&[*place]).for_each(|number| values[endgame.cells[number]] = v as u8 + 1);
                }
            }
        });
        on_solution(grid)
    }
}

/// What a cell's open peers add to its heft in choosing the cell to
/// branch on (see [`lightest_load`]).
#[derive(Clone, Copy)]
struct Degree<'a, const W: usize> {
    /// Each cell's peers.
    peers: &'a [Bits<W>],
    /// The most peers a cell has.
    most: u32,
    /// How many open peers weigh as much as a contradiction (see
    /// [`PEERS_A_FAILURE`]).
    a_failure: u64,
}

/// The open cell with the least load, the first such. A cell's load is
/// its candidates per unit of heft: its weight, or with `degree`,
/// `degree.a_failure` times its weight and its open peers. Candidate
/// counts are `digits`, bit-sliced (bit i of a cell's count in
/// `digits[i]`), and no weight is above `max_weight`.
///
/// The cells are looked at class by class of candidate count, from the
/// fewest, and only up to the first class that could not hold a lighter
/// cell even at the largest heft. As a rule that is the class of two
/// candidates, or of two and three; where weights have grown apart, a few
/// more.
fn lightest_load<const W: usize>(
    open: &Bits<W>,
    digits: &[Bits<W>],
    degree: Option<Degree<'_, W>>,
    weight: &[u32],
    max_weight: u32,
) -> Option<usize> {
    let heft = |cell: usize| match degree {
        Some(d) => d.a_failure * u64::from(weight[cell]) + u64::from(count(&and(&d.peers[cell], open))),
        None => u64::from(weight[cell]),
    };
    let max_heft = match degree {
        Some(d) => d.a_failure * u64::from(max_weight) + u64::from(d.most),
        None => u64::from(max_weight),
    };
    let mut best: Option<(u64, u64, usize)> = None;
    let mut left = *open;
    // Cells with fewer than two candidates, whose classes are looked at
    // only if there are any (a propagated node has none).
    let few = digits.iter().skip(1).fold(*open, |few, digit| and_not(&few, digit));
    for n in if is_empty(&few) { 2 } else { 0 }..1u64 << digits.len() {
        if is_empty(&left) || best.is_some_and(|(bn, bh, _)| n * bh > bn * max_heft) {
            break;
        }
        let mut class = left;
        for (i, digit) in digits.iter().enumerate() {
            let plane = if n >> i & 1 == 1 { *digit } else { digit.map(|w| !w) };
            class = and(&class, &plane);
        }
        left = and_not(&left, &class);
        // A cell with no candidate has no load, whatever its heft.
        if n == 0 && !is_empty(&class) {
            return members(&class).next();
        }
        // The class's least load is its first heaviest cell (hefts are at
        // least 1): the largest key (heft, distance from the last cell),
        // with no branch on each cell but the loop's (`for_each` keeps one
        // a word, see `Members::fold`).
        // A heft takes at most 35 bits, and a cell 10 (the largest grid has 625).
        const CELL: u64 = (1 << 10) - 1;
        let mut key = 0u64;
        members(&class).for_each(|cell| key = key.max(heft(cell) << 10 | (CELL - cell as u64)));
        let (h, first) = (key >> 10, (CELL - (key & CELL)) as usize);
        // An equal load comes first only from an earlier cell.
        if h > 0 && best.is_none_or(|(bn, bh, cell)| n * bh < bn * h || n * bh == bn * h && first < cell) {
            best = Some((n, h, first));
        }
    }
    best.map(|(_, _, cell)| cell)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::puzzle::{Cage, Cell, Group, Op};

    /// No-op 7×7 puzzles over Latin squares, of three-cell row cages (a
    /// few left out), each target the cells' sum or product by turns:
    /// thousands of solutions, and failures on the way to them.
    fn noop_puzzles() -> Vec<Puzzle> {
        row_cage_puzzles(7, 1..=3)
    }

    /// [`noop_puzzles`] of any size, over the squares with cell (r, c)
    /// holding (k·r + c) mod `size` + 1 for each k of `ks`, each prime to
    /// `size`.
    fn row_cage_puzzles(size: usize, ks: impl Iterator<Item = usize>) -> Vec<Puzzle> {
        ks.map(|k| {
            let value = |cell: &Cell| ((k * cell.row + cell.col) % size + 1) as u64;
            let cages = (0..size)
                .flat_map(|row| (0..size - 2).step_by(3).map(move |start| (row, start)))
                .filter(|&(row, start)| (row + start + k) % size != 0)
                .map(|(row, start)| {
                    let cells: Vec<Cell> = (start..start + 3).map(|col| Cell { row, col }).collect();
                    let values = cells.iter().map(value);
                    let target: u64 = if (row + k) % 2 == 0 { values.sum() } else { values.product() };
                    Cage::new(Op::Any, target, cells).unwrap()
                })
                .collect();
            Puzzle::new(size, Vec::new(), cages).unwrap()
        })
        .collect()
    }

    /// Every solution of `puzzle`, restarting as `restarts` says and
    /// probing as `probe` says.
    fn solutions(puzzle: &Puzzle, restarts: Option<Restarts>, probe: fn(usize) -> Probe) -> (Vec<Grid>, Stats) {
        let mut grids = Vec::new();
        let stats = enumerate_with(
            puzzle,
            &[vec![]],
            restarts,
            probe,
            &mut |_, _| false,
            Report::Grid(&mut |g| {
                grids.push(g.clone());
                ControlFlow::Continue(())
            }),
        );
        (grids, stats)
    }

    #[test]
    fn restarts_find_the_same_solutions_once_each() {
        for puzzle in noop_puzzles() {
            let (plain, _) = solutions(&puzzle, None, |_| Probe::Never);
            let (restarted, stats) =
                solutions(&puzzle, Some(Restarts { first: 1, after_a_solution: true }), |_| Probe::Never);
            assert!(plain.len() > 1, "the test needs puzzles with several solutions");
            assert!(stats.failures.unwrap() > 10, "and with failures, so that it restarts");
            let set: BTreeSet<_> = restarted.iter().cloned().collect();
            assert_eq!(set.len(), restarted.len(), "a solution reported twice");
            assert_eq!(set, plain.into_iter().collect(), "restarts lost or added solutions");
        }
    }

    #[test]
    fn a_count_reports_each_solution_the_grids_report() {
        let mut total = 0;
        for puzzle in noop_puzzles().iter().chain(&pair_puzzles()) {
            let mut grids = BTreeSet::new();
            let by_grid = enumerate(puzzle, &[vec![]], &mut |grid| {
                assert!(grids.insert(grid.clone()), "a solution reported twice");
                ControlFlow::Continue(())
            });
            // Solutions counted until the `stop_at`-th, and what the search did.
            let count_to = |stop_at: usize| {
                let mut counted = 0;
                let stats = enumerate_until(
                    puzzle,
                    &[vec![]],
                    &mut |_, _| false,
                    Report::Count(&mut || {
                        counted += 1;
                        if counted < stop_at { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
                    }),
                );
                (counted, stats)
            };
            let (counted, counts) = count_to(usize::MAX);
            assert_eq!(counted, grids.len(), "{puzzle:?}");
            let same = |s: Stats| (s.solutions, s.nodes, s.failures, s.complete);
            assert_eq!(same(counts), same(by_grid), "the same tree, whatever is reported");
            // Stopped at the third, as a count up to a limit of two is.
            let (seen, stopped) = count_to(3);
            assert_eq!((seen, stopped.complete), (counted.min(3), counted < 3));
            total += counted;
        }
        assert!(total > 1000, "the puzzles should have many solutions ({total})");
    }

    #[test]
    fn puzzles_of_other_shapes_in_turn_keep_their_own_groups() {
        // The search's copies of a shape's peers and groups are kept on the
        // thread from one puzzle to the next: the 4×4 Sudoku grids (288)
        // and Latin squares (576) taking turns must each get their own.
        let boxes =
            (0..4).map(|b| Group::new((0..4).map(|i| Cell::new(b / 2 * 2 + i / 2, b % 2 * 2 + i % 2)).collect()));
        let boxed = Puzzle::new(4, boxes.collect(), Vec::new()).unwrap();
        let latin = Puzzle::new(4, Vec::new(), Vec::new()).unwrap();
        for (puzzle, count) in [(&boxed, 288), (&latin, 576), (&latin, 576), (&boxed, 288), (&latin, 576)] {
            assert_eq!(solutions(puzzle, None, |_| Probe::Never).0.len(), count);
        }
    }

    #[test]
    fn puzzles_with_other_cages_in_turn_keep_their_own() {
        // The layout's tables are kept on the thread from one puzzle to the
        // next too: no cage may outlive its puzzle, whatever the next one's
        // size, cages or givens. Each count is the Latin squares' that fit.
        let latin = |size| Puzzle::new(size, Vec::new(), Vec::new()).unwrap();
        let squares = solutions(&latin(4), None, |_| Probe::Never).0;
        let cage = |op, target: u64, cells: [(usize, usize); 2]| {
            Cage::new(op, target, cells.iter().map(|&(r, c)| Cell::new(r, c)).collect()).unwrap()
        };
        let corner = Puzzle::new(4, Vec::new(), vec![cage(Op::Add, 3, [(0, 0), (0, 1)])]).unwrap();
        let given = Cage::new(Op::Given, 4u64, vec![Cell::new(0, 0)]).unwrap();
        let other = Puzzle::new(4, Vec::new(), vec![cage(Op::Mul, 12, [(3, 2), (3, 3)]), given]).unwrap();
        let fits = |ok: &dyn Fn(&Grid) -> bool| squares.iter().filter(|g| ok(g)).count();
        let at = |g: &Grid, r, c| g[Cell::new(r, c)];
        let in_corner = fits(&|g| at(g, 0, 0) + at(g, 0, 1) == 3);
        let in_other = fits(&|g| at(g, 3, 2) * at(g, 3, 3) == 12 && at(g, 0, 0) == 4);
        assert!(in_corner > 0 && in_other > 0 && in_corner != in_other);
        let sequence = [(&corner, in_corner), (&latin(5), 161_280), (&other, in_other), (&latin(4), 576)];
        for (puzzle, count) in sequence.into_iter().chain([(&corner, in_corner)]) {
            let (grids, _) = solutions(puzzle, None, |_| Probe::Never);
            assert_eq!(grids.len(), count, "{puzzle:?}");
        }
    }

    /// The first `limit` solutions of `puzzle`, a grid of `W` words, by the
    /// search with the size fixed to `N`, and the nodes and failures on the
    /// way.
    fn first<const W: usize, const N: usize>(puzzle: &Puzzle, limit: usize) -> (Vec<Grid>, u64, u64) {
        let layout = Layout::new(puzzle);
        assert_eq!(layout.shape.words, W);
        let mut grids = Vec::new();
        let restarts = Some(Restarts { first: FIRST_RESTART, after_a_solution: false });
        let probe = Probe::for_size(layout.size);
        let counters = search::<W, N>(
            &layout,
            &[vec![]],
            restarts,
            probe,
            &mut |_, _| false,
            Report::Grid(&mut |g| {
                grids.push(g.clone());
                if grids.len() < limit { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
            }),
        );
        (grids, counters.nodes, counters.failures)
    }

    #[test]
    fn the_search_with_the_size_fixed_is_the_search() {
        // A 17-clue, one of forum_hardest's, and the empty grid.
        let seventeen = b"000000010400000000020000000000050407008000300001090000300400200050100000000806000";
        let hardest = b"98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2";
        let boxes: Vec<Group> = (0..9)
            .map(|b| Group::new((0..9).map(|i| Cell::new(b / 3 * 3 + i / 3, b % 3 * 3 + i % 3)).collect()))
            .collect();
        let sudokus = [&seventeen[..], &hardest[..], &[b'0'; 81]].map(|givens| {
            let cage = |i: usize| Cage::new(Op::Given, u64::from(givens[i] - b'0'), vec![Cell::new(i / 9, i % 9)]);
            let cages = (0..81).filter(|&i| (b'1'..=b'9').contains(&givens[i])).map(|i| cage(i).unwrap());
            Puzzle::new(9, boxes.clone(), cages.collect()).unwrap()
        });
        assert_eq!(first::<2, 9>(&sudokus[0], 2000).0.len(), 1, "a Sudoku of 17 clues has one solution");
        let puzzles = row_cage_puzzles(9, [1, 2, 4, 5].into_iter()).into_iter().chain(sudokus);
        let mut failures = 0;
        for puzzle in puzzles {
            let fixed = first::<2, 9>(&puzzle, 2000);
            assert!(!fixed.0.is_empty());
            failures += fixed.2;
            assert!(fixed == first::<2, 0>(&puzzle, 2000), "another tree with the size fixed");
        }
        assert!(failures > 100, "the puzzles should make the search fail ({failures} failures)");
    }

    /// The 9×9 Sudoku of `givens` (81 bytes, a digit or `.` a cell), built
    /// from the model's data.
    fn sudoku_of(givens: &[u8]) -> Puzzle {
        let boxes: Vec<Group> = (0..9)
            .map(|b| Group::new((0..9).map(|i| Cell::new(b / 3 * 3 + i / 3, b % 3 * 3 + i % 3)).collect()))
            .collect();
        let given = |i: usize| givens[i].is_ascii_digit();
        let cage = |i: usize| Cage::new(Op::Given, u64::from(givens[i] - b'0'), vec![Cell::new(i / 9, i % 9)]);
        Puzzle::new(9, boxes, (0..81).filter(|&i| given(i)).map(|i| cage(i).unwrap()).collect()).unwrap()
    }

    #[test]
    fn a_decision_that_fails_at_once_weighs_on_its_cell_on_a_9x9_sudoku() {
        let puzzle = sudoku_of(b"98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2");
        let layout = Layout::new(&puzzle);
        // No value fails at once at this root: a node one decision below it
        // where some open cell has values that do, and that cell, found by a
        // propagator of its own, so that its blames leave the weights below
        // alone. As the search does, hidden singles are looked for from the
        // parent's boards.
        let mut prop = Propagator::<2, 9>::new(&layout);
        let mut root = Vec::new();
        prop.root(&mut root);
        prop.run(&mut root).unwrap();
        let child_of = |prop: &mut Propagator<2, 9>, parent: &[Bits<2>], cell: usize, v: usize| {
            let mut child = parent.to_vec();
            prop.propagated(parent);
            prop.place(&mut child, cell, v);
            prop.run(&mut child).ok().map(|()| child)
        };
        let choices = |prop: &Propagator<2, 9>, boards: &[Bits<2>]| {
            members(&and_not(&prop.all, &boards[9]))
                .flat_map(|cell| {
                    let values = prop.values(boards, cell);
                    (0..9).filter(move |&v| values >> v & 1 == 1).map(move |v| (cell, v))
                })
                .collect::<Vec<_>>()
        };
        assert!(choices(&prop, &root).into_iter().all(|(cell, v)| child_of(&mut prop, &root, cell, v).is_some()));
        let (node, cell, fails) = choices(&prop, &root)
            .into_iter()
            .find_map(|(x, v)| {
                let node = child_of(&mut prop, &root, x, v)?;
                let mut fails = [0u32; 81];
                for (cell, v) in choices(&prop, &node) {
                    fails[cell] += u32::from(child_of(&mut prop, &node, cell, v).is_none());
                }
                let cell = (0..81).max_by_key(|&cell| fails[cell])?;
                (fails[cell] > 0).then_some((node, cell, fails[cell]))
            })
            .expect("some node one decision down has values that fail at once");
        prop.finish();
        // Branched on first there, the cell weighs one more for each of
        // those values; placed beneath, it is in no later contradiction.
        for blame in [true, false] {
            let (mut give_up, mut on_solution) = (|_, _| false, || ControlFlow::Continue(()));
            let mut search = Search::<2, 9>::new(&layout, None, &mut give_up, Report::Count(&mut on_solution));
            assert!(search.blame_decisions, "a 9×9 Sudoku has its decisions blamed");
            search.blame_decisions = blame;
            let mut boards = node.clone();
            search.last_conflict = Some(cell);
            assert!(search.branch(&mut boards, 0).is_continue());
            assert_eq!(search.prop.weight()[cell], 1 + if blame { fails } else { 0 });
            search.finish();
        }
    }

    #[test]
    fn naked_singles_placed_cell_by_cell_make_the_trees_of_value_by_value() {
        use propagate::{CLASHES_BY_CELL, SINGLES_VALUE_BY_VALUE};
        // forum_hardest's first three, and 9×9 and 7×7 no-op row cages:
        // many failures, many of them two singles of a value in a group.
        let hardest = [
            &b"98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2"[..],
            b"98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
            b"98.7..6..5...9..7...7..4...4...327....65...9.......3.11...8.5...2.........54...8.",
        ];
        let sudokus = hardest.map(sudoku_of);
        let search = |puzzle: &Puzzle, by_value: bool| {
            SINGLES_VALUE_BY_VALUE.set(by_value);
            let found = if puzzle.size() == 9 { first::<2, 9>(puzzle, 2000) } else { first::<1, 0>(puzzle, 2000) };
            SINGLES_VALUE_BY_VALUE.set(false);
            found
        };
        CLASHES_BY_CELL.set(0);
        let puzzles = sudokus.into_iter().chain(row_cage_puzzles(9, [1, 2, 4].into_iter())).chain(noop_puzzles());
        for puzzle in puzzles {
            let by_cell = search(&puzzle, false);
            assert!(!by_cell.0.is_empty());
            assert!(by_cell == search(&puzzle, true), "another tree cell by cell: {puzzle:?}");
        }
        assert!(CLASHES_BY_CELL.get() > 50, "singles should clash often ({})", CLASHES_BY_CELL.get());
    }

    /// A Sudoku of boxes of `rows` × `cols` cells over the square with cell
    /// (r, c) holding (cols·(r mod rows) + r div rows + c) mod size + 1,
    /// with the cells where `given(r, c)` given.
    fn pattern_sudoku(rows: usize, cols: usize, given: impl Fn(usize, usize) -> bool) -> Puzzle {
        let size = rows * cols;
        let boxes = (0..size).map(|b| {
            Group::new((0..size).map(|i| Cell::new(b / rows * rows + i / cols, b % rows * cols + i % cols)).collect())
        });
        let value = |r: usize, c: usize| ((cols * (r % rows) + r / rows + c) % size + 1) as u64;
        let cells = (0..size * size).map(|i| (i / size, i % size)).filter(|&(r, c)| given(r, c));
        let givens = cells.map(|(r, c)| Cage::new(Op::Given, value(r, c), vec![Cell::new(r, c)]).unwrap());
        Puzzle::new(size, boxes.collect(), givens.collect()).unwrap()
    }

    #[test]
    fn the_endgame_finds_the_searchs_solutions() {
        use endgame::OPEN_UP_TO;
        let first_row = (0..5).map(|c| Cage::new(Op::Given, (c + 1) as u64, vec![Cell::new(0, c)]).unwrap());
        let puzzles = [
            pattern_sudoku(2, 2, |_, _| false),
            pattern_sudoku(2, 3, |r, c| (r + 2 * c) % 5 == 0),
            pattern_sudoku(3, 3, |r, c| (r * r + 5 * c + r * c) % 5 == 0),
            Puzzle::new(5, Vec::new(), first_row.collect()).unwrap(),
        ];
        let run = |puzzle: &Puzzle, open: Option<usize>, restarts: Option<Restarts>| {
            OPEN_UP_TO.set(open);
            let found = solutions(puzzle, restarts, |_| Probe::Never);
            OPEN_UP_TO.set(None);
            found
        };
        let restarts = |first| Some(Restarts { first, after_a_solution: false });
        let (mut total, mut endgame_failures) = (0, 0);
        for puzzle in &puzzles {
            let (plain, _) = run(puzzle, Some(0), None);
            let plain: BTreeSet<_> = plain.into_iter().collect();
            for (open, restarts) in [(None, restarts(100)), (Some(64), None), (Some(64), restarts(1))] {
                let (grids, stats) = run(puzzle, open, restarts);
                let found: BTreeSet<_> = grids.iter().cloned().collect();
                assert_eq!(found.len(), grids.len(), "a solution reported twice: {puzzle:?}");
                assert!(found == plain, "the endgame lost or added solutions: {puzzle:?}");
                endgame_failures += if open.is_some() { stats.failures.unwrap() } else { 0 };
            }
            total += plain.len();
        }
        assert_eq!(run(&puzzles[0], Some(64), None).0.len(), 288, "4×4 Sudoku grids");
        assert!(total > 1000, "the puzzles should have many solutions ({total})");
        assert!(endgame_failures > 100, "and the endgame should fail often ({endgame_failures})");
    }

    #[test]
    fn the_endgame_stops_when_asked() {
        use endgame::OPEN_UP_TO;
        OPEN_UP_TO.set(Some(64));
        let latin = Puzzle::new(5, Vec::new(), Vec::new()).unwrap();
        let mut counted = 0;
        let stats = enumerate_until(
            &latin,
            &[vec![]],
            &mut |_, _| false,
            Report::Count(&mut || {
                counted += 1;
                if counted < 3 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
            }),
        );
        assert_eq!((counted, stats.solutions, stats.complete), (3, 3, false));
        let mut asked = 0;
        let mut give_up = |_, _| {
            asked += 1;
            true
        };
        let stats = enumerate_until(&latin, &[vec![]], &mut give_up, Report::Count(&mut || ControlFlow::Continue(())));
        assert_eq!((asked, stats.complete), (1, false));
        assert!(stats.solutions < 161_280, "given up before the end");
        let (grids, stats) = solutions(&latin, None, |_| Probe::Never);
        OPEN_UP_TO.set(None);
        assert_eq!((grids.len(), stats.complete), (161_280, true), "5×5 Latin squares");
    }

    /// A puzzle over the square with cell (r, c) holding (k·r + c) mod
    /// `size` + 1: the cells where r² + 3c² + rc + k is a multiple of 3
    /// given, and row triples of cells not given, one in four, made `*`
    /// cages in even rows and `+` cages in odd ones.
    fn givens_and_triples(size: usize, k: usize) -> Puzzle {
        let value = |row: usize, col: usize| ((k * row + col) % size + 1) as u64;
        let given = |row: usize, col: usize| (row * row + 3 * col * col + row * col + k) % 3 == 0;
        let cells = (0..size * size).map(|i| (i / size, i % size));
        let givens = cells.filter(|&(r, c)| given(r, c)).map(|(r, c)| (Op::Given, value(r, c), vec![Cell::new(r, c)]));
        let triples = (0..size).flat_map(|r| (0..size - 2).step_by(3).map(move |c| (r, c)));
        let triples = triples.filter(|&(r, c)| (r + c) % 4 == 0 && (c..c + 3).all(|c| !given(r, c))).map(|(r, c)| {
            let (values, cells) = ((c..c + 3).map(|c| value(r, c)), (c..c + 3).map(|c| Cell::new(r, c)).collect());
            if r % 2 == 0 { (Op::Mul, values.product(), cells) } else { (Op::Add, values.sum(), cells) }
        });
        let cages = givens.chain(triples).map(|(op, target, cells)| Cage::new(op, target, cells).unwrap());
        Puzzle::new(size, Vec::new(), cages.collect()).unwrap()
    }

    #[test]
    fn the_search_with_a_large_size_fixed_is_the_search() {
        fn compare<const W: usize, const N: usize>(k: usize) {
            let puzzle = givens_and_triples(N, k);
            let fixed = first::<W, N>(&puzzle, 20);
            assert_eq!(fixed.0.len(), 20, "{N}×{N}: the puzzle has many solutions");
            assert!(fixed.2 > 10, "{N}×{N}: the search should fail on the way ({} failures)", fixed.2);
            assert!(fixed == first::<W, 0>(&puzzle, 20), "another {N}×{N} tree with the size fixed");
        }
        compare::<3, 12>(7);
        compare::<4, 16>(1);
        compare::<7, 20>(1);
        compare::<10, 25>(1);
    }

    /// 7×7 puzzles over the squares of [`row_cage_puzzles`], each row cut
    /// into a pair, three cells and a pair: `*` pairs, `+` or `*` triples
    /// by turns; every cage `?` when k is 5 or 6.
    fn pair_puzzles() -> Vec<Puzzle> {
        (1..=6)
            .map(|k| {
                let value = |row: usize, col: usize| ((k * row + col) % 7 + 1) as u64;
                let cages = (0..7).flat_map(|row| {
                    let op = |op| if k >= 5 { Op::Any } else { op };
                    let cells = |cols: std::ops::Range<usize>| cols.map(|col| Cell { row, col }).collect();
                    let values = |cols: std::ops::Range<usize>| cols.map(move |col| value(row, col));
                    let pair = |c: usize| Cage::new(op(Op::Mul), values(c..c + 2).product::<u64>(), cells(c..c + 2));
                    let triple = if row % 2 == 0 {
                        Cage::new(op(Op::Add), values(2..5).sum::<u64>(), cells(2..5))
                    } else {
                        Cage::new(op(Op::Mul), values(2..5).product::<u64>(), cells(2..5))
                    };
                    [pair(0), triple, pair(5)].map(Result::unwrap)
                });
                Puzzle::new(7, Vec::new(), cages.collect()).unwrap()
            })
            .collect()
    }

    /// Puzzles of one pair and nothing else, of each op, a few targets and
    /// sizes 4 to 8: the pair's first revision alone prunes its cells.
    fn lone_pairs() -> Vec<Puzzle> {
        let ops = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Any];
        (4..=8)
            .flat_map(|size| ops.into_iter().flat_map(move |op| (1..=2 * size as u64).map(move |t| (size, op, t))))
            .filter_map(|(size, op, target)| {
                let cells = vec![Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }];
                Puzzle::new(size, Vec::new(), vec![Cage::new(op, target, cells).ok()?]).ok()
            })
            .collect()
    }

    /// On these puzzles the order of the revisions makes no difference to
    /// the root's fixpoint; revising the pairs first, the first time from
    /// their tables, must not lose a cage left for later.
    #[test]
    fn the_root_comes_to_the_same_fixpoint_with_its_pairs_first() {
        // The root, propagated as the root, or as if it were a node of the
        // search (every cage in one order, the pairs' first revision
        // included), each by a propagator of its own.
        let fixpoint = |layout: &Layout, as_root: bool| {
            let mut prop = Propagator::<1, 0>::new(layout);
            let mut boards = Vec::new();
            if as_root {
                prop.root(&mut boards);
            } else {
                prop.unpruned(&mut boards);
                prop.propagated(&boards);
            }
            let result = prop.run(&mut boards).map(|()| boards);
            prop.finish();
            result.ok()
        };
        let mut pruned = 0;
        for puzzle in pair_puzzles() {
            let layout = Layout::new(&puzzle);
            let root = fixpoint(&layout, true).expect("a puzzle with a solution");
            pruned += root[..7].iter().map(|board| 49 - board[0].count_ones()).sum::<u32>();
            assert_eq!(Some(root), fixpoint(&layout, false));
        }
        assert!(pruned > 100, "the roots should prune ({pruned} candidates went)");
        let mut pruned = 0;
        for puzzle in lone_pairs() {
            let layout = Layout::new(&puzzle);
            let root = fixpoint(&layout, true);
            let cells = (puzzle.size() * puzzle.size()) as u32;
            let values = puzzle.size() as u32 * cells;
            pruned += root
                .as_ref()
                .map_or(values, |r| values - r[..puzzle.size()].iter().map(|b| b[0].count_ones()).sum::<u32>());
            assert_eq!(root, fixpoint(&layout, false), "{puzzle:?}");
        }
        assert!(pruned > 1000, "the pairs should prune ({pruned} candidates went)");
    }

    /// The values that probing takes from the root of `puzzle`, a grid of
    /// one word a set of cells, as (cell, value from 1).
    fn probed(puzzle: &Puzzle) -> Vec<(usize, usize)> {
        let layout = Layout::new(puzzle);
        let (mut give_up, mut on_solution) = (|_, _| false, |_: &Grid| ControlFlow::Continue(()));
        let mut search = Search::<1, 0>::new(&layout, None, &mut give_up, Report::Grid(&mut on_solution));
        let mut root = Vec::new();
        search.prop.root(&mut root);
        search.propagate(&mut root).expect("the root holds");
        assert!(search.probe(&mut root).expect("the root holds").is_continue());
        let values = |gone: u32| (0..32).filter(move |v| gone >> v & 1 == 1).map(|v| v + 1);
        search.probed.iter().flat_map(|&(cell, gone)| values(gone).map(move |v| (cell, v))).collect()
    }

    #[test]
    fn grids_from_10_to_16_probe_at_the_first_restart_and_larger_ones_at_the_start() {
        let runs: Vec<_> = [1, 9, 10, 16, 17, 25].map(|size| Probe::for_size(size).run()).into();
        assert_eq!(runs, [None, None, Some(1), Some(1), Some(0), Some(0)]);
    }

    #[test]
    fn probing_takes_only_values_that_no_solution_holds() {
        let puzzles: Vec<Puzzle> = noop_puzzles().into_iter().chain(pair_puzzles()).collect();
        let (mut taken, mut failures, mut late_probes) = (0, 0, 0);
        for puzzle in &puzzles {
            let (plain, _) = solutions(puzzle, None, |_| Probe::Never);
            let probed = probed(puzzle);
            for &(cell, value) in &probed {
                let holds = plain.iter().find(|g| usize::from(g.values()[cell]) == value);
                assert!(holds.is_none(), "probing took {value} from cell {cell}, which a solution holds");
            }
            taken += probed.len();
            // Probed at every size, restarting at each failure and after
            // each solution: the probed values are taken again every time.
            let (probing, stats) =
                solutions(puzzle, Some(Restarts { first: 1, after_a_solution: true }), |_| Probe::AtStart);
            // Each value probing took is a failure; the rest are the search's.
            failures += stats.failures.unwrap() - probed.len() as u64;
            let set: BTreeSet<_> = probing.iter().cloned().collect();
            assert_eq!(set.len(), probing.len(), "a solution reported twice");
            assert_eq!(set, plain.iter().cloned().collect(), "probing lost or added solutions");
            // Probed at the first restart, after the first failure: the
            // abandoned path's nogoods and the probed values both hold.
            let (late, late_stats) =
                solutions(puzzle, Some(Restarts { first: 1, after_a_solution: true }), |_| Probe::AtFirstRestart);
            assert_eq!(
                late.iter().cloned().collect::<BTreeSet<_>>(),
                set,
                "probing at a restart lost or added solutions"
            );
            assert_eq!(late.len(), set.len(), "a solution reported twice after probing at a restart");
            let restarted = solutions(puzzle, Some(Restarts { first: 1, after_a_solution: true }), |_| Probe::Never).1;
            late_probes += usize::from(late_stats.nodes != restarted.nodes);
            // Cube by cube (the middle cell's value), each probed on its own.
            let middle = puzzle.size() * puzzle.size() / 2;
            let cubes: Vec<_> = (1..=puzzle.size()).map(|v| vec![(middle, v)]).collect();
            let mut cubed = BTreeSet::new();
            enumerate_with(
                puzzle,
                &cubes,
                None,
                |_| Probe::AtStart,
                &mut |_, _| false,
                Report::Grid(&mut |g| {
                    assert!(cubed.insert(g.clone()), "a solution reported twice");
                    ControlFlow::Continue(())
                }),
            );
            assert_eq!(cubed, set, "probing cube by cube lost or added solutions");
        }
        assert!(taken > 20, "probing should take values from these puzzles ({taken} taken)");
        assert!(failures > 100, "the searches should fail, and so restart ({failures} failures)");
        assert!(late_probes > 0, "probing at the first restart should change some searches");
    }

    #[test]
    fn the_last_conflict_is_branched_on_first_while_open() {
        let puzzle = &noop_puzzles()[0];
        let layout = Layout::new(puzzle);
        let (mut give_up, mut on_solution) = (|_, _| false, |_: &Grid| ControlFlow::Continue(()));
        let mut search = Search::<1, 0>::new(&layout, None, &mut give_up, Report::Grid(&mut on_solution));
        let mut root = Vec::new();
        search.prop.root(&mut root);
        search.propagate(&mut root).unwrap();
        let usual = search.most_constrained(&root).unwrap();
        let open = and_not(&search.prop.all, &root[layout.size]);
        let other = members(&open).find(|&c| c != usual).unwrap();
        search.last_conflict = Some(other);
        assert_eq!(search.most_constrained(&root), Some(other));
        let mut placed = root.clone();
        let v = search.prop.values(&root, other).trailing_zeros() as usize;
        search.prop.place(&mut placed, other, v);
        assert_ne!(search.most_constrained(&placed), Some(other), "a placed cell is not branched on");
        assert!(search.most_constrained(&placed).is_some());
    }

    /// The open cell with the fewest candidates per unit of heft (see
    /// [`lightest_load`]), the first such, found by looking at every open
    /// cell.
    fn lightest_by_scan(
        open: &Bits<2>,
        digits: &[Bits<2>; 5],
        peers: Option<(&[Bits<2>], u64)>,
        weight: &[u32],
    ) -> Option<usize> {
        let mut best: Option<(u64, u64, usize)> = None;
        for cell in members(open) {
            let w = u64::from(weight[cell]);
            let h = match peers {
                Some((peers, a_failure)) => {
                    a_failure * w + members(&peers[cell]).filter(|&peer| has(open, peer)).count() as u64
                }
                None => w,
            };
            let n = candidates(digits, cell);
            // A cell with no candidate has no load, whatever its heft.
            if n == 0 {
                return Some(cell);
            }
            if best.is_none_or(|(bn, bh, _)| n * bh < bn * h) {
                best = Some((n, h, cell));
            }
        }
        best.map(|(_, _, cell)| cell)
    }

    /// How many candidates `cell` has, as `digits` count them bit-sliced.
    fn candidates(digits: &[Bits<2>; 5], cell: usize) -> u64 {
        digits.iter().enumerate().map(|(i, d)| u64::from(has(d, cell)) << i).sum()
    }

    #[test]
    fn the_lightest_load_by_classes_is_the_full_scans() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut past_two, mut none, mut differ) = (0, 0, 0);
        for _ in 0..20_000 {
            let (mut open, mut digits, mut weight) = ([0u64; 2], [[0u64; 2]; 5], vec![0u32; 81]);
            let high = if rng.random_bool(0.5) { rng.random_range(1..=6) } else { rng.random_range(1..=1000) };
            let share = rng.random_range(0.0..0.6);
            for cell in 0..81 {
                weight[cell] = rng.random_range(1..=high);
                if rng.random_bool(share) {
                    open[cell / 64] |= 1 << (cell % 64);
                    let count: usize =
                        if rng.random_bool(0.05) { rng.random_range(0..=1) } else { rng.random_range(2..=9) };
                    for (i, digit) in digits.iter_mut().enumerate() {
                        digit[cell / 64] |= ((count >> i) as u64 & 1) << (cell % 64);
                    }
                }
            }
            // Peers as many as a 9×9 grid's, or fewer, so that open peers
            // tie often.
            let peers: Vec<Bits<2>> = (0..81)
                .map(|_| {
                    let mut set = [0u64; 2];
                    for _ in 0..rng.random_range(0..=20) {
                        let peer = rng.random_range(0..81);
                        set[peer / 64] |= 1 << (peer % 64);
                    }
                    set
                })
                .collect();
            let most_peers = peers.iter().map(|set| members(set).count() as u32).max().unwrap();
            let max_weight = weight.iter().copied().max().unwrap();
            let pick = lightest_load(&open, &digits, None, &weight, max_weight);
            assert_eq!(pick, lightest_by_scan(&open, &digits, None, &weight));
            let a_failure = PEERS_A_FAILURE[rng.random_range(0..PEERS_A_FAILURE.len())];
            let degree = Degree { peers: &peers, most: most_peers, a_failure };
            let by_peers = lightest_load(&open, &digits, Some(degree), &weight, max_weight);
            assert_eq!(by_peers, lightest_by_scan(&open, &digits, Some((&peers, a_failure)), &weight));
            differ += usize::from(by_peers != pick);
            none += usize::from(pick.is_none());
            let two = |cell| candidates(&digits, cell) == 2;
            past_two += usize::from(pick.is_some_and(|cell| !two(cell) && members(&open).any(two)));
        }
        assert!(past_two > 1000 && none > 10, "picks past the class of two: {past_two}; no open cell: {none}");
        assert!(differ > 1000, "open peers should change the pick often: {differ}");
    }
}
