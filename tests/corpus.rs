//! Every puzzle in `puzzles/` on every backend: the count recorded in
//! `puzzles/counts.tsv`, every solution passing `verify`, none repeated,
//! and the same solution set on every backend: grid by grid up to 5,000
//! solutions, by digest (count and sums of grid hashes) for all of them.

use std::collections::{BTreeMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;

use cagey::check::SetDigest;
use cagey::format::{self, ParseOptions};
use cagey::{Analysis, Backend, Certificate, CertificateError, Enumerate, Grid, Puzzle, Solver, verify};
use itertools::Itertools;

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
    for dir in ["kenken", "keen", "killer", "sudoku"] {
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

/// Every solution, each verified, and the digest of the whole set; the
/// grids are kept (to check that none repeats and to compare backends grid
/// by grid) only up to `store` of them.
fn solutions_verified(backend: Backend, puzzle: &Puzzle, store: usize) -> (SetDigest, HashSet<Grid>) {
    let mut seen: HashSet<Grid> = HashSet::new();
    let mut digest = SetDigest::default();
    let stats = Solver::new(backend)
        .enumerate(puzzle, &mut |grid| {
            verify(puzzle, grid).unwrap_or_else(|v| panic!("{backend} returned an invalid grid ({v}):\n{grid}"));
            if seen.len() < store {
                assert!(seen.insert(grid.clone()), "{backend} returned a grid twice:\n{grid}");
            }
            digest.add(grid);
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(stats.complete);
    assert_eq!(stats.solutions, digest.count);
    (digest, seen)
}

/// Puzzles with at most this many solutions are also compared grid by grid.
const SET_LIMIT: u64 = 5_000;

#[test]
fn every_puzzle_has_its_known_count_and_the_same_solutions_on_every_backend() {
    for ((file, index), &expected) in &manifest() {
        let puzzle = &load(file)[*index];
        let mut runs = Vec::new();
        for backend in Backend::ALL {
            let (digest, set) = solutions_verified(backend, puzzle, SET_LIMIT as usize);
            assert_eq!(digest.count, expected, "{backend}: {file} #{index}");
            runs.push((backend, digest, set));
        }
        let (first, digest, set) = &runs[0];
        for (backend, other_digest, other_set) in &runs[1..] {
            assert_eq!(digest, other_digest, "{first} and {backend} return different sets on {file} #{index}");
            if expected <= SET_LIMIT {
                assert!(set == other_set, "{first} and {backend} disagree on {file} #{index}");
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
        let cagey::Solutions { grids: mut found, stats } = Solver::new(backend).solutions(puzzle, None).unwrap();
        found.sort();
        assert_eq!(found, expected, "{backend}");
        assert!(stats.complete);
    }
}

/// The fixed and open cells that analysis finds by questions under
/// assumptions are those that the full list of solutions shows, on every
/// backend: the first three puzzles of each file with up to 1,000
/// solutions, and every such puzzle with more than one (native: fewer).
#[test]
fn analysis_agrees_with_the_full_list_of_solutions() {
    for ((file, index), &expected) in &manifest() {
        if expected > 1_000 || (*index >= 3 && expected == 1) {
            continue;
        }
        let puzzle = &load(file)[*index];
        let solutions = Solver::new(Backend::Native).solutions(puzzle, None).unwrap().grids;
        let listed = Analysis::of_solutions(puzzle.size(), &solutions);
        for backend in Backend::ALL {
            // Native asks each question as a search of its own: proving
            // a value impossible can take it seconds on a hard no-op
            // puzzle, so it answers for the first puzzle of each file
            // with ops shown. A forum Killer takes it longer still: a
            // question per cell and value, each a hard search without the
            // reasoning over houses that setters' solvers use.
            if backend == Backend::Native && (*index > 0 || file.contains("noop") || file.starts_with("killer/")) {
                continue;
            }
            let analysis = Solver::new(backend).analyze(puzzle).unwrap();
            assert!(analysis.complete(), "{backend}: {file} #{index}");
            assert_eq!(analysis.fixed(), listed.fixed(), "{backend}: {file} #{index}");
            assert_eq!(analysis.open(), listed.open(), "{backend}: {file} #{index}");
            assert!(analysis.first().is_none_or(|grid| solutions.contains(grid)));
        }
    }
}

/// The setter's round trip, through text: on every puzzle with more than
/// one solution, the suggested givens written into the puzzle's own text
/// (a `! V CELL` line in KenKen text, whose cell may be caged; the digit in
/// a Sudoku line) make a text that reads as a unique puzzle.
#[test]
fn suggested_givens_written_into_the_text_make_it_unique() {
    for ((file, index), &expected) in &manifest() {
        if expected < 2 {
            continue;
        }
        let text = std::fs::read_to_string(Path::new("puzzles").join(file)).unwrap();
        let parsed = format::parse(&text, file, &ParseOptions::default()).unwrap();
        let (puzzle, line) = (&parsed[*index].puzzle, parsed[*index].line);
        let keep = Solver::new(Backend::Native).first(puzzle).unwrap().grid.unwrap();
        let suggestion = Solver::new(Backend::Auto).suggest(puzzle, &keep).unwrap();
        assert!(suggestion.complete && !suggestion.givens.is_empty(), "{file} #{index}");
        let lines: Vec<&str> = text.lines().collect();
        let edited = if format::detect(&text) == Some(format::Format::KenKen) {
            // The puzzle's lines, from its size line to the next one.
            let end = (line..lines.len()).find(|&i| lines[i].starts_with("# ")).unwrap_or(lines.len());
            let mut own = lines[line - 1..end].join("\n");
            for (cell, value) in &suggestion.givens {
                own.push_str(&format!("\n! {value} {cell}"));
            }
            own
        } else {
            let mut chars: Vec<char> = lines[line - 1].chars().collect();
            for (cell, value) in &suggestion.givens {
                chars[cell.index(puzzle.size())] =
                    char::from_digit(u32::from(*value), 36).unwrap().to_ascii_uppercase();
            }
            chars.into_iter().collect()
        };
        let read: Puzzle = edited.parse().unwrap_or_else(|e| panic!("{file} #{index}: {e}\n{edited}"));
        let verdict = Solver::default().uniqueness(&read).unwrap().uniqueness;
        assert_eq!(verdict, cagey::Uniqueness::Unique(keep), "{file} #{index}:\n{edited}");
    }
}

/// On every puzzle with more than one solution, the suggested givens leave
/// exactly one: the solution kept. Where the other solutions are few, no
/// fewer givens would do (tried by brute force up to 1,000 solutions).
#[test]
fn suggested_givens_leave_one_solution() {
    for ((file, index), &expected) in &manifest() {
        if expected < 2 {
            continue;
        }
        let puzzle = &load(file)[*index];
        let solver = Solver::new(Backend::Auto);
        let solutions = Solver::new(Backend::Native).solutions(puzzle, None).unwrap().grids;
        let keep = &solutions[solutions.len() / 2];
        let suggestion = solver.suggest(puzzle, keep).unwrap();
        assert!(suggestion.complete);
        assert_eq!(suggestion.smallest, expected <= 1 + 5_000, "{file} #{index}");
        let agree = |grid: &Grid| suggestion.givens.iter().all(|&(cell, value)| grid[cell] == value);
        let left: Vec<&Grid> = solutions.iter().filter(|grid| agree(grid)).collect();
        assert_eq!(left, [keep], "{file} #{index}: {:?}", suggestion.givens);
        if suggestion.smallest && !suggestion.givens.is_empty() && expected <= 1_000 {
            // No set of fewer cells, of all where solutions differ, does.
            let open: Vec<cagey::Cell> =
                Analysis::of_solutions(puzzle.size(), &solutions).open().into_iter().map(|(c, _)| c).collect();
            for fewer in open.iter().combinations(suggestion.givens.len() - 1) {
                let left = solutions.iter().filter(|g| fewer.iter().all(|&&c| g[c] == keep[c])).count();
                assert!(left > 1, "{file} #{index}: {fewer:?} would do instead of {:?}", suggestion.givens);
            }
        }
    }
    // A grid that is not a solution is refused.
    let puzzle = &load("kenken/seed-5x5-three-solutions.txt")[0];
    let wrong = Grid::new(5, [1, 2, 3, 4, 5].repeat(5)).unwrap();
    assert!(Solver::default().suggest(puzzle, &wrong).is_err());
}

/// Every unique puzzle is certified (which checks the proof), and the
/// first of each file checks again as a whole; one with several solutions
/// cannot be certified.
#[test]
fn every_unique_puzzle_gets_a_certificate_that_checks() {
    let solver = Solver::default();
    for ((file, index), &expected) in &manifest() {
        let puzzle = &load(file)[*index];
        let found = solver.solutions(puzzle, Some(2)).unwrap().grids;
        if expected != 1 {
            if let [one, _] = &found[..] {
                assert!(matches!(solver.certify(puzzle, one), Err(CertificateError::NotUnique(_))), "{file} #{index}");
            }
            continue;
        }
        let certificate = solver.certify(puzzle, &found[0]).unwrap_or_else(|e| panic!("{file} #{index}: {e}"));
        if *index == 0 {
            assert_eq!(solver.check_certificate(puzzle, &certificate), Ok(()), "{file} #{index}");
        }
    }
}

/// A certificate with any part tampered with is rejected: a clause dropped
/// from the CNF, a line of the DRAT proof altered, a byte of the proof
/// changed, or another solution put in.
#[test]
fn a_tampered_certificate_is_rejected() {
    let puzzle = &load("kenken/generated-9x9.txt")[0];
    let solver = Solver::default();
    let found = solver.solutions(puzzle, None).unwrap().grids;
    let good = solver.certify(puzzle, &found[0]).unwrap();
    let check = |certificate: &Certificate| solver.check_certificate(puzzle, certificate);
    assert_eq!(check(&good), Ok(()));

    let text = String::from_utf8(good.cnf.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dropped = [&lines[..100], &lines[101..]].concat().join("\n") + "\n";
    let cnf = Certificate { cnf: dropped.into_bytes(), ..good.clone() };
    assert_eq!(check(&cnf), Err(CertificateError::WrongCnf));

    let drat = String::from_utf8(good.drat.clone()).unwrap();
    let altered = drat.replacen("\n-", "\n", 1);
    assert_ne!(altered, drat);
    let certificate = Certificate { drat: altered.into_bytes(), ..good.clone() };
    assert_eq!(check(&certificate), Err(CertificateError::WrongDrat));

    let mut proof = good.proof.clone();
    let middle = proof.len() / 2;
    proof[middle] ^= 0x55;
    assert!(matches!(check(&Certificate { proof, ..good.clone() }), Err(CertificateError::Proof(_))));

    // Another grid: not a solution; or the blocking clause of another.
    let mut values = good.solution.values().to_vec();
    values.swap(0, 1);
    let swapped = Grid::new(9, values).unwrap();
    let other = Certificate { solution: swapped, ..good.clone() };
    assert!(matches!(check(&other), Err(CertificateError::NotASolution(_))));
}

/// On the first KenKen puzzle of each file, if it has more than one
/// solution, each cage change offered leaves the kept solution the only
/// one, by a count on the native backend.
#[test]
fn cage_changes_leave_one_solution() {
    let mut offered = 0;
    for ((file, index), &expected) in &manifest() {
        if expected < 2 || *index > 0 || !file.starts_with("kenken/") {
            continue;
        }
        let puzzle = &load(file)[*index];
        let solutions = Solver::new(Backend::Native).solutions(puzzle, Some(2)).unwrap().grids;
        let keep = &solutions[0];
        for change in Solver::default().cage_changes(puzzle, keep, 3).unwrap() {
            let mut cages = puzzle.cages().to_vec();
            cages.splice(change.cage..=change.cage, change.into.iter().cloned());
            let changed = Puzzle::new(puzzle.size(), puzzle.extra_groups().to_vec(), cages).unwrap();
            let found = Solver::new(Backend::Native).solutions(&changed, None).unwrap().grids;
            assert_eq!(found, std::slice::from_ref(keep), "{file} #{index}: {change:?}");
            offered += 1;
        }
    }
    assert!(offered > 10, "changes are found: {offered}");
}
