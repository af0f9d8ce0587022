//! `cagey check`: both backends, and the portfolio of the two, on every
//! puzzle, side by side.

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};

use cagey::check::{Disagreement, Limits, Report, cross_check};
use cagey::{Backend, Enumerate, Solver, Uniqueness};

use super::args::{CheckArgs, OutputFormat};
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries, Entry};

pub fn check(args: &CheckArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let [native, sat, auto] = Backend::ALL.map(|backend| args.tuples.apply(Solver::builder()).backend(backend).build());
    let solvers: [(&str, &dyn Enumerate); 3] = [("native", &native), ("sat", &sat), ("auto", &auto)];
    // Labels as wide as those of the first puzzles read; a later, longer
    // one pushes its row out.
    let (ahead, _) = entries.peek(100);
    let width = ahead.iter().flatten().map(|e| e.label().len()).max().unwrap_or(0).max("puzzle".len());
    let json = args.format == OutputFormat::Json;
    if !json {
        writeln!(
            out,
            "{:width$}  {:>9}  {:>9}  {:>9}  {:5}  {:>11}  {:>11}  {:>11}  {:6}  {:8}  digest",
            "puzzle", "native", "sat", "auto", "agree", "native ms", "sat ms", "auto ms", "by", "unique"
        )?;
    }
    let mut answer = Answer::Positive;
    for entry in ahead.into_iter().chain(entries) {
        let entry = &entry?;
        if entry.skipped.is_some() {
            entry.write_skipped(out, json)?;
            continue;
        }
        let failed = |error| CliError::Solve { label: entry.label(), error };
        let report = cross_check(&entry.puzzle, &solvers, Limits { stop: Some(args.limit), store: args.store })
            .map_err(failed)?;
        let mut verdicts = ["unknown"; 3];
        for ((verdict, solver), (name, _)) in verdicts.iter_mut().zip([&native, &sat, &auto]).zip(solvers) {
            // A backend that panics has a verdict that agrees with none,
            // and the other puzzles are still checked. One that panicked
            // counting is not asked again.
            let panicked =
                matches!(&report.disagreement, Some(Disagreement::Panicked { solver, .. }) if solver == name);
            let found = (!panicked).then(|| panic::catch_unwind(AssertUnwindSafe(|| solver.uniqueness(&entry.puzzle))));
            *verdict = match found {
                Some(Ok(found)) => word(&found.map_err(failed)?.uniqueness),
                _ => "panicked",
            };
        }
        let verdict = agreed_verdict(&report, &verdicts);
        if report.disagreement.is_some() || verdict.is_none() {
            answer = Answer::Negative;
        }
        if json {
            write_json(out, entry, &report, &verdicts, verdict.is_some())?;
            continue;
        }
        let count = |i: usize| {
            let run = &report.runs[i];
            format!("{}{}", run.count, if run.complete { "" } else { "+" })
        };
        let ms = |i: usize| format!("{:.2}", report.runs[i].elapsed.as_secs_f64() * 1e3);
        let agree = if report.agree() { "yes" } else { "NO" };
        // The backend that answered for auto.
        let by = report.runs[2].stats.answered_by.map_or("-", Backend::name);
        let digest = agreed_digest(&report).unwrap_or_else(|| "-".to_string());
        let unique = verdict.unwrap_or("NO");
        writeln!(
            out,
            "{:width$}  {:>9}  {:>9}  {:>9}  {agree:5}  {:>11}  {:>11}  {:>11}  {by:6}  {unique:8}  {digest}",
            entry.label(),
            count(0),
            count(1),
            count(2),
            ms(0),
            ms(1),
            ms(2)
        )?;
        if let Some(disagreement) = &report.disagreement {
            writeln!(out, "{disagreement}")?;
        }
        if verdict.is_none() {
            let [n, s, a] = verdicts;
            writeln!(out, "unique verdicts differ, or differ from the counts: native {n}, sat {s}, auto {a}")?;
        }
        out.flush()?;
    }
    Ok(answer)
}

/// `unique`, `none`, `multiple` or `unknown`.
fn word(verdict: &Uniqueness) -> &'static str {
    match verdict {
        Uniqueness::Unique(_) => "unique",
        Uniqueness::None => "none",
        Uniqueness::Multiple(..) => "multiple",
        Uniqueness::Unknown(_) => "unknown",
    }
}

/// The `unique` verdict of every backend, if they agree with each other
/// and with the counts of the runs that counted to the end.
fn agreed_verdict(report: &Report, verdicts: &[&'static str; 3]) -> Option<&'static str> {
    let first = verdicts[0];
    let counted = |count: u64| match count {
        0 => "none",
        1 => "unique",
        _ => "multiple",
    };
    // A run cut short by the limit tells only that there are at least its count.
    let fits = report.runs.iter().all(|run| match run.complete {
        true => counted(run.count) == first,
        false => run.count < 2 || first == "multiple",
    });
    (verdicts.iter().all(|&v| v == first) && fits).then_some(first)
}

/// The digest of the solution set every run found whole, if they all did
/// and agree: the digest of a run cut short is of a partial set.
fn agreed_digest(report: &Report) -> Option<String> {
    let first = &report.runs[0];
    let same = report.runs.iter().all(|run| run.complete && run.digest == first.digest);
    same.then(|| first.digest.to_string())
}

/// One JSON line for a puzzle: each run with its count, completeness, time
/// and counters, whether they agree, the digest of the agreed set, and what
/// was found wrong.
fn write_json(
    out: &mut dyn Write,
    entry: &Entry,
    report: &Report,
    verdicts: &[&str; 3],
    verdicts_agree: bool,
) -> io::Result<()> {
    let runs: Vec<serde_json::Value> = report
        .runs
        .iter()
        .zip(verdicts)
        .map(|(run, verdict)| {
            let mut record = serde_json::to_value(run.stats).expect("stats serialise");
            record["backend"] = run.name.clone().into();
            record["count"] = run.count.into();
            record["complete"] = run.complete.into();
            record["elapsed_ms"] = (run.elapsed.as_micros() as f64 / 1e3).into();
            record["verdict"] = (*verdict).into();
            record
        })
        .collect();
    let record = serde_json::json!({
        "type": "check",
        "source": entry.source,
        "line": entry.line,
        "size": entry.puzzle.size(),
        "agree": report.agree(),
        "verdicts_agree": verdicts_agree,
        "digest": agreed_digest(report),
        "disagreement": report.disagreement.as_ref().map(ToString::to_string),
        "runs": runs,
    });
    serde_json::to_writer(&mut *out, &record)?;
    writeln!(out)?;
    out.flush()
}
