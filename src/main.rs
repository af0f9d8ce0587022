//! The `cagey` command: a thin shell over the library.

mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::args::Cli::try_parse() {
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
    let started = *cli::stop::STARTED;
    // The first Ctrl-C stops the searches, which print what they found; a
    // second one ends the process at once.
    let _ = ctrlc::set_handler(|| {
        if cli::stop::INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = cli::run(args, &mut out);
    let result = result.and_then(|answer| out.flush().map(|()| answer).map_err(Into::into));
    match result {
        Ok(cli::Answer::Interrupted) => {
            eprintln!("cagey: interrupted after {:.2} s", started.elapsed().as_secs_f64());
            cli::Answer::Interrupted.into()
        }
        Ok(answer) => answer.into(),
        // `cagey solve --all | head` closes the pipe early; that is not an error.
        Err(cli::RunError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(cli::RunError::Io(e)) => {
            eprintln!("cagey: cannot write output: {e}");
            ExitCode::from(2)
        }
        Err(cli::RunError::Cli(e)) => {
            // Results for the puzzles before the error still go out.
            let _ = out.flush();
            eprintln!("cagey: {e}");
            ExitCode::from(2)
        }
    }
}
