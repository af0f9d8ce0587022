//! Backends agree on puzzles with no solution, and the DIMACS output reads
//! back into varisat and decodes to valid grids.

use std::ops::ControlFlow;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, Enumerate, Grid, Puzzle, SatError, SolveError, Solver, verify};

fn parse(text: &str) -> Puzzle {
    format::parse(text, "test", &ParseOptions::default()).unwrap().remove(0).puzzle
}

#[test]
fn cages_with_no_allowed_tuple_mean_no_solution_on_every_backend() {
    let cases = [
        "# 3\n- 5 A1 A2\n",                          // no two values of 1..3 differ by 5
        "# 2\n/ 3 A1 A2\n",                          // no quotient of 3 among 1..2
        "# 4\n+ 20 A1 A2 A3\n",                      // three cells of a row sum to at most 9
        "# 4\n* 7 A1 B1\n",                          // 7 is prime and above 4
        "# 4\n? 5 A1\n",                             // a one-cell target above N
        "# 4\n? 99999999999999999999999 A1\n",       // and far above u64
        "# 4\n? 18446744073709551615 A1 B2 C3\n",    // 2^64 - 1 has the factor 641
        "# 4\n* 18446744073709551616 A1 B2 C3 D4\n", // 2^64 needs 64 twos; four cells of 1..4 hold 8
        "# 4\n+ 18446744073709551616 A1 B2 C3 D4\n", // a sum beyond u64
        "# 4\n- 18446744073709551616 A1 B2\n",       // a difference beyond u64
        "# 4\n/ 18446744073709551615 A1 B2\n",       // a quotient near it
        "# 3\n? 100 A1 A2\n",                        // no op reaches 100
        "# 3\n+ 2 A1 A2\n",                          // 1 + 1, but the cells share a row
        "# 2\n! 1 A1\n! 1 B2\n! 1 A2\n",             // a Latin-square clash
    ];
    for text in cases {
        let puzzle = parse(text);
        for backend in Backend::ALL {
            let count = Solver::new(backend).count(&puzzle, None).unwrap();
            let stats = count.stats;
            assert_eq!(count.count(), 0, "{backend} on {text:?}");
            assert!(stats.complete);
        }
    }
}

#[test]
fn repeated_values_are_allowed_where_cells_share_no_group() {
    // An L-shaped 3-cell cage: A1 and B2 share neither row nor column, so
    // 1 + 2 + 1 works (A1 = B2 = 1).
    let puzzle = parse("# 2\n+ 4 A1 A2 B2\n");
    for backend in Backend::ALL {
        let solutions = Solver::new(backend).solutions(&puzzle, None).unwrap().grids;
        assert_eq!(solutions.len(), 1, "{backend}");
        assert_eq!(solutions[0].values(), [1, 2, 2, 1]);
    }
}

#[test]
fn the_tuple_limit_is_a_typed_error() {
    let puzzle = parse("# 9\n+ 90 A1 A2 B1 B2 C1 C2 D1 D2 E1 E2 F1 F2 G1 G2 H1 H2 I1 I2\n");
    let solver = Solver::builder().backend(Backend::Sat).tuple_limit(1000).build();
    let error = solver.count(&puzzle, None).unwrap_err();
    assert!(matches!(error, SolveError::Sat(SatError::TooManyTuples { cage: 0, cells: 18, limit: 1000, .. })));
    // The native backend has no such limit.
    let count = Solver::new(Backend::Native).count(&puzzle, Some(10)).unwrap();
    assert_eq!(count.count(), 10);
}

/// The grid a model of the printed CNF describes, read by the numbering
/// the CNF's comments document: variable (r·N + c)·N + v is row r, column c
/// (from 0) holding v (from 1).
fn decode(n: usize, model: &[varisat::Lit]) -> Grid {
    let mut values = vec![0u8; n * n];
    for lit in model.iter().filter(|l| l.is_positive() && l.var().to_dimacs() as usize <= n * n * n) {
        let index = lit.var().to_dimacs() as usize - 1;
        assert_eq!(values[index / n], 0, "one value per cell");
        values[index / n] = (index % n + 1) as u8;
    }
    Grid::new(n, values).unwrap()
}

fn dimacs(puzzle: &Puzzle, blocked: &[Grid]) -> Vec<u8> {
    let mut cnf = Vec::new();
    Solver::default().cnf(puzzle).unwrap().write_dimacs(&mut cnf, blocked).unwrap();
    cnf
}

#[test]
fn printed_cnf_reads_back_into_varisat_and_decodes_to_a_valid_grid() {
    let text = std::fs::read_to_string("puzzles/kenken/generated-9x9-noop.txt").unwrap();
    let puzzle = parse(&text);
    let cnf = dimacs(&puzzle, &[]);
    let comments = String::from_utf8_lossy(&cnf);
    assert!(comments.contains("c variable (r*9 + c)*9 + v is true when row r, column c (both from 0) holds value v"));
    let formula = varisat::dimacs::DimacsParser::parse(&cnf[..]).unwrap();
    assert!(formula.var_count() > 9 * 9 * 9);
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let grid = decode(9, &solver.model().unwrap());
    assert_eq!(verify(&puzzle, &grid), Ok(()));

    // Blocking that grid leaves nothing: the puzzle is unique.
    let mut solver = varisat::Solver::new();
    solver.add_formula(&varisat::dimacs::DimacsParser::parse(&dimacs(&puzzle, &[grid])[..]).unwrap());
    assert!(!solver.solve().unwrap());
}

#[test]
fn both_backends_stop_when_told() {
    let puzzle = parse("# 5\n");
    for backend in Backend::ALL {
        let mut seen = 0;
        let stats = Solver::new(backend)
            .enumerate(&puzzle, &mut |_| {
                seen += 1;
                if seen == 7 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .unwrap();
        assert_eq!((seen, stats.solutions, stats.complete), (7, 7, false), "{backend}");
        let (counter, other) = match backend {
            Backend::Sat => (stats.sat_calls, stats.nodes),
            _ => (stats.nodes, stats.sat_calls),
        };
        assert!(counter.is_some_and(|n| n >= 7) && other.is_none(), "{backend}: {stats:?}");
    }
}

#[test]
fn a_cage_too_large_to_expand_is_refused_in_bounded_time() {
    let cells: Vec<String> =
        (0..25).flat_map(|r| (1..=25).map(move |c| format!("{}{c}", (b'A' + r) as char))).collect();
    let puzzle = parse(&format!("# 25\n+ 8125 {}\n", cells.join(" ")));
    let error = Solver::new(Backend::Sat).count(&puzzle, Some(1)).unwrap_err();
    assert!(matches!(error, SolveError::Sat(SatError::TuplesTooLong { cage: 0, cells: 625, .. })), "{error}");
    // The native backend, which needs no expansion, finds solutions at once.
    assert_eq!(Solver::new(Backend::Native).count(&puzzle, Some(3)).unwrap().count(), 3);
}

#[test]
fn a_timeout_cuts_every_backend_short_and_says_so() {
    // 7x7 Latin squares: far too many to count in any test.
    let latin = Puzzle::new(7, vec![], vec![]).unwrap();
    for backend in Backend::ALL {
        let solver = Solver::builder().backend(backend).timeout(std::time::Duration::from_millis(100)).build();
        let count = solver.count(&latin, None).unwrap();
        let stats = count.stats;
        assert!(!count.is_complete() && stats.timed_out && count.count() > 0, "{backend}: {count:?}");
        assert!(!solver.count(&latin, Some(5)).unwrap().stats.timed_out, "{backend}: a limit met in time");
        // A timeout that is over before the search starts: nothing decided.
        let instant = Solver::builder().backend(backend).timeout(std::time::Duration::from_nanos(1)).build();
        assert_eq!(instant.uniqueness(&latin).unwrap().uniqueness, cagey::Uniqueness::Unknown(None), "{backend}");
    }
}

#[test]
fn a_tally_counts_each_solution_found_once() {
    use std::sync::atomic::{AtomicU64, Ordering};
    // Latin squares: of 4×4, cut at a limit; of 5×5, on threads, a count
    // that passes the probe and starts again split.
    let tallies: Vec<std::sync::Arc<AtomicU64>> = (0..6).map(|_| Default::default()).collect();
    let squares = parse("# 4\n");
    let five = parse("# 5\n");
    for (i, backend) in Backend::ALL.into_iter().enumerate() {
        let solver = Solver::builder().backend(backend).tally(tallies[2 * i].clone()).build();
        assert_eq!(solver.count(&squares, Some(100)).unwrap().count(), 100);
        // One past the limit, to know whether the count is whole.
        assert_eq!(tallies[2 * i].load(Ordering::Relaxed), 101, "{backend}");
        let solver = Solver::builder().backend(backend).tally(tallies[2 * i + 1].clone()).build();
        let count = solver.count_on_threads(&five, Some(20_000), 2).unwrap();
        let tallied = tallies[2 * i + 1].load(Ordering::Relaxed);
        // The threads may each find one past the limit before they stop.
        assert!((20_001..=20_002).contains(&tallied), "{backend}: {tallied}");
        assert_eq!(count.count(), 20_000);
    }
}

#[test]
fn reproducible_auto_hands_over_to_sat_and_answers_alike_every_time() {
    // Keen's second "unreasonable" no-op 9×9 without its last four cages:
    // 3 solutions, which native alone finds in about 800,000 failures, far
    // past the hand-over at 16·81.
    let path = "puzzles/kenken/keen-9x9-u-noop.txt";
    let text = std::fs::read_to_string(path).unwrap();
    let keen = format::parse(&text, path, &ParseOptions::default()).unwrap().remove(1).puzzle;
    let cages = keen.cages()[..keen.cages().len() - 4].to_vec();
    let puzzle = Puzzle::new(9, vec![], cages).unwrap();
    let reproducible = Solver::builder().backend(Backend::Auto).reproducible().build();
    let cagey::Solutions { grids: first, stats } = reproducible.solutions(&puzzle, None).unwrap();
    assert_eq!(stats.answered_by, Some(Backend::Sat), "{stats:?}");
    assert!(stats.complete && stats.failures.is_some_and(|f| f >= 16 * 81), "{stats:?}");
    assert_eq!(reproducible.solutions(&puzzle, None).unwrap().grids, first, "another order, or other solutions");
    let mut sorted = first.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), first.len(), "a solution handed out twice");
    let cagey::Solutions { grids: mut by_sat, stats: _ } = Solver::new(Backend::Sat).solutions(&puzzle, None).unwrap();
    by_sat.sort();
    assert_eq!((sorted.len(), &sorted), (3, &by_sat));
    assert!(first.iter().all(|grid| verify(&puzzle, grid).is_ok()));
}

#[test]
fn reproducible_auto_goes_on_with_native_when_sat_refuses_the_puzzle() {
    // A Keen "hard" no-op 9×9 that native proves unique after about 2,500
    // failures, past the hand-over at 16·81.
    let path = "puzzles/kenken/keen-9x9-h-noop.txt";
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = format::parse(&text, path, &ParseOptions::default()).unwrap();
    let puzzle = &parsed.iter().find(|p| p.line == 1).expect("the puzzle at line 1").puzzle;
    let reproducible = |tuples| Solver::builder().backend(Backend::Auto).reproducible().tuple_limit(tuples).build();
    let cagey::Solutions { grids: by_sat, stats } =
        reproducible(Solver::DEFAULT_TUPLE_LIMIT).solutions(puzzle, None).unwrap();
    assert_eq!((by_sat.len(), stats.answered_by), (1, Some(Backend::Sat)), "{stats:?}");
    // No cage fits in one tuple: SAT refuses, and native starts again,
    // handing out only what it had not.
    let cagey::Solutions { grids: by_native, stats } = reproducible(1).solutions(puzzle, None).unwrap();
    assert_eq!((&by_native, stats.answered_by, stats.complete), (&by_sat, Some(Backend::Native), true), "{stats:?}");
    assert_eq!(stats.solutions, 1);
}
