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

use args::{Cli, Command};
pub use exit::{Answer, RunError};
use input::Entries;

/// Runs the parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Answer, RunError> {
    match cli.command {
        Command::Solve(args) => {
            let mut entries = Entries::of(&args.input.puzzles, args.input.solver.tuples.budget());
            Ok(with_skipped(solve::solve(&args, &mut entries, out)?, entries.skipped))
        }
        Command::Count(args) => {
            let mut entries = Entries::of(&args.input.puzzles, args.input.solver.tuples.budget());
            Ok(with_skipped(solve::count(&args, &mut entries, out)?, entries.skipped))
        }
        Command::Unique(args) => {
            let mut entries = Entries::of(&args.input.puzzles, args.input.solver.tuples.budget());
            Ok(with_skipped(solve::unique(&args, &mut entries, out)?, entries.skipped))
        }
        Command::Analyze(args) => {
            let mut entries = Entries::of(&args.input.puzzles, args.input.solver.tuples.budget());
            Ok(with_skipped(analyze::analyze(&args, &mut entries, out)?, entries.skipped))
        }
        Command::CheckProof(args) => proof::check_proof(&args, out),
        Command::Cnf(args) => cnf::cnf(&args, out),
        Command::Convert(args) => convert::convert(&args, out),
        Command::Render(args) => render::render(&args, out),
        Command::Check(args) => check::check(&args, out),
        Command::Generate(args) => random::generate(&args, out),
        Command::Fuzz(args) => fuzz::fuzz(&args, out),
    }
}

/// The answer of a run that skipped puzzles it could not read
/// (`--keep-going`): bad input, at the end.
fn with_skipped(answer: Answer, skipped: usize) -> Answer {
    if skipped > 0 { answer.and(Answer::BadInput) } else { answer }
}
