//! The `cagey` command, a thin shell over the library: arguments →
//! puzzles → library calls → output and an exit status.

mod analyze;
mod args;
mod batch;
mod check;
mod cnf;
mod convert;
mod exit;
mod fuzz;
mod input;
mod manual;
mod output;
mod progress;
mod proof;
mod random;
mod render;
mod serve;
mod solve;
mod stop;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::Parser;

use args::{Cli, Command, PuzzleFiles};
use exit::{Answer, RunError};
use input::Entries;

fn main() -> ExitCode {
    let args = match Cli::try_parse() {
        Ok(args) => args,
        // Help and version go to standard output, usage errors to standard
        // error; output that cannot be written is an error too.
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            return match error.print() {
                Ok(()) => ExitCode::from(code),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(code),
                Err(e) => {
                    eprintln!("cagey: cannot write output: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    let started = *stop::STARTED;
    // The first Ctrl-C stops the searches, which print what they found; a
    // second one ends the process at once.
    let _ = ctrlc::set_handler(|| {
        if stop::INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = run(args, &mut out);
    let result = result.and_then(|answer| out.flush().map(|()| answer).map_err(Into::into));
    match result {
        Ok(Answer::Interrupted) => {
            eprintln!("cagey: interrupted after {:.2} s", started.elapsed().as_secs_f64());
            Answer::Interrupted.into()
        }
        Ok(answer) => answer.into(),
        // `cagey solve --all | head` closes the pipe early; that is not an error.
        Err(RunError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(RunError::Io(e)) => {
            eprintln!("cagey: cannot write output: {e}");
            ExitCode::from(2)
        }
        Err(RunError::Cli(e)) => {
            // Results for the puzzles before the error still go out.
            let _ = out.flush();
            eprintln!("cagey: {e}");
            ExitCode::from(2)
        }
    }
}

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
        Command::Serve(args) => serve::serve(&args, out),
        Command::Completions(args) => manual::completions(&args, out),
        Command::Man(args) => manual::man(&args, out),
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
