//! `cagey cnf`: the SAT encoding of one puzzle as DIMACS CNF.

use std::io::Write;
use std::path::Path;

use cagey::{Grid, Puzzle, Solver, verify};

use super::args::CnfArgs;
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries, grids};

pub fn cnf(args: &CnfArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let files = std::slice::from_ref(&args.file);
    // The puzzle asked for (the first by default) and how many there are.
    let (mut chosen, mut count) = (None, 0);
    for entry in Entries::new(files, args.read, args.tuples.budget()) {
        let entry = entry?;
        count += 1;
        if count == args.puzzle.unwrap_or(1) {
            if let Some(error) = &entry.skipped {
                return Err(CliError::Unfit {
                    place: entry.label(),
                    message: format!("the puzzle asked for cannot be read: {error}"),
                }
                .into());
            }
            chosen = Some(entry);
        }
    }
    let name = args.file.display().to_string();
    let entry = match (args.puzzle, count) {
        (None, 1) => chosen.expect("the one puzzle"),
        (None, count) => {
            let message = format!("the file holds {count} puzzles: choose one with --puzzle K");
            return Err(CliError::Unfit { place: name, message }.into());
        }
        (Some(k), count) if k == 0 || k > count => {
            let message = format!("--puzzle {k} is out of range: the file holds {count} puzzles, numbered from 1");
            return Err(CliError::Unfit { place: name, message }.into());
        }
        (Some(_), _) => chosen.expect("puzzle K"),
    };
    let blocked = match &args.block {
        Some(path) => read_solutions(path, &entry.puzzle, args.tuples.budget())?,
        None => Vec::new(),
    };
    let solver = args.tuples.apply(Solver::builder()).build();
    let cnf = solver.cnf(&entry.puzzle).map_err(|error| CliError::Solve { label: entry.label(), error })?;
    cnf.write_dimacs(out, &blocked)?;
    Ok(Answer::Positive)
}

/// The full grids of a file, each a solution of the puzzle.
fn read_solutions(path: &Path, puzzle: &Puzzle, memory: u64) -> Result<Vec<Grid>, CliError> {
    grids(path, puzzle.size(), memory)?
        .into_iter()
        .map(|(place, grid)| match verify(puzzle, &grid) {
            Ok(()) => Ok(grid),
            Err(violation) => {
                let message = format!("not a solution of the puzzle ({violation}): --block takes its solutions");
                Err(CliError::Unfit { place, message })
            }
        })
        .collect()
}
