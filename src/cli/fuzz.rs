//! `cagey fuzz`: random puzzles through both backends, in parallel; the
//! first disagreement (a backend's panic included) is shrunk and saved.

use std::io::{IsTerminal, Write};
use std::ops::{ControlFlow, RangeInclusive};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use cagey::check::{Disagreement, Limits, Report, cross_check, shrink};
use cagey::format::kenken;
use cagey::generate::{self, Features, GenerateError};
use cagey::{Backend, Enumerate, Puzzle, SatError, SolveError, Solver};
use indicatif::{ProgressBar, ProgressStyle};
use itertools::Itertools;
use rand::RngExt;

use super::args::{FuzzArgs, Kind, PuzzleShape};
use super::batch::in_order;
use super::exit::{Answer, RunError};
use super::input::CliError;
use super::random::{box_note, check_shape, make, text};

pub fn fuzz(args: &FuzzArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let fuzzer = Fuzzer::new(args)?;
    let bar = progress_bar(args.cases);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut disagreed = false;
    in_order(
        (0..args.cases).map(Ok),
        args.jobs.threads(usize::try_from(args.cases).unwrap_or(usize::MAX)),
        |&case| fuzzer.run(case),
        |case, result, _| {
            bar.inc(1);
            let Some(outcome) = result.map_err(|error| CliError::Solve { label: format!("case {case}"), error })?
            else {
                tally.refused += 1;
                return Ok(ControlFlow::Continue(()));
            };
            if outcome.report.runs.iter().any(|run| run.stats.timed_out) {
                fuzzer.save_slow(case, &outcome.puzzle)?;
                tally.slow += 1;
                return Ok(ControlFlow::Continue(()));
            }
            if outcome.report.disagreement.is_some() {
                bar.abandon();
                fuzzer.save(case, &outcome, out)?;
                disagreed = true;
                return Ok(ControlFlow::Break(()));
            }
            tally.add(&outcome);
            Ok(ControlFlow::Continue(()))
        },
    )?;
    if disagreed {
        return Ok(Answer::Negative);
    }
    bar.finish_and_clear();
    tally.write(out, args, started.elapsed())?;
    out.flush()?;
    Ok(if tally.slow > 0 { Answer::TimedOut } else { Answer::Positive })
}

/// A bar on standard error when it is a terminal.
fn progress_bar(cases: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(cases) } else { ProgressBar::hidden() };
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} cases, {per_sec}, {eta} left");
    bar.set_style(style.expect("a valid template"));
    bar
}

/// What one fuzz case came to.
struct Case {
    puzzle: Puzzle,
    report: Report,
}

/// The settings of a run: the shape of its puzzles, their sizes and the
/// two solvers.
struct Fuzzer<'a> {
    args: &'a FuzzArgs,
    shape: PuzzleShape,
    sizes: RangeInclusive<usize>,
    solvers: [Solver; 2],
}

impl<'a> Fuzzer<'a> {
    /// The settings, checked, with the defaults of fuzzing filled in.
    fn new(args: &'a FuzzArgs) -> Result<Self, CliError> {
        let (low, high, perturb) = match args.shape.kind {
            Kind::KenKen => (1, 6, 0.03),
            Kind::Sudoku => (9, 9, 0.01),
        };
        let sizes = args.size.map_or(low..=high, |r| r.low..=r.high);
        check_shape(&args.shape, &sizes.clone().collect::<Vec<_>>())?;
        let shape = PuzzleShape { perturb: Some(args.shape.perturb.unwrap_or(perturb)), ..args.shape.clone() };
        let solvers = Backend::ENGINES
            .map(|backend| args.tuples.apply(Solver::builder()).backend(backend).timeout(args.timeout).build());
        Ok(Fuzzer { args, shape, sizes, solvers })
    }

    fn solvers(&self) -> [(&str, &dyn Enumerate); 2] {
        self.solvers.each_ref().map(|solver| (solver.backend().name(), solver as &dyn Enumerate))
    }

    fn limits(&self) -> Limits {
        Limits::new(Some(self.args.limit))
    }

    /// Generates case number `case` and cross-checks it; `None` when the
    /// SAT encoding refuses it (a cage with too many tuples), which is
    /// counted, not compared.
    fn run(&self, case: u64) -> Result<Option<Case>, SolveError> {
        let mut rng = generate::rng(self.shape.seed, case);
        let size = rng.random_range(self.sizes.clone());
        let puzzle = match make(&self.shape, size, self.sizes.clone(), false, &mut rng) {
            Ok(generated) => generated.puzzle,
            Err(GenerateError::Solve(error)) => return Err(error),
            Err(error) => unreachable!("only unique mode confirms: {error}"),
        };
        match cross_check(&puzzle, &self.solvers(), self.limits()) {
            Ok(report) => Ok(Some(Case { puzzle, report })),
            Err(SolveError::Sat(
                SatError::TooManyTuples { .. } | SatError::TuplesTooLong { .. } | SatError::TooLarge { .. },
            )) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Writes a case that a backend could not finish within the timeout
    /// to the output directory.
    fn save_slow(&self, case: u64, puzzle: &Puzzle) -> Result<(), RunError> {
        let dir = &self.args.out;
        std::fs::create_dir_all(dir).map_err(|error| CliError::Write { path: dir.clone(), error })?;
        let path = dir.join(format!("slow-{}-{case}.txt", self.shape.seed));
        let written = text(&self.shape, None, puzzle).unwrap_or_else(|_| kenken::write(puzzle));
        std::fs::write(&path, written).map_err(|error| CliError::Write { path, error })?;
        Ok(())
    }

    /// Shrinks a case the backends disagree on, writes it to a file and
    /// says where.
    fn save(&self, case: u64, disagreeing: &Case, out: &mut dyn Write) -> Result<(), RunError> {
        let Case { puzzle, report } = disagreeing;
        let seed = self.shape.seed;
        let disagreement = report.disagreement.as_ref().expect("a disagreement");
        let panicked = matches!(disagreement, Disagreement::Panicked { .. });
        // A backend that panicked panics again at each try: its message,
        // printed once already, is not printed for each.
        let shrunk = if panicked {
            quietly(|| shrink(puzzle, &self.solvers(), self.limits()))
        } else {
            shrink(puzzle, &self.solvers(), self.limits())
        };
        let small = shrunk.map_err(|error| CliError::Solve { label: format!("case {case}"), error })?;
        let dir = &self.args.out;
        std::fs::create_dir_all(dir).map_err(|error| CliError::Write { path: dir.clone(), error })?;
        let path = dir.join(format!("fuzz-{seed}-{case}.txt"));
        let written = text(&self.shape, None, &small).unwrap_or_else(|_| kenken::write(&small));
        std::fs::write(&path, written).map_err(|error| CliError::Write { path: path.clone(), error })?;
        let what = if panicked { "a backend failed" } else { "the backends disagree" };
        writeln!(out, "case {case} (seed {seed}): {what}: {disagreement}")?;
        let (before, after) = (puzzle.cages().len(), small.cages().len());
        writeln!(out, "shrunk from {before} to {after} cages: {}", path.display())?;
        if let Some(note) = box_note(&self.shape) {
            writeln!(out, "({note})")?;
        }
        out.flush()?;
        Ok(())
    }
}

/// Runs `f` with the panic hook silenced, no other thread solving
/// meanwhile. A panic that `f` lets out is printed, and passed on, once
/// the hook is back.
fn quietly<R>(f: impl FnOnce() -> R) -> R {
    let hook = panic::take_hook();
    let last = Arc::new(Mutex::new(String::new()));
    let seen = Arc::clone(&last);
    panic::set_hook(Box::new(move |info| *seen.lock().unwrap_or_else(PoisonError::into_inner) = info.to_string()));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(hook);
    result.unwrap_or_else(|payload| {
        eprintln!("{}", last.lock().unwrap_or_else(PoisonError::into_inner));
        panic::resume_unwind(payload)
    })
}

/// What the cases came to, so far.
#[derive(Default)]
struct Tally {
    /// Cases with no, one and several solutions.
    counts: [u64; 3],
    /// Cases that use each of [`Features::NAMES`].
    features: [u64; Features::NAMES.len()],
    /// Cases the SAT encoding refused.
    refused: u64,
    /// Cases a backend could not finish within the timeout.
    slow: u64,
}

impl Tally {
    fn add(&mut self, case: &Case) {
        for (seen, used) in self.features.iter_mut().zip(Features::of(&case.puzzle).flags()) {
            *seen += u64::from(used);
        }
        self.counts[case.report.runs[0].count.min(2) as usize] += 1;
    }

    fn write(&self, out: &mut dyn Write, args: &FuzzArgs, elapsed: Duration) -> std::io::Result<()> {
        let [none, one, several] = self.counts;
        let rate = args.cases as f64 / elapsed.as_secs_f64().max(1e-9);
        let compared = args.cases - self.refused - self.slow;
        writeln!(
            out,
            "{compared} cases, all agree: {none} with no solution, {one} with one, {several} with several; {rate:.0} cases/s"
        )?;
        let used = Features::NAMES.iter().zip(self.features).map(|(name, k)| format!("{name} {k}"));
        writeln!(out, "cases with each feature: {}", used.format(", "))?;
        if self.refused > 0 {
            let refused = self.refused;
            writeln!(
                out,
                "{refused} cases skipped: the SAT encoding refused a cage with too many tuples (--tuple-limit) or a formula too large (--memory)"
            )?;
        }
        if self.slow > 0 {
            let (slow, seconds, dir) = (self.slow, args.timeout.as_secs_f64(), args.out.display());
            writeln!(
                out,
                "{slow} cases not compared: a backend did not finish within {seconds} s (--timeout); written to {dir}/slow-*.txt"
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quietly_passes_on_a_value_or_the_panic() {
        assert_eq!(quietly(|| 7), 7);
        let payload = panic::catch_unwind(|| quietly(|| panic!("inside"))).unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside"));
    }
}
