//! `cagey check`: both backends on every puzzle, side by side.

use std::io::{self, Write};

use cagey::check::{Limits, cross_check};
use cagey::{Backend, Enumerate, Solver};

use super::args::CheckArgs;
use super::exit::{Answer, RunError};
use super::input::{CliError, load};

pub fn check(args: &CheckArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let entries = load(&args.input, &mut io::stderr())?;
    let [native, sat] =
        Backend::ALL.map(|backend| Solver::builder().backend(backend).tuple_limit(args.tuples.tuple_limit).build());
    let solvers: [(&str, &dyn Enumerate); 2] = [("native", &native), ("sat", &sat)];
    let width = entries.iter().map(|e| e.label().len()).max().unwrap_or(0).max("puzzle".len());
    writeln!(
        out,
        "{:width$}  {:>9}  {:>9}  {:5}  {:>11}  {:>11}  digest",
        "puzzle", "native", "sat", "agree", "native ms", "sat ms"
    )?;
    let mut answer = Answer::Positive;
    for entry in &entries {
        let report = cross_check(&entry.puzzle, &solvers, Limits { stop: Some(args.limit), store: args.store })
            .map_err(|error| CliError::Solve { label: entry.label(), error })?;
        let count = |i: usize| {
            let run = &report.runs[i];
            format!("{}{}", run.count, if run.complete { "" } else { "+" })
        };
        let ms = |i: usize| format!("{:.2}", report.runs[i].elapsed.as_secs_f64() * 1e3);
        let agree = if report.agree() { "yes" } else { "NO" };
        // The digest of a run cut short is of a partial set: none is shown.
        let digest = match &report.runs[..] {
            [a, b] if a.complete && b.complete && a.digest == b.digest => a.digest.to_string(),
            _ => "-".to_string(),
        };
        writeln!(
            out,
            "{:width$}  {:>9}  {:>9}  {agree:5}  {:>11}  {:>11}  {digest}",
            entry.label(),
            count(0),
            count(1),
            ms(0),
            ms(1)
        )?;
        if let Some(disagreement) = &report.disagreement {
            writeln!(out, "{disagreement}")?;
            answer = Answer::Negative;
        }
        out.flush()?;
    }
    Ok(answer)
}
