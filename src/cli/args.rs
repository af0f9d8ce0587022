//! The command line as clap reads it.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use cagey::format::{Boxes, Format};
use cagey::{Backend, Solver, SolverBuilder};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve KenKen and Sudoku puzzles and find every solution.
///
/// Exit status: 0 for a positive answer (solved, unique), 1 for a negative
/// one (no solution, not unique), 2 for bad usage or bad input, 3 when a
/// timeout cut a search short, 130 after Ctrl-C.
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
    #[command(after_help = "With 'multiple', two different solutions follow the verdict, then the cells
where they differ. Exit status 0 only if every puzzle is unique.

With --proof DIR, each unique puzzle gets a certificate that anyone can check without
trusting cagey's search: DIR/puzzle.cnf (the SAT encoding with the solution ruled out),
DIR/solution.txt, DIR/puzzle.drat (a DRAT proof that the CNF has no model, so no second
solution exists), DIR/puzzle.varisat (the same proof in varisat's format) and
DIR/puzzle.txt (the puzzle). cagey checks the certificate as written, with the
varisat-checker crate, before it prints 'unique (certified)'; a run of several puzzles
puts puzzle K's in DIR/K. Check one again with 'cagey check-proof DIR', or independently:
  drat-trim DIR/puzzle.cnf DIR/puzzle.drat
  rate DIR/puzzle.cnf DIR/puzzle.drat        (cargo install rate)

Examples:
  cagey unique puzzles/kenken/seed-5x5-three-solutions.txt
  cagey unique --format json puzzles/sudoku/hardest-unique.txt
  cagey unique --proof cert puzzles/kenken/generated-9x9.txt")]
    Unique(UniqueArgs),
    /// Show where a puzzle is ambiguous: the cells fixed in every solution and the open ones,
    /// with the values each takes; with --suggest, the fewest extra givens that make it unique.
    #[command(after_help = "For each puzzle: the count (exact, or N+ past --limit), then the grid with each
fixed cell's value and each open cell's values run together (14: 1 or 4), then the open
cells by name (B3 for KenKen, r2c3 for Sudoku). The cells are settled by asking the solver
for a solution with each cell at each value (SAT under assumptions), never by listing the
solutions, so it works however many there are; where there are at most 1,000, the list of
them is compared too.

--suggest adds givens taken from a solution (the first found, or --keep FILE's grid) that
leave it the only one: a smallest set when the other solutions number at most 5,000 (an
exact hitting set of the cells where each differs), otherwise chosen greedily, one cell at a
time, each ruling out the most of a sample of 5,000; the report says which.

Exit status 0 if every puzzle is unique, 1 if not, as for unique.

Examples:
  cagey analyze puzzles/kenken/seed-4x4-noop.txt
  cagey analyze --suggest puzzles/sudoku/sixteen-clue-5.txt
  cagey analyze --suggest --format json puzzles/kenken/seed-5x5-three-solutions.txt")]
    Analyze(AnalyzeArgs),
    /// Check certificates written by 'unique --proof': every part of each, again.
    #[command(after_help = "For each DIR: the solution solves DIR/puzzle.txt, DIR/puzzle.cnf is that puzzle's
SAT encoding with the solution ruled out, DIR/puzzle.varisat proves the CNF has no model
(checked with the varisat-checker crate), and DIR/puzzle.drat is that proof. Prints
'certified unique' or 'rejected' with the reason; exit status 0 only if every one checks.

Examples:
  cagey check-proof cert
  cagey check-proof cert/*")]
    CheckProof(CheckProofArgs),
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
    /// Run both backends, and auto, on every puzzle and compare their solution sets.
    #[command(after_help = "Prints a table: puzzle, counts of native, SAT and auto, agree, their times, the
backend that answered for auto ('by'), and the digest of the solution set (COUNT:SUM:SQUARES: the sums, mod 2^128, of a 128-bit hash of
each grid and of its square; equal sets have equal digests, in any order). Every solution is
also checked by the plain verifier. Sets of up to --store grids are compared grid by grid,
larger ones by digest. Exit status 1 on any disagreement, after printing a solution one
backend found and the other did not, or both digests.

Examples:
  cagey check puzzles/kenken/*.txt
  cagey check puzzles/sudoku/empty-5x5.txt                (161,280 grids, compared by digest)
  cagey check --limit 1000 puzzles/sudoku/empty-5x5.txt   (stops at 1000: compares counts)")]
    Check(CheckArgs),
    /// Draw puzzles as SVG or PNG: as set, with a solution, or with where they are ambiguous.
    #[command(after_help = "Draws the puzzle as a printed KenKen or Sudoku looks: thin cell lines, thick lines
where cages (or Sudoku boxes) meet, each cage's target and op in its top-left cell, givens
in bold. --solution fills in a solution (the first, or --index K); --analysis shades the
open cells of an ambiguous puzzle and pencils in their possible values, with the values of
the fixed cells. -o names an .svg or .png file for one puzzle, or a directory for several:
DIR/1.svg, DIR/2.svg, … (.png with --png). PNG is drawn by resvg with a font built in.

Examples:
  cagey render puzzles/kenken/seed-5x5-three-solutions.txt -o seed.svg
  cagey render --analysis puzzles/kenken/seed-5x5-three-solutions.txt -o seed.png
  cagey render --solution puzzles/sudoku/magictour-20.txt -o pictures/ --png")]
    Render(RenderArgs),
    /// Write puzzles in another format: KenKen text, Keen game IDs, Sudoku lines or grids.
    #[command(after_help = "KenKen text holds every puzzle. A Keen game ID holds KenKen whose cages are in one
piece, cover the grid and have + - * / or one-cell clues (Keen opens it: paste it into
Game > Specific). A Sudoku line or grid holds a puzzle of givens only, with the default
boxes. A puzzle the format cannot hold is an error (exit status 2) naming it.

Examples:
  cagey convert --to keen puzzles/kenken/keen-9x9-u.txt
  cagey convert --to kenken puzzles/keen/keen-ids-sample.txt
  cagey convert --to grid puzzles/sudoku/hardest-unique.txt
  cagey generate --size 6 --unique --emit keen")]
    Convert(ConvertArgs),
    /// Print random puzzles planted on a random solution, in the formats cagey reads.
    #[command(after_help = "The same seed always gives the same puzzles.

Examples:
  cagey generate --size 6 --count 3 --seed 7
  cagey generate --kind sudoku --size 9 --unique --count 10 | cagey count -
  cagey generate --size 5 --noop --max-cage 3 --perturb 0.2 --count 100 > mixed.txt
  cagey generate --size 9 --killer --unique       (a Killer Sudoku with one solution)
  cagey generate --size 9 --over-boxes --max-cage 5  (KenKen cages over Sudoku boxes)")]
    Generate(GenerateArgs),
    /// Cross-check both backends on random puzzles; save and shrink any disagreement.
    #[command(after_help = "Each case is generated from the seed and its number, so the same seed replays the
same cases. On a disagreement, or a panic in either backend, the puzzle is shrunk (cages or
clues dropped, cages merged) while it still disagrees, written to a file whose path is
printed, and the exit status is 1.

Examples:
  cagey fuzz --cases 1000 --seed 1
  cagey fuzz --cases 200 --kind sudoku --size 9 --clues 0.35
  cagey fuzz --cases 5000 --size 1..6 --noop
  cagey fuzz --cases 20000 --size 1..25 --mix      (every feature of the model)")]
    Fuzz(FuzzArgs),
    /// Serve a page for setters, and the f-puzzles solver protocol, on this machine.
    #[command(after_help = "Open the address it prints: paste or drop a puzzle in any format cagey reads, and
the page draws it and shows, as you edit, whether it is unique (or where two solutions
differ), how many solutions it has, which cells are open and what would fix it, with a
button to apply each suggestion. The same port answers the f-puzzles solver userscript
(Rangsk's protocol: truecandidates, solve, check, count, cancel) at ws://localhost:4545.

It listens on loopback only unless --host says otherwise, and answers only pages of its
own, f-puzzles and SudokuPad (--allow-origin adds more). Each request has --timeout, and
a message may take 1/64 of --memory (at least 1 MB); a new request on a connection, or its
closing, stops the work still running for it.

Examples:
  cagey serve                     (http://127.0.0.1:4545/)
  cagey serve --open --port 8080
  cagey serve --timeout 300 --max-clients 4")]
    Serve(ServeArgs),
    /// Print a shell's completion script for cagey.
    #[command(after_help = "Examples:
  cagey completions bash > ~/.local/share/bash-completion/completions/cagey
  cagey completions zsh > ~/.zfunc/_cagey      (with fpath+=~/.zfunc in ~/.zshrc)
  cagey completions fish > ~/.config/fish/completions/cagey.fish")]
    Completions(CompletionsArgs),
    /// Write man pages for cagey and each of its commands into a directory.
    #[command(after_help = "Examples:
  cagey man ~/.local/share/man/man1 && man cagey")]
    Man(ManArgs),
}

/// Puzzle files, how to read them, how to solve them and how to print the
/// answers: the arguments of `solve`, `count` and `unique`.
#[derive(Debug, Args)]
pub struct InputArgs {
    #[command(flatten)]
    pub puzzles: PuzzleFiles,

    #[command(flatten)]
    pub solver: SolverArgs,

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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Stop counting past N: a count of N or fewer is exact, more prints as 'N+'.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Count only part I of N of each puzzle's solutions (I from 1 to N, as in 'split -n
    /// l/I/N'), split by the values of a few cells by a fixed rule: N separate runs, one
    /// per part, on any machines, count every solution once between them.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,

    #[command(flatten)]
    pub jobs: Jobs,
}

/// Part `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("bad shard '{s}': expected I/N with 1 <= I <= N, like 3/16");
        let (index, count) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (index.parse().map_err(|_| bad())?, count.parse().map_err(|_| bad())?);
        if !(1..=count).contains(&index) {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[derive(Debug, Args)]
pub struct UniqueArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Write a certificate of each unique puzzle to DIR, checked before 'unique (certified)'.
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,

    #[command(flatten)]
    pub jobs: Jobs,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub puzzles: PuzzleFiles,

    #[command(flatten)]
    pub solver: SolverArgs,

    /// Where to write: an .svg or .png file, or a directory for one file a puzzle.
    #[arg(short, long, value_name = "PATH")]
    pub output: PathBuf,

    /// In a directory, write PNG files rather than SVG.
    #[arg(long)]
    pub png: bool,

    /// Fill in a solution (the first found, or --index K).
    #[arg(long, conflicts_with = "analysis")]
    pub solution: bool,

    /// Which solution --solution draws, from 1.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..), requires = "solution")]
    pub index: u64,

    /// Shade the open cells and pencil in their values; fixed cells show theirs.
    #[arg(long)]
    pub analysis: bool,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: PuzzleFiles,

    /// The format to write.
    #[arg(long, value_enum, value_name = "kenken|keen|sudoku|grid|killer|fpuzzles|sudokupad")]
    pub to: ConvertTo,

    /// With --to fpuzzles or sudokupad: leave the solution out of the link (by default a
    /// puzzle with exactly one solution carries it, so that the site can check the solver).
    #[arg(long)]
    pub no_solution: bool,
}

/// A format `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertTo {
    /// neknek KenKen text.
    #[value(name = "kenken")]
    KenKen,
    /// Keen game IDs, one a line.
    Keen,
    /// Sudoku lines.
    Sudoku,
    /// Sudoku grids, N lines each.
    Grid,
    /// SudoCue killer strings (9×9 Killer Sudoku), one a line.
    Killer,
    /// f-puzzles links, one a line.
    #[value(name = "fpuzzles")]
    FPuzzles,
    /// SudokuPad links (with the f-puzzles payload), one a line.
    #[value(name = "sudokupad")]
    SudokuPad,
}

#[derive(Debug, Args)]
pub struct CheckProofArgs {
    /// Directories written by 'unique --proof'.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    #[command(flatten)]
    pub tuples: TupleLimit,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Count solutions up to N: more prints as 'N+'.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), default_value_t = 10_000)]
    pub limit: u64,

    /// Suggest the fewest extra givens that leave one solution.
    #[arg(long)]
    pub suggest: bool,

    /// With --format json: add 'solutionsPerCandidate', for each cell and value how many
    /// solutions put the value there, counted up to CAP (the f-puzzles solver's true
    /// candidates; 1 says only whether any does).
    #[arg(long, value_name = "CAP", value_parser = clap::value_parser!(u64).range(1..))]
    pub true_candidates: Option<u64>,

    /// The solution the givens keep, as a grid ('cagey solve' prints them) or a Sudoku line:
    /// the first solution found by default. Its file must hold one grid for each puzzle.
    #[arg(long, value_name = "FILE", requires = "suggest")]
    pub keep: Option<PathBuf>,

    #[command(flatten)]
    pub jobs: Jobs,
}

#[derive(Debug, Args)]
pub struct CnfArgs {
    /// The puzzle file; '-' reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    #[command(flatten)]
    pub read: ReadArgs,

    /// Which puzzle of the file to encode (1 is the first); needed when it holds several.
    #[arg(long, value_name = "K")]
    pub puzzle: Option<usize>,

    /// Add a blocking clause for each solution in this file: grids as 'cagey solve' prints
    /// them, or Sudoku lines with every cell filled.
    #[arg(long, value_name = "FILE")]
    pub block: Option<PathBuf>,

    #[command(flatten)]
    pub tuples: TupleLimit,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: PuzzleFiles,

    /// Stop each backend after N solutions; sets cut short are compared by count only.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), default_value_t = 1_000_000)]
    pub limit: u64,

    /// Keep up to N solutions per backend to compare grid by grid (and name a missing one);
    /// past that, the full sets are compared by an order-independent digest in constant memory.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub store: usize,

    /// Output format: text (a table) or json (one object per puzzle, one per line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub tuples: TupleLimit,
}

/// Puzzle files and how to read them.
#[derive(Debug, Args)]
pub struct PuzzleFiles {
    /// Puzzle files (KenKen, Sudoku, Keen IDs, killer strings or f-puzzles links, detected); '-'
    /// reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// How to read puzzle text.
#[derive(Clone, Copy, Debug, Args)]
pub struct ReadArgs {
    /// Read the puzzles as this format instead of detecting it.
    #[arg(long, value_name = "kenken|sudoku|keen|killer|fpuzzles", alias = "input")]
    pub input_format: Option<Format>,

    /// Report a puzzle that cannot be read and go on with the others (exit status 2 at the
    /// end), instead of ending the run there (the puzzles before it are answered: input is
    /// read as it is solved).
    #[arg(long)]
    pub keep_going: bool,

    #[command(flatten)]
    pub boxes: BoxesArg,
}

/// The box shape of Sudoku, read or generated.
#[derive(Clone, Copy, Debug, Args)]
pub struct BoxesArg {
    /// Box shape of Sudoku (read or generated) and of generated Killer KenKen: RxC (like
    /// 2x3), 'none' for a plain Latin square, or 'default' (square for N = k², else the
    /// most-square RxC; none for prime N).
    #[arg(long, value_name = "RxC|none|default", default_value = "default")]
    pub boxes: Boxes,
}

/// Which backend, with its settings.
#[derive(Debug, Args)]
pub struct SolverArgs {
    /// The solver to use: auto (native first; on a hard puzzle, native and SAT race and
    /// the first to finish answers), native (propagation and search) or sat (varisat).
    /// JSON output names the backend that answered ("answered_by").
    #[arg(long, value_name = "auto|native|sat", default_value = "auto")]
    pub backend: Backend,

    /// Stop each puzzle's search after SECONDS (fractions allowed): the answer then says
    /// what was found ('N+', 'unknown', JSON "timed_out": true) and the exit status is 3.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Stop the whole run after SECONDS: the puzzle being searched then is answered as with
    /// --timeout, and the puzzles not yet started are left (exit status 3).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub total_timeout: Option<Duration>,

    #[command(flatten)]
    pub tuples: TupleLimit,
}

/// The bounds on the SAT encoding: of one cage, and of the whole formula.
#[derive(Clone, Copy, Debug, Args)]
pub struct TupleLimit {
    /// Refuse to encode for SAT a cage whose allowed tuples take more than N arcs of a decision
    /// diagram (with --backend sat, and in cnf, check and fuzz, where fuzz counts such cases as
    /// skipped).
    #[arg(long, value_name = "N", default_value_t = Solver::DEFAULT_TUPLE_LIMIT)]
    pub tuple_limit: usize,

    /// Refuse to encode for SAT a puzzle whose formula would take more memory than SIZE (like
    /// 8G or 500M; default: half the machine's memory); auto then goes on with native alone.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, allow_negative_numbers = true)]
    pub memory: Option<u64>,
}

impl TupleLimit {
    /// A solver builder with these bounds.
    pub fn apply(&self, builder: SolverBuilder) -> SolverBuilder {
        builder.tuple_limit(self.tuple_limit).memory(self.budget())
    }

    /// The run's memory budget in bytes.
    pub fn budget(&self) -> u64 {
        self.memory.unwrap_or_else(half_the_memory)
    }
}

/// Half the machine's memory (`MemTotal` in /proc/meminfo), or 4 GB where
/// that cannot be read; read once a run.
fn half_the_memory() -> u64 {
    static HALF: OnceLock<u64> = OnceLock::new();
    *HALF.get_or_init(|| {
        let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
        });
        total.map_or(4_000_000_000, |bytes| bytes / 2)
    })
}

/// A size in bytes: a number with an optional K, M, G or T (powers of 1,000).
fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("bad size '{text}': expected a number of bytes, like 500M or 8G");
    let (digits, scale) = match text.char_indices().last() {
        Some((i, unit)) if unit.is_ascii_alphabetic() => {
            let scale = match unit.to_ascii_uppercase() {
                'K' => 1e3,
                'M' => 1e6,
                'G' => 1e9,
                'T' => 1e12,
                _ => return Err(bad()),
            };
            (&text[..i], scale)
        }
        _ => (text, 1.0),
    };
    let number: f64 = digits.parse().map_err(|_| bad())?;
    if !(number > 0.0 && number * scale < 1e19) {
        return Err(bad());
    }
    Ok((number * scale) as u64)
}

/// Threads for many puzzles.
#[derive(Clone, Copy, Debug, Args)]
pub struct Jobs {
    /// Threads; 0 means one per core. Many puzzles or cases run one to a thread; count on a
    /// file of fewer than four puzzles a thread splits each count that passes 10,000
    /// solutions across all of them. Output keeps the puzzles' order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
}

impl Jobs {
    /// The threads for `work` items: as many as asked (one per core for 0),
    /// but no more than the cores, with a warning, nor than the items.
    pub fn threads(&self, work: usize) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if self.jobs > cores {
            eprintln!("cagey: warning: --jobs {} is more than the {cores} cores here: using {cores}", self.jobs);
        }
        let asked = if self.jobs == 0 { cores } else { self.jobs.min(cores) };
        asked.min(work).max(1)
    }
}

/// A kind of random puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// KenKen, written in neknek text.
    #[value(name = "kenken")]
    KenKen,
    /// Sudoku, written as lines.
    Sudoku,
}

/// What random puzzles look like, and the seed they are drawn from.
#[derive(Clone, Debug, Args)]
pub struct PuzzleShape {
    /// The kind of puzzle.
    #[arg(long, value_enum, value_name = "kenken|sudoku", default_value = "kenken")]
    pub kind: Kind,

    /// The seed; the same seed gives the same puzzles (and fuzz cases).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// KenKen: write every multi-cell cage's op as '?' (the no-op variant).
    #[arg(long)]
    pub noop: bool,

    /// KenKen: the most cells in one cage.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_cage: u32,

    /// The share of KenKen cages whose target is moved by one, or of Sudoku givens changed,
    /// so that some puzzles have no solution (0 to 1). Default: 0 for generate; for fuzz
    /// 0.03 (KenKen) or 0.01 (Sudoku).
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    pub perturb: Option<f64>,

    /// Sudoku: the share of cells kept as givens (0 to 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.45)]
    pub clues: f64,

    #[command(flatten)]
    pub boxes: BoxesArg,

    /// Killer Sudoku: '+' cages over Sudoku boxes (of the shape --boxes gives) whose digits
    /// never repeat; with --unique, a cage is split where a digit must be pinned (the digit
    /// becomes a cage of one cell). With fuzz, sizes that have no boxes (primes) get none.
    #[arg(long, conflicts_with_all = ["noop", "over_boxes"])]
    pub killer: bool,

    /// KenKen: cages over Sudoku boxes (of the shape --boxes gives), values repeating in a
    /// cage where they share no row, column or box.
    #[arg(long)]
    pub over_boxes: bool,

    /// KenKen: the share of cages of two cells or more whose values must also differ (written
    /// 'distinct'), among those whose planted values do (0 to 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.0)]
    pub distinct: f64,

    /// KenKen and Killer: the share of caged cells that also get a given (0 to 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.0)]
    pub caged_givens: f64,

    /// KenKen and Killer: add K cages over the others (written 'overlap'): little-killer
    /// diagonals of up to 5 cells and pairs of neighbours.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub overlaps: usize,

    /// KenKen: add K all-different groups, each of random cells (written as 'distinct' lines).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub extra_groups: usize,

    /// KenKen: the share of cells left in no cage (0 to 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.0)]
    pub uncaged: f64,

    /// KenKen: the share of cages drawn from anywhere in the grid instead of grown from
    /// neighbours, so that values may repeat in them (0 to 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.0)]
    pub scatter: f64,

    /// KenKen: the share of cages given a wild target instead of the planted one: at or next
    /// to 2^64 or 2^128, a product with a prime above N, N^k (0 to 1). Most are out of reach.
    #[arg(long, value_name = "P", allow_negative_numbers = true, default_value_t = 0.0)]
    pub wild: f64,

    /// KenKen: draw all the options above for each puzzle at random, over the whole model
    /// (boxes, Killer and distinct cages, groups, uncaged cells, scattered cages, givens in
    /// cages, overlapping cages, no-op, perturbed and wild targets); sizes up to the largest
    /// --size.
    #[arg(long, conflicts_with_all = [
        "noop", "max_cage", "killer", "over_boxes", "distinct", "caged_givens", "overlaps",
        "extra_groups", "uncaged", "scatter", "wild",
    ])]
    pub mix: bool,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub shape: PuzzleShape,

    /// N: the grid is N×N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=25))]
    pub size: u32,

    /// How many puzzles.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub count: u64,

    /// Change each puzzle (split cages, add givens) until it has exactly one solution: pinned by native handing over to SAT on a hard puzzle, confirmed by SAT and certified by a checked proof.
    #[arg(long, conflicts_with = "perturb")]
    pub unique: bool,

    /// Write the puzzles in this format: kenken (neknek text), sudoku (lines), keen (game
    /// IDs that Keen opens, for KenKen with cages in one piece and no no-op cages), killer
    /// (SudoCue killer strings, for 9x9 --killer puzzles) or fpuzzles (f-puzzles links, without
    /// solutions: 'convert --to fpuzzles' adds them). Default: the kind's own.
    #[arg(long, value_name = "kenken|sudoku|keen|killer|fpuzzles")]
    pub emit: Option<Format>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on. Anything but loopback lets other machines use this one's
    /// CPU (the Origin check still applies).
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,

    /// The port for the page and the f-puzzles protocol (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 4545)]
    pub port: u16,

    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,

    /// The solver to use: auto, native or sat.
    #[arg(long, value_name = "auto|native|sat", default_value = "auto")]
    pub backend: Backend,

    /// Stop each request's work after SECONDS.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "60")]
    pub timeout: Duration,

    /// Connections served at once; more are refused until one closes.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_clients: u32,

    /// Also answer pages from ORIGIN (like https://example.org); may be repeated.
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,

    #[command(flatten)]
    pub tuples: TupleLimit,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory (made if missing): cagey.1, cagey-solve.1, …
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub shape: PuzzleShape,

    /// Sizes to draw from: N, or A..B (both included). Default: 1..6 for KenKen, 9 for Sudoku.
    #[arg(long, value_name = "A..B")]
    pub size: Option<SizeRange>,

    /// How many cases.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub cases: u64,

    /// Compare at most N solutions per backend; beyond that only the counts are compared.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), default_value_t = 2_000)]
    pub limit: u64,

    #[command(flatten)]
    pub tuples: TupleLimit,

    /// Give each backend SECONDS a case (fractions allowed). A case that either backend
    /// cannot finish in time is not compared: it is counted as slow and written to the
    /// --out directory as slow-SEED-CASE.txt, a heavy tail to look at.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true, default_value = "10")]
    pub timeout: Duration,

    /// Where to write shrunk disagreements, and slow cases.
    #[arg(long, value_name = "DIR", default_value = "fuzz-failures")]
    pub out: PathBuf,

    #[command(flatten)]
    pub jobs: Jobs,
}

/// Sizes from `low` to `high`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    pub low: usize,
    pub high: usize,
}

impl std::str::FromStr for SizeRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("bad size range '{s}': expected N or A..B with 1 <= A <= B <= 25");
        let (low, high) = match s.split_once("..") {
            Some((a, b)) => (a.parse().map_err(|_| bad())?, b.trim_start_matches('=').parse().map_err(|_| bad())?),
            None => {
                let n = s.parse().map_err(|_| bad())?;
                (n, n)
            }
        };
        if !(1..=high).contains(&low) || high > cagey::MAX_SIZE {
            return Err(bad());
        }
        Ok(SizeRange { low, high })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable text.
    Text,
    /// One JSON object per puzzle, one per line.
    Json,
}

impl SolverArgs {
    /// The backend with its settings.
    pub fn solver(&self) -> Solver {
        self.builder().build()
    }

    /// The backend with its settings, to add more.
    pub fn builder(&self) -> SolverBuilder {
        let builder =
            self.tuples.apply(Solver::builder()).backend(self.backend).interrupt(Arc::clone(&super::stop::INTERRUPTED));
        let builder = match self.timeout {
            Some(timeout) => builder.timeout(timeout),
            None => builder,
        };
        match self.total_timeout {
            Some(total) => builder.deadline(*super::stop::STARTED + total),
            None => builder,
        }
    }
}

/// A positive number of seconds, as a duration.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("bad timeout '{text}': expected a positive number of seconds, like 10 or 0.5");
    let seconds: f64 = text.parse().map_err(|_| bad())?;
    if !(seconds > 0.0 && seconds < 1e9) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}
