//! The command-line front end: arguments → puzzles → library calls →
//! output and an exit status.

mod analyze;
pub mod args;
mod batch;
mod check;
mod cnf;
mod convert;
mod exit;
mod fuzz;
mod input;
mod output;
mod progress;
mod proof;
mod random;
mod render;
mod solve;
pub mod stop;

use std::io::Write;

use args::{Cli, Command, PuzzleFiles};
pub use exit::{Answer, RunError};
use input::Entries;

/// Runs the parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Answer, RunError> {
    match cli.command {
        Command::Solve(args) => {
            let budget = args.input.solver.tuples.budget();
            on_puzzles(&args.input.puzzles, budget, out, |entries, out| solve::solve(&args, entries, out))
        }
        Command::Count(args) => {
            let budget = args.input.solver.tuples.budget();
            on_puzzles(&args.input.puzzles, budget, out, |entries, out| solve::count(&args, entries, out))
        }
        Command::Unique(args) => {
            let budget = args.input.solver.tuples.budget();
            on_puzzles(&args.input.puzzles, budget, out, |entries, out| solve::unique(&args, entries, out))
        }
        Command::Analyze(args) => {
            let budget = args.input.solver.tuples.budget();
            on_puzzles(&args.input.puzzles, budget, out, |entries, out| analyze::analyze(&args, entries, out))
        }
        Command::Check(args) => {
            on_puzzles(&args.input, args.tuples.budget(), out, |entries, out| check::check(&args, entries, out))
        }
        Command::Convert(args) => {
            on_puzzles(&args.input, u64::MAX, out, |entries, out| convert::convert(&args, entries, out))
        }
        Command::Render(args) => {
            let budget = args.solver.tuples.budget();
            on_puzzles(&args.puzzles, budget, out, |entries, out| render::render(&args, entries, out))
        }
        Command::CheckProof(args) => proof::check_proof(&args, out),
        Command::Cnf(args) => cnf::cnf(&args, out),
        Command::Generate(args) => random::generate(&args, out),
        Command::Fuzz(args) => fuzz::fuzz(&args, out),
    }
}

/// Runs `command` on the puzzles of `files`, read as it takes them within
/// the memory budget; a run that skipped puzzles it could not read
/// (`--keep-going`) answers "bad input" at the end.
fn on_puzzles(
    files: &PuzzleFiles,
    budget: u64,
    out: &mut dyn Write,
    command: impl FnOnce(&mut Entries, &mut dyn Write) -> Result<Answer, RunError>,
) -> Result<Answer, RunError> {
    let mut entries = Entries::of(files, budget);
    let answer = command(&mut entries, out)?;
    Ok(if entries.skipped > 0 { answer.and(Answer::BadInput) } else { answer })
}
