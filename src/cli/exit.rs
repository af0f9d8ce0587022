//! What a command answers, as an exit status, and how it can fail.

use std::io;
use std::process::ExitCode;

use super::input::CliError;

/// The answer a command gives, as an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Solved, unique: exit 0.
    Positive,
    /// No solution, not unique: exit 1.
    Negative,
    /// A timeout cut a search short: exit 3.
    TimedOut,
    /// Ctrl-C stopped the run: exit 130, as shells report SIGINT.
    Interrupted,
    /// Puzzles that could not be read were skipped (`--keep-going`): exit 2.
    BadInput,
}

impl Answer {
    /// The answer for a run of several puzzles: an interruption over bad
    /// input, over a timeout, over a negative answer, over a positive one.
    pub fn and(self, other: Answer) -> Answer {
        match (self, other) {
            (Answer::Interrupted, _) | (_, Answer::Interrupted) => Answer::Interrupted,
            (Answer::BadInput, _) | (_, Answer::BadInput) => Answer::BadInput,
            (Answer::TimedOut, _) | (_, Answer::TimedOut) => Answer::TimedOut,
            (Answer::Negative, _) | (_, Answer::Negative) => Answer::Negative,
            _ => Answer::Positive,
        }
    }
}

impl From<Answer> for ExitCode {
    fn from(answer: Answer) -> ExitCode {
        match answer {
            Answer::Positive => ExitCode::SUCCESS,
            Answer::Negative => ExitCode::from(1),
            Answer::TimedOut => ExitCode::from(3),
            Answer::Interrupted => ExitCode::from(130),
            Answer::BadInput => ExitCode::from(2),
        }
    }
}

/// An error while running a command: bad input, or a failed write.
#[derive(Debug)]
pub enum RunError {
    /// Bad input or a refusal: exit 2 with a message.
    Cli(CliError),
    /// Writing the output failed (a closed pipe is not reported).
    Io(io::Error),
}

impl From<io::Error> for RunError {
    fn from(error: io::Error) -> Self {
        RunError::Io(error)
    }
}

impl From<CliError> for RunError {
    fn from(error: CliError) -> Self {
        RunError::Cli(error)
    }
}
