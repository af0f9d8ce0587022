//! Solve throughput with parsing and output left out, as the `sudoku`
//! crate's harness in `../shared/peers` measures it: the puzzles of a file
//! are read first, then every one is counted, up to a limit, `RUNS` times.
//!
//! `cargo run --release --example throughput -- FILE [LIMIT] [RUNS] [BACKEND] [per-puzzle]`
//!
//! Prints the puzzles, the solutions found, and the median of the runs in
//! puzzles and solutions a second. With `MIN_SECS=S` in the environment, a
//! pass over the file comes first, untimed, and each run repeats the file
//! until at least S seconds have passed, as the crate's harness does. With
//! `per-puzzle`, each puzzle is timed on its own too (as Keen's and
//! CP-SAT's times in `../shared/corpora` are given), and the median over
//! the puzzles of each one's median over the runs is printed, with the
//! worst of those.

use std::time::Instant;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, rest @ ..] = args.as_slice() else {
        return Err("usage: throughput FILE [LIMIT] [RUNS] [BACKEND] [per-puzzle]".into());
    };
    let limit = rest.first().filter(|l| *l != "all").map(|l| l.parse::<u64>()).transpose()?;
    let runs: usize = rest.get(1).map_or(Ok(5), |r| r.parse())?;
    let backend: Backend = rest.get(2).map_or(Ok(Backend::Native), |b| b.parse())?;
    let per_puzzle = match rest.get(3).map(String::as_str) {
        None => false,
        Some("per-puzzle") => true,
        Some(other) => return Err(format!("expected `per-puzzle` after the backend, found `{other}`").into()),
    };
    let text = std::fs::read_to_string(file)?;
    let puzzles: Vec<_> = format::parse(&text, file, &ParseOptions::default())?.into_iter().map(|p| p.puzzle).collect();
    let min_secs: f64 = std::env::var("MIN_SECS").map_or(Ok(0.0), |s| s.parse())?;
    let solver = Solver::new(backend);
    if min_secs > 0.0 {
        for puzzle in &puzzles {
            solver.count(puzzle, limit)?;
        }
    }
    let mut times = Vec::new();
    // For each puzzle, its time in each run (only if asked: timing each one
    // adds to the runs' times).
    let mut each: Vec<Vec<f64>> = vec![Vec::new(); if per_puzzle { puzzles.len() } else { 0 }];
    let mut solutions = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let mut passes = 0;
        loop {
            solutions = 0;
            for (i, puzzle) in puzzles.iter().enumerate() {
                let started = per_puzzle.then(Instant::now);
                solutions += solver.count(puzzle, limit)?.count();
                if let Some(started) = started {
                    each[i].push(started.elapsed().as_secs_f64());
                }
            }
            passes += 1;
            if start.elapsed().as_secs_f64() >= min_secs {
                break;
            }
        }
        times.push(start.elapsed().as_secs_f64() / f64::from(passes));
    }
    let median = median_of(&mut times);
    let n = puzzles.len() as f64;
    println!(
        "puzzles={} solutions={solutions} median_s={median:.6} puzzles_per_sec={:.0} solutions_per_sec={:.0}",
        puzzles.len(),
        n / median,
        solutions as f64 / median
    );
    if per_puzzle && !puzzles.is_empty() {
        let mut medians: Vec<f64> = each.iter_mut().map(|times| median_of(times)).collect();
        let median = median_of(&mut medians);
        // Sorted by `median_of`: the worst is last.
        let worst = medians[medians.len() - 1];
        println!("per_puzzle_median_ms={:.4} per_puzzle_worst_ms={:.4}", median * 1e3, worst * 1e3);
    }
    Ok(())
}

/// The median of `times` (the upper one of an even count), sorting them.
fn median_of(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
