//! Every puzzle in `puzzles/` on every backend: the count recorded in
//! `puzzles/counts.tsv`, every solution passing `verify`, none repeated.

use std::collections::{BTreeMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;

use cagey::format::{self, ParseOptions};
use cagey::{Backend, Grid, Puzzle, Solver, verify};

/// Expected counts by (file, index).
fn manifest() -> BTreeMap<(String, usize), u64> {
    let text = std::fs::read_to_string("puzzles/counts.tsv").unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "bad manifest line: {line}");
            ((fields[0].to_string(), fields[1].parse().unwrap()), fields[2].parse().unwrap())
        })
        .collect()
}

fn load(file: &str) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(Path::new("puzzles").join(file)).unwrap();
    format::parse(&text, file, &ParseOptions::default()).unwrap().into_iter().map(|p| p.puzzle).collect()
}

fn puzzle_files() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["kenken", "sudoku"] {
        for entry in std::fs::read_dir(Path::new("puzzles").join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".txt") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_puzzle_file_is_in_the_manifest() {
    let manifest = manifest();
    for file in puzzle_files() {
        let puzzles = load(&file);
        for index in 0..puzzles.len() {
            assert!(manifest.contains_key(&(file.clone(), index)), "{file} #{index} has no count in counts.tsv");
        }
        let listed = manifest.keys().filter(|(f, _)| *f == file).count();
        assert_eq!(listed, puzzles.len(), "{file}: counts.tsv lists puzzles the file does not hold");
    }
}

/// Every solution, each verified; the grids are kept (to check that none
/// repeats and to compare backends) only up to `store` of them.
fn solutions_verified(backend: Backend, puzzle: &Puzzle, store: usize) -> (u64, HashSet<Grid>) {
    let mut seen: HashSet<Grid> = HashSet::new();
    let mut count = 0;
    let stats = backend
        .enumerate(puzzle, &mut |grid| {
            verify(puzzle, grid).unwrap_or_else(|v| panic!("{backend} returned an invalid grid ({v}):\n{grid}"));
            if seen.len() < store {
                assert!(seen.insert(grid.clone()), "{backend} returned a grid twice:\n{grid}");
            }
            count += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(stats.complete);
    assert_eq!(stats.solutions, count);
    (count, seen)
}

/// Puzzles with at most this many solutions are compared as sets.
const SET_LIMIT: u64 = 5_000;

#[test]
fn every_puzzle_has_its_known_count_and_the_same_solutions_on_every_backend() {
    for ((file, index), &expected) in &manifest() {
        let puzzle = &load(file)[*index];
        let mut sets = Vec::new();
        for backend in Backend::ALL {
            let (count, set) = solutions_verified(backend, puzzle, SET_LIMIT as usize);
            assert_eq!(count, expected, "{backend}: {file} #{index}");
            sets.push((backend, set));
        }
        if expected <= SET_LIMIT {
            let (first, reference) = &sets[0];
            for (backend, set) in &sets[1..] {
                assert!(set == reference, "{first} and {backend} disagree on {file} #{index}");
            }
        }
    }
}

#[test]
fn seed_kenken_gives_exactly_the_three_grids_of_the_seed() {
    let puzzle = &load("kenken/seed-5x5-three-solutions.txt")[0];
    let seed_grids = [
        [[3, 5, 2, 1, 4], [4, 2, 5, 3, 1], [5, 3, 1, 4, 2], [2, 1, 4, 5, 3], [1, 4, 3, 2, 5]],
        [[5, 3, 2, 1, 4], [4, 2, 5, 3, 1], [3, 5, 1, 4, 2], [2, 1, 4, 5, 3], [1, 4, 3, 2, 5]],
        [[3, 2, 5, 1, 4], [4, 5, 2, 3, 1], [5, 3, 1, 4, 2], [2, 1, 4, 5, 3], [1, 4, 3, 2, 5]],
    ];
    let mut expected: Vec<Grid> =
        seed_grids.iter().map(|rows| Grid::new(5, rows.iter().flatten().copied().collect()).unwrap()).collect();
    expected.sort();
    for backend in Backend::ALL {
        let (mut found, stats) = backend.solutions(puzzle, None).unwrap();
        found.sort();
        assert_eq!(found, expected, "{backend}");
        assert!(stats.complete);
    }
}
