//! `cagey generate` and `cagey fuzz`: random puzzles, printed or
//! cross-checked.

use std::io::{IsTerminal, Write};
use std::ops::RangeInclusive;
use std::time::Instant;

use cagey::check::{Limits, Report, cross_check, shrink};
use cagey::format::{Boxes, Format, kenken, sudoku};
use cagey::generate::{self, Features, GenerateError, Generated, KenKenOptions, SudokuOptions};
use cagey::{Backend, BoxShape, Enumerate, Puzzle, SatError, SolveError, Solver};
use indicatif::{ProgressBar, ProgressStyle};
use itertools::Itertools;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::args::{FuzzArgs, GenerateArgs, PuzzleShape};
use super::input::CliError;
use super::{Answer, RunError};

/// Generates one puzzle of `size` with the shape's options (with `--mix`,
/// of a size drawn from `sizes`); with `unique`, pinned by the native
/// backend and confirmed by the SAT backend.
fn make(
    shape: &PuzzleShape,
    size: usize,
    sizes: RangeInclusive<usize>,
    unique: bool,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let generated = match shape.kind {
        Format::KenKen if shape.mix => {
            let perturb = shape.perturb;
            let options = KenKenOptions::random(sizes, rng);
            generate::kenken(&KenKenOptions { perturb: perturb.unwrap_or(options.perturb), ..options }, rng)
        }
        Format::KenKen => {
            let options = KenKenOptions {
                max_cage: shape.max_cage as usize,
                noop: shape.noop,
                perturb: shape.perturb.unwrap_or(0.0),
                boxes: if shape.killer { boxes_for(shape.boxes.boxes, size) } else { None },
                extra_groups: shape.extra_groups,
                uncaged: shape.uncaged,
                scattered: shape.scatter,
                wild: shape.wild,
                ..KenKenOptions::new(size)
            };
            generate::kenken(&options, rng)
        }
        Format::Sudoku => {
            let boxes = boxes_for(shape.boxes.boxes, size);
            let perturb = shape.perturb.unwrap_or(0.0);
            generate::sudoku(&SudokuOptions { size, boxes, clues: shape.clues, perturb }, rng)
        }
    };
    if !unique {
        return Ok(generated);
    }
    let [native, sat] = Backend::ALL.map(Solver::new);
    generate::make_unique(generated, ("native", &native), ("sat", &sat), rng)
}

/// The boxes `boxes` asks for on an N×N grid, if any; a shape that does
/// not tile it is refused before any puzzle is made.
fn boxes_for(boxes: Boxes, size: usize) -> Option<BoxShape> {
    match boxes {
        Boxes::Default => BoxShape::default_for(size),
        Boxes::None => None,
        Boxes::Shape(s) => Some(s),
    }
}

/// The puzzle in the text format of its kind. A Sudoku prints as its line
/// of givens; boxes other than the default are not part of that line, so
/// [`box_note`] says how to read it back.
fn text(shape: &PuzzleShape, puzzle: &Puzzle) -> String {
    match shape.kind {
        Format::KenKen => kenken::write(puzzle),
        Format::Sudoku => {
            let n = puzzle.size();
            let mut givens = vec![0u8; n * n];
            for cage in puzzle.cages() {
                givens[cage.cells()[0].index(n)] = cage.target().digits().parse().unwrap_or(0);
            }
            let line = Puzzle::sudoku(n, BoxShape::default_for(n), &givens).expect("givens of a generated Sudoku");
            sudoku::write(&line).expect("a Sudoku with the default boxes")
        }
    }
}

/// How to read generated Sudoku back when its boxes are not the default.
fn box_note(shape: &PuzzleShape) -> Option<String> {
    match (shape.kind, shape.boxes.boxes) {
        (Format::Sudoku, Boxes::None) => Some("read these puzzles back with --boxes none".into()),
        (Format::Sudoku, Boxes::Shape(b)) => Some(format!("read these puzzles back with --boxes {b}")),
        _ => None,
    }
}

fn check_shape(shape: &PuzzleShape, sizes: &[usize]) -> Result<(), CliError> {
    let unfit = |message: String| CliError::Unfit { place: "options".into(), message };
    let shares = [
        ("--perturb", shape.perturb.unwrap_or(0.0)),
        ("--clues", shape.clues),
        ("--uncaged", shape.uncaged),
        ("--scatter", shape.scatter),
        ("--wild", shape.wild),
    ];
    for (name, value) in shares {
        if !(0.0..=1.0).contains(&value) {
            return Err(unfit(format!("{name} {value} is out of range: expected a share from 0 to 1")));
        }
    }
    let boxed = shape.kind == Format::Sudoku || shape.killer;
    if let (true, Boxes::Shape(b)) = (boxed, shape.boxes.boxes) {
        if let Some(n) = sizes.iter().find(|&&n| b.rows * b.cols != n) {
            return Err(unfit(format!("boxes of {b} do not tile a {n}x{n} grid")));
        }
    }
    if shape.killer && shape.kind == Format::Sudoku {
        return Err(unfit("--killer makes KenKen cages over boxes: use it with --kind kenken".into()));
    }
    if let ([n], true, None) = (sizes, shape.killer, boxes_for(shape.boxes.boxes, sizes[0])) {
        return Err(unfit(format!("--killer needs boxes, and a {n}x{n} grid has none: pick a size that is not prime")));
    }
    Ok(())
}

pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let size = args.size as usize;
    check_shape(&args.shape, &[size])?;
    if let Some(note) = box_note(&args.shape) {
        eprintln!("cagey: note: {note}");
    }
    for case in 0..args.count {
        let mut rng = generate::rng(args.shape.seed, case);
        let generated = match make(&args.shape, size, 1..=size, args.unique, &mut rng) {
            Ok(generated) => generated,
            Err(GenerateError::Solve(error)) => {
                return Err(CliError::Solve { label: format!("case {case}"), error }.into());
            }
            Err(error @ GenerateError::Unconfirmed { .. }) => {
                let GenerateError::Unconfirmed { puzzle, .. } = &error else { unreachable!() };
                writeln!(out, "case {case}: the backends disagree: {error}\n{}", kenken::write(puzzle))?;
                return Ok(Answer::Negative);
            }
            Err(error) => return Err(std::io::Error::other(error.to_string()).into()),
        };
        if args.shape.kind == Format::KenKen && case > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", text(&args.shape, &generated.puzzle))?;
    }
    out.flush()?;
    Ok(Answer::Positive)
}

/// What one fuzz case came to.
struct Case {
    puzzle: Puzzle,
    report: Report,
}

pub fn fuzz(args: &FuzzArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let range = args.size.map(|r| (r.low, r.high)).unwrap_or(match args.shape.kind {
        Format::KenKen => (1, 6),
        Format::Sudoku => (9, 9),
    });
    check_shape(&args.shape, &(range.0..=range.1).collect::<Vec<_>>())?;
    let default_perturb = match args.shape.kind {
        Format::KenKen => 0.03,
        Format::Sudoku => 0.01,
    };
    let shape = PuzzleShape { perturb: Some(args.shape.perturb.unwrap_or(default_perturb)), ..args.shape.clone() };
    let engines =
        Backend::ALL.map(|backend| Solver::builder().backend(backend).tuple_limit(args.tuples.tuple_limit).build());
    // `dyn Enumerate` is not `Sync`, so each thread makes its own list.
    let solvers = || engines.each_ref().map(|solver| (solver.backend().name(), solver as &dyn Enumerate));
    // A case the SAT encoding refuses (a cage with too many tuples) is
    // counted, not compared.
    let run = |case: u64| -> Result<Option<Case>, SolveError> {
        let mut rng = generate::rng(args.shape.seed, case);
        let size = rng.random_range(range.0..=range.1);
        let puzzle = match make(&shape, size, range.0..=range.1, false, &mut rng) {
            Ok(generated) => generated.puzzle,
            Err(GenerateError::Solve(error)) => return Err(error),
            Err(error) => unreachable!("only unique mode confirms: {error}"),
        };
        match cross_check(&puzzle, &solvers(), Limits::new(Some(args.limit))) {
            Ok(report) => Ok(Some(Case { puzzle, report })),
            Err(SolveError::Sat(SatError::TooManyTuples { .. } | SatError::TuplesTooLong { .. })) => Ok(None),
            Err(error) => Err(error),
        }
    };

    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(args.cases) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} cases, {per_sec}, {eta} left").expect("a valid template"),
    );
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.jobs.jobs).build().map_err(std::io::Error::other)?;
    let started = Instant::now();
    let mut tally = [0u64; 3];
    let mut features = [0u64; Features::NAMES.len()];
    let mut refused = 0u64;
    let batch = 16 * pool.current_num_threads() as u64;
    for first in (0..args.cases).step_by(batch as usize) {
        let cases: Vec<u64> = (first..(first + batch).min(args.cases)).collect();
        let results: Vec<_> = pool.install(|| cases.par_iter().map(|&c| (c, run(c))).collect());
        for (case, result) in results {
            let outcome = result.map_err(|error| CliError::Solve { label: format!("case {case}"), error })?;
            bar.inc(1);
            let Some(Case { puzzle, report }) = outcome else {
                refused += 1;
                continue;
            };
            for (seen, used) in features.iter_mut().zip(Features::of(&puzzle).flags()) {
                *seen += u64::from(used);
            }
            if let Some(disagreement) = &report.disagreement {
                bar.abandon();
                let small = shrink(&puzzle, &solvers(), Limits::new(Some(args.limit)))
                    .map_err(|error| CliError::Solve { label: format!("case {case}"), error })?;
                std::fs::create_dir_all(&args.out)
                    .map_err(|error| CliError::Write { path: args.out.clone(), error })?;
                let path = args.out.join(format!("fuzz-{}-{case}.txt", args.shape.seed));
                std::fs::write(&path, text(&shape, &small))
                    .map_err(|error| CliError::Write { path: path.clone(), error })?;
                writeln!(out, "case {case} (seed {}): the backends disagree: {disagreement}", args.shape.seed)?;
                writeln!(
                    out,
                    "shrunk from {} to {} cages: {}",
                    puzzle.cages().len(),
                    small.cages().len(),
                    path.display()
                )?;
                if let Some(note) = box_note(&shape) {
                    writeln!(out, "({note})")?;
                }
                out.flush()?;
                return Ok(Answer::Negative);
            }
            let count = report.runs[0].count;
            tally[count.min(2) as usize] += 1;
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} cases, all agree: {} with no solution, {} with one, {} with several; {:.0} cases/s",
        args.cases - refused,
        tally[0],
        tally[1],
        tally[2],
        args.cases as f64 / seconds.max(1e-9)
    )?;
    let used = Features::NAMES.iter().zip(features).map(|(name, k)| format!("{name} {k}"));
    writeln!(out, "cases with each feature: {}", used.format(", "))?;
    if refused > 0 {
        writeln!(out, "{refused} cases skipped: the SAT encoding refused a cage with too many tuples (--tuple-limit)")?;
    }
    out.flush()?;
    Ok(Answer::Positive)
}
