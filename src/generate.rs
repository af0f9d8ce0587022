//! Random puzzles planted on a random solution, so that each has at least
//! one solution unless its targets are perturbed on purpose.
//!
//! Every function takes its randomness from an injected RNG; [`rng`] makes
//! the seedable, portable one the command line uses, one stream per case,
//! so the same seed always gives the same puzzles.
//!
//! - [`latin_square`] walks the Jacobson–Matthews Markov chain, whose
//!   stationary distribution is exactly uniform over the Latin squares of
//!   order N; the square returned is the one reached after N³ (at least
//!   1,000) proper squares visited from the cyclic square, close to uniform
//!   in practice (no bound on the chain's mixing time is known; a test
//!   checks that the 576 squares of order 4 come out equally often, within
//!   the spread of chance).
//! - [`sudoku_grid`] fills a grid with boxes by randomised depth-first
//!   search. Any grid can come out, but not uniformly.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::backend::{SolveError, Solver, Uniqueness};
use crate::puzzle::{BoxShape, Cage, Cell, Grid, Op, Puzzle};

/// The RNG of case `case` of a run seeded with `seed`: ChaCha8, one stream
/// per case, the same on every platform.
pub fn rng(seed: u64, case: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(case);
    rng
}

/// A puzzle with the solution it was planted on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A solution of the puzzle, unless targets were perturbed.
    pub planted: Grid,
}

/// How to make a random KenKen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KenKenOptions {
    /// N, from 1 to 25.
    pub size: usize,
    /// Cages get from 1 to this many cells.
    pub max_cage: usize,
    /// Write every cage's op as `?` (one-cell cages as `!` or `?`).
    pub noop: bool,
    /// The share of cages whose target is moved off the planted solution
    /// by one, so that some puzzles have no solution.
    pub perturb: f64,
}

/// How to make a random Sudoku.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SudokuOptions {
    /// N: 4, 6, 9, …
    pub size: usize,
    /// The boxes; `None` for a Latin square with givens.
    pub boxes: Option<BoxShape>,
    /// The share of cells kept as givens.
    pub clues: f64,
    /// The share of givens changed to another value, so that some puzzles
    /// have no solution.
    pub perturb: f64,
}

/// A Latin square of order `size`, from the Jacobson–Matthews chain.
pub fn latin_square<R: Rng + ?Sized>(size: usize, rng: &mut R) -> Grid {
    let n = size;
    if n <= 1 {
        return Grid::new(n, vec![1; n * n]).expect("1x1");
    }
    // The incidence cube: m[(r·N + c)·N + s] is 1 when cell (r, c) holds
    // symbol s. Between proper squares the walk passes through "improper"
    // cubes with a single -1 entry.
    let at = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    let mut m = vec![0i8; n * n * n];
    for r in 0..n {
        for c in 0..n {
            m[at(r, c, (r + c) % n)] = 1;
        }
    }
    let ones = |m: &[i8], line: &dyn Fn(usize) -> usize| (0..n).filter(|&i| m[line(i)] == 1).collect::<Vec<_>>();
    let mut improper: Option<(usize, usize, usize)> = None;
    // Only the proper squares visited are counted: the walk watched on them
    // alone has the uniform distribution, while stopping at the first
    // proper square after a number of moves of any kind is biased.
    let mut proper_visits = 0;
    while proper_visits < (n * n * n).max(1000) {
        let (r, c, s) = improper.unwrap_or_else(|| {
            loop {
                let cell = (rng.random_range(0..n), rng.random_range(0..n), rng.random_range(0..n));
                if m[at(cell.0, cell.1, cell.2)] == 0 {
                    break cell;
                }
            }
        });
        // In a proper cube each line through a 0 holds one 1; through the
        // improper -1, two: pick one at random.
        let r2 = *ones(&m, &|i| at(i, c, s)).choose(rng).expect("a 1 in the line");
        let c2 = *ones(&m, &|i| at(r, i, s)).choose(rng).expect("a 1 in the line");
        let s2 = *ones(&m, &|i| at(r, c, i)).choose(rng).expect("a 1 in the line");
        for (cell, delta) in [
            (at(r, c, s), 1),
            (at(r, c2, s2), 1),
            (at(r2, c, s2), 1),
            (at(r2, c2, s), 1),
            (at(r, c, s2), -1),
            (at(r, c2, s), -1),
            (at(r2, c, s), -1),
            (at(r2, c2, s2), -1),
        ] {
            m[cell] += delta;
        }
        improper = (m[at(r2, c2, s2)] < 0).then_some((r2, c2, s2));
        proper_visits += usize::from(improper.is_none());
    }
    let values = (0..n * n)
        .map(|cell| (0..n).find(|&s| m[cell * n + s] == 1).expect("a proper cube has a symbol per cell") as u8 + 1)
        .collect();
    Grid::new(n, values).expect("a proper cube is a Latin square")
}

/// A filled grid of order `size` with the given boxes (a Latin square if
/// none), by randomised depth-first search.
pub fn sudoku_grid<R: Rng + ?Sized>(size: usize, boxes: Option<BoxShape>, rng: &mut R) -> Grid {
    let Some(shape) = boxes else {
        return latin_square(size, rng);
    };
    let n = size;
    let box_of = |cell: usize| (cell / n) / shape.rows * (n / shape.cols) + (cell % n) / shape.cols;
    // Restart with fresh random choices if one search runs long.
    loop {
        let mut values = vec![0u8; n * n];
        let mut used = vec![0u32; 3 * n];
        let mut budget = 20_000 * n;
        if fill(&mut values, &mut used, n, &box_of, rng, &mut budget) {
            return Grid::new(n, values).expect("a full fill is a grid");
        }
    }
}

/// Fills the empty cell with fewest options first; `used` holds the values
/// taken in each row, column and box.
fn fill<R: Rng + ?Sized>(
    values: &mut [u8],
    used: &mut [u32],
    n: usize,
    box_of: &dyn Fn(usize) -> usize,
    rng: &mut R,
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let free = |cell: usize, used: &[u32]| {
        let taken = used[cell / n] | used[n + cell % n] | used[2 * n + box_of(cell)];
        (1..=n as u8).filter(move |v| taken & (1 << v) == 0)
    };
    let best = (0..n * n).filter(|&c| values[c] == 0).min_by_key(|&c| free(c, used).count());
    let Some(cell) = best else {
        return true;
    };
    let mut options: Vec<u8> = free(cell, used).collect();
    options.shuffle(rng);
    let groups = [cell / n, n + cell % n, 2 * n + box_of(cell)];
    for v in options {
        values[cell] = v;
        groups.iter().for_each(|&g| used[g] |= 1 << v);
        if fill(values, used, n, box_of, rng, budget) {
            return true;
        }
        groups.iter().for_each(|&g| used[g] &= !(1 << v));
    }
    values[cell] = 0;
    false
}

/// A random partition of the grid into connected cages of 1 to `max_cage`
/// cells.
pub fn cage_cells<R: Rng + ?Sized>(size: usize, max_cage: usize, rng: &mut R) -> Vec<Vec<Cell>> {
    let n = size;
    let mut owned = vec![false; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if owned[start] {
            continue;
        }
        owned[start] = true;
        let mut cells = vec![start];
        let target = rng.random_range(1..=max_cage.max(1));
        while cells.len() < target {
            let frontier: Vec<usize> = cells.iter().flat_map(|&c| neighbours(c, n)).filter(|&c| !owned[c]).collect();
            let Some(&next) = frontier.choose(rng) else { break };
            owned[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(cells.into_iter().map(|c| Cell::new(c / n, c % n)).collect());
    }
    cages
}

fn neighbours(cell: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    let up = (r > 0).then(|| cell - n);
    let down = (r + 1 < n).then(|| cell + n);
    let left = (c > 0).then(|| cell - 1);
    let right = (c + 1 < n).then(|| cell + 1);
    [up, down, left, right].into_iter().flatten()
}

/// A cage over `cells` whose op and target the planted grid satisfies:
/// one cell `!`, two cells any of `+ - * /` that fits, more `+` or `*`;
/// with `noop`, every op of a multi-cell cage is `?`.
pub fn planted_cage<R: Rng + ?Sized>(cells: Vec<Cell>, planted: &Grid, noop: bool, rng: &mut R) -> Cage {
    let values: Vec<u64> = cells.iter().map(|&c| u64::from(planted.get(c))).collect();
    let sum = values.iter().sum();
    let product = values.iter().product();
    let (op, target) = match *values.as_slice() {
        [v] => (if noop && rng.random_bool(0.5) { Op::Any } else { Op::Given }, v),
        [a, b] => {
            let (hi, lo) = (a.max(b), a.min(b));
            let mut choices = vec![(Op::Add, sum), (Op::Mul, product)];
            if hi > lo {
                choices.push((Op::Sub, hi - lo));
            }
            if hi % lo == 0 {
                choices.push((Op::Div, hi / lo));
            }
            *choices.choose(rng).expect("+ and * always fit")
        }
        _ => *[(Op::Add, sum), (Op::Mul, product)].choose(rng).expect("two choices"),
    };
    let op = if noop && cells.len() > 1 { Op::Any } else { op };
    Cage::new(op, target, cells).expect("planted cages are well formed")
}

/// A random KenKen planted on a uniform random Latin square.
pub fn kenken<R: Rng + ?Sized>(options: &KenKenOptions, rng: &mut R) -> Generated {
    let planted = latin_square(options.size, rng);
    let cages = cage_cells(options.size, options.max_cage, rng)
        .into_iter()
        .map(|cells| {
            let cage = planted_cage(cells, &planted, options.noop, rng);
            if options.perturb > 0.0 && rng.random_bool(options.perturb.min(1.0)) {
                let target =
                    if cage.target() > 1 && rng.random_bool(0.5) { cage.target() - 1 } else { cage.target() + 1 };
                Cage::new(cage.op(), target, cage.cells().to_vec()).expect("a positive target")
            } else {
                cage
            }
        })
        .collect();
    let puzzle = Puzzle::new(options.size, Vec::new(), cages).expect("planted puzzles are well formed");
    Generated { puzzle, planted }
}

/// A random Sudoku: a random filled grid with each cell kept as a given
/// with probability `clues`, and each given changed with probability
/// `perturb`.
pub fn sudoku<R: Rng + ?Sized>(options: &SudokuOptions, rng: &mut R) -> Generated {
    let n = options.size;
    let planted = sudoku_grid(n, options.boxes, rng);
    let clues = options.clues.clamp(0.0, 1.0);
    let perturb = options.perturb.clamp(0.0, 1.0);
    let givens: Vec<u8> = planted
        .values()
        .iter()
        .map(|&v| match rng.random_bool(clues) {
            false => 0,
            true if n > 1 && rng.random_bool(perturb) => (v + rng.random_range(1..n as u8) - 1) % n as u8 + 1,
            true => v,
        })
        .collect();
    let puzzle = Puzzle::sudoku(n, options.boxes, &givens).expect("planted puzzles are well formed");
    Generated { puzzle, planted }
}

/// Changes the puzzle until `solver` proves it has exactly one solution, the
/// planted one: while two solutions differ at a cell, that cell is pinned to
/// its planted value (taken out of its cage, whose other cells get fresh
/// cages of the same style). Each round pins a new cell, so it ends.
///
/// A puzzle the planted grid does not solve (perturbed targets) is returned
/// as it is once the solver finds no solution.
pub fn make_unique<R: Rng + ?Sized>(
    generated: Generated,
    solver: &dyn Solver,
    rng: &mut R,
) -> Result<Generated, SolveError> {
    let Generated { mut puzzle, planted } = generated;
    loop {
        let (a, b) = match solver.uniqueness(&puzzle)?.0 {
            Uniqueness::Multiple(a, b) => (a, b),
            Uniqueness::Unique(_) | Uniqueness::None => return Ok(Generated { puzzle, planted }),
        };
        let n = puzzle.size();
        let cell = (0..n * n)
            .map(|i| Cell::new(i / n, i % n))
            .find(|&c| a.get(c) != b.get(c))
            .expect("two different solutions differ somewhere");
        puzzle = pin(&puzzle, cell, &planted, rng);
    }
}

/// The puzzle with `cell` made a given of its planted value.
fn pin<R: Rng + ?Sized>(puzzle: &Puzzle, cell: Cell, planted: &Grid, rng: &mut R) -> Puzzle {
    let n = puzzle.size();
    let mut cages = Vec::new();
    for cage in puzzle.cages() {
        if !cage.cells().contains(&cell) {
            cages.push(cage.clone());
            continue;
        }
        let rest: Vec<usize> = cage.cells().iter().filter(|&&c| c != cell).map(|c| c.index(n)).collect();
        for part in connected_parts(&rest, n) {
            let cells = part.into_iter().map(|c| Cell::new(c / n, c % n)).collect();
            cages.push(planted_cage(cells, planted, cage.op() == Op::Any, rng));
        }
    }
    let given = Cage::new(Op::Given, planted.get(cell).into(), vec![cell]).expect("a given");
    cages.push(given);
    Puzzle::new(n, puzzle.extra_groups().to_vec(), cages).expect("pinning keeps a puzzle well formed")
}

/// The 4-connected parts of a set of cells.
fn connected_parts(cells: &[usize], n: usize) -> Vec<Vec<usize>> {
    let mut left: Vec<usize> = cells.to_vec();
    let mut parts = Vec::new();
    while let Some(start) = left.pop() {
        let mut part = vec![start];
        let mut i = 0;
        while i < part.len() {
            for next in neighbours(part[i], n) {
                if let Some(pos) = left.iter().position(|&c| c == next) {
                    part.push(left.swap_remove(pos));
                }
            }
            i += 1;
        }
        part.sort_unstable();
        parts.push(part);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::verify::verify;

    #[test]
    fn latin_squares_are_latin_and_near_uniform() {
        let mut rng = rng(7, 0);
        let mut seen = std::collections::HashMap::new();
        let draws = 11_520;
        for _ in 0..draws {
            let grid = latin_square(4, &mut rng);
            assert_eq!(verify(&Puzzle::new(4, vec![], vec![]).unwrap(), &grid), Ok(()));
            *seen.entry(grid).or_insert(0u32) += 1;
        }
        // 576 squares, 20 draws each expected.
        assert_eq!(seen.len(), 576, "every Latin square of order 4 appears");
        let mut counts: Vec<u32> = seen.values().copied().collect();
        counts.sort();
        assert!(seen.values().all(|&k| (3..=45).contains(&k)), "{:?}", counts);
        for n in [1, 2, 3, 7, 12] {
            let grid = latin_square(n, &mut rng);
            assert_eq!(verify(&Puzzle::new(n, vec![], vec![]).unwrap(), &grid), Ok(()));
        }
    }

    #[test]
    fn sudoku_grids_respect_their_boxes() {
        let mut rng = rng(1, 0);
        for n in [4, 6, 8, 9, 12, 16] {
            let boxes = BoxShape::default_for(n);
            let grid = sudoku_grid(n, boxes, &mut rng);
            let puzzle = Puzzle::sudoku(n, boxes, &vec![0; n * n]).unwrap();
            assert_eq!(verify(&puzzle, &grid), Ok(()), "{n}");
        }
    }

    #[test]
    fn planted_puzzles_are_solved_by_their_planted_grid() {
        for case in 0..50 {
            let mut rng = rng(3, case);
            let options = KenKenOptions { size: 1 + case as usize % 7, max_cage: 4, noop: case % 2 == 0, perturb: 0.0 };
            let generated = kenken(&options, &mut rng);
            assert_eq!(verify(&generated.puzzle, &generated.planted), Ok(()));
            assert!(generated.puzzle.uncaged_cells().is_empty());
            let options = SudokuOptions { size: 9, boxes: BoxShape::default_for(9), clues: 0.4, perturb: 0.0 };
            let generated = sudoku(&options, &mut rng);
            assert_eq!(verify(&generated.puzzle, &generated.planted), Ok(()));
        }
    }

    #[test]
    fn cages_are_connected_and_cover_the_grid() {
        let mut rng = rng(5, 0);
        let cages = cage_cells(9, 5, &mut rng);
        let mut covered: Vec<Cell> = cages.iter().flatten().copied().collect();
        covered.sort();
        covered.dedup();
        assert_eq!(covered.len(), 81);
        for cage in &cages {
            assert!((1..=5).contains(&cage.len()));
            let cells: Vec<usize> = cage.iter().map(|c| c.index(9)).collect();
            assert_eq!(connected_parts(&cells, 9).len(), 1, "{cage:?}");
        }
    }

    #[test]
    fn same_seed_same_puzzle() {
        let options = KenKenOptions { size: 6, max_cage: 4, noop: false, perturb: 0.1 };
        assert_eq!(kenken(&options, &mut rng(9, 4)), kenken(&options, &mut rng(9, 4)));
        assert_ne!(kenken(&options, &mut rng(9, 4)), kenken(&options, &mut rng(9, 5)));
    }

    #[test]
    fn unique_mode_ends_with_exactly_the_planted_solution() {
        for case in 0..20 {
            let mut rng = rng(11, case);
            let options = KenKenOptions { size: 6, max_cage: 5, noop: true, perturb: 0.0 };
            let generated = make_unique(kenken(&options, &mut rng), &Backend::Native, &mut rng).unwrap();
            let (solutions, _) = Backend::Native.solutions(&generated.puzzle, None).unwrap();
            assert_eq!(solutions, std::slice::from_ref(&generated.planted));
            let options = SudokuOptions { size: 9, boxes: BoxShape::default_for(9), clues: 0.2, perturb: 0.0 };
            let generated = make_unique(sudoku(&options, &mut rng), &Backend::Native, &mut rng).unwrap();
            let (solutions, _) = Backend::Native.solutions(&generated.puzzle, None).unwrap();
            assert_eq!(solutions, [generated.planted]);
        }
    }
}
