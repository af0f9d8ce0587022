//! The heart of the promise: on random puzzles, the native and SAT backends
//! return exactly the same solutions, each valid, none twice; for small
//! sizes a brute-force oracle agrees too.
//!
//! `PROPTEST_CASES=N` raises the number of cases of each property.

use std::collections::BTreeSet;

use cagey::check::{Disagreement, Limits, cross_check};
use cagey::generate::{self, Features, KenKenOptions, SudokuOptions};
use cagey::{Backend, BoxShape, Cage, Cell, Enumerate, Grid, Op, Puzzle, Solver, Target, verify};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngAlgorithm, TestError, TestRng, TestRunner};

const NATIVE: Solver = Solver::new(Backend::Native);
const SAT: Solver = Solver::new(Backend::Sat);
const BACKENDS: [(&str, &dyn Enumerate); 2] = [("native", &NATIVE), ("sat", &SAT)];

/// Solution sets larger than this are compared by count up to it.
const CAP: u64 = 2_000;

/// `default_cases` cases unless `PROPTEST_CASES` says otherwise; failures
/// are kept in `proptest-regressions/cross_check.txt` and replayed first.
fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default_cases);
    let persistence = FileFailurePersistence::Direct("proptest-regressions/cross_check.txt");
    ProptestConfig { cases, failure_persistence: Some(Box::new(persistence)), ..ProptestConfig::default() }
}

fn kenken(size: usize, seed: u64, max_cage: usize, noop: bool, perturb: f64) -> Puzzle {
    let options = KenKenOptions { max_cage, noop, perturb, ..KenKenOptions::new(size) };
    generate::kenken(&options, &mut generate::rng(seed, 0)).puzzle
}

fn sudoku(size: usize, seed: u64, clues: f64, perturb: f64) -> Puzzle {
    let options = SudokuOptions { size, boxes: BoxShape::default_for(size), clues, perturb };
    generate::sudoku(&options, &mut generate::rng(seed, 0)).puzzle
}

fn assert_backends_agree(puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let report = cross_check(puzzle, &BACKENDS, Limits::new(Some(CAP))).unwrap();
    prop_assert!(report.agree(), "{}\n{puzzle:?}", report.disagreement.unwrap());
    Ok(())
}

/// Every Latin square of order `n`, by plain backtracking: an oracle that
/// shares nothing with either backend.
fn latin_squares(n: usize) -> Vec<Grid> {
    fn extend(n: usize, values: &mut Vec<u8>, out: &mut Vec<Grid>) {
        let i = values.len();
        if i == n * n {
            out.push(Grid::new(n, values.clone()).unwrap());
            return;
        }
        let (r, c) = (i / n, i % n);
        for v in 1..=n as u8 {
            let clash = (0..c).any(|k| values[r * n + k] == v) || (0..r).any(|k| values[k * n + c] == v);
            if !clash {
                values.push(v);
                extend(n, values, out);
                values.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn kenken_backends_agree(
        size in 1usize..=6,
        seed in any::<u64>(),
        max_cage in 1usize..=5,
        noop in any::<bool>(),
        perturb in prop_oneof![Just(0.0), Just(0.05)],
    ) {
        assert_backends_agree(&kenken(size, seed, max_cage, noop, perturb))?;
    }

    /// Puzzles from every part of the model at once (see
    /// `generator_covers_the_whole_model`), sizes 1 to 7.
    #[test]
    fn mixed_backends_agree(seed in any::<u64>()) {
        let mut rng = generate::rng(seed, 0);
        let options = KenKenOptions::random(1..=7, &mut rng);
        assert_backends_agree(&generate::kenken(&options, &mut rng).puzzle)?;
    }

    #[test]
    fn sudoku_backends_agree(
        (size, clues) in prop_oneof![(Just(4usize), 0.0..0.6), (Just(6usize), 0.2..0.6), (Just(9usize), 0.45..0.7)],
        seed in any::<u64>(),
        perturb in prop_oneof![Just(0.0), Just(0.02)],
    ) {
        assert_backends_agree(&sudoku(size, seed, clues, perturb))?;
    }

    #[test]
    fn small_kenken_matches_brute_force(
        size in 1usize..=4,
        seed in any::<u64>(),
        max_cage in 1usize..=4,
        noop in any::<bool>(),
        perturb in prop_oneof![Just(0.0), Just(0.05)],
    ) {
        let puzzle = kenken(size, seed, max_cage, noop, perturb);
        let oracle: BTreeSet<Grid> = latin_squares(size).into_iter().filter(|g| verify(&puzzle, g).is_ok()).collect();
        for backend in Backend::ALL {
            let found = Solver::new(backend).solutions(&puzzle, None).unwrap().grids;
            let count = found.len();
            let found: BTreeSet<Grid> = found.into_iter().collect();
            prop_assert_eq!(count, found.len(), "{} repeated a grid", backend);
            prop_assert_eq!(&found, &oracle, "{} differs from brute force", backend);
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Puzzles from every part of the model (distinct, overlapping and
    /// Killer cages, givens in caged cells among them), sizes 1 to 4: both
    /// backends find exactly the grids that brute force does.
    #[test]
    fn small_mixed_puzzles_match_brute_force(seed in any::<u64>()) {
        let mut rng = generate::rng(seed, 0);
        let options = KenKenOptions::random(1..=4, &mut rng);
        let puzzle = generate::kenken(&options, &mut rng).puzzle;
        let oracle: BTreeSet<Grid> =
            latin_squares(puzzle.size()).into_iter().filter(|g| verify(&puzzle, g).is_ok()).collect();
        for backend in Backend::ALL {
            let found: BTreeSet<Grid> = Solver::new(backend).solutions(&puzzle, None).unwrap().grids.into_iter().collect();
            prop_assert_eq!(&found, &oracle, "{} differs from brute force on {:?}", backend, puzzle);
        }
    }
}

/// The product of small values, exactly, as decimal digits: the test's own
/// arithmetic, beside the three of the crate.
fn decimal_product(values: impl IntoIterator<Item = u32>) -> String {
    let mut digits = vec![1u32];
    for v in values {
        let mut carry = 0;
        for d in &mut digits {
            let x = *d * v + carry;
            *d = x % 10;
            carry = x / 10;
        }
        while carry > 0 {
            digits.push(carry % 10);
            carry /= 10;
        }
    }
    digits.iter().rev().map(|d| char::from(b'0' + *d as u8)).collect()
}

/// A puzzle whose only open cells form one cage over `cells`, every other
/// cell given its planted value, with `op` and `target`.
fn one_open_cage(planted: &Grid, cells: &[Cell], op: Op, target: Target) -> Puzzle {
    let n = planted.size();
    let mut cages = vec![Cage::new(op, target, cells.to_vec()).unwrap()];
    for i in 0..n * n {
        let cell = Cell::new(i / n, i % n);
        if !cells.contains(&cell) {
            cages.push(Cage::new(Op::Given, u64::from(planted[cell]), vec![cell]).unwrap());
        }
    }
    Puzzle::new(n, vec![], cages).unwrap()
}

proptest! {
    #![proptest_config(config(32))]

    /// Sums and products at the limits of the arithmetic: grids up to
    /// 25x25, cages of 1 to 64 cells (a transversal of 25 cells holding one
    /// value gives products up to 25^25, about 2^116), targets planted
    /// exactly or set at and next to 2^64 and 2^128, or with a prime factor
    /// above 25. Every other cell is given, so the cage alone decides; both
    /// backends must agree, and find the planted grid when it is a solution.
    #[test]
    fn cage_arithmetic_agrees_at_the_limits(
        size in 1usize..=25,
        seed in any::<u64>(),
        transversal in any::<bool>(),
        wanted in 1usize..=64,
        op in prop::sample::select(vec![Op::Add, Op::Mul, Op::Any]),
        target_kind in 0usize..8,
    ) {
        let mut rng = generate::rng(seed, 0);
        let planted = generate::latin_square(size, &mut rng);
        let n = size;
        let all: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
        let cells: Vec<Cell> = if transversal {
            let value = planted[Cell::new(0, 0)];
            all.iter().copied().filter(|&c| planted[c] == value).collect()
        } else {
            // At most two cells per row and per column, so that the cage's
            // allowed tuples stay few enough for the SAT encoding.
            let (mut per_row, mut per_col) = (vec![0; n], vec![0; n]);
            let mut picked = Vec::new();
            let start = (seed % (n * n) as u64) as usize;
            for k in 0..n * n {
                let cell = all[(start + k * 7919) % (n * n)];
                if picked.len() < wanted && per_row[cell.row] < 2 && per_col[cell.col] < 2 && !picked.contains(&cell) {
                    per_row[cell.row] += 1;
                    per_col[cell.col] += 1;
                    picked.push(cell);
                }
            }
            picked
        };
        let values = cells.iter().map(|&c| u32::from(planted[c]));
        let exact = match op {
            Op::Add => values.sum::<u32>().to_string(),
            _ => decimal_product(values),
        };
        let target = match target_kind {
            0 | 1 => exact.clone(),
            2 => format!("{exact}0"),
            3 => decimal_product(std::iter::once(29).chain(cells.iter().map(|&c| u32::from(planted[c])))),
            4 => u64::MAX.to_string(),
            5 => "18446744073709551616".to_string(),
            6 => "18446744073709551617".to_string(),
            _ => "340282366920938463463374607431768211457".to_string(),
        };
        let puzzle = one_open_cage(&planted, &cells, op, Target::from_decimal(&target).unwrap());
        let report = cross_check(&puzzle, &BACKENDS, Limits::new(Some(CAP))).unwrap();
        prop_assert!(report.agree(), "{}\n{puzzle:?}", report.disagreement.unwrap());
        if target == exact {
            prop_assert_eq!(verify(&puzzle, &planted), Ok(()));
            prop_assert!(report.runs.iter().all(|r| r.count >= 1), "the planted grid is a solution");
        }
    }
}

#[test]
fn brute_force_oracle_knows_the_latin_square_counts() {
    let counts: Vec<usize> = (1..=4).map(|n| latin_squares(n).len()).collect();
    assert_eq!(counts, [1, 2, 12, 576]);
}

/// Over a fixed range of seeds, the generator makes puzzles with no
/// solution, with one and with several, none of them rare.
#[test]
fn generator_spreads_over_none_one_and_several() {
    let mut kenken_tally = [0u32; 3];
    let mut sudoku_tally = [0u32; 3];
    for seed in 0..300 {
        let puzzle = kenken(4 + seed as usize % 3, seed, 4, seed % 2 == 0, 0.03);
        kenken_tally[NATIVE.count(&puzzle, Some(2)).unwrap().count() as usize] += 1;
        let puzzle = sudoku(9, seed, 0.45, 0.01);
        sudoku_tally[NATIVE.count(&puzzle, Some(2)).unwrap().count() as usize] += 1;
    }
    // Measured at the time of writing: KenKen about 30% none, 30% one,
    // 40% several; Sudoku about 30% none, 15% one, 55% several.
    for (kind, tally) in [("kenken", kenken_tally), ("sudoku", sudoku_tally)] {
        for (outcome, &n) in ["none", "one", "several"].iter().zip(&tally) {
            assert!(n >= 30, "{kind}: only {n} of 300 with {outcome} ({tally:?})");
        }
    }
}

/// The widened generator reaches every part of the model: over a fixed
/// run of random options, each feature and every size from 1 to 25 turns
/// up, none of them rare. Prints the shares, as the spread test does for
/// solution counts.
#[test]
fn generator_covers_the_whole_model() {
    let draws = 1000;
    let mut features = [0u32; Features::NAMES.len()];
    let mut sizes = [0u32; 26];
    for case in 0..draws {
        let mut rng = generate::rng(21, case);
        let options = KenKenOptions::random(1..=25, &mut rng);
        let generated = generate::kenken(&options, &mut rng);
        sizes[generated.puzzle.size()] += 1;
        for (seen, used) in features.iter_mut().zip(Features::of(&generated.puzzle).flags()) {
            *seen += u32::from(used);
        }
    }
    for (name, &k) in Features::NAMES.iter().zip(&features) {
        eprintln!("{name}: {:.1}%", 100.0 * f64::from(k) / f64::from(draws as u32));
    }
    // Measured at the time of writing: uncaged 19%, scattered 18%, repeats 56%,
    // boxes 8%, groups 20%, givens 60%, noop 26%, distinct 16%, caged givens
    // 22%, overlaps 17%, big targets 9%, huge 6%.
    for (name, &k) in Features::NAMES.iter().zip(&features) {
        assert!(k >= 20, "only {k} of {draws} puzzles with {name}: {features:?}");
    }
    assert!(sizes[1..].iter().all(|&k| k > 0), "every size from 1 to 25 appears: {sizes:?}");
}

/// A backend with a planted fault is caught within a bounded number of
/// random cases: here a solver that reads every `-` cage as `+`.
/// A test-only mutant with a wrong cage rule: it reads every `-` cage as `+`.
struct SubIsAdd;

impl Enumerate for SubIsAdd {
    fn enumerate(
        &self,
        puzzle: &Puzzle,
        on_solution: &mut dyn FnMut(&Grid) -> std::ops::ControlFlow<()>,
    ) -> Result<cagey::Stats, cagey::SolveError> {
        let cages = puzzle
            .cages()
            .iter()
            .map(|c| {
                let op = if c.op() == Op::Sub { Op::Add } else { c.op() };
                Cage::new(op, c.target().clone(), c.cells().to_vec()).unwrap()
            })
            .collect();
        let mutant = Puzzle::new(puzzle.size(), puzzle.extra_groups().to_vec(), cages).unwrap();
        NATIVE.enumerate(&mutant, on_solution)
    }
}

#[test]
fn a_planted_fault_is_caught_within_a_few_cases() {
    let solvers: [(&str, &dyn Enumerate); 2] = [("sat", &SAT), ("mutant", &SubIsAdd)];
    let caught = (0..50).find(|&seed| {
        let puzzle = kenken(4, seed, 3, false, 0.0);
        let report = cross_check(&puzzle, &solvers, Limits::new(Some(CAP))).unwrap();
        matches!(report.disagreement, Some(Disagreement::Missing { .. } | Disagreement::Invalid { .. }))
    });
    assert!(caught.is_some(), "the mutant survived 50 random 4x4 puzzles");
}

/// The property test finds the mutant too, and shrinks the failing case
/// (its size and seed) to a simpler one that still fails.
#[test]
fn shrinking_brings_a_failure_down_to_a_simpler_puzzle() {
    let config = ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let solvers: [(&str, &dyn Enumerate); 2] = [("sat", &SAT), ("mutant", &SubIsAdd)];
    let first_failure = std::cell::Cell::new(None);
    let result = runner.run(&(2usize..=6, any::<u64>()), |(size, seed)| {
        let report = cross_check(&kenken(size, seed, 3, false, 0.0), &solvers, Limits::new(Some(CAP))).unwrap();
        if !report.agree() && first_failure.get().is_none() {
            first_failure.set(Some((size, seed)));
        }
        prop_assert!(report.agree());
        Ok(())
    });
    let Err(TestError::Fail(_, shrunk)) = result else {
        panic!("the mutant was not caught: {result:?}");
    };
    let first = first_failure.get().unwrap();
    assert!(shrunk < first, "no shrinking: first failure {first:?}, reported {shrunk:?}");
    assert!(shrunk.0 <= 4, "the failure shrank only to a {0}x{0} puzzle", shrunk.0);
}

#[test]
fn fuzz_shrinking_keeps_the_disagreement_and_drops_the_rest() {
    let text = "# 3\n- 1 A1 A2\n+ 3 B1 C1\n* 6 B2 B3 C3\n";
    let puzzle = cagey::format::kenken::parse(text, "t").unwrap().remove(0).puzzle;
    let solvers: [(&str, &dyn Enumerate); 2] = [("native", &NATIVE), ("mutant", &SubIsAdd)];
    assert!(!cross_check(&puzzle, &solvers, Limits::new(None)).unwrap().agree());
    let small = cagey::check::shrink(&puzzle, &solvers, Limits::new(None)).unwrap();
    assert!(!cross_check(&small, &solvers, Limits::new(None)).unwrap().agree());
    assert_eq!(small.cages().len(), 1, "only the '-' cage is needed:\n{small:?}");
    assert_eq!(small.cages()[0].op(), cagey::Op::Sub);
}

proptest! {
    #![proptest_config(config(64))]

    /// On generated puzzles with few solutions: the fixed and open cells
    /// that each backend finds by questions are those of the full list of
    /// solutions, and the suggested givens leave exactly the kept one.
    #[test]
    fn analysis_and_suggestions_on_generated_puzzles(
        seed in any::<u64>(),
        size in 4usize..=6,
        kind in 0u8..3,
    ) {
        let puzzle = match kind {
            0 => kenken(size, seed, 4, true, 0.0),
            1 => kenken(size, seed, 5, false, 0.0),
            _ => sudoku(size, seed, 0.3, 0.0),
        };
        let cagey::Solutions { grids: solutions, stats } = Solver::new(Backend::Native).solutions(&puzzle, Some(CAP)).unwrap();
        prop_assume!(stats.complete && solutions.len() > 1);
        let listed = cagey::Analysis::of_solutions(size, &solutions);
        for backend in Backend::ALL {
            let analysis = Solver::new(backend).analyze(&puzzle).unwrap();
            prop_assert_eq!(analysis.fixed(), listed.fixed(), "{}", backend);
            prop_assert_eq!(analysis.open(), listed.open(), "{}", backend);
        }
        let keep = &solutions[seed as usize % solutions.len()];
        let suggestion = Solver::new(Backend::Sat).suggest(&puzzle, keep).unwrap();
        let left: Vec<&Grid> =
            solutions.iter().filter(|g| suggestion.givens.iter().all(|&(c, v)| g[c] == v)).collect();
        prop_assert_eq!(left, vec![keep]);
    }
}
