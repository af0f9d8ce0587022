//! The one public solver: a [`Backend`] with its settings. Every question
//! (`first`, `count`, `uniqueness`, `solutions`) is written once, on top of
//! [`Enumerate::enumerate`], which streams solutions to a callback.

pub(crate) mod error;
mod portfolio;
mod split;

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::io;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::native::{self, Report};
use crate::puzzle::backend::Backend;
use crate::puzzle::stats::Stats;
use crate::puzzle::{Grid, Puzzle};
use crate::sat;
use error::SolveError;
use split::Split;

/// Anything that hands out every solution of a puzzle: a [`Solver`], or a
/// solver of your own that [`check::cross_check`](crate::check::cross_check)
/// should compare with cagey's.
pub trait Enumerate {
    /// Hands each solution of `puzzle` to `on_solution` as it is found, each
    /// exactly once, until there are no more or the callback returns `Break`.
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError>;
}

/// The number of solutions of a puzzle, possibly cut short by a limit,
/// from [`Solver::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// What the search did; `stats.solutions` is the count (at most the
    /// limit), and `stats.complete` says whether it is every solution.
    pub stats: Stats,
}

impl Count {
    /// Solutions found, at most the limit.
    pub fn count(&self) -> u64 {
        self.stats.solutions
    }

    /// `true` if this is every solution; `false` if there are more than the
    /// limit (the search looked one past it) or a timeout cut it short.
    pub fn is_complete(&self) -> bool {
        self.stats.complete
    }
}

impl fmt::Display for Count {
    /// `3`, or `1000+` when there are more than the limit of 1,000.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.count(), if self.is_complete() { "" } else { "+" })
    }
}

/// The first solution found, if any, from [`Solver::first`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct First {
    /// The solution, or `None` if there is none (or a timeout came first).
    pub grid: Option<Grid>,
    /// What the search did.
    pub stats: Stats,
}

/// Solutions in the order found, from [`Solver::solutions`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// The solutions, up to the limit.
    pub grids: Vec<Grid>,
    /// What the search did.
    pub stats: Stats,
}

/// Whether a puzzle is unique, from [`Solver::uniqueness`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// No, one or several solutions, with the grids that show it.
    pub uniqueness: Uniqueness,
    /// What the search did.
    pub stats: Stats,
}

impl Verdict {
    /// Whether the puzzle has exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.uniqueness.is_unique()
    }
}

/// Whether a puzzle has exactly one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// The timeout cut the search short before it could tell: the solution
    /// found, if one was.
    Unknown(Option<Grid>),
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Grid),
    /// At least two: the first two found.
    Multiple(Grid, Grid),
}

impl Uniqueness {
    /// Whether the puzzle has exactly one solution.
    pub fn is_unique(&self) -> bool {
        matches!(self, Uniqueness::Unique(_))
    }
}

/// Finds every solution of a puzzle with one backend.
///
/// ```
/// use cagey::{Backend, Puzzle, Solver, Uniqueness};
///
/// // The 4x4 Sudoku grids: 288 of them.
/// let empty = Puzzle::sudoku(4, cagey::BoxShape::default_for(4), &[0; 16]).unwrap();
/// let native = Solver::new(Backend::Native);
/// assert_eq!(native.count(&empty, None).unwrap().count(), 288);
///
/// // The SAT backend, with a tighter bound on the tuples of one cage.
/// let sat = Solver::builder().backend(Backend::Sat).tuple_limit(10_000).build();
/// assert!(matches!(sat.uniqueness(&empty).unwrap().uniqueness, Uniqueness::Multiple(..)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solver {
    backend: Backend,
    tuple_limit: usize,
    /// Bytes the SAT encoding may take.
    memory: Option<u64>,
    /// Part `.0` of `.1` (from 1), or the whole search.
    shard: Option<(u64, u64)>,
    /// How long one search may take.
    timeout: Option<Duration>,
    /// When the searches of one question must stop (set for the parts of a
    /// question split across threads).
    deadline: Option<Instant>,
    /// Every search stops once this is set.
    interrupt: Option<Shared<AtomicBool>>,
    /// Every solution found adds one to this.
    tally: Option<Shared<AtomicU64>>,
    /// Auto hands over at a failure budget instead of racing.
    reproducible: bool,
}

/// A flag or counter shared with other threads, compared by address.
#[derive(Debug, Default)]
struct Shared<T>(Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Shared<T> {}

/// Settings for a [`Solver`], from [`Solver::builder`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverBuilder(Solver);

/// A shard that is not one of `1..=count`, given to [`SolverBuilder::shard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard {index} of {count}: shards are numbered from 1 to {count}")]
pub struct InvalidShard {
    /// The shard asked for.
    pub index: u64,
    /// How many shards there are.
    pub count: u64,
}

impl SolverBuilder {
    /// The backend (default [`Backend::Auto`]).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.0.backend = backend;
        self
    }

    /// The SAT backend refuses a cage whose allowed tuples take more arcs of
    /// a decision diagram than this
    /// ([`SatError::TooManyTuples`](crate::SatError::TooManyTuples)), rather
    /// than exhaust memory. Default [`Solver::DEFAULT_TUPLE_LIMIT`].
    pub fn tuple_limit(mut self, limit: usize) -> Self {
        self.0.tuple_limit = limit;
        self
    }

    /// The SAT backend refuses a puzzle whose encoding would take more
    /// than `bytes` of memory
    /// ([`SatError::TooLarge`](crate::SatError::TooLarge)), rather than
    /// exhaust it; under [`Backend::Auto`], native then goes on alone.
    /// Default: no bound but the tuple limit.
    pub fn memory(mut self, bytes: u64) -> Self {
        self.0.memory = Some(bytes);
        self
    }

    /// Only part `index` (from 1) of `count`: the solutions whose values
    /// at a few cells fall in that part, by a fixed rule (see the README),
    /// so that `count` separate runs, one per part, hand out every solution
    /// once between them. Fails unless `1 <= index <= count`.
    pub fn shard(mut self, index: u64, count: u64) -> Result<Self, InvalidShard> {
        if !(1..=count).contains(&index) {
            return Err(InvalidShard { index, count });
        }
        self.0.shard = Some((index, count));
        Ok(self)
    }

    /// Stop each search (one call of `count`, `uniqueness`, …) after this
    /// long: it then reports what it found, incomplete, with
    /// [`Stats::timed_out`] set. With the SAT backend, a timeout costs 5-50%
    /// of its speed (varisat is interrupted through its proof output).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.0.timeout = Some(timeout);
        self
    }

    /// Stop every search at `deadline` at the latest (with a
    /// [`timeout`](Self::timeout) too, at whichever comes first): for a
    /// time limit on a whole batch.
    pub fn deadline(mut self, deadline: Instant) -> Self {
        self.0.deadline = Some(deadline);
        self
    }

    /// Stop every search once `flag` is set (by a Ctrl-C handler, say): it
    /// reports what it found, incomplete.
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        self.0.interrupt = Some(Shared(flag));
        self
    }

    /// Add one to `counter` for each solution found, as it is found, so
    /// that another thread can show how a long count goes. A count on
    /// threads takes back the solutions of the probe it starts again from.
    pub fn tally(mut self, counter: Arc<AtomicU64>) -> Self {
        self.0.tally = Some(Shared(counter));
        self
    }

    /// Make [`Backend::Auto`] answer the same way on every run: native
    /// alone until it has failed 16·N² times, then SAT alone, with native's
    /// solutions so far ruled out, instead of the two racing on two
    /// threads (where the faster side, and so the order of the solutions,
    /// depends on timing). Slower than the race where SAT would win early,
    /// and free of native's heavy tails all the same; `cagey generate
    /// --unique` uses it, so that a seed always gives the same puzzle.
    pub fn reproducible(mut self) -> Self {
        self.0.reproducible = true;
        self
    }

    /// The solver.
    pub fn build(self) -> Solver {
        self.0
    }
}

/// The most solutions a [reproducible](SolverBuilder::reproducible) auto
/// search hands over to SAT, ruled out one clause each.
const HAND_OVER_SOLUTIONS: usize = 10_000;

impl Default for Solver {
    fn default() -> Self {
        Solver::new(Backend::default())
    }
}

impl Solver {
    /// Solutions a count on threads finds whole before it splits the search
    /// ([`count_on_threads`](Self::count_on_threads)).
    pub(crate) const SPLIT_AFTER: u64 = 10_000;

    /// Other solutions [`suggest`](Self::suggest) looks at a time.
    pub(crate) const SUGGEST_SAMPLE: u64 = 5_000;

    /// The default most arcs of one cage's diagram in the SAT encoding: far
    /// above any ordinary puzzle's, far below what would exhaust memory.
    pub const DEFAULT_TUPLE_LIMIT: usize = sat::DEFAULT_TUPLE_LIMIT;

    /// `backend` with default settings.
    pub const fn new(backend: Backend) -> Self {
        Solver {
            backend,
            tuple_limit: Self::DEFAULT_TUPLE_LIMIT,
            memory: None,
            shard: None,
            timeout: None,
            deadline: None,
            interrupt: None,
            tally: None,
            reproducible: false,
        }
    }

    /// Settings beyond the backend, starting from the defaults.
    pub fn builder() -> SolverBuilder {
        SolverBuilder(Solver::default())
    }

    /// The backend this solver runs.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The first solution found, if any.
    pub fn first(&self, puzzle: &Puzzle) -> Result<First, SolveError> {
        first(self, puzzle)
    }

    /// Counts solutions, stopping at `limit` if one is given (it looks for
    /// one more, so that a count that ends at the limit is complete). Stores
    /// none.
    pub fn count(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<Count, SolveError> {
        count(limit, |on_solution| self.run(puzzle, &self.cubes(puzzle), Report::Count(on_solution)))
    }

    /// [`count`](Self::count) on `threads` threads. A count that reaches
    /// 10,000 solutions is started again with the search split into
    /// cubes by the values of a few cells (the rule of
    /// [`SolverBuilder::shard`]), which the threads take in turn; a smaller
    /// one is left whole, as splitting it would mostly repeat the work of
    /// proving cubes empty.
    pub fn count_on_threads(&self, puzzle: &Puzzle, limit: Option<u64>, threads: usize) -> Result<Count, SolveError> {
        if threads <= 1 {
            return self.count(puzzle, limit);
        }
        // One deadline for the probe and every part.
        let solver = &self.until_deadline();
        let probe = limit.unwrap_or(u64::MAX).min(Self::SPLIT_AFTER);
        let tallied = || self.tally.as_ref().map_or(0, |tally| tally.0.load(Ordering::Relaxed));
        let before = tallied();
        let count = solver.count(puzzle, Some(probe))?;
        if count.is_complete() || count.stats.timed_out || limit.is_some_and(|l| l <= probe) {
            return Ok(count);
        }
        if let Some(tally) = &self.tally {
            tally.0.fetch_sub(tallied() - before, Ordering::Relaxed);
        }
        let cubes = match self.shard {
            Some((index, count)) => Split::new(puzzle, count).cubes(Some(index)),
            // A few hundred cubes a thread: enough to even the threads out,
            // few enough that restarting the search in each costs little.
            None => Split::with_cubes(puzzle, 1, 256 * threads as u64).cubes(None),
        };
        // Chunks of cubes: a few dozen a thread, each one call of a backend.
        let chunk = cubes.len().div_ceil(threads * 32).max(1);
        let (next, found) = (AtomicUsize::new(0), AtomicU64::new(0));
        // One past the limit, as `count` does.
        let limit = limit.unwrap_or(u64::MAX);
        let look = limit.saturating_add(1);
        let work = || -> Result<Stats, SolveError> {
            let mut total = Stats { complete: true, ..Stats::default() };
            loop {
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= cubes.len() || found.load(Ordering::Relaxed) >= look {
                    total.complete &= start >= cubes.len();
                    return Ok(total);
                }
                let stats = solver.run(
                    puzzle,
                    &cubes[start..(start + chunk).min(cubes.len())],
                    Report::Count(&mut || {
                        let n = found.fetch_add(1, Ordering::Relaxed) + 1;
                        if n >= look { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                    }),
                )?;
                total = sum(total, &stats);
            }
        };
        let results: Vec<Result<Stats, SolveError>> = thread::scope(|scope| {
            (0..threads)
                .map(|_| scope.spawn(work))
                .collect::<Vec<_>>()
                .into_iter()
                .map(|t| t.join().expect("a counting thread does not panic"))
                .collect()
        });
        let mut stats = Stats { complete: true, ..Stats::default() };
        for result in results {
            stats = sum(stats, &result?);
        }
        let found = found.load(Ordering::Relaxed);
        let count = found.min(limit);
        stats.solutions = count;
        stats.complete &= found <= limit;
        Ok(Count { stats })
    }

    /// Whether the puzzle has no, one or several solutions; stops at the
    /// second.
    pub fn uniqueness(&self, puzzle: &Puzzle) -> Result<Verdict, SolveError> {
        uniqueness(self, puzzle)
    }

    /// Up to `limit` solutions (all of them with `None`), in the order found.
    pub fn solutions(&self, puzzle: &Puzzle, limit: Option<u64>) -> Result<Solutions, SolveError> {
        solutions(self, puzzle, limit)
    }

    /// The SAT backend's encoding of `puzzle`, to write as DIMACS CNF for
    /// another SAT solver (whatever this solver's backend; its tuple limit
    /// applies).
    pub fn cnf(&self, puzzle: &Puzzle) -> Result<Cnf, SolveError> {
        Ok(Cnf(sat::encode(puzzle, self.bounds())?))
    }
}

impl Enumerate for Solver {
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        self.run(puzzle, &self.cubes(puzzle), Report::Grid(on_solution))
    }
}

impl Solver {
    /// The cubes this solver searches: its shard's, or the whole space
    /// (borrowed, so that a batch of small puzzles allocates nothing here).
    fn cubes(&self, puzzle: &Puzzle) -> Cow<'static, [Vec<(usize, usize)>]> {
        const WHOLE: &[Vec<(usize, usize)>] = &[Vec::new()];
        match self.shard {
            Some((index, count)) => Cow::Owned(Split::new(puzzle, count).cubes(Some(index))),
            None => Cow::Borrowed(WHOLE),
        }
    }

    /// How large the SAT encoding may grow.
    pub(crate) fn bounds(&self) -> sat::Bounds {
        sat::Bounds { tuples: self.tuple_limit, memory: self.memory }
    }

    /// This solver with its timeout turned into a deadline from now, for
    /// work made of several searches.
    pub(crate) fn until_deadline(&self) -> Solver {
        Solver { deadline: self.deadline(), timeout: None, ..self.clone() }
    }

    /// Whether the solver's interrupt flag is raised.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|flag| flag.0.load(Ordering::Relaxed))
    }

    /// When a search that starts now must stop.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        let timeout = self.timeout.map(|timeout| Instant::now() + timeout);
        match (self.deadline, timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The backend on the solutions in `cubes`, until the deadline, each
    /// reported as `report` says (only native builds no grid for a count).
    pub(crate) fn run(
        &self,
        puzzle: &Puzzle,
        cubes: &[Vec<(usize, usize)>],
        mut report: Report<'_>,
    ) -> Result<Stats, SolveError> {
        let deadline = self.deadline();
        let interrupted = || self.interrupted();
        let past = || deadline.is_some_and(|d| Instant::now() >= d);
        let stop_now = || interrupted() || past();
        // Stopped before it starts: no engine could tell it in time.
        if stop_now() {
            return Ok(Stats { timed_out: past(), ..Stats::default() });
        }
        // Each solution is tallied; native's also stop the search past the
        // deadline (SAT and the portfolio stop on their own), and only
        // native counts without building grids.
        let tally = || {
            if let Some(tally) = &self.tally {
                tally.0.fetch_add(1, Ordering::Relaxed);
            }
        };
        let hand_out = &mut |grid: &Grid| {
            tally();
            report.solution(grid)
        };
        let stats = match self.backend {
            Backend::Native => {
                let go_on = || if stop_now() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
                let give_up = &mut |_, _| stop_now();
                match report {
                    Report::Grid(on_solution) => native::enumerate_until(
                        puzzle,
                        cubes,
                        give_up,
                        Report::Grid(&mut |grid| {
                            go_on()?;
                            tally();
                            on_solution(grid)
                        }),
                    ),
                    Report::Count(on_solution) => native::enumerate_until(
                        puzzle,
                        cubes,
                        give_up,
                        Report::Count(&mut || {
                            go_on()?;
                            tally();
                            on_solution()
                        }),
                    ),
                }
            }
            Backend::Sat => self.sat(puzzle, &[], cubes, deadline, &stop_now, hand_out)?,
            Backend::Auto if self.reproducible => self.hand_over(puzzle, cubes, deadline, &stop_now, hand_out)?,
            Backend::Auto => {
                let interrupt = self.interrupt.as_ref().map(|flag| &*flag.0);
                portfolio::enumerate(puzzle, self.bounds(), cubes, deadline, interrupt, hand_out)?
            }
        };
        let answered_by = stats.answered_by.or(Some(self.backend));
        Ok(Stats { answered_by, timed_out: !stats.complete && past(), ..stats })
    }

    /// The SAT backend on the solutions in `cubes` but `blocked`, until the
    /// deadline or `stop_now()`.
    fn sat(
        &self,
        puzzle: &Puzzle,
        blocked: &[Grid],
        cubes: &[Vec<(usize, usize)>],
        deadline: Option<Instant>,
        stop_now: &(dyn Fn() -> bool + Sync),
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        // Ctrl-C alone stops SAT between calls, through its flag and
        // sparing SAT the cost of stopping inside them; a deadline must
        // hold inside a call too, so a watchdog sets a flag of its own.
        let Some(deadline) = deadline else {
            let stop = self.interrupt.as_ref().map(|flag| sat::Stop { flag: &flag.0, within_calls: false });
            return Ok(sat::enumerate(puzzle, self.bounds(), blocked, cubes, stop, on_solution)?);
        };
        let stop = AtomicBool::new(false);
        thread::scope(|scope| {
            // Sets `stop` at the deadline or Ctrl-C, unless the search ends
            // first and drops `done`.
            let (done, wait) = mpsc::channel::<()>();
            let flag = &stop;
            scope.spawn(move || {
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match wait.recv_timeout(left.min(Duration::from_millis(20))) {
                        Err(RecvTimeoutError::Timeout) if stop_now() => break flag.store(true, Ordering::Relaxed),
                        Err(RecvTimeoutError::Timeout) => continue,
                        _ => break,
                    }
                }
            });
            let stop = sat::Stop { flag: &stop, within_calls: true };
            let stats = sat::enumerate(puzzle, self.bounds(), blocked, cubes, Some(stop), on_solution);
            drop(done);
            Ok(stats?)
        })
    }

    /// Auto made [reproducible](SolverBuilder::reproducible): native until
    /// its failures reach the budget, then SAT with native's solutions
    /// ruled out. Past [`HAND_OVER_SOLUTIONS`] solutions native goes on
    /// alone, so that the ones to rule out stay few.
    fn hand_over(
        &self,
        puzzle: &Puzzle,
        cubes: &[Vec<(usize, usize)>],
        deadline: Option<Instant>,
        stop_now: &(dyn Fn() -> bool + Sync),
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Stats, SolveError> {
        let budget = 16 * (puzzle.size() * puzzle.size()) as u64;
        let handed = std::cell::RefCell::new(Vec::new());
        let mut consumer_stopped = false;
        let native = native::enumerate_until(
            puzzle,
            cubes,
            &mut |failures, _| stop_now() || (failures >= budget && handed.borrow().len() <= HAND_OVER_SOLUTIONS),
            Report::Grid(&mut |grid| {
                if stop_now() {
                    return ControlFlow::Break(());
                }
                // Past the most to hand over no hand-over comes: stop
                // remembering, so that memory stays flat.
                let mut handed = handed.borrow_mut();
                if handed.len() <= HAND_OVER_SOLUTIONS {
                    handed.push(grid.clone());
                }
                drop(handed);
                let flow = on_solution(grid);
                consumer_stopped = flow.is_break();
                flow
            }),
        );
        if native.complete || consumer_stopped || stop_now() {
            return Ok(Stats { answered_by: Some(Backend::Native), ..native });
        }
        let handed = handed.into_inner();
        match self.sat(puzzle, &handed, cubes, deadline, stop_now, on_solution) {
            Ok(sat) => {
                let solutions = native.solutions + sat.solutions;
                Ok(Stats {
                    solutions,
                    nodes: native.nodes,
                    failures: native.failures,
                    answered_by: Some(Backend::Sat),
                    ..sat
                })
            }
            // SAT refused the puzzle (before any solution): native again,
            // to the end, handing out only what it had not.
            Err(_) => {
                let handed: HashSet<Grid> = handed.into_iter().collect();
                let mut solutions = native.solutions;
                let mut hand_out = |grid: &Grid| {
                    if stop_now() {
                        return ControlFlow::Break(());
                    }
                    if handed.contains(grid) {
                        return ControlFlow::Continue(());
                    }
                    solutions += 1;
                    on_solution(grid)
                };
                let native =
                    native::enumerate_until(puzzle, cubes, &mut |_, _| stop_now(), Report::Grid(&mut hand_out));
                Ok(Stats { solutions, answered_by: Some(Backend::Native), ..native })
            }
        }
    }
}

/// What two parts of one search did together: counters added, sizes of
/// the encoding the larger, complete if both were, and the backend that
/// answered if the same.
fn sum(a: Stats, b: &Stats) -> Stats {
    let add = |x: Option<u64>, y: Option<u64>| {
        if x.is_none() && y.is_none() { None } else { Some(x.unwrap_or(0) + y.unwrap_or(0)) }
    };
    Stats {
        solutions: a.solutions + b.solutions,
        complete: a.complete && b.complete,
        nodes: add(a.nodes, b.nodes),
        failures: add(a.failures, b.failures),
        variables: a.variables.max(b.variables),
        clauses: a.clauses.max(b.clauses),
        sat_calls: add(a.sat_calls, b.sat_calls),
        timed_out: a.timed_out || b.timed_out,
        // A part stopped before it started was answered by no engine.
        answered_by: match (a.answered_by, b.answered_by) {
            (None, by) | (by, None) => by,
            (Some(x), Some(y)) if x == y => Some(x),
            _ => Some(Backend::Auto),
        },
    }
}

/// A puzzle as CNF, from [`Solver::cnf`].
pub struct Cnf(sat::Encoding);

impl Cnf {
    /// Writes DIMACS CNF, with comment lines that give the variable
    /// numbering (variable `(r·N + c)·N + v` is true when row `r`, column `c`,
    /// both from 0, holds `v`), plus a clause ruling out each grid of
    /// `blocked`: the formula is then satisfiable exactly when the puzzle has
    /// a solution besides those.
    pub fn write_dimacs(&self, out: &mut dyn io::Write, blocked: &[Grid]) -> io::Result<()> {
        sat::dimacs::write(out, &self.0, blocked)
    }
}

/// The first solution `solver` finds, if any.
pub(crate) fn first(solver: &dyn Enumerate, puzzle: &Puzzle) -> Result<First, SolveError> {
    let mut grid = None;
    let stats = solver.enumerate(puzzle, &mut |found| {
        grid = Some(found.clone());
        ControlFlow::Break(())
    })?;
    Ok(First { grid, stats })
}

/// Counts the solutions `enumerate` reports to the callback it is given,
/// up to `limit`.
pub(crate) fn count(
    limit: Option<u64>,
    enumerate: impl FnOnce(&mut dyn FnMut() -> ControlFlow<()>) -> Result<Stats, SolveError>,
) -> Result<Count, SolveError> {
    if limit == Some(0) {
        return Ok(Count { stats: Stats::default() });
    }
    // One past the limit: a count that ends at the limit is then exact.
    let look = limit.map(|l| l.saturating_add(1));
    let mut found = 0u64;
    let stats = enumerate(&mut || {
        found += 1;
        if look.is_some_and(|l| found >= l) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    let count = limit.map_or(found, |l| found.min(l));
    Ok(Count { stats: Stats { solutions: count, ..stats } })
}

/// None, one or the first two solutions `solver` finds.
pub(crate) fn uniqueness(solver: &dyn Enumerate, puzzle: &Puzzle) -> Result<Verdict, SolveError> {
    let Solutions { grids, stats } = solutions(solver, puzzle, Some(2))?;
    let mut found = grids.into_iter();
    let verdict = match (found.next(), found.next()) {
        (one, None) if stats.timed_out => Uniqueness::Unknown(one),
        (None, _) => Uniqueness::None,
        (Some(one), None) => Uniqueness::Unique(one),
        (Some(one), Some(two)) => Uniqueness::Multiple(one, two),
    };
    Ok(Verdict { uniqueness: verdict, stats })
}

/// Up to `limit` of the solutions `solver` finds.
pub(crate) fn solutions(solver: &dyn Enumerate, puzzle: &Puzzle, limit: Option<u64>) -> Result<Solutions, SolveError> {
    let mut grids = Vec::new();
    if limit == Some(0) {
        return Ok(Solutions { grids, stats: Stats::default() });
    }
    let stats = solver.enumerate(puzzle, &mut |grid| {
        grids.push(grid.clone());
        if limit.is_some_and(|l| grids.len() as u64 >= l) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    Ok(Solutions { grids, stats })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_answered_by_one_engine_or_none_are_answered_by_it() {
        let by = |answered_by| Stats { answered_by, ..Stats::default() };
        let native = by(Some(Backend::Native));
        assert_eq!(sum(native, &by(None)).answered_by, Some(Backend::Native), "a part stopped before it started");
        assert_eq!(sum(by(None), &native).answered_by, Some(Backend::Native));
        assert_eq!(sum(native, &native).answered_by, Some(Backend::Native));
        assert_eq!(sum(native, &by(Some(Backend::Sat))).answered_by, Some(Backend::Auto), "both engines");
    }
}
