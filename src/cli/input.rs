//! Reading the puzzle files named on the command line.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use cagey::format::{self, Boxes, Format, ParseOptions, Parsed};
use cagey::{ParseError, ParseErrorKind, Puzzle, SolveError};
use itertools::Itertools;
use thiserror::Error;

use super::args::{PuzzleFiles, ReadArgs};

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
#[derive(Debug, Error)]
pub enum CliError {
    #[error("{}: cannot read: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    #[error("{}: cannot write: {error}", path.display())]
    Write { path: PathBuf, error: io::Error },
    #[error("{name}:{line}:{column}: {found}: expected a puzzle in a text file")]
    NotText { name: String, line: usize, column: usize, found: &'static str },
    #[error(transparent)]
    Parse(ParseError),
    /// A file read as KenKen for a `# N` line that reads as Sudoku without it.
    #[error(
        "{0} (read as KenKen for its '# N' line; if it is Sudoku, whose '#' lines are comments, use --input-format sudoku)"
    )]
    LooksLikeSudoku(ParseError),
    #[error("{label}: {error}")]
    Solve { label: String, error: SolveError },
    /// Input that parsed but does not fit what the command needs.
    #[error("{place}: {message}")]
    Unfit { place: String, message: String },
}

/// Reads and parses every file, in order, before any solving starts.
/// Warnings (KenKen cells in no cage), and with `--keep-going` the puzzles
/// that could not be read, go to `warnings`.
pub fn load(args: &PuzzleFiles, warnings: &mut dyn Write) -> Result<Loaded, CliError> {
    load_files(&args.files, args.read, warnings)
}

/// The puzzles read, and how many could not be (with `--keep-going`).
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub skipped: usize,
}

/// [`load`] for any list of files.
pub fn load_files(files: &[PathBuf], read_args: ReadArgs, warnings: &mut dyn Write) -> Result<Loaded, CliError> {
    let (forced, boxes) = (read_args.input_format, read_args.boxes.boxes);
    let mut entries = Vec::new();
    let mut skipped = 0;
    let mut warned = false;
    for path in files {
        let (name, text) = read(path)?;
        let format = forced.or_else(|| format::detect(&text));
        if format == Some(Format::KenKen) && boxes != Boxes::Default {
            let _ = writeln!(
                warnings,
                "cagey: warning: {name}: --boxes applies to Sudoku input; a KenKen file gives its boxes on its \
                 size line ('# 9 boxes 3x3')"
            );
        }
        let options = ParseOptions { format, boxes };
        let whole = format::parse(&text, &name, &options).map_err(|error| {
            let uncommented = text.lines().filter(|line| !line.trim_start().starts_with('#')).join("\n");
            match forced.is_none() && format::detect(&uncommented) == Some(Format::Sudoku) {
                true if format == Some(Format::KenKen) => CliError::LooksLikeSudoku(error),
                _ => CliError::Parse(error),
            }
        });
        let parsed = match whole {
            Ok(parsed) => parsed,
            Err(_) if read_args.keep_going && format.is_some() => {
                let options = ParseOptions { format, ..options };
                let (parsed, errors) = parse_pieces(&text, &name, &options);
                for error in &errors {
                    let _ = writeln!(warnings, "cagey: {error}");
                }
                skipped += errors.len();
                parsed
            }
            Err(error) => return Err(error),
        };
        for parsed in parsed {
            let uncaged = if format == Some(Format::KenKen) { parsed.puzzle.uncaged_cells() } else { Vec::new() };
            if !uncaged.is_empty() {
                const SHOWN: usize = 8;
                let more = uncaged.len().saturating_sub(SHOWN);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                let cells = uncaged.iter().take(SHOWN).join(" ");
                let (line, count) = (parsed.line, uncaged.len());
                // A failed warning must not stop the work.
                let cells_word = if count == 1 { "cell" } else { "cells" };
                let _ =
                    writeln!(warnings, "cagey: warning: {name}:{line}: {count} {cells_word} in no cage: {cells}{more}");
                if !warned {
                    let _ = writeln!(
                        warnings,
                        "cagey: note: a cell in no cage is allowed (only its rows, columns and boxes constrain it); \
                         the warning is on standard error, which 2>/dev/null silences"
                    );
                    warned = true;
                }
            }
            entries.push(Entry { source: name.clone(), line: parsed.line, puzzle: parsed.puzzle });
        }
    }
    Ok(Loaded { entries, skipped })
}

/// Parses a text piece by piece, so that one bad puzzle costs only itself:
/// KenKen from each size line to the next, Sudoku block by block between
/// blank lines, and line by line in a block that fails whole. The puzzles
/// read, and the errors of the pieces that could not be.
fn parse_pieces(text: &str, name: &str, options: &ParseOptions) -> (Vec<Parsed>, Vec<ParseError>) {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = match options.format {
        Some(Format::KenKen) => {
            let size_line = |line: &str| {
                let rest = line.trim_start().strip_prefix('#').unwrap_or("x").trim_start();
                rest.starts_with(|c: char| c.is_ascii_digit())
            };
            (0..lines.len()).filter(|&i| i == 0 || size_line(lines[i])).collect()
        }
        _ => (0..lines.len()).filter(|&i| i == 0 || lines[i - 1].trim().is_empty()).collect(),
    };
    let (mut parsed, mut errors) = (Vec::new(), Vec::new());
    let ends = starts.iter().skip(1).copied().chain([lines.len()]);
    let mut pieces: VecDeque<(usize, usize)> = starts.iter().copied().zip(ends).collect();
    while let Some((start, end)) = pieces.pop_front() {
        match format::parse(&lines[start..end].join("\n"), name, options) {
            Ok(found) => parsed.extend(found.into_iter().map(|p| Parsed { line: p.line + start, ..p })),
            Err(error) if error.kind == ParseErrorKind::Empty => {}
            // A Sudoku block of one-line puzzles: one line at a time.
            Err(_) if options.format == Some(Format::Sudoku) && end - start > 1 => {
                for i in (start..end).rev() {
                    pieces.push_front((i, i + 1));
                }
            }
            Err(error) => errors.push(ParseError { line: error.line + start, ..error }),
        }
    }
    (parsed, errors)
}

/// The display name and text of a file, `-` being standard input.
pub fn read(path: &Path) -> Result<(String, String), CliError> {
    let failed = |error| CliError::Read { path: path.to_path_buf(), error };
    if path == Path::new("-") {
        let text = read_text(io::stdin().lock(), "<stdin>").map_err(|e| e.into_cli(failed))?;
        Ok(("<stdin>".to_string(), text))
    } else {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(failed)?;
        let text = read_text(file, &name).map_err(|e| e.into_cli(failed))?;
        Ok((name, text))
    }
}

/// Why a text could not be read.
enum ReadFailure {
    Io(io::Error),
    NotText(CliError),
}

impl ReadFailure {
    fn into_cli(self, failed: impl FnOnce(io::Error) -> CliError) -> CliError {
        match self {
            ReadFailure::Io(error) => failed(error),
            ReadFailure::NotText(error) => error,
        }
    }
}

/// Reads a whole text, a block at a time, stopping at the first byte that
/// no text holds (a NUL, or one that is not UTF-8), so that `/dev/zero` or
/// a binary file is refused at once instead of read into memory.
fn read_text(mut reader: impl Read, name: &str) -> Result<String, ReadFailure> {
    let mut bytes = Vec::new();
    let mut block = vec![0u8; 1 << 16];
    // Bytes known to be whole UTF-8 characters.
    let mut checked = 0;
    loop {
        let read = match reader.read(&mut block) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadFailure::Io(e)),
        };
        bytes.extend_from_slice(&block[..read]);
        let (valid, bad) = match std::str::from_utf8(&bytes[checked..]) {
            Ok(_) => (bytes.len(), None),
            Err(e) => (checked + e.valid_up_to(), e.error_len().map(|_| "not UTF-8 text")),
        };
        let nul = bytes[checked..valid].iter().position(|&b| b == 0).map(|i| checked + i);
        if let Some((at, found)) = nul.map(|at| (at, "a NUL byte")).or(bad.map(|found| (valid, found))) {
            return Err(not_text(name, &bytes[..at], found));
        }
        checked = valid;
    }
    // A character cut off by the end of the file.
    String::from_utf8(bytes)
        .map_err(|e| not_text(name, &e.as_bytes()[..e.utf8_error().valid_up_to()], "not UTF-8 text"))
}

/// The error for a byte no text holds, after the text `before`.
fn not_text(name: &str, before: &[u8], found: &'static str) -> ReadFailure {
    let before = std::str::from_utf8(before).expect("text up to the bad byte");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    ReadFailure::NotText(CliError::NotText { name: name.to_string(), line, column, found })
}
