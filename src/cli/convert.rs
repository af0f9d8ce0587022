//! `cagey convert`: puzzles written in another format.

use std::io::Write;

use cagey::format::{keen, kenken, killer, sudoku};

use super::args::{ConvertArgs, ConvertTo};
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries};

pub fn convert(args: &ConvertArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let mut first = true;
    for entry in entries {
        let entry = entry?;
        // A comment in every format cagey writes, in the skipped puzzle's place.
        if let Some(error) = &entry.skipped {
            writeln!(out, "# {}: skipped: {error}", entry.label())?;
            continue;
        }
        let puzzle = &entry.puzzle;
        let written = match args.to {
            ConvertTo::KenKen => Ok(kenken::write(puzzle)),
            ConvertTo::Keen => keen::write(puzzle).map(|id| id + "\n"),
            ConvertTo::Sudoku => sudoku::write(puzzle),
            ConvertTo::Grid => sudoku::write_grid(puzzle),
            ConvertTo::Killer => killer::write(puzzle).map(|line| line + "\n"),
        };
        let written = written.map_err(|error| CliError::Unfit { place: entry.label(), message: error.to_string() })?;
        // Puzzles of several lines are set apart by a blank line.
        if !first && matches!(args.to, ConvertTo::KenKen | ConvertTo::Grid) {
            writeln!(out)?;
        }
        write!(out, "{written}")?;
        first = false;
    }
    out.flush()?;
    Ok(Answer::Positive)
}
