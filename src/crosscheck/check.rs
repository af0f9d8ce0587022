//! The cross-check: run several solvers on one puzzle and compare what they
//! return, solution by solution, with every grid verified by the checker.

use std::any::Any;
use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::puzzle::stats::Stats;
use crate::puzzle::verify::{Violation, verify};
use crate::puzzle::{Cage, Grid, Op, Puzzle};
use crate::solver::Enumerate;
use crate::solver::error::SolveError;
use itertools::{Itertools, iproduct};
use sha2::{Digest, Sha256};

/// An order-independent digest of a set of grids, kept in constant memory
/// however many there are: the count, and the sums, mod 2^128, of a 128-bit
/// hash of each grid (the first half of its SHA-256) and of that hash
/// squared. Two sets of equal counts and equal sums differ only by a
/// collision of these sums; the squares catch a grid returned twice in
/// place of a missing one, which keeps the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SetDigest {
    /// Grids added.
    pub count: u64,
    /// The sum of their hashes, mod 2^128.
    pub sum: u128,
    /// The sum of their hashes squared, mod 2^128.
    pub squares: u128,
}

impl SetDigest {
    /// Adds one grid.
    pub fn add(&mut self, grid: &Grid) {
        let mut bytes = Vec::with_capacity(grid.values().len() + 1);
        bytes.push(grid.size() as u8);
        bytes.extend_from_slice(grid.values());
        let hash = Sha256::digest(&bytes);
        let h = u128::from_le_bytes(hash[..16].try_into().expect("SHA-256 has 32 bytes"));
        self.count += 1;
        // Sums mod 2^128 by design: the digest is a sum in that ring.
        self.sum = self.sum.wrapping_add(h);
        self.squares = self.squares.wrapping_add(h.wrapping_mul(h));
    }
}

/// `COUNT:SUM:SQUARES`, the sums in hexadecimal.
impl fmt::Display for SetDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{:032x}:{:032x}", self.count, self.sum, self.squares)
    }
}

/// What one solver returned.
#[derive(Clone, Debug)]
pub struct Run {
    /// The solver's name.
    pub name: String,
    /// Solutions returned (at most the limit).
    pub count: u64,
    /// Whether the solver ran to the end rather than to the limit.
    pub complete: bool,
    /// The digest of every solution returned.
    pub digest: SetDigest,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The solver's statistics.
    pub stats: Stats,
}

/// The first thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// A solver returned a grid that does not satisfy the puzzle.
    Invalid {
        /// The solver's name.
        solver: String,
        /// The grid.
        grid: Grid,
        /// What the checker found wrong.
        violation: Violation,
    },
    /// A solver returned the same grid twice.
    Repeated {
        /// The solver's name.
        solver: String,
        /// The grid.
        grid: Grid,
    },
    /// One solver found a solution another, which ran to the end, did not.
    Missing {
        /// The solver that found it.
        found_by: String,
        /// The solver that did not.
        missed_by: String,
        /// The solution.
        grid: Grid,
    },
    /// The counts differ.
    Counts {
        /// Each solver's name, count and whether it ran to the end.
        counts: Vec<(String, u64, bool)>,
    },
    /// Solvers that ran to the end returned as many solutions, too many to
    /// store, but different sets: their digests differ.
    Digests {
        /// Each solver's name and digest.
        digests: Vec<(String, SetDigest)>,
    },
    /// A solver panicked: a bug in it, caught so that the puzzle can be
    /// shrunk and saved like any other disagreement.
    Panicked {
        /// The solver's name.
        solver: String,
        /// The panic's message.
        message: String,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disagreement::Invalid { solver, grid, violation } => {
                write!(f, "{solver} returned a grid that breaks the puzzle ({violation}):\n{grid}")
            }
            Disagreement::Repeated { solver, grid } => write!(f, "{solver} returned this grid twice:\n{grid}"),
            Disagreement::Missing { found_by, missed_by, grid } => {
                write!(f, "{found_by} found this solution and {missed_by} did not:\n{grid}")
            }
            Disagreement::Counts { counts } => {
                let parts = counts
                    .iter()
                    .map(|(name, count, complete)| format!("{name} {count}{}", if *complete { "" } else { "+" }));
                write!(f, "the counts differ: {}", parts.format(", "))
            }
            Disagreement::Digests { digests } => {
                let parts = digests.iter().map(|(name, digest)| format!("{name} {digest}"));
                write!(f, "as many solutions, but different sets (digests {})", parts.format(", "))
            }
            Disagreement::Panicked { solver, message } => write!(f, "{solver} panicked: {message}"),
        }
    }
}

/// The outcome of a cross-check.
#[derive(Clone, Debug)]
pub struct Report {
    /// One run per solver, in the order given.
    pub runs: Vec<Run>,
    /// `None` when every solver returned the same valid solutions.
    pub disagreement: Option<Disagreement>,
}

impl Report {
    /// Whether every solver agreed.
    pub fn agree(&self) -> bool {
        self.disagreement.is_none()
    }
}

/// How far a cross-check goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop each solver after this many solutions (`None`: run to the end).
    /// Sets cut short cannot be compared; their counts are.
    pub stop: Option<u64>,
    /// Keep at most this many grids of each solver in memory, to compare
    /// the sets grid by grid and name a missing grid or a repeat. Past it,
    /// sets are compared by count and [`SetDigest`], in constant memory.
    pub store: usize,
}

impl Limits {
    /// Stop at `stop` solutions (if any), and store up to 10,000 grids.
    pub fn new(stop: Option<u64>) -> Self {
        Limits { stop, store: 10_000 }
    }
}

/// Runs each named solver on `puzzle` and compares: every grid must pass
/// [`verify`], none may repeat (among those stored), and the solution sets
/// must be equal: grid by grid while they fit in `limits.store`, by count
/// and digest past it. Where `limits.stop` cut a run short, the sets
/// cannot be compared and the counts (all at the limit) are. A solver
/// that panics is a [`Disagreement::Panicked`], its run incomplete.
///
/// ```
/// use cagey::check::{Limits, cross_check};
/// use cagey::{Backend, Enumerate, Puzzle, Solver};
///
/// let latin = Puzzle::new(4, vec![], vec![]).unwrap();
/// let [native, sat] = Backend::ENGINES.map(Solver::new);
/// let solvers: [(&str, &dyn Enumerate); 2] = [("native", &native), ("sat", &sat)];
/// let report = cross_check(&latin, &solvers, Limits::new(None)).unwrap();
/// assert!(report.agree());
/// assert_eq!(report.runs[1].count, 576);
/// ```
pub fn cross_check(puzzle: &Puzzle, solvers: &[(&str, &dyn Enumerate)], limits: Limits) -> Result<Report, SolveError> {
    let mut runs = Vec::new();
    let mut sets: Vec<HashSet<Grid>> = Vec::new();
    let mut disagreement = None;
    for &(name, solver) in solvers {
        let mut set = HashSet::new();
        let mut digest = SetDigest::default();
        let mut problem = None;
        let started = Instant::now();
        let enumerated = panic::catch_unwind(AssertUnwindSafe(|| {
            solver.enumerate(puzzle, &mut |grid| {
                if let Err(violation) = verify(puzzle, grid) {
                    problem = Some(Disagreement::Invalid { solver: name.to_string(), grid: grid.clone(), violation });
                    return ControlFlow::Break(());
                }
                if set.len() < limits.store && !set.insert(grid.clone()) {
                    problem = Some(Disagreement::Repeated { solver: name.to_string(), grid: grid.clone() });
                    return ControlFlow::Break(());
                }
                digest.add(grid);
                if limits.stop.is_some_and(|l| digest.count >= l) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
        }));
        let stats = match enumerated {
            Ok(stats) => stats?,
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                problem = problem.or(Some(Disagreement::Panicked { solver: name.to_string(), message }));
                Stats::default()
            }
        };
        let elapsed = started.elapsed();
        disagreement = disagreement.or(problem);
        let (count, complete) = (digest.count, stats.complete);
        runs.push(Run { name: name.to_string(), count, complete, digest, elapsed, stats });
        sets.push(set);
    }
    if disagreement.is_none() {
        disagreement = compare(&runs, &sets);
    }
    Ok(Report { runs, disagreement })
}

/// The text a panic was raised with, if any.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => (*text).to_string(),
        (_, Some(text)) => text.clone(),
        _ => "(no message)".to_string(),
    }
}

fn compare(runs: &[Run], sets: &[HashSet<Grid>]) -> Option<Disagreement> {
    let complete = runs.iter().all(|r| r.complete);
    let all_stored = runs.iter().zip(sets).all(|(r, s)| r.count == s.len() as u64);
    if complete && all_stored {
        for ((found, a), (missed, b)) in iproduct!(runs.iter().zip(sets), runs.iter().zip(sets)) {
            if let Some(grid) = a.difference(b).min() {
                let (found_by, missed_by) = (found.name.clone(), missed.name.clone());
                return Some(Disagreement::Missing { found_by, missed_by, grid: grid.clone() });
            }
        }
        return None;
    }
    if runs.iter().any(|r| r.count != runs[0].count) {
        return Some(Disagreement::Counts {
            counts: runs.iter().map(|r| (r.name.clone(), r.count, r.complete)).collect(),
        });
    }
    let same_sets = runs.iter().all(|r| r.digest == runs[0].digest);
    (complete && !same_sets)
        .then(|| Disagreement::Digests { digests: runs.iter().map(|r| (r.name.clone(), r.digest)).collect() })
}

/// Makes a puzzle on which the solvers disagree smaller while they still
/// disagree: drops cages (clues, for a Sudoku) one at a time, then merges
/// neighbouring `+` or `*` cages (their targets added or multiplied, so a
/// solution of both stays a solution). Returns the smallest puzzle found.
pub fn shrink(puzzle: &Puzzle, solvers: &[(&str, &dyn Enumerate)], limits: Limits) -> Result<Puzzle, SolveError> {
    let disagrees = |p: &Puzzle| cross_check(p, solvers, limits).map(|r| !r.agree());
    let mut current = puzzle.clone();
    'smaller: loop {
        let cages = current.cages();
        let mut candidates: Vec<Vec<Cage>> = (0..cages.len())
            .map(|i| cages.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c.clone()).collect())
            .collect();
        for (i, j) in (0..cages.len()).tuple_combinations() {
            if let Some(merged) = merge(&cages[i], &cages[j]) {
                let mut next: Vec<Cage> =
                    cages.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, c)| c.clone()).collect();
                next.push(merged);
                candidates.push(next);
            }
        }
        for cages in candidates {
            let Ok(next) = Puzzle::new(current.size(), current.extra_groups().to_vec(), cages) else { continue };
            if disagrees(&next)? {
                current = next;
                continue 'smaller;
            }
        }
        return Ok(current);
    }
}

/// Two touching cages of the same op `+` or `*` as one.
fn merge(a: &Cage, b: &Cage) -> Option<Cage> {
    let touching =
        a.cells().iter().any(|x| b.cells().iter().any(|y| x.row.abs_diff(y.row) + x.col.abs_diff(y.col) == 1));
    let (x, y): (u64, u64) = (a.target().digits().parse().ok()?, b.target().digits().parse().ok()?);
    let target = match (a.op(), b.op()) {
        (Op::Add, Op::Add) => x.checked_add(y)?,
        (Op::Mul, Op::Mul) => x.checked_mul(y)?,
        _ => return None,
    };
    let cells = a.cells().iter().chain(b.cells()).copied().collect();
    touching.then(|| Cage::new(a.op(), target, cells).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::backend::Backend;
    use crate::solver::Solver;

    const NATIVE: Solver = Solver::new(Backend::Native);
    const SAT: Solver = Solver::new(Backend::Sat);

    /// A solver that drops its `skip`-th solution.
    struct Dropping(usize);

    impl Enumerate for Dropping {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            let mut seen = 0;
            NATIVE.enumerate(puzzle, &mut |grid| {
                seen += 1;
                if seen == self.0 { ControlFlow::Continue(()) } else { on_solution(grid) }
            })
        }
    }

    /// A solver that returns every solution twice, or a broken grid.
    struct Faulty {
        repeat: bool,
    }

    impl Enumerate for Faulty {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            NATIVE.enumerate(puzzle, &mut |grid| {
                if self.repeat {
                    on_solution(grid)?;
                    on_solution(grid)
                } else {
                    let n = grid.size();
                    let mut values = grid.values().to_vec();
                    values.swap(0, 1);
                    on_solution(&Grid::new(n, values).unwrap())
                }
            })
        }
    }

    /// A solver that returns its `twice`-th solution again in place of its
    /// `skip`-th: the count stays right, the set does not.
    struct Trading {
        skip: usize,
        twice: usize,
    }

    impl Enumerate for Trading {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            let mut seen = 0;
            let mut kept = None;
            let stats = NATIVE.enumerate(puzzle, &mut |grid| {
                seen += 1;
                if seen == self.twice {
                    kept = Some(grid.clone());
                }
                if seen == self.skip { ControlFlow::Continue(()) } else { on_solution(grid) }
            })?;
            let _ = on_solution(&kept.expect("enough solutions"));
            Ok(stats)
        }
    }

    /// A solver that panics on a puzzle with a `*` cage, after its first
    /// solution.
    struct Panicking;

    impl Enumerate for Panicking {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> Result<Stats, SolveError> {
            let mut seen = 0;
            NATIVE.enumerate(puzzle, &mut |grid| {
                seen += 1;
                if seen == 2 && puzzle.cages().iter().any(|cage| cage.op() == Op::Mul) {
                    panic!("a {} cage", "*");
                }
                on_solution(grid)
            })
        }
    }

    #[test]
    fn a_panic_is_caught_reported_and_shrunk() {
        let cell = |row, col| crate::puzzle::Cell { row, col };
        let cages = vec![
            Cage::new(Op::Add, 3u64, vec![cell(0, 0), cell(0, 1)]).unwrap(),
            Cage::new(Op::Mul, 12u64, vec![cell(1, 0), cell(1, 1)]).unwrap(),
            Cage::new(Op::Sub, 1u64, vec![cell(2, 2), cell(3, 2)]).unwrap(),
        ];
        let puzzle = Puzzle::new(4, vec![], cages).unwrap();
        let solvers: [(&str, &dyn Enumerate); 2] = [("broken", &Panicking), ("native", &NATIVE)];
        let report = cross_check(&puzzle, &solvers, Limits::new(None)).unwrap();
        let Some(Disagreement::Panicked { solver, message }) = &report.disagreement else {
            panic!("{:?}", report.disagreement);
        };
        assert_eq!((solver.as_str(), message.as_str()), ("broken", "a * cage"));
        assert_eq!(report.disagreement.as_ref().unwrap().to_string(), "broken panicked: a * cage");
        // The solver cut short, and the others still run.
        assert_eq!(report.runs.len(), 2);
        assert_eq!((report.runs[0].count, report.runs[0].complete), (1, false));
        assert!(report.runs[1].complete && report.runs[1].count > 2);
        // Shrunk to the cage that makes it panic.
        let small = shrink(&puzzle, &solvers, Limits::new(None)).unwrap();
        assert_eq!(small.cages().iter().map(Cage::op).collect::<Vec<_>>(), [Op::Mul]);
    }

    #[test]
    fn past_the_store_sets_are_compared_by_digest() {
        let solvers: [(&str, &dyn Enumerate); 2] =
            [("native", &NATIVE), ("trading", &Trading { skip: 300, twice: 20 })];
        // All 576 stored: the repeat is caught grid by grid.
        let report = cross_check(&latin(4), &solvers, Limits::new(None)).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Repeated { .. })), "{:?}", report.disagreement);
        // Only 10 stored: same counts, different digests.
        let report = cross_check(&latin(4), &solvers, Limits { stop: None, store: 10 }).unwrap();
        assert_eq!(report.runs[0].count, report.runs[1].count);
        assert!(matches!(report.disagreement, Some(Disagreement::Digests { .. })), "{:?}", report.disagreement);
        // The same set in another order has the same digest.
        let mut forward = SetDigest::default();
        let mut backward = SetDigest::default();
        let grids = NATIVE.solutions(&latin(3), None).unwrap().grids;
        grids.iter().for_each(|g| forward.add(g));
        grids.iter().rev().for_each(|g| backward.add(g));
        assert_eq!(forward, backward);
        assert_eq!(forward.count, 12);
        let agreeing = [("native", &NATIVE as &dyn Enumerate), ("sat", &SAT)];
        let report = cross_check(&latin(4), &agreeing, Limits { stop: None, store: 10 }).unwrap();
        assert!(report.agree(), "{:?}", report.disagreement);
        assert_eq!(report.runs[0].digest, report.runs[1].digest);
    }

    fn latin(n: usize) -> Puzzle {
        Puzzle::new(n, vec![], vec![]).unwrap()
    }

    #[test]
    fn agreeing_backends() {
        let report = cross_check(&latin(4), &[("native", &NATIVE), ("sat", &SAT)], Limits::new(None)).unwrap();
        assert!(report.agree(), "{:?}", report.disagreement);
        assert_eq!(report.runs.iter().map(|r| r.count).collect::<Vec<_>>(), [576, 576]);
    }

    #[test]
    fn a_dropped_solution_is_caught_and_shown() {
        let report =
            cross_check(&latin(3), &[("native", &NATIVE), ("dropping", &Dropping(5))], Limits::new(None)).unwrap();
        let Some(Disagreement::Missing { found_by, missed_by, .. }) = report.disagreement else {
            panic!("{:?}", report.disagreement);
        };
        assert_eq!((found_by.as_str(), missed_by.as_str()), ("native", "dropping"));
    }

    #[test]
    fn repeated_and_invalid_grids_are_caught() {
        let report = cross_check(&latin(3), &[("faulty", &Faulty { repeat: true })], Limits::new(None)).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Repeated { .. })));
        let report = cross_check(&latin(3), &[("faulty", &Faulty { repeat: false })], Limits::new(None)).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Invalid { .. })));
    }

    #[test]
    fn limits_compare_counts() {
        let solvers: [(&str, &dyn Enumerate); 2] = [("native", &NATIVE), ("sat", &SAT)];
        let report = cross_check(&latin(4), &solvers, Limits::new(Some(100))).unwrap();
        assert!(report.agree());
        assert!(report.runs.iter().all(|r| r.count == 100 && !r.complete));
        let solvers: [(&str, &dyn Enumerate); 2] = [("native", &NATIVE), ("dropping", &Dropping(1))];
        let report = cross_check(&latin(3), &solvers, Limits::new(Some(12))).unwrap();
        assert!(matches!(report.disagreement, Some(Disagreement::Counts { .. })), "{:?}", report.disagreement);
    }
}
