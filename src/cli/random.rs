//! `cagey generate`: random puzzles, printed; and what `generate` and
//! `fuzz` share, making a puzzle of a shape.

use std::io::Write;
use std::ops::RangeInclusive;

use cagey::format::{Boxes, Format, fpuzzles, keen, kenken, killer, sudoku};
use cagey::generate::{self, GenerateError, Generated, KenKenOptions, SudokuOptions};
use cagey::{Backend, BoxShape, CertificateError, Puzzle, Solver, WriteError};
use rand_chacha::ChaCha8Rng;

use super::args::{GenerateArgs, Kind, PuzzleShape};
use super::exit::{Answer, RunError};
use super::input::CliError;

/// Generates one puzzle of `size` with the shape's options (with `--mix`,
/// of a size drawn from `sizes`); with `unique`, pinned by a reproducible
/// `auto` (native, handing over to SAT on a hard puzzle: native alone has
/// heavy tails on large ones), confirmed by the SAT engine, and certified
/// by a proof that `varisat-checker` checks, so that a verdict SAT gave
/// after a hand-over is not confirmed by SAT's search alone.
pub fn make(
    shape: &PuzzleShape,
    size: usize,
    sizes: RangeInclusive<usize>,
    unique: bool,
    rng: &mut ChaCha8Rng,
) -> Result<Generated, GenerateError> {
    let generated = match shape.kind {
        Kind::KenKen if shape.mix => {
            let perturb = shape.perturb;
            let options = KenKenOptions::random(sizes, rng);
            generate::kenken(&KenKenOptions { perturb: perturb.unwrap_or(options.perturb), ..options }, rng)
        }
        Kind::KenKen => {
            let options = KenKenOptions {
                max_cage: shape.max_cage as usize,
                noop: shape.noop,
                perturb: shape.perturb.unwrap_or(0.0),
                boxes: if shape.killer || shape.over_boxes { boxes_for(shape.boxes.boxes, size) } else { None },
                extra_groups: shape.extra_groups,
                uncaged: shape.uncaged,
                scattered: shape.scatter,
                wild: shape.wild,
                killer: shape.killer,
                distinct: shape.distinct,
                caged_givens: shape.caged_givens,
                overlaps: shape.overlaps,
                ..KenKenOptions::new(size)
            };
            generate::kenken(&options, rng)
        }
        Kind::Sudoku => {
            let boxes = boxes_for(shape.boxes.boxes, size);
            let perturb = shape.perturb.unwrap_or(0.0);
            generate::sudoku(&SudokuOptions { size, boxes, clues: shape.clues, perturb }, rng)
        }
    };
    if !unique {
        return Ok(generated);
    }
    let auto = Solver::builder().backend(Backend::Auto).reproducible().build();
    let sat = Solver::new(Backend::Sat);
    let generated = generate::make_unique(generated, ("auto", &auto), ("sat", &sat), rng)?;
    match sat.certify(&generated.puzzle, &generated.planted) {
        // The planted grid is the one solution, with a checked proof; or,
        // with --perturb, it solves nothing and both engines found none.
        Ok(_) | Err(CertificateError::NotASolution(_)) => Ok(generated),
        Err(CertificateError::Sat(error)) => Err(GenerateError::Solve(error.into())),
        Err(error) => Err(GenerateError::Unconfirmed {
            pinner: "auto".into(),
            confirmer: "a checked proof of uniqueness".into(),
            found: error.to_string(),
            puzzle: Box::new(generated.puzzle),
        }),
    }
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

/// The puzzle in `format`, by default its kind's own. A Sudoku prints as
/// its line of givens; boxes other than the default are not part of that
/// line, so [`box_note`] says how to read it back.
pub fn text(shape: &PuzzleShape, format: Option<Format>, puzzle: &Puzzle) -> Result<String, WriteError> {
    let natural = match shape.kind {
        Kind::KenKen => Format::KenKen,
        Kind::Sudoku => Format::Sudoku,
    };
    match format.unwrap_or(natural) {
        Format::KenKen => Ok(kenken::write(puzzle)),
        Format::Keen => Ok(keen::write(puzzle)? + "\n"),
        Format::Killer => Ok(killer::write(puzzle)? + "\n"),
        Format::FPuzzles => Ok(fpuzzles::fpuzzles_link(puzzle, None)? + "\n"),
        Format::Sudoku if shape.kind == Kind::Sudoku => {
            let n = puzzle.size();
            let mut givens = vec![0u8; n * n];
            for cage in puzzle.cages() {
                givens[cage.cells()[0].index(n)] = cage.target().digits().parse().unwrap_or(0);
            }
            let line = Puzzle::sudoku(n, BoxShape::default_for(n), &givens).expect("givens of a generated Sudoku");
            sudoku::write(&line)
        }
        Format::Sudoku => sudoku::write(puzzle),
    }
}

/// How to read generated Sudoku back when its boxes are not the default.
pub fn box_note(shape: &PuzzleShape) -> Option<String> {
    match (shape.kind, shape.boxes.boxes) {
        (Kind::Sudoku, Boxes::None) => Some("read these puzzles back with --boxes none".into()),
        (Kind::Sudoku, Boxes::Shape(b)) => Some(format!("read these puzzles back with --boxes {b}")),
        _ => None,
    }
}

pub fn check_shape(shape: &PuzzleShape, sizes: &[usize]) -> Result<(), CliError> {
    let unfit = |message: String| CliError::Unfit { place: "options".into(), message };
    let shares = [
        ("--perturb", shape.perturb.unwrap_or(0.0)),
        ("--clues", shape.clues),
        ("--uncaged", shape.uncaged),
        ("--scatter", shape.scatter),
        ("--wild", shape.wild),
        ("--distinct", shape.distinct),
        ("--caged-givens", shape.caged_givens),
    ];
    for (name, value) in shares {
        if !(0.0..=1.0).contains(&value) {
            return Err(unfit(format!("{name} {value} is out of range: expected a share from 0 to 1")));
        }
    }
    let boxed = shape.kind == Kind::Sudoku || shape.killer || shape.over_boxes;
    if let (true, Boxes::Shape(b)) = (boxed, shape.boxes.boxes) {
        if let Some(n) = sizes.iter().find(|&&n| b.rows * b.cols != n) {
            return Err(unfit(format!("boxes of {b} do not tile a {n}x{n} grid")));
        }
    }
    for (flag, on) in [("--killer", shape.killer), ("--over-boxes", shape.over_boxes)] {
        if on && shape.kind == Kind::Sudoku {
            return Err(unfit(format!("{flag} makes cages over boxes: use it with --kind kenken")));
        }
        if let ([n], true, None) = (sizes, on, boxes_for(shape.boxes.boxes, sizes[0])) {
            return Err(unfit(format!(
                "{flag} needs boxes, and a {n}x{n} grid has none: pick a size that is not prime"
            )));
        }
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
        let written = text(&args.shape, args.emit, &generated.puzzle).map_err(|error| CliError::Unfit {
            place: format!("case {case}"),
            message: format!("{error}; drop --emit, or generate without --noop, --killer, --over-boxes, --distinct, --caged-givens, --overlaps and --extra-groups"),
        })?;
        if written.starts_with('#') && case > 0 {
            writeln!(out)?;
        }
        write!(out, "{written}")?;
    }
    out.flush()?;
    Ok(Answer::Positive)
}
