//! The command-line front end: arguments → puzzles → library calls →
//! output and an exit status.

pub mod args;
mod check;
mod cnf;
mod fuzz;
mod input;
mod output;
mod random;

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cagey::{Enumerate, Grid, Uniqueness};
use itertools::Itertools;
use rayon::prelude::*;

use args::{Cli, Command, CountArgs, InputArgs, OutputFormat, SolveArgs, UniqueArgs};
pub use input::CliError;
use input::{Entry, load};
use output::{Outcome, Record, Rows, plural, write_grid, write_record};

/// The answer a command gives, as an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Solved, unique: exit 0.
    Positive,
    /// No solution, not unique: exit 1.
    Negative,
}

impl From<Answer> for ExitCode {
    fn from(answer: Answer) -> ExitCode {
        match answer {
            Answer::Positive => ExitCode::SUCCESS,
            Answer::Negative => ExitCode::from(1),
        }
    }
}

/// An error while running a command: bad input, or a failed write.
#[derive(Debug)]
pub enum RunError {
    /// Bad input or a refusal: exit 2 with a message.
    Cli(CliError),
    /// Writing the output failed (a closed pipe is not reported).
    Io(io::Error),
}

impl From<io::Error> for RunError {
    fn from(error: io::Error) -> Self {
        RunError::Io(error)
    }
}

impl From<CliError> for RunError {
    fn from(error: CliError) -> Self {
        RunError::Cli(error)
    }
}

/// Runs the parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Answer, RunError> {
    let stderr = &mut io::stderr();
    match cli.command {
        Command::Solve(args) => solve(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Count(args) => count(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Unique(args) => unique(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Cnf(args) => cnf::cnf(&args, out),
        Command::Check(args) => check::check(&args, out),
        Command::Generate(args) => random::generate(&args, out),
        Command::Fuzz(args) => fuzz::fuzz(&args, out),
    }
}

fn solve_error(entry: &Entry) -> impl FnOnce(cagey::SolveError) -> RunError + '_ {
    move |error| RunError::Cli(CliError::Solve { label: entry.label(), error })
}

fn solve(args: &SolveArgs, entries: &[Entry], out: &mut dyn Write) -> Result<Answer, RunError> {
    let limit = if args.all { None } else { Some(args.limit.unwrap_or(1)) };
    let several = entries.len() > 1;
    let json = args.input.format == OutputFormat::Json;
    let mut answer = Answer::Positive;
    for entry in entries {
        let started = Instant::now();
        let stats = stream_solutions(&args.input, entry, limit, several, out)?;
        if stats.solutions == 0 {
            answer = Answer::Negative;
        }
        if json {
            let outcome = Outcome::new(entry, args.input.solver.backend, stats, started.elapsed());
            write_record(out, &Record::Result(outcome))?;
        } else if stats.solutions == 0 {
            writeln!(out, "# no solution")?;
        } else if limit != Some(1) {
            let more = if stats.complete { "" } else { " (stopped at the limit; there may be more)" };
            writeln!(out, "# {}{more}", plural(stats.solutions, "solution"))?;
        }
        if several && !json {
            writeln!(out)?;
        }
        out.flush()?;
    }
    Ok(answer)
}

/// Writes up to `limit` solutions of one puzzle as they are found. In text,
/// a `# FILE:LINE` heading precedes them when there are `several` puzzles;
/// it is written before the first solution, or after the search if there
/// is none, so that a refused puzzle leaves nothing half-written.
fn stream_solutions(
    input: &InputArgs,
    entry: &Entry,
    limit: Option<u64>,
    several: bool,
    out: &mut dyn Write,
) -> Result<cagey::Stats, RunError> {
    let json = input.format == OutputFormat::Json;
    let mut heading = if several && !json { format!("# {}\n", entry.label()) } else { String::new() };
    let mut written = 0u64;
    let mut failed: Option<io::Error> = None;
    let mut write = |out: &mut dyn Write, grid: &Grid| -> io::Result<()> {
        if json {
            write_record(out, &Record::Solution { source: &entry.source, line: entry.line, grid: Rows(grid) })
        } else {
            write!(out, "{}", std::mem::take(&mut heading))?;
            write_grid(out, grid)
        }
    };
    let stats = input
        .solver
        .solver()
        .enumerate(&entry.puzzle, &mut |grid| {
            written += 1;
            match write(out, grid) {
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
                Ok(()) if limit.is_some_and(|l| written >= l) => ControlFlow::Break(()),
                Ok(()) => ControlFlow::Continue(()),
            }
        })
        .map_err(solve_error(entry))?;
    if let Some(error) = failed {
        return Err(error.into());
    }
    write!(out, "{heading}")?;
    Ok(stats)
}

fn count(args: &CountArgs, entries: &[Entry], out: &mut dyn Write) -> Result<Answer, RunError> {
    let input = &args.input;
    let prefix = input.puzzles.files.len() > 1;
    let mut answer = Answer::Positive;
    let solve = |entry: &&Entry| timed(|| input.solver.solver().count(&entry.puzzle, args.limit));
    in_order(entries, args.jobs.jobs, solve, |entry, result| {
        let ((count, stats), elapsed) = result.map_err(solve_error(entry))?;
        if count.count == 0 {
            answer = Answer::Negative;
        }
        match input.format {
            OutputFormat::Json => {
                let outcome = Outcome::new(entry, input.solver.backend, stats, elapsed);
                write_record(out, &Record::Result(outcome))?;
            }
            OutputFormat::Text if prefix => writeln!(out, "{}: {count}", entry.label())?,
            OutputFormat::Text => writeln!(out, "{count}")?,
        }
        Ok(ControlFlow::Continue(()))
    })?;
    out.flush()?;
    Ok(answer)
}

/// The result of `solve`, with the time it took.
fn timed<T, E>(solve: impl FnOnce() -> Result<T, E>) -> Result<(T, Duration), E> {
    let started = Instant::now();
    solve().map(|answer| (answer, started.elapsed()))
}

/// Solves the items on `jobs` threads (0: one per core), a batch at a
/// time, and hands each result to `report` in the order of the items, until
/// `report` says to stop.
fn in_order<T: Sync, R: Send>(
    items: impl IntoIterator<Item = T>,
    jobs: usize,
    solve: impl Fn(&T) -> R + Sync,
    mut report: impl FnMut(T, R) -> Result<ControlFlow<()>, RunError>,
) -> Result<(), RunError> {
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| RunError::Io(io::Error::other(e)))?;
    let batches = items.into_iter().chunks(32 * pool.current_num_threads());
    for batch in &batches {
        let batch: Vec<T> = batch.collect();
        let results: Vec<R> = if batch.len() == 1 {
            vec![solve(&batch[0])]
        } else {
            pool.install(|| batch.par_iter().map(&solve).collect())
        };
        for (item, result) in batch.into_iter().zip(results) {
            if report(item, result)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}

fn unique(args: &UniqueArgs, entries: &[Entry], out: &mut dyn Write) -> Result<Answer, RunError> {
    let input = &args.input;
    let prefix = input.puzzles.files.len() > 1;
    let mut answer = Answer::Positive;
    let solve = |entry: &&Entry| timed(|| input.solver.solver().uniqueness(&entry.puzzle));
    in_order(entries, args.jobs.jobs, solve, |entry, result| {
        let ((verdict, stats), elapsed) = result.map_err(solve_error(entry))?;
        let (word, grids) = match &verdict {
            Uniqueness::None => ("none", vec![]),
            Uniqueness::Unique(grid) => ("unique", vec![grid]),
            Uniqueness::Multiple(a, b) => ("multiple", vec![a, b]),
        };
        if word != "unique" {
            answer = Answer::Negative;
        }
        match input.format {
            OutputFormat::Json => {
                let outcome = Outcome::new(entry, input.solver.backend, stats, elapsed).with_verdict(word, &grids);
                write_record(out, &Record::Result(outcome))?;
            }
            OutputFormat::Text => {
                if prefix {
                    write!(out, "{}: ", entry.label())?;
                }
                writeln!(out, "{word}")?;
                if let [a, b] = grids[..] {
                    writeln!(out, "\n{a}\n{b}")?;
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    out.flush()?;
    Ok(answer)
}
