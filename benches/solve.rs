//! Criterion benchmarks over every file in `puzzles/`: the first solution
//! and the full count, per backend. A file of several puzzles is measured
//! as one batch. The SAT backend's full count skips files with more than
//! `SAT_COUNT_LIMIT` solutions, which take it seconds (see the README).
//!
//! `cargo bench --bench solve`, or `cargo bench --bench solve -- seed` for
//! the files whose name contains `seed`.

use std::path::Path;
use std::time::Duration;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, Puzzle, Solver};
use criterion::{Criterion, criterion_group, criterion_main};

fn load_all() -> Vec<(String, Vec<Puzzle>)> {
    let mut files = Vec::new();
    for dir in ["kenken", "sudoku"] {
        for entry in std::fs::read_dir(Path::new("puzzles").join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "txt") {
                let text = std::fs::read_to_string(&path).unwrap();
                let name = format!("{dir}/{}", path.file_stem().unwrap().to_string_lossy());
                let parsed = format::parse(&text, &name, &ParseOptions::default()).unwrap();
                files.push((name, parsed.into_iter().map(|p| p.puzzle).collect()));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

const SAT_COUNT_LIMIT: u64 = 10_000;

fn solve(c: &mut Criterion) {
    let files = load_all();
    for backend in Backend::ALL {
        let solver = Solver::new(backend);
        let mut group = c.benchmark_group(format!("{backend}/first"));
        group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
        for (name, puzzles) in &files {
            group.bench_function(name.as_str(), |b| {
                b.iter(|| puzzles.iter().map(|p| solver.first(p).unwrap().1.solutions).sum::<u64>())
            });
        }
        group.finish();

        let mut group = c.benchmark_group(format!("{backend}/count"));
        group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3)).sample_size(10);
        for (name, puzzles) in &files {
            let solutions: u64 =
                puzzles.iter().map(|p| Solver::new(Backend::Native).count(p, None).unwrap().0.count).sum();
            if backend == Backend::Sat && solutions > SAT_COUNT_LIMIT {
                continue;
            }
            group.bench_function(name.as_str(), |b| {
                b.iter(|| puzzles.iter().map(|p| solver.count(p, None).unwrap().0.count).sum::<u64>())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solve);
criterion_main!(benches);
