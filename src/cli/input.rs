//! Reading the puzzle files named on the command line.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use cagey::format::{self, Boxes, Format, ParseOptions};
use cagey::{ParseError, Puzzle, SolveError};

use super::args::PuzzleFiles;

/// A puzzle with the place it was read from.
pub struct Entry {
    /// `FILE:LINE`, naming the puzzle in output.
    pub source: String,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    pub puzzle: Puzzle,
}

impl Entry {
    pub fn label(&self) -> String {
        format!("{}:{}", self.source, self.line)
    }
}

/// An error the command line reports with exit status 2.
#[derive(Debug)]
pub enum CliError {
    Read {
        path: PathBuf,
        error: io::Error,
    },
    Write {
        path: PathBuf,
        error: io::Error,
    },
    NotUtf8 {
        name: String,
        line: usize,
        column: usize,
    },
    Parse(ParseError),
    Solve {
        label: String,
        error: SolveError,
    },
    /// Input that parsed but does not fit what the command needs.
    Unfit {
        place: String,
        message: String,
    },
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Read { path, error } => write!(f, "{}: cannot read: {error}", path.display()),
            CliError::Write { path, error } => write!(f, "{}: cannot write: {error}", path.display()),
            CliError::NotUtf8 { name, line, column } => {
                write!(f, "{name}:{line}:{column}: not UTF-8 text: expected a puzzle in a text file")
            }
            CliError::Parse(error) => write!(f, "{error}"),
            CliError::Solve { label, error } => write!(f, "{label}: {error}"),
            CliError::Unfit { place, message } => write!(f, "{place}: {message}"),
        }
    }
}

/// Reads and parses every file, in order, before any solving starts.
/// Warnings (KenKen cells in no cage) go to `warnings`.
pub fn load(args: &PuzzleFiles, warnings: &mut dyn Write) -> Result<Vec<Entry>, CliError> {
    load_files(&args.files, args.input, args.boxes, warnings)
}

/// [`load`] for files read with a forced format (or none) and box shape.
pub fn load_files(
    files: &[PathBuf],
    forced: Option<Format>,
    boxes: Boxes,
    warnings: &mut dyn Write,
) -> Result<Vec<Entry>, CliError> {
    let mut entries = Vec::new();
    for path in files {
        let (name, text) = read(path)?;
        let format = forced.or_else(|| format::detect(&text));
        let options = ParseOptions { format, boxes };
        for parsed in format::parse(&text, &name, &options).map_err(CliError::Parse)? {
            let uncaged = parsed.puzzle.uncaged_cells();
            if format == Some(Format::KenKen) && !uncaged.is_empty() {
                let cells: Vec<String> = uncaged.iter().map(ToString::to_string).collect();
                // A failed warning must not stop the work.
                let _ = writeln!(
                    warnings,
                    "cagey: warning: {name}:{}: cells in no cage, constrained only by their row and column: {}",
                    parsed.line,
                    cells.join(" ")
                );
            }
            entries.push(Entry { source: name.clone(), line: parsed.line, puzzle: parsed.puzzle });
        }
    }
    Ok(entries)
}

/// The display name and text of a file, `-` being standard input.
pub fn read(path: &Path) -> Result<(String, String), CliError> {
    let (name, bytes) = if path == Path::new("-") {
        let mut bytes = Vec::new();
        io::stdin().read_to_end(&mut bytes).map_err(|error| CliError::Read { path: path.to_path_buf(), error })?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(path).map_err(|error| CliError::Read { path: path.to_path_buf(), error })?;
        (path.display().to_string(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(e) => {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let before = std::str::from_utf8(valid).expect("valid up to here");
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            Err(CliError::NotUtf8 { name, line, column })
        }
    }
}
