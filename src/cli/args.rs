//! The command line as clap reads it.

use std::path::PathBuf;

use cagey::format::{Boxes, Format};
use cagey::{Backend, Engine};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve KenKen and Sudoku puzzles and find every solution.
///
/// Exit status: 0 for a positive answer (solved, unique), 1 for a negative
/// one (no solution, not unique), 2 for bad usage or bad input.
#[derive(Debug, Parser)]
#[command(name = "cagey", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print solutions: the first by default, all with --all, the first N with --limit N.
    #[command(after_help = "Examples:
  cagey solve puzzles/kenken/seed-5x5-three-solutions.txt
  cagey solve --all puzzles/kenken/seed-5x5-three-solutions.txt
  cagey solve --limit 2 --format json puzzles/sudoku/serg-1555-solutions.txt
  echo '1...............' | cagey solve --all -")]
    Solve(SolveArgs),
    /// Print the number of solutions of each puzzle, one line per puzzle.
    #[command(after_help = "Examples:
  cagey count puzzles/sudoku/empty-4x4.txt             prints 288
  cagey count --limit 1000 puzzles/sudoku/empty-5x5.txt prints 1000+
  cagey count corpus.txt                               one line per puzzle, in order")]
    Count(CountArgs),
    /// Say whether each puzzle has a unique solution: unique, none or multiple.
    #[command(after_help = "With 'multiple', two different solutions follow the verdict.
Exit status 0 only if every puzzle is unique.

Examples:
  cagey unique puzzles/kenken/seed-5x5-three-solutions.txt
  cagey unique --format json puzzles/sudoku/hardest-unique.txt")]
    Unique(UniqueArgs),
    /// Print the SAT encoding of a puzzle as DIMACS CNF.
    #[command(after_help = "Variable (r*N + c)*N + v is true when row r, column c (both from 0) holds value v
(from 1); variables above N^3 stand for allowed cage tuples. The comment lines at the top
say so too.

Examples:
  cagey cnf puzzles/kenken/seed-5x5-three-solutions.txt > seed.cnf
  cagey solve --all puzzles/kenken/seed-5x5-three-solutions.txt > found.txt
  cagey cnf --block found.txt puzzles/kenken/seed-5x5-three-solutions.txt > more.cnf
      (unsatisfiable exactly when found.txt holds every solution)")]
    Cnf(CnfArgs),
}

/// Where puzzles come from and how to solve them.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Puzzle files (KenKen or Sudoku, detected); '-' reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Read the files as this format instead of detecting it.
    #[arg(long, value_name = "kenken|sudoku")]
    pub input: Option<Format>,

    /// Sudoku box shape: RxC (like 2x3), 'none' for a plain Latin square, or
    /// 'default' (square for N = k², else the most-square RxC; none for prime N).
    #[arg(long, value_name = "RxC|none|default", default_value = "default")]
    pub boxes: Boxes,

    /// The solver to use: native (propagation and search) or sat (varisat).
    #[arg(long, value_name = "native|sat", default_value = "native")]
    pub backend: Backend,

    /// With --backend sat: refuse a cage with more allowed tuples than this.
    #[arg(long, value_name = "N", default_value_t = cagey::sat::DEFAULT_TUPLE_LIMIT)]
    pub tuple_limit: usize,

    /// Output format: text (the seeds' grid style) or json (one object per line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Print every solution, streamed as found.
    #[arg(long, conflicts_with = "limit")]
    pub all: bool,

    /// Print at most N solutions.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Stop counting at N; the count then prints as 'N+'.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Threads for files of many puzzles; 0 means one per core. Output keeps the order of the puzzles.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
}

#[derive(Debug, Args)]
pub struct UniqueArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Threads for files of many puzzles; 0 means one per core. Output keeps the order of the puzzles.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
}

#[derive(Debug, Args)]
pub struct CnfArgs {
    /// The puzzle file; '-' reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Which puzzle of the file to encode (1 is the first); needed when it holds several.
    #[arg(long, value_name = "K")]
    pub puzzle: Option<usize>,

    /// Add a blocking clause for each solution in this file: grids as 'cagey solve' prints
    /// them, or Sudoku lines with every cell filled.
    #[arg(long, value_name = "FILE")]
    pub block: Option<PathBuf>,

    /// Read the puzzle file as this format instead of detecting it.
    #[arg(long, value_name = "kenken|sudoku")]
    pub input: Option<Format>,

    /// Sudoku box shape, as for the other commands.
    #[arg(long, value_name = "RxC|none|default", default_value = "default")]
    pub boxes: Boxes,

    /// Refuse a cage with more allowed tuples than this.
    #[arg(long, value_name = "N", default_value_t = cagey::sat::DEFAULT_TUPLE_LIMIT)]
    pub tuple_limit: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable text.
    Text,
    /// One JSON object per puzzle, one per line.
    Json,
}

impl InputArgs {
    /// The backend with its settings.
    pub fn engine(&self) -> Engine {
        Engine { backend: self.backend, tuple_limit: self.tuple_limit }
    }
}
