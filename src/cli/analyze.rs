//! `cagey analyze`: where each puzzle is ambiguous, and what would make it
//! unique.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use cagey::format::Format;
use cagey::{Analysis, Cage, CageChange, Cell, Count, Grid, SolveError, Solver, Suggestion};
use serde_json::json;

use super::args::{AnalyzeArgs, OutputFormat};
use super::batch::in_order;
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries, Entry, grids};
use super::output::plural;
use super::stop::interrupted;

/// Solutions up to which the analysis is compared with their full list.
const LISTED: u64 = 1_000;

/// What was found for one puzzle.
struct Report {
    count: Count,
    /// Whether the count was cut short by the timeout, not the limit.
    timed_out: bool,
    analysis: Analysis,
    /// Whether the analysis matched the full list of solutions, where
    /// there were few enough to list.
    listed: Option<bool>,
    suggestion: Option<Suggestion>,
    /// For KenKen, changes to one cage that would do instead of givens.
    changes: Vec<CageChange>,
    /// With --true-candidates: solutions per cell and value, capped.
    candidates: Option<Vec<u64>>,
    elapsed: Duration,
}

/// Cage changes offered at most, beside the givens.
pub const CHANGES: usize = 3;

pub fn analyze(args: &AnalyzeArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let input = &args.input;
    let solver = input.solver.solver();
    let budget = input.solver.tuples.budget();
    let (ahead, all) = entries.peek(64);
    let jobs = args.jobs.threads(if all { ahead.len() } else { usize::MAX });
    let items = ahead.into_iter().chain(entries).enumerate().map(|(k, entry)| {
        let entry = entry?;
        let kept = match &args.keep {
            _ if entry.skipped.is_some() => None,
            None => None,
            Some(path) => Some(kept_grid(path, k, &entry, budget)?),
        };
        Ok((entry, kept))
    });
    let solve = |(entry, kept): &(Entry, Option<Grid>)| report(&solver, args, entry, kept.as_ref());
    let mut answer = Answer::Positive;
    let json = input.format == OutputFormat::Json;
    in_order(items, jobs, solve, |(entry, _), report, batch_end| {
        if entry.skipped.is_some() {
            entry.write_skipped(out, json)?;
            return Ok(ControlFlow::Continue(()));
        }
        let report = report.map_err(|error| RunError::Cli(CliError::Solve { label: entry.label(), error }))?;
        if report.listed == Some(false) {
            let message = "the analysis disagrees with the full list of solutions: a bug, please report it".to_string();
            return Err(CliError::Unfit { place: entry.label(), message }.into());
        }
        // A count past the limit still says "not unique"; only a search
        // cut short by time leaves the answer open.
        answer = answer.and(match (report.count.count(), report.count.is_complete() && report.analysis.complete()) {
            (2.., _) => Answer::Negative,
            (_, false) => Answer::TimedOut,
            (1, true) => Answer::Positive,
            (_, true) => Answer::Negative,
        });
        if json {
            write_json(out, &entry, &report)?
        } else {
            write_text(out, &entry, &report)?
        }
        if batch_end {
            out.flush()?;
        }
        // After Ctrl-C, the puzzle cut short is reported and the rest left.
        if interrupted() {
            answer = Answer::Interrupted;
            return Ok(ControlFlow::Break(()));
        }
        Ok(ControlFlow::Continue(()))
    })?;
    out.flush()?;
    Ok(answer)
}

/// The `k`-th grid (from 0) of the `--keep` file, for `entry` (the file is
/// read again for each puzzle: it is small, and read as it streams).
fn kept_grid(path: &std::path::Path, k: usize, entry: &Entry, budget: u64) -> Result<Grid, CliError> {
    let mut found = grids(path, entry.puzzle.size(), budget)?;
    if k >= found.len() {
        let message = format!("--keep holds {} grids: none for puzzle {} ({})", found.len(), k + 1, entry.label());
        return Err(CliError::Unfit { place: path.display().to_string(), message });
    }
    let (place, grid) = found.swap_remove(k);
    if let Err(violation) = cagey::verify(&entry.puzzle, &grid) {
        let message =
            format!("the grid at {place} is not a solution of {}: {}", entry.label(), entry.explain(&violation));
        return Err(CliError::Unfit { place: path.display().to_string(), message });
    }
    Ok(grid)
}

/// Counts, analyses, and if asked suggests givens for one puzzle.
fn report(solver: &Solver, args: &AnalyzeArgs, entry: &Entry, keep: Option<&Grid>) -> Result<Report, SolveError> {
    let started = Instant::now();
    let puzzle = &entry.puzzle;
    // One search lists the solutions when they are few, and counts them.
    let listed = solver.solutions(puzzle, Some(LISTED + 1))?;
    let solutions = listed.grids;
    let few = listed.stats.complete && solutions.len() as u64 <= LISTED.min(args.limit);
    let count = match few {
        true => Count { stats: listed.stats },
        false => solver.count(puzzle, Some(args.limit))?,
    };
    let analysis = solver.analyze(puzzle)?;
    let listed = (few && analysis.complete()).then(|| {
        let plain = Analysis::of_solutions(puzzle.size(), &solutions);
        plain.fixed() == analysis.fixed() && plain.open() == analysis.open()
    });
    let keep = keep.or(analysis.first()).filter(|_| args.suggest && count.count() != 1);
    let suggestion = keep.map(|keep| solver.suggest(puzzle, keep)).transpose()?;
    let changes = match keep {
        Some(keep) if entry.format == Format::KenKen => solver.cage_changes(puzzle, keep, CHANGES)?,
        _ => Vec::new(),
    };
    let candidates = args.true_candidates.map(|cap| solver.true_candidates(puzzle, &analysis, cap)).transpose()?;
    let timed_out = count.stats.timed_out;
    let elapsed = started.elapsed();
    Ok(Report { count, timed_out, analysis, listed, suggestion, changes, candidates, elapsed })
}

/// `3 solutions`, `10000+ solutions`, `no solution`.
fn count_words(report: &Report) -> String {
    match (report.count.count(), report.count.is_complete()) {
        (0, true) => "no solution".to_string(),
        (n, true) => plural(n, "solution"),
        (n, false) if report.timed_out => format!("{n}+ solutions before the timeout"),
        (n, false) => format!("{n}+ solutions"),
    }
}

fn write_text(out: &mut dyn Write, entry: &Entry, report: &Report) -> std::io::Result<()> {
    let analysis = &report.analysis;
    let (fixed, open) = (analysis.fixed(), analysis.open());
    write!(out, "{}: {}", entry.label(), count_words(report))?;
    if analysis.first().is_none() {
        return writeln!(out, "\n");
    }
    writeln!(out, "; {} fixed, {} open", plural(fixed.len() as u64, "cell"), open.len())?;
    if !analysis.complete() {
        writeln!(out, "# cut short: the cells may take more values than shown")?;
    }
    write!(out, "{analysis}")?;
    if !open.is_empty() {
        let named = |(cell, values): &(Cell, Vec<u8>)| {
            format!("{} {}", entry.cell_name(*cell), values.iter().map(u8::to_string).collect::<Vec<_>>().join("/"))
        };
        writeln!(out, "open: {}", open.iter().map(named).collect::<Vec<_>>().join(", "))?;
    }
    if let Some(suggestion) = &report.suggestion {
        let how = match (suggestion.complete, suggestion.smallest) {
            (false, _) => "cut short, may not be enough",
            (true, true) => "no fewer will do",
            (true, false) => "chosen greedily",
        };
        let givens = suggestion.givens.iter().map(|&(cell, value)| format!("{} = {value}", entry.cell_name(cell)));
        let count = plural(suggestion.givens.len() as u64, "given");
        writeln!(out, "suggest {count} ({how}): {}", givens.collect::<Vec<_>>().join(", "))?;
        if entry.format == Format::KenKen && !suggestion.givens.is_empty() {
            let lines = suggestion.givens.iter().map(|&(cell, value)| format!("! {value} {cell}"));
            writeln!(out, "  (as lines of the puzzle: {})", lines.collect::<Vec<_>>().join(" | "))?;
        }
    }
    if !report.changes.is_empty() {
        writeln!(out, "or change one cage instead:")?;
        for change in &report.changes {
            let (was, into) = change_text(entry, change);
            writeln!(out, "  {was}  ->  {}", into.join("  and  "))?;
        }
    }
    writeln!(out)
}

/// A cage as a line of KenKen text.
pub fn cage_text(cage: &Cage) -> String {
    let cells: Vec<String> = cage.cells().iter().map(ToString::to_string).collect();
    let distinct = if cage.is_distinct() { "distinct " } else { "" };
    format!("{distinct}{} {} {}", cage.op(), cage.target(), cells.join(" "))
}

/// The cage a change replaces, and what replaces it, as KenKen text.
fn change_text(entry: &Entry, change: &CageChange) -> (String, Vec<String>) {
    (cage_text(&entry.puzzle.cages()[change.cage]), change.into.iter().map(cage_text).collect())
}

fn write_json(out: &mut dyn Write, entry: &Entry, report: &Report) -> std::io::Result<()> {
    let analysis = &report.analysis;
    let cell = |cell: Cell| entry.cell_name(cell);
    let fixed: Vec<_> =
        analysis.fixed().into_iter().map(|(c, value)| json!({"cell": cell(c), "value": value})).collect();
    let open: Vec<_> =
        analysis.open().into_iter().map(|(c, values)| json!({"cell": cell(c), "values": values})).collect();
    let mut record = json!({
        "type": "analysis",
        "source": entry.source,
        "line": entry.line,
        "size": entry.puzzle.size(),
        "count": report.count.count(),
        "complete": report.count.is_complete(),
        "timed_out": report.timed_out,
        "analysis_complete": analysis.complete(),
        "fixed": fixed,
        "open": open,
        "checked_against_solutions": report.listed.is_some(),
        "elapsed_ms": report.elapsed.as_micros() as f64 / 1e3,
    });
    if !entry.ignored.is_empty() {
        record["ignored"] = entry.ignored.clone().into();
    }
    if let Some(candidates) = &report.candidates {
        record["solutionsPerCandidate"] = candidates.clone().into();
    }
    if let Some(suggestion) = &report.suggestion {
        let givens: Vec<_> =
            suggestion.givens.iter().map(|&(c, value)| json!({"cell": cell(c), "value": value})).collect();
        record["suggestion"] = givens.into();
        record["suggestion_smallest"] = suggestion.smallest.into();
        record["suggestion_complete"] = suggestion.complete.into();
    }
    if report.suggestion.is_some() && entry.format == Format::KenKen {
        let changes: Vec<_> = report
            .changes
            .iter()
            .map(|change| {
                let (was, into) = change_text(entry, change);
                json!({"cage": was, "into": into})
            })
            .collect();
        record["cage_changes"] = changes.into();
    }
    serde_json::to_writer(&mut *out, &record)?;
    writeln!(out)
}
