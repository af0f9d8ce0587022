//! A puzzle's search split into shards: on every backend the shards hold
//! every solution once between them, and counting on threads gives the
//! whole count.

use std::collections::HashSet;
use std::ops::ControlFlow;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, BoxShape, Enumerate, Grid, Puzzle, Solver};

fn parse(path: &str) -> Puzzle {
    let text = std::fs::read_to_string(path).unwrap();
    format::parse(&text, path, &ParseOptions::default()).unwrap().remove(0).puzzle
}

/// The solutions one solver hands out, checked to come once each.
fn solutions(solver: &Solver, puzzle: &Puzzle) -> HashSet<Grid> {
    let mut found = HashSet::new();
    let stats = solver
        .enumerate(puzzle, &mut |grid| {
            assert!(found.insert(grid.clone()), "{grid:?} twice in one shard");
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(stats.complete);
    found
}

fn puzzles() -> Vec<(Puzzle, usize)> {
    vec![
        (Puzzle::new(4, vec![], vec![]).unwrap(), 576),
        (Puzzle::sudoku(4, BoxShape::default_for(4), &[0; 16]).unwrap(), 288),
        (parse("puzzles/kenken/seed-5x5-three-solutions.txt"), 3),
        (parse("puzzles/kenken/over-boxes-6x6-two-solutions.txt"), 2),
        (parse("puzzles/kenken/generated-9x9-four-solutions.txt"), 4),
    ]
}

#[test]
fn shards_hold_every_solution_once_on_every_backend() {
    for (puzzle, count) in puzzles() {
        for backend in Backend::ALL {
            for shards in [1, 2, 3, 16] {
                let mut every = HashSet::new();
                for index in 1..=shards {
                    let solver = Solver::builder().backend(backend).shard(index, shards).unwrap().build();
                    for grid in solutions(&solver, &puzzle) {
                        assert!(every.insert(grid), "a solution in two of {shards} shards ({backend})");
                    }
                }
                assert_eq!(every.len(), count, "{shards} shards on {backend}");
            }
        }
    }
}

#[test]
fn counting_on_threads_counts_the_whole_and_stops_at_a_limit() {
    for (puzzle, count) in puzzles() {
        for backend in Backend::ALL {
            let solver = Solver::new(backend);
            for threads in [2, 3] {
                let whole = solver.count_on_threads(&puzzle, None, threads).unwrap();
                let stats = whole.stats;
                assert_eq!((whole.count(), whole.is_complete(), stats.solutions), (count as u64, true, count as u64));
                let cut = solver.count_on_threads(&puzzle, Some(2), threads).unwrap();
                assert_eq!(cut.count(), 2.min(count as u64), "{backend} on {threads} threads");
            }
            // Past the probe the search is split: 5x5 Latin squares.
            let latin = Puzzle::new(5, vec![], vec![]).unwrap();
            let many = solver.count_on_threads(&latin, Some(60_000), 2).unwrap();
            assert_eq!((many.count(), many.is_complete()), (60_000, false));
            let shard = Solver::builder().backend(backend).shard(2, 3).unwrap().build();
            let one = shard.count(&puzzle, None).unwrap().count();
            assert_eq!(shard.count_on_threads(&puzzle, None, 2).unwrap().count(), one);
        }
    }
}

#[test]
fn a_shard_past_the_count_is_an_error() {
    let error = Solver::builder().shard(4, 3).unwrap_err();
    assert_eq!(error.to_string(), "shard 4 of 3: shards are numbered from 1 to 3");
    assert!(Solver::builder().shard(0, 3).is_err() && Solver::builder().shard(3, 3).is_ok());
}
