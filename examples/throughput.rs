//! Solve throughput with parsing and output left out, as the `sudoku`
//! crate's harness in `../shared/peers` measures it: the puzzles of a file
//! are read first, then every one is counted, up to a limit, `RUNS` times.
//!
//! `cargo run --release --example throughput -- FILE [LIMIT] [RUNS] [BACKEND]`
//!
//! Prints the puzzles, the solutions found, and the median of the runs in
//! puzzles and solutions a second.

use std::time::Instant;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, rest @ ..] = args.as_slice() else {
        return Err("usage: throughput FILE [LIMIT] [RUNS] [BACKEND]".into());
    };
    let limit = rest.first().filter(|l| *l != "all").map(|l| l.parse::<u64>()).transpose()?;
    let runs: usize = rest.get(1).map_or(Ok(5), |r| r.parse())?;
    let backend: Backend = rest.get(2).map_or(Ok(Backend::Native), |b| b.parse())?;
    let text = std::fs::read_to_string(file)?;
    let puzzles: Vec<_> = format::parse(&text, file, &ParseOptions::default())?.into_iter().map(|p| p.puzzle).collect();
    let solver = Solver::new(backend);
    let mut times = Vec::new();
    let mut solutions = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        solutions = 0;
        for puzzle in &puzzles {
            solutions += solver.count(puzzle, limit)?.0.count;
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let n = puzzles.len() as f64;
    println!(
        "puzzles={} solutions={solutions} median_s={median:.6} puzzles_per_sec={:.0} solutions_per_sec={:.0}",
        puzzles.len(),
        n / median,
        solutions as f64 / median
    );
    Ok(())
}
