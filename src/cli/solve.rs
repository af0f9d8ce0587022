//! `cagey solve`, `count` and `unique`: one backend on every puzzle.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cagey::{Cell, Enumerate, Grid, SatError, Uniqueness};

use super::args::{CountArgs, InputArgs, OutputFormat, SolveArgs, SolverArgs, UniqueArgs};
use super::batch::in_order;
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries, Entry};
use super::output::{Outcome, Record, Rows, plural, write_grid, write_record};
use super::progress::{FOUND, Progress, Solutions};
use super::proof;
use super::stop::{STARTED, interrupted};

fn solve_error(entry: &Entry) -> impl FnOnce(cagey::SolveError) -> RunError + '_ {
    move |error| match error {
        // The other backends need no tuples.
        cagey::SolveError::Sat(
            SatError::TooManyTuples { .. } | SatError::TuplesTooLong { .. } | SatError::TooLarge { .. },
        ) => {
            let message = format!("{error}, or use --backend native or auto");
            RunError::Cli(CliError::Unfit { place: entry.label(), message })
        }
        error => RunError::Cli(CliError::Solve { label: entry.label(), error }),
    }
}

pub fn solve(args: &SolveArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let limit = if args.all { None } else { Some(args.limit.unwrap_or(1)) };
    let (ahead, all) = entries.peek(2);
    let several = !all || ahead.len() > 1;
    let json = args.input.format == OutputFormat::Json;
    let mut answer = Answer::Positive;
    let stopped = stopped(&args.input.solver);
    for entry in ahead.into_iter().chain(entries) {
        let entry = &entry?;
        if entry.skipped.is_some() {
            entry.write_skipped(out, json)?;
            continue;
        }
        if stopped() {
            return Ok(answer.and(why_stopped()));
        }
        let started = Instant::now();
        let stats = stream_solutions(&args.input, entry, limit, several, out)?;
        if stats.timed_out {
            answer = answer.and(Answer::TimedOut);
        } else if stats.solutions == 0 {
            answer = answer.and(Answer::Negative);
        }
        if json {
            let outcome = Outcome::new(entry, args.input.solver.backend, stats, started.elapsed());
            write_record(out, &Record::Result(Box::new(outcome)))?;
        } else if stats.timed_out {
            let found = plural(stats.solutions, "solution");
            writeln!(out, "# {found} before the timeout (there may be more)")?;
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
        if interrupted() {
            return Ok(Answer::Interrupted);
        }
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

pub fn count(args: &CountArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let input = &args.input;
    // With --keep-going a skipped puzzle's line is labelled, and so are the rest.
    let prefix = input.puzzles.files.len() > 1 || input.puzzles.read.keep_going;
    let json = input.format == OutputFormat::Json;
    let mut answer = Answer::Positive;
    let mut solver = input.solver.builder();
    if let Some(shard) = args.shard {
        let unfit =
            |error: cagey::InvalidShard| CliError::Unfit { place: "--shard".into(), message: error.to_string() };
        solver = solver.shard(shard.index, shard.count).map_err(unfit)?;
    }
    let threads = args.jobs.threads(usize::MAX);
    // Few puzzles for the threads: each is split across them instead.
    let (ahead, all) = entries.peek(4 * threads);
    let split = all;
    // One puzzle: its solutions are the progress to show.
    let single = all && ahead.len() == 1;
    if single {
        solver = solver.tally(Arc::clone(&FOUND));
    }
    let solver = solver.build();
    let count = |entry: &Entry| match split {
        true => solver.count_on_threads(&entry.puzzle, args.limit, threads),
        false => solver.count(&entry.puzzle, args.limit),
    };
    // After Ctrl-C or the total timeout, puzzles not yet started are left.
    let stopped = stopped(&input.solver);
    let solve = |entry: &Entry| (!stopped()).then(|| timed(|| count(entry)));
    let text = input.format == OutputFormat::Text;
    let mut progress = Progress::new(text && !single);
    let solutions = single.then(|| Solutions::start(text)).flatten();
    let jobs = if split { 1 } else { threads };
    let items = ahead.into_iter().chain(entries).map(|item| item.map_err(RunError::from));
    let result = in_order(items, jobs, solve, |entry, result, batch_end| {
        let entry = &entry;
        progress.inc();
        if entry.skipped.is_some() {
            entry.write_skipped(out, json)?;
            return Ok(ControlFlow::Continue(()));
        }
        let Some(result) = result else {
            answer = answer.and(why_stopped());
            return Ok(ControlFlow::Break(()));
        };
        let (count, elapsed) = result.map_err(solve_error(entry))?;
        let stats = count.stats;
        if stats.timed_out {
            answer = answer.and(Answer::TimedOut);
        } else if count.count() == 0 {
            answer = answer.and(Answer::Negative);
        }
        match input.format {
            OutputFormat::Json => {
                let outcome = Outcome::new(entry, input.solver.backend, stats, elapsed);
                write_record(out, &Record::Result(Box::new(outcome)))?;
            }
            OutputFormat::Text if prefix => writeln!(out, "{}: {count}", entry.label())?,
            OutputFormat::Text => writeln!(out, "{count}")?,
        }
        if batch_end {
            out.flush()?;
        }
        Ok(stop_if_interrupted(&mut answer))
    });
    progress.finish();
    if let Some(solutions) = solutions {
        solutions.finish();
    }
    result?;
    out.flush()?;
    Ok(answer)
}

/// The cells where two grids of one size differ, row by row.
pub fn differing_cells<'a>(a: &'a Grid, b: &'a Grid) -> impl Iterator<Item = Cell> + 'a {
    let n = a.size();
    (0..n * n).filter(|&i| a.values()[i] != b.values()[i]).map(move |i| Cell::new(i / n, i % n))
}

/// Whether the run must start no more puzzles: after Ctrl-C, or past the
/// total timeout.
fn stopped(solver: &SolverArgs) -> impl Fn() -> bool + Sync + use<> {
    let deadline = solver.total_timeout.map(|total| *STARTED + total);
    move || interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The answer of a run that stopped before its last puzzle: Ctrl-C, or the
/// total timeout.
fn why_stopped() -> Answer {
    if interrupted() { Answer::Interrupted } else { Answer::TimedOut }
}

/// After a puzzle: once Ctrl-C was pressed, the answers of the puzzles
/// already searched are given, and the run stops at the first one not
/// started.
fn stop_if_interrupted(answer: &mut Answer) -> ControlFlow<()> {
    if interrupted() {
        *answer = Answer::Interrupted;
    }
    ControlFlow::Continue(())
}

/// The result of `solve`, with the time it took.
fn timed<T, E>(solve: impl FnOnce() -> Result<T, E>) -> Result<(T, Duration), E> {
    let started = Instant::now();
    solve().map(|answer| (answer, started.elapsed()))
}

pub fn unique(args: &UniqueArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let input = &args.input;
    // With --keep-going a skipped puzzle's line is labelled, and so are the rest.
    let prefix = input.puzzles.files.len() > 1 || input.puzzles.read.keep_going;
    let json = input.format == OutputFormat::Json;
    let mut answer = Answer::Positive;
    let stopped = stopped(&input.solver);
    let solver = input.solver.solver();
    let solve = |entry: &Entry| (!stopped()).then(|| timed(|| solver.uniqueness(&entry.puzzle)));
    let mut progress = Progress::new(input.format == OutputFormat::Text);
    let (ahead, all) = entries.peek(64);
    let jobs = args.jobs.threads(if all { ahead.len() } else { usize::MAX });
    let one = all && ahead.len() == 1;
    let items = ahead.into_iter().chain(entries).map(|item| item.map_err(RunError::from));
    let mut k = 0;
    let result = in_order(items, jobs, solve, |entry, result, batch_end| {
        let entry = &entry;
        k += 1;
        progress.inc();
        if entry.skipped.is_some() {
            entry.write_skipped(out, json)?;
            return Ok(ControlFlow::Continue(()));
        }
        let Some(result) = result else {
            answer = answer.and(why_stopped());
            return Ok(ControlFlow::Break(()));
        };
        let (cagey::Verdict { uniqueness: verdict, stats }, elapsed) = result.map_err(solve_error(entry))?;
        let certified = match (&args.proof, &verdict) {
            (Some(dir), Uniqueness::Unique(grid)) => {
                let dir = proof::directory(dir, k, one);
                proof::certify(&solver, entry, grid, &dir)?;
                Some(dir)
            }
            _ => None,
        };
        let (word, grids) = match &verdict {
            Uniqueness::Unknown(found) => ("unknown", found.iter().collect()),
            Uniqueness::None => ("none", vec![]),
            Uniqueness::Unique(grid) => ("unique", vec![grid]),
            Uniqueness::Multiple(a, b) => ("multiple", vec![a, b]),
        };
        // For `unique`, complete says the verdict is settled: the search
        // stops at a second solution by design, and only a timeout leaves
        // the answer open.
        let mut stats = stats;
        stats.complete = word != "unknown";
        answer = answer.and(match word {
            "unique" => Answer::Positive,
            "unknown" => Answer::TimedOut,
            _ => Answer::Negative,
        });
        // Where the two solutions of a puzzle that is not unique differ.
        let differ: Vec<String> = match grids[..] {
            [a, b] => differing_cells(a, b).map(|cell| entry.cell_name(cell)).collect(),
            _ => Vec::new(),
        };
        match input.format {
            OutputFormat::Json => {
                let outcome = Outcome::new(entry, input.solver.backend, stats, elapsed).with_verdict(word, &grids);
                let outcome = if differ.is_empty() { outcome } else { outcome.with_differ(differ) };
                let outcome = match &certified {
                    Some(dir) => outcome.with_certificate(dir.display().to_string()),
                    None => outcome,
                };
                write_record(out, &Record::Result(Box::new(outcome)))?;
            }
            OutputFormat::Text => {
                if prefix {
                    write!(out, "{}: ", entry.label())?;
                }
                match &certified {
                    Some(_) => writeln!(out, "{word} (certified)")?,
                    None => writeln!(out, "{word}")?,
                }
                if let [a, b] = grids[..] {
                    writeln!(out, "\n{a}\n{b}")?;
                    writeln!(out, "# they differ at {}", differ.join(" "))?;
                }
            }
        }
        if batch_end {
            out.flush()?;
        }
        Ok(stop_if_interrupted(&mut answer))
    });
    progress.finish();
    result?;
    out.flush()?;
    Ok(answer)
}
