//! The command-line front end: arguments → puzzles → library calls →
//! output and an exit status.

pub mod args;
mod batch;
mod check;
mod cnf;
mod exit;
mod fuzz;
mod input;
mod output;
mod progress;
mod random;
mod solve;
pub mod stop;

use std::io::{self, Write};

use args::{Cli, Command};
pub use exit::{Answer, RunError};
use input::load;

/// Runs the parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Answer, RunError> {
    let stderr = &mut io::stderr();
    match cli.command {
        Command::Solve(args) => solve::solve(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Count(args) => solve::count(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Unique(args) => solve::unique(&args, &load(&args.input.puzzles, stderr)?, out),
        Command::Cnf(args) => cnf::cnf(&args, out),
        Command::Check(args) => check::check(&args, out),
        Command::Generate(args) => random::generate(&args, out),
        Command::Fuzz(args) => fuzz::fuzz(&args, out),
    }
}
