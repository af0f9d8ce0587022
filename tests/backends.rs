//! Backends agree on puzzles with no solution, and the DIMACS output reads
//! back into varisat and decodes to valid grids.

use std::ops::ControlFlow;

use cagey::format::{self, ParseOptions};
use cagey::sat::{SatError, dimacs, encode};
use cagey::{Backend, Engine, Puzzle, SolveError, Solver, verify};

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
            let (count, stats) = backend.count(&puzzle, None).unwrap();
            assert_eq!(count.count, 0, "{backend} on {text:?}");
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
        let (solutions, _) = backend.solutions(&puzzle, None).unwrap();
        assert_eq!(solutions.len(), 1, "{backend}");
        assert_eq!(solutions[0].values(), [1, 2, 2, 1]);
    }
}

#[test]
fn the_tuple_limit_is_a_typed_error() {
    let puzzle = parse("# 9\n+ 90 A1 A2 B1 B2 C1 C2 D1 D2 E1 E2 F1 F2 G1 G2 H1 H2 I1 I2\n");
    let engine = Engine { backend: Backend::Sat, tuple_limit: 1000 };
    let error = engine.count(&puzzle, None).unwrap_err();
    assert!(matches!(error, SolveError::Sat(SatError::TooManyTuples { cage: 0, cells: 18, limit: 1000, .. })));
    // The native backend has no such limit.
    let (count, _) = Backend::Native.count(&puzzle, Some(10)).unwrap();
    assert_eq!(count.count, 10);
}

#[test]
fn printed_cnf_reads_back_into_varisat_and_decodes_to_a_valid_grid() {
    let text = std::fs::read_to_string("puzzles/kenken/generated-9x9-noop.txt").unwrap();
    let puzzle = parse(&text);
    let encoding = encode(&puzzle, 1_000_000).unwrap();
    let mut cnf = Vec::new();
    dimacs::write(&mut cnf, &encoding, &[]).unwrap();
    let formula = varisat::dimacs::DimacsParser::parse(&cnf[..]).unwrap();
    assert_eq!(formula.var_count(), encoding.formula().var_count());
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let grid = encoding.decode(&solver.model().unwrap());
    assert_eq!(verify(&puzzle, &grid), Ok(()));

    // Blocking that grid leaves nothing: the puzzle is unique.
    let mut cnf = Vec::new();
    dimacs::write(&mut cnf, &encoding, std::slice::from_ref(&grid)).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&varisat::dimacs::DimacsParser::parse(&cnf[..]).unwrap());
    assert!(!solver.solve().unwrap());
}

#[test]
fn both_backends_stop_when_told() {
    let puzzle = parse("# 5\n");
    for backend in Backend::ALL {
        let mut seen = 0;
        let stats = backend
            .enumerate(&puzzle, &mut |_| {
                seen += 1;
                if seen == 7 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .unwrap();
        assert_eq!((seen, stats.solutions, stats.complete), (7, 7, false), "{backend}");
        let counter = if backend == Backend::Sat { "sat_calls" } else { "nodes" };
        assert!(stats.counter(counter).is_some_and(|n| n >= 7), "{backend}: {:?}", stats.counters);
    }
}

#[test]
fn a_cage_too_large_to_expand_is_refused_in_bounded_time() {
    let cells: Vec<String> =
        (0..25).flat_map(|r| (1..=25).map(move |c| format!("{}{c}", (b'A' + r) as char))).collect();
    let puzzle = parse(&format!("# 25\n+ 8125 {}\n", cells.join(" ")));
    let error = Backend::Sat.count(&puzzle, Some(1)).unwrap_err();
    assert!(matches!(error, SolveError::Sat(SatError::TuplesTooLong { cage: 0, cells: 625, .. })), "{error}");
    // The native backend, which needs no expansion, finds solutions at once.
    assert_eq!(Backend::Native.count(&puzzle, Some(3)).unwrap().0.count, 3);
}
