//! Rendering results as text or JSON lines.

use std::io::{self, Write};
use std::time::Duration;

use cagey::{Backend, Grid, Stats};
use serde::{Serialize, Serializer};

use super::input::Entry;

/// One line of JSON output.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Record<'a> {
    /// A solution of a puzzle, as `solve` streams it.
    Solution { source: &'a str, line: usize, grid: Rows<'a> },
    /// What became of one puzzle: the last line about it.
    Result(Box<Outcome<'a>>),
}

/// The answer for one puzzle, with what the search did.
#[derive(Serialize)]
pub struct Outcome<'a> {
    source: &'a str,
    line: usize,
    size: usize,
    backend: &'static str,
    /// `unique`, `none` or `multiple`, for `unique`.
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'static str>,
    /// The solutions behind the verdict, for `unique`.
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<Rows<'a>>>,
    /// The cells where two solutions differ, in the puzzle's own names,
    /// for `unique` (none unless the verdict is `multiple`).
    #[serde(skip_serializing_if = "Option::is_none")]
    differ: Option<Vec<String>>,
    /// The directory of the certificate of a unique verdict, for `unique`
    /// (null without `--proof`).
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<Option<String>>,
    #[serde(flatten)]
    stats: Stats,
    elapsed_ms: f64,
    /// What the puzzle's text held that constrains nothing.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    ignored: &'a [String],
}

impl<'a> Outcome<'a> {
    pub fn new(entry: &'a Entry, backend: Backend, stats: Stats, elapsed: Duration) -> Self {
        Outcome {
            source: &entry.source,
            line: entry.line,
            size: entry.puzzle.size(),
            backend: backend.name(),
            verdict: None,
            solutions: None,
            differ: None,
            certificate: None,
            stats,
            // Whole microseconds: no digits of float noise past them.
            elapsed_ms: elapsed.as_micros() as f64 / 1e3,
            ignored: &entry.ignored,
        }
    }

    /// With the cells where the two solutions of a verdict differ.
    pub fn with_differ(self, cells: Vec<String>) -> Self {
        Outcome { differ: Some(cells), ..self }
    }

    /// With the directory of the verdict's certificate.
    pub fn with_certificate(self, dir: String) -> Self {
        Outcome { certificate: Some(Some(dir)), ..self }
    }

    /// With a uniqueness verdict and the grids behind it.
    pub fn with_verdict(self, verdict: &'static str, grids: &[&'a Grid]) -> Self {
        let solutions = Some(grids.iter().map(|&g| Rows(g)).collect());
        Outcome {
            verdict: Some(verdict),
            solutions,
            differ: self.differ.or(Some(Vec::new())),
            certificate: self.certificate.or(Some(None)),
            ..self
        }
    }
}

/// A grid as a JSON array of rows.
pub struct Rows<'a>(pub &'a Grid);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.rows())
    }
}

/// Writes one JSON record on its own line.
pub fn write_record(out: &mut dyn Write, record: &Record) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    writeln!(out)
}

/// Writes a grid in the seeds' style followed by a blank line.
pub fn write_grid(out: &mut dyn Write, grid: &Grid) -> io::Result<()> {
    write!(out, "{grid}")?;
    writeln!(out)
}

/// `1 solution`, `3 solutions`.
pub fn plural(count: u64, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}
