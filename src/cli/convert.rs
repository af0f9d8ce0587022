//! `cagey convert`: puzzles written in another format.

use std::io::Write;
use std::time::Duration;

use cagey::format::{fpuzzles, keen, kenken, killer, sudoku};
use cagey::{Grid, Puzzle, Solver};

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
            ConvertTo::FPuzzles | ConvertTo::SudokuPad => {
                let solution = if args.no_solution { None } else { only_solution(puzzle, &entry.label())? };
                let link = match args.to {
                    ConvertTo::FPuzzles => fpuzzles::fpuzzles_link(puzzle, solution.as_ref()),
                    _ => fpuzzles::sudokupad_link(puzzle, solution.as_ref()),
                };
                link.map(|link| link + "\n")
            }
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

/// Time to find out whether a puzzle has exactly one solution to embed.
const SOLUTION_TIME: Duration = Duration::from_secs(10);

/// The solution of a puzzle that has exactly one; none, with a warning,
/// when that is not known within [`SOLUTION_TIME`].
fn only_solution(puzzle: &Puzzle, place: &str) -> Result<Option<Grid>, RunError> {
    let solver = Solver::builder().timeout(SOLUTION_TIME).build();
    let solutions = solver.solutions(puzzle, Some(2)).map_err(|error| CliError::Unfit {
        place: place.to_string(),
        message: format!("cannot solve it to embed its solution ({error}): try --no-solution"),
    })?;
    if !solutions.stats.complete && solutions.grids.len() < 2 {
        eprintln!(
            "cagey: warning: {place}: not solved within {} s: the link carries no solution",
            SOLUTION_TIME.as_secs()
        );
    }
    let complete = solutions.stats.complete;
    let mut grids = solutions.grids.into_iter();
    Ok(match (grids.next(), grids.next()) {
        (Some(only), None) if complete => Some(only),
        _ => None,
    })
}
