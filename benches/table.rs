//! Criterion benchmarks for each row of the README's speed table, on the
//! puzzles shipped in `puzzles/` and on large random puzzles made with the
//! generator (the same ones `cagey generate --size N [--noop] --seed S`
//! prints). `scripts/speed.sh` measures the same rows through the command
//! line, side by side with the peers.
//!
//! `cargo bench --bench table`, or `cargo bench --bench table -- keen` for
//! the rows whose name contains `keen`.

use std::path::Path;
use std::time::Duration;

use cagey::format::{self, ParseOptions};
use cagey::generate::{self, KenKenOptions};
use cagey::{Backend, Puzzle, Solver};
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime};

fn load(file: &str) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(Path::new("puzzles").join(file)).unwrap();
    format::parse(&text, file, &ParseOptions::default()).unwrap().into_iter().map(|p| p.puzzle).collect()
}

/// The puzzle `cagey generate --size <size> [--noop] --seed <seed>` prints.
fn generated(size: usize, noop: bool, seed: u64) -> Puzzle {
    let options = KenKenOptions { noop, ..KenKenOptions::new(size) };
    generate::kenken(&options, &mut generate::rng(seed, 0)).puzzle
}

/// Benchmarks counting the solutions of every puzzle of `puzzles`, up to
/// `limit`, with each backend in `backends`.
fn count_row(
    group: &mut BenchmarkGroup<WallTime>,
    name: &str,
    puzzles: &[Puzzle],
    limit: Option<u64>,
    backends: &[Backend],
) {
    for &backend in backends {
        let solver = Solver::new(backend);
        group.bench_function(format!("{name}/{backend}"), |b| {
            b.iter(|| puzzles.iter().map(|p| solver.count(p, limit).unwrap().0.count).sum::<u64>())
        });
    }
}

fn table(c: &mut Criterion) {
    let both = [Backend::Native, Backend::Sat];
    let mut group = c.benchmark_group("sudoku");
    group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3)).sample_size(10);
    count_row(&mut group, "unique/seventeen-clue-200", &load("sudoku/seventeen-clue-200.txt"), Some(2), &both);
    count_row(&mut group, "unique/forum-hardest-200", &load("sudoku/forum-hardest-200.txt"), Some(2), &both);
    count_row(&mut group, "count/serg-1555", &load("sudoku/serg-1555-solutions.txt"), None, &[Backend::Native]);
    group.finish();

    let mut group = c.benchmark_group("keen-9x9");
    group.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3)).sample_size(10);
    for level in ["e", "n", "h", "x", "u"] {
        count_row(
            &mut group,
            &format!("unique/{level}"),
            &load(&format!("kenken/keen-9x9-{level}.txt")),
            Some(2),
            &both,
        );
        let noop = load(&format!("kenken/keen-9x9-{level}-noop.txt"));
        count_row(&mut group, &format!("noop-count/{level}"), &noop, None, &both);
    }
    group.finish();

    // Seeds whose native search ends within seconds; see the README for the
    // others, measured with a timeout by scripts/speed.sh.
    let mut group = c.benchmark_group("large");
    group.warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(5)).sample_size(10);
    let kenken20: Vec<Puzzle> = [1, 2, 4, 5].map(|seed| generated(20, false, seed)).into();
    count_row(&mut group, "20x20/limit-10", &kenken20, Some(10), &both);
    let noop20: Vec<Puzzle> = [3, 5].map(|seed| generated(20, true, seed)).into();
    count_row(&mut group, "20x20-noop/limit-2", &noop20, Some(2), &both);
    let kenken25: Vec<Puzzle> = [1].map(|seed| generated(25, false, seed)).into();
    count_row(&mut group, "25x25/limit-2", &kenken25, Some(2), &both);
    group.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
