//! Reading the puzzle files named on the command line.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use cagey::format::{self, Boxes, Format, ParseOptions, Parsed, Parser};
use cagey::{Cage, Cell, Grid, Op, ParseError, Puzzle, SolveError, Violation};
use itertools::Itertools;
use thiserror::Error;

use super::args::{BoxesArg, PuzzleFiles, ReadArgs};

/// A puzzle with the place it was read from.
pub struct Entry {
    /// `FILE:LINE`, naming the puzzle in output.
    pub source: String,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    pub puzzle: Puzzle,
    /// The format it was read in, which names its cells.
    pub format: Format,
    /// With `--keep-going`, a puzzle that could not be read: why. It still
    /// takes its line in the output (see [`Entry::write_skipped`]); its
    /// `puzzle` is an empty 1×1 stand-in, never to be answered.
    pub skipped: Option<String>,
    /// What the text held that constrains nothing (see [`Parsed::ignored`]).
    pub ignored: Vec<String>,
}

impl Entry {
    /// The line a skipped puzzle leaves in the output, so that the output
    /// keeps one line, or record, for every puzzle.
    pub fn write_skipped(&self, out: &mut dyn Write, json: bool) -> io::Result<()> {
        let error = self.skipped.as_deref().unwrap_or_default();
        if json {
            let record =
                serde_json::json!({"type": "skipped", "source": self.source, "line": self.line, "error": error});
            writeln!(out, "{record}")
        } else {
            writeln!(out, "{}: skipped: {error}", self.label())
        }
    }

    pub fn label(&self) -> String {
        format!("{}:{}", self.source, self.line)
    }

    /// A cell's name in the puzzle's own notation: `B3` (row letter, column
    /// number) for KenKen and Keen, `r2c3` for Sudoku, `R2C3` for f-puzzles.
    pub fn cell_name(&self, cell: Cell) -> String {
        match self.format {
            Format::KenKen | Format::Keen => cell.to_string(),
            Format::Sudoku | Format::Killer => format!("r{}c{}", cell.row + 1, cell.col + 1),
            Format::FPuzzles => format!("R{}C{}", cell.row + 1, cell.col + 1),
        }
    }

    /// Why a grid is not a solution, with the puzzle's groups and cages
    /// named as the puzzle's text names them, not by internal index.
    pub fn explain(&self, violation: &Violation) -> String {
        let cells_named = |cells: &[Cell]| cells.iter().map(|&c| self.cell_name(c)).join(" ");
        match *violation {
            Violation::Repeated { group, value } => {
                let cells = self.puzzle.groups()[group].cells();
                let place = match cells {
                    [a, rest @ ..] if rest.iter().all(|c| c.row == a.row) => format!("row {}", a.row + 1),
                    [a, rest @ ..] if rest.iter().all(|c| c.col == a.col) => format!("column {}", a.col + 1),
                    _ => format!("the group {}", cells_named(cells)),
                };
                format!("{value} repeats in {place}")
            }
            Violation::CageBroken { cage } => {
                let cage = &self.puzzle.cages()[cage];
                format!("the cage '{} {} {}' does not hold", cage.op(), cage.target(), cells_named(cage.cells()))
            }
            _ => violation.to_string(),
        }
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
    /// A puzzle whose text passes its share of the memory budget.
    #[error(
        "{name}:{line}: one puzzle's text passes {} MB, 1/{INPUT_SHARE} of the memory budget: if this is a puzzle, raise --memory",
        most.div_ceil(1_000_000)
    )]
    TooLong { name: String, line: usize, most: usize },
    /// Input that parsed but does not fit what the command needs.
    #[error("{place}: {message}")]
    Unfit { place: String, message: String },
}

/// The puzzles of the files on the command line, read as they are taken:
/// a file of a million puzzles never sits in memory whole, only the puzzle
/// being read. Warnings (KenKen cells in no cage), and with `--keep-going`
/// the puzzles that could not be read, go to standard error; without it,
/// the first puzzle that cannot be read is the last item.
pub struct Entries<'a> {
    files: std::slice::Iter<'a, PathBuf>,
    read_args: ReadArgs,
    /// The most text one puzzle may take: a share of the memory budget.
    most: usize,
    file: Option<OpenFile>,
    /// Puzzles that could not be read and were skipped (`--keep-going`).
    pub skipped: usize,
    /// Whether the note on cells in no cage was given.
    noted: bool,
    /// After an error that ends the run.
    ended: bool,
}

/// The share of the memory budget the text of one puzzle may take.
pub const INPUT_SHARE: u64 = 64;

impl<'a> Entries<'a> {
    /// The puzzles of `files`, with `memory` the run's budget in bytes.
    pub fn new(files: &'a [PathBuf], read_args: ReadArgs, memory: u64) -> Self {
        let most = usize::try_from(memory / INPUT_SHARE).unwrap_or(usize::MAX).max(1_000_000);
        Entries { files: files.iter(), read_args, most, file: None, skipped: 0, noted: false, ended: false }
    }

    /// The entries of the files named by `args`.
    pub fn of(args: &'a PuzzleFiles, memory: u64) -> Self {
        Entries::new(&args.files, args.read, memory)
    }

    /// Up to `n` items read ahead, and whether they are all there are.
    pub fn peek(&mut self, n: usize) -> (Vec<Result<Entry, CliError>>, bool) {
        let ahead: Vec<_> = self.by_ref().take(n).collect();
        let all = ahead.len() < n;
        (ahead, all)
    }

    fn entry(&mut self, parsed: Parsed) -> Entry {
        let file = self.file.as_ref().expect("a file is open");
        let format = file.parser.found_format().expect("a puzzle shows its format");
        if format == Format::KenKen {
            let slips = slips(&parsed.puzzle);
            for slip in &slips {
                // A failed warning must not stop the work.
                let _ = writeln!(io::stderr(), "cagey: warning: {}:{}: {slip}", file.name, parsed.line);
            }
            if !self.noted && !uncaged(&parsed.puzzle).is_empty() {
                let _ = writeln!(
                    io::stderr(),
                    "cagey: note: a cell in no cage is allowed (only its rows, columns and boxes constrain it); the \
                     warning is on standard error, which 2>/dev/null silences"
                );
                self.noted = true;
            }
        }
        let (line, ignored) = (parsed.line, parsed.ignored);
        Entry { source: file.name.clone(), line, puzzle: parsed.puzzle, format, skipped: None, ignored }
    }
}

impl Iterator for Entries<'_> {
    type Item = Result<Entry, CliError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.ended {
            let Some(file) = self.file.as_mut() else {
                match OpenFile::open(self.files.next()?, self.read_args, self.most) {
                    Ok(file) => self.file = Some(file),
                    Err(error) => return self.end(error),
                }
                continue;
            };
            match file.parser.next() {
                Some(Ok(parsed)) => return Some(Ok(self.entry(parsed))),
                Some(Err(error)) if self.read_args.keep_going && file.parser.found_format().is_some() => {
                    let _ = writeln!(io::stderr(), "cagey: {error}");
                    self.skipped += 1;
                    let format = file.parser.found_format().expect("a format was found");
                    let message = error.kind.to_string();
                    let stand_in = Puzzle::new(1, vec![], vec![]).expect("an empty 1x1 grid is a puzzle");
                    let (source, line) = (file.name.clone(), error.line);
                    return Some(Ok(Entry {
                        source,
                        line,
                        puzzle: stand_in,
                        format,
                        skipped: Some(message),
                        ignored: Vec::new(),
                    }));
                }
                Some(Err(error)) => {
                    let error = file.explain(error);
                    return self.end(error);
                }
                None if file.done => self.file = None,
                None => {
                    if let Err(error) = file.read_line() {
                        return self.end(error);
                    }
                }
            }
        }
        None
    }
}

impl Entries<'_> {
    fn end(&mut self, error: CliError) -> Option<Result<Entry, CliError>> {
        self.ended = true;
        Some(Err(error))
    }
}

/// The grids of a file, each with its place and every cell filled: grids as
/// `cagey solve` prints them, or Sudoku lines. Each must be `n` by `n`.
pub fn grids(path: &Path, n: usize, memory: u64) -> Result<Vec<(String, Grid)>, CliError> {
    let read =
        ReadArgs { input_format: Some(Format::Sudoku), keep_going: false, boxes: BoxesArg { boxes: Boxes::None } };
    Entries::new(std::slice::from_ref(&path.to_path_buf()), read, memory)
        .map(|entry| {
            let entry = entry?;
            let mut values = vec![0u8; n * n];
            if entry.puzzle.size() == n {
                for cage in entry.puzzle.cages().iter().filter(|c| c.op() == Op::Given) {
                    values[cage.cells()[0].index(n)] = cage.target().digits().parse().unwrap_or(0);
                }
            }
            let grid = Grid::new(n, values).ok_or_else(|| CliError::Unfit {
                place: entry.label(),
                message: format!("expected a full {n}x{n} grid, every cell filled"),
            })?;
            Ok((entry.label(), grid))
        })
        .collect()
}

/// What KenKen text allows but more often is a slip: cells in no cage
/// (in a puzzle with cages), and cages not in one piece (leaving out cages
/// laid over others, like a little-killer diagonal), as warnings say them.
pub fn slips(puzzle: &Puzzle) -> Vec<String> {
    let mut slips = Vec::new();
    let uncaged = uncaged(puzzle);
    if !uncaged.is_empty() {
        const SHOWN: usize = 8;
        let more = uncaged.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        let cells = uncaged.iter().take(SHOWN).join(" ");
        let count = uncaged.len();
        let cells_word = if count == 1 { "cell" } else { "cells" };
        slips.push(format!("{count} {cells_word} in no cage: {cells}{more}"));
    }
    let n = puzzle.size();
    let mut covered = vec![0u32; n * n];
    for cell in puzzle.cages().iter().filter(|c| c.op() != Op::Given).flat_map(|c| c.cells()) {
        covered[cell.index(n)] += 1;
    }
    let over = |cage: &&Cage| cage.cells().iter().any(|c| covered[c.index(n)] > 1);
    let scattered: Vec<_> = puzzle.cages().iter().filter(|cage| !cage.in_one_piece()).filter(|c| !over(c)).collect();
    if !scattered.is_empty() {
        const SHOWN: usize = 3;
        let shown =
            scattered.iter().take(SHOWN).map(|c| format!("'{} {} {}'", c.op(), c.target(), c.cells().iter().join(" ")));
        let more = scattered.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        let (count, word) = (scattered.len(), if scattered.len() == 1 { "cage is" } else { "cages are" });
        slips.push(format!(
            "{count} {word} not in one piece: {}{more} (allowed; is a cell mistyped?)",
            shown.format(", ")
        ));
    }
    slips
}

/// The cells in no cage of a puzzle with cages (a grid with givens alone is
/// a Latin square, meant so).
fn uncaged(puzzle: &Puzzle) -> Vec<Cell> {
    match puzzle.cages().iter().any(|cage| cage.op() != Op::Given) {
        true => puzzle.uncaged_cells(),
        false => Vec::new(),
    }
}

/// A file being read.
struct OpenFile {
    name: String,
    lines: TextLines,
    parser: Parser,
    /// The most text one puzzle may take.
    most: usize,
    forced: bool,
    /// Whether `--boxes` was given, which KenKen text ignores.
    boxes_given: bool,
    /// What the first line that is neither blank nor a `#` line reads as,
    /// once seen: the hint for a Sudoku file read as KenKen.
    plain: Option<Option<Format>>,
    /// Whether the text has ended.
    done: bool,
}

impl OpenFile {
    fn open(path: &Path, read_args: ReadArgs, most: usize) -> Result<OpenFile, CliError> {
        let lines = TextLines::open(path)?;
        let name = lines.name.clone();
        let (format, boxes) = (read_args.input_format, read_args.boxes.boxes);
        let parser = Parser::new(&name, ParseOptions { format, boxes });
        let boxes_given = boxes != Boxes::Default;
        Ok(OpenFile { name, lines, parser, most, forced: format.is_some(), boxes_given, plain: None, done: false })
    }

    /// Hands the next line to the parser, or the end of the text; refuses
    /// a puzzle whose text passes `most` bytes.
    fn read_line(&mut self) -> Result<(), CliError> {
        let unknown = self.parser.found_format().is_none();
        match self.lines.next_line(self.most.saturating_sub(self.parser.held()))? {
            Some(line) => {
                self.see(&line);
                self.parser.push(&line);
            }
            None => {
                self.parser.finish();
                self.done = true;
            }
        }
        if unknown && self.parser.found_format() == Some(Format::KenKen) && self.boxes_given {
            let _ = writeln!(
                io::stderr(),
                "cagey: warning: {}: --boxes applies to Sudoku input; a KenKen file gives its boxes on its size \
                 line ('# 9 boxes 3x3')",
                self.name
            );
        }
        if unknown && self.parser.found_format() == Some(Format::Killer) && self.boxes_given {
            let _ = writeln!(
                io::stderr(),
                "cagey: warning: {}: --boxes applies to Sudoku input; a killer string is a 9x9 with 3x3 boxes",
                self.name
            );
        }
        Ok(())
    }

    fn see(&mut self, line: &str) {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if self.plain.is_none() && !trimmed.is_empty() && !trimmed.starts_with('#') {
            self.plain = Some(format::detect(trimmed));
        }
    }

    /// The error, with a hint when a file read as KenKen for a `# N` line
    /// reads as Sudoku without its `#` lines. Reads on, a little, to its
    /// first other line.
    fn explain(&mut self, error: ParseError) -> CliError {
        if self.forced || self.parser.found_format() != Some(Format::KenKen) {
            return CliError::Parse(error);
        }
        for _ in 0..1000 {
            match self.lines.next_line(self.most) {
                Ok(Some(line)) if self.plain.is_none() => self.see(&line),
                _ => break,
            }
        }
        match self.plain {
            Some(Some(Format::Sudoku)) => CliError::LooksLikeSudoku(error),
            _ => CliError::Parse(error),
        }
    }
}

/// The lines of a text file, read a block at a time. Reading stops at the
/// first byte no text holds (a NUL, or one that is not UTF-8), so that
/// `/dev/zero` or a binary file is refused at once.
struct TextLines {
    /// The name in messages: the path, or `<stdin>`.
    name: String,
    path: PathBuf,
    reader: BufReader<Box<dyn Read>>,
    /// Lines read so far.
    lines: usize,
}

impl TextLines {
    /// The lines of the file at `path`, `-` being standard input.
    fn open(path: &Path) -> Result<TextLines, CliError> {
        let (name, reader): (String, Box<dyn Read>) = if path == Path::new("-") {
            ("<stdin>".to_string(), Box::new(io::stdin()))
        } else {
            let file = std::fs::File::open(path).map_err(|error| CliError::Read { path: path.to_path_buf(), error })?;
            (path.display().to_string(), Box::new(file))
        };
        let reader = BufReader::with_capacity(1 << 16, reader);
        Ok(TextLines { name, path: path.to_path_buf(), reader, lines: 0 })
    }

    /// The next line without its line ending, `None` at the end; refused
    /// once it passes `most` bytes.
    fn next_line(&mut self, most: usize) -> Result<Option<String>, CliError> {
        let mut line = Vec::new();
        // Bytes of `line` known to be whole UTF-8 characters.
        let mut checked = 0;
        let ended = loop {
            let block = match self.reader.fill_buf() {
                Ok(block) => block,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(CliError::Read { path: self.path.clone(), error }),
            };
            if block.is_empty() {
                break line.is_empty();
            }
            let (take, newline) = match block.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (block.len(), false),
            };
            line.extend_from_slice(&block[..take]);
            self.reader.consume(take);
            let (valid, bad) = match std::str::from_utf8(&line[checked..]) {
                Ok(_) => (line.len(), None),
                Err(e) => (checked + e.valid_up_to(), e.error_len().map(|_| "not UTF-8 text")),
            };
            let nul = line[checked..valid].iter().position(|&b| b == 0).map(|i| checked + i);
            if let Some((at, found)) = nul.map(|at| (at, "a NUL byte")).or(bad.map(|found| (valid, found))) {
                return Err(self.not_text(&line[..at], found));
            }
            checked = valid;
            if line.len() > most {
                return Err(CliError::TooLong { name: self.name.clone(), line: self.lines + 1, most });
            }
            if newline {
                break false;
            }
        };
        if ended {
            return Ok(None);
        }
        self.lines += 1;
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        // A character cut off by the end of the file.
        String::from_utf8(line).map(Some).map_err(|e| {
            self.lines -= 1;
            self.not_text(&e.as_bytes()[..e.utf8_error().valid_up_to()], "not UTF-8 text")
        })
    }

    /// The error for a byte no text holds, after `before` on the line.
    fn not_text(&self, before: &[u8], found: &'static str) -> CliError {
        let before = std::str::from_utf8(before).expect("text up to the bad byte");
        let column = before.chars().count() + 1;
        CliError::NotText { name: self.name.clone(), line: self.lines + 1, column, found }
    }
}
