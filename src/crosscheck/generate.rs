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
//! - Sudoku grids are filled a grid with boxes by randomised depth-first
//!   search. Any grid can come out, but not uniformly.

use std::ops::RangeInclusive;

use itertools::iproduct;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use thiserror::Error;

use crate::puzzle::{BoxShape, Cage, Cell, Grid, Group, MAX_SIZE, Op, Puzzle, Target};
use crate::solver::error::SolveError;
use crate::solver::{self, Enumerate, Uniqueness};

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

/// How to make a random KenKen: the cages, and what lies under them.
///
/// [`KenKenOptions::new`] gives a plain KenKen (every cell in a connected
/// cage, planted targets); the other fields switch on the rest of the
/// model, and [`KenKenOptions::random`] draws all of them at random.
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
    /// Sudoku boxes under the cages (Killer Sudoku): the planted grid
    /// respects them, and the puzzle carries them as groups.
    pub boxes: Option<BoxShape>,
    /// Extra all-different groups, each of random cells whose planted
    /// values differ.
    pub extra_groups: usize,
    /// The share of cells left in no cage.
    pub uncaged: f64,
    /// The share of cages whose cells are drawn from anywhere in the grid
    /// instead of grown from neighbours (values may then repeat in them).
    pub scattered: f64,
    /// The share of cages given a wild target instead of the planted one:
    /// near 2^64 or 2^128, a product that needs a prime above N, the
    /// largest product of N^k; mostly out of reach.
    pub wild: f64,
    /// Standard Killer Sudoku: every cage a distinct `+` cage, grown from
    /// neighbours whose planted values differ.
    pub killer: bool,
    /// The share of the other cages of two cells or more marked distinct,
    /// where their planted values differ.
    pub distinct: f64,
    /// The share of caged cells that also get a given.
    pub caged_givens: f64,
    /// Cages laid over the others: little-killer diagonals (a sum, values
    /// may repeat) and pairs of neighbours (as Kropki dots and XV clues).
    pub overlaps: usize,
}

impl KenKenOptions {
    /// A plain KenKen of order `size`: cages of up to 4 connected cells,
    /// all targets planted, nothing else.
    pub fn new(size: usize) -> Self {
        KenKenOptions {
            size,
            max_cage: 4,
            noop: false,
            perturb: 0.0,
            boxes: None,
            extra_groups: 0,
            uncaged: 0.0,
            scattered: 0.0,
            wild: 0.0,
            killer: false,
            distinct: 0.0,
            caged_givens: 0.0,
            overlaps: 0,
        }
    }

    /// Options that cover the whole model, drawn at random: every size in
    /// `sizes` (up to 7 most often, as they run fastest), boxes, Killer
    /// cages, distinct cages, extra groups, uncaged cells, scattered cages,
    /// givens in caged cells, overlapping cages, no-op, perturbed and wild
    /// targets, each switched on in some of the draws.
    pub fn random<R: Rng + ?Sized>(sizes: RangeInclusive<usize>, rng: &mut R) -> Self {
        let low = (*sizes.start()).clamp(1, MAX_SIZE);
        let high = (*sizes.end()).clamp(low, MAX_SIZE);
        let cap = match rng.random_range(0..10) {
            0..7 => 7,
            7..9 => 12,
            _ => MAX_SIZE,
        };
        let size = rng.random_range(low..=high.min(cap).max(low));
        let mut share =
            |chance: f64, low: f64, high: f64| if rng.random_bool(chance) { rng.random_range(low..=high) } else { 0.0 };
        let (uncaged, scattered, wild, perturb) =
            (share(0.25, 0.05, 0.3), share(0.25, 0.1, 0.6), share(0.15, 0.05, 0.25), share(0.2, 0.02, 0.1));
        let (distinct, caged_givens) = (share(0.25, 0.2, 0.6), share(0.2, 0.02, 0.15));
        // Large grids get small cages, so many givens and pairs: the native
        // search has heavy tails on large puzzles with big cages.
        let large = size > 12;
        let boxes = BoxShape::default_for(size).filter(|_| rng.random_bool(0.3));
        KenKenOptions {
            size,
            max_cage: rng.random_range(1..=if large { 2 } else { 6 }),
            noop: rng.random_bool(0.3),
            perturb,
            boxes,
            extra_groups: if rng.random_bool(0.2) { rng.random_range(1..=2) } else { 0 },
            // Few uncaged cells in large grids, or they have too many solutions to enumerate.
            uncaged: if large { uncaged / 5.0 } else { uncaged },
            scattered,
            wild,
            // Standard Killers: over boxes, where the sums leave few solutions.
            killer: boxes.is_some() && rng.random_bool(0.4),
            distinct,
            caged_givens,
            overlaps: if rng.random_bool(0.2) { rng.random_range(1..=3) } else { 0 },
        }
    }
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
    let mut cube = Cube::cyclic(n);
    let mut improper: Option<(usize, usize, usize)> = None;
    // Only the proper squares visited are counted: the walk watched on them
    // alone has the uniform distribution, while stopping at the first
    // proper square after a number of moves of any kind is biased.
    let mut proper_visits = 0;
    while proper_visits < (n * n * n).max(1000) {
        let start = improper.unwrap_or_else(|| {
            loop {
                let cell = (rng.random_range(0..n), rng.random_range(0..n), rng.random_range(0..n));
                if cube.m[cube.at(cell.0, cell.1, cell.2)] == 0 {
                    break cell;
                }
            }
        });
        improper = cube.step(start, rng);
        proper_visits += usize::from(improper.is_none());
    }
    let values = (0..n * n)
        .map(|cell| (0..n).find(|&s| cube.m[cell * n + s] == 1).expect("a proper cube has a symbol per cell") as u8 + 1)
        .collect();
    Grid::new(n, values).expect("a proper cube is a Latin square")
}

/// The incidence cube of a Latin square: `m[(r·N + c)·N + s]` is 1 when
/// cell (r, c) holds symbol s. Between proper squares the walk passes
/// through "improper" cubes with a single -1 entry.
struct Cube {
    n: usize,
    m: Vec<i8>,
}

impl Cube {
    /// The cube of the cyclic square, (r + c) mod N.
    fn cyclic(n: usize) -> Self {
        let mut cube = Cube { n, m: vec![0; n * n * n] };
        for (r, c) in iproduct!(0..n, 0..n) {
            let at = cube.at(r, c, (r + c) % n);
            cube.m[at] = 1;
        }
        cube
    }

    fn at(&self, r: usize, c: usize, s: usize) -> usize {
        (r * self.n + c) * self.n + s
    }

    /// A random 1 on the line `line(0..N)`.
    fn one_on<R: Rng + ?Sized>(&self, line: impl Fn(usize) -> usize, rng: &mut R) -> usize {
        let ones: Vec<usize> = (0..self.n).filter(|&i| self.m[line(i)] == 1).collect();
        *ones.choose(rng).expect("a 1 on the line")
    }

    /// One move of the chain from a 0 entry of a proper cube, or from the
    /// -1 of an improper one; the -1 the move leaves, if any.
    fn step<R: Rng + ?Sized>(
        &mut self,
        (r, c, s): (usize, usize, usize),
        rng: &mut R,
    ) -> Option<(usize, usize, usize)> {
        // In a proper cube each line through a 0 holds one 1; through the
        // improper -1, two: pick one at random.
        let r2 = self.one_on(|i| self.at(i, c, s), rng);
        let c2 = self.one_on(|i| self.at(r, i, s), rng);
        let s2 = self.one_on(|i| self.at(r, c, i), rng);
        for ((r, c, s), delta) in [
            ((r, c, s), 1),
            ((r, c2, s2), 1),
            ((r2, c, s2), 1),
            ((r2, c2, s), 1),
            ((r, c, s2), -1),
            ((r, c2, s), -1),
            ((r2, c, s), -1),
            ((r2, c2, s2), -1),
        ] {
            let at = self.at(r, c, s);
            self.m[at] += delta;
        }
        (self.m[self.at(r2, c2, s2)] < 0).then_some((r2, c2, s2))
    }
}

/// A filled grid of order `size` with the given boxes (a Latin square if
/// none), by randomised depth-first search.
fn sudoku_grid<R: Rng + ?Sized>(size: usize, boxes: Option<BoxShape>, rng: &mut R) -> Grid {
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

/// Random cages of 1 to `max_cage` cells: each cell is left out of every
/// cage with probability `uncaged`; each cage is grown from neighbours, or,
/// with probability `scattered`, drawn from anywhere in the grid. With
/// neither, a partition of the grid into connected cages. With `apart`, a
/// cage takes no two cells of the same value in that grid.
fn cage_cells<R: Rng + ?Sized>(
    size: usize,
    max_cage: usize,
    (uncaged, scattered): (f64, f64),
    apart: Option<&Grid>,
    rng: &mut R,
) -> Vec<Vec<Cell>> {
    let n = size;
    let value = |c: usize| apart.map_or(0, |grid| grid.values()[c]);
    let mut owned = vec![false; n * n];
    if uncaged > 0.0 {
        owned.iter_mut().for_each(|o| *o = rng.random_bool(uncaged));
    }
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if owned[start] {
            continue;
        }
        owned[start] = true;
        let mut cells = vec![start];
        // Killer cages (`apart`) of one cell are rare: two cells at least
        // where the grid lets them grow.
        let fewest = if apart.is_some() { 2.min(max_cage) } else { 1 };
        let target = rng.random_range(fewest.max(1)..=max_cage.max(1));
        let scatter = scattered > 0.0 && rng.random_bool(scattered);
        while cells.len() < target {
            let free = |c: &usize| !owned[*c] && (apart.is_none() || cells.iter().all(|&d| value(d) != value(*c)));
            let pool: Vec<usize> = if scatter {
                (0..n * n).filter(free).collect()
            } else {
                cells.iter().flat_map(|&c| neighbours(c, n)).filter(free).collect()
            };
            let Some(&next) = pool.choose(rng) else { break };
            owned[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(cells.into_iter().map(|c| Cell::new(c / n, c % n)).collect());
    }
    cages
}

/// A group of 2 to N random cells whose planted values all differ.
fn planted_group<R: Rng + ?Sized>(planted: &Grid, rng: &mut R) -> Group {
    let n = planted.size();
    let wanted = rng.random_range(2.min(n)..=n);
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut taken = 0u32;
    let mut cells = Vec::new();
    for index in order {
        let cell = Cell::new(index / n, index % n);
        let bit = 1 << planted[cell];
        if cells.len() < wanted && taken & bit == 0 {
            taken |= bit;
            cells.push(cell);
        }
    }
    cells.sort_unstable();
    Group::new(cells)
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
/// with `noop`, every op of a multi-cell cage is `?`. Products are exact
/// however many cells the cage has.
fn planted_cage<R: Rng + ?Sized>(cells: Vec<Cell>, planted: &Grid, noop: bool, rng: &mut R) -> Cage {
    let values: Vec<u32> = cells.iter().map(|&c| u32::from(planted[c])).collect();
    let sum = || Target::from(values.iter().map(|&v| u64::from(v)).sum::<u64>());
    let product = || exact_product(&values);
    let (op, target) = match *values.as_slice() {
        // Mostly a given; sometimes a one-cell sum or product (the model
        // allows them), or with `noop`, a `?`.
        [v] => {
            let op = match rng.random_range(0..8) {
                _ if noop => *[Op::Any, Op::Given].choose(rng).expect("two choices"),
                0 => Op::Add,
                1 => Op::Mul,
                _ => Op::Given,
            };
            (op, Target::from(u64::from(v)))
        }
        [a, b] => {
            let (hi, lo) = (u64::from(a.max(b)), u64::from(a.min(b)));
            let mut choices = vec![(Op::Add, hi + lo), (Op::Mul, hi * lo)];
            if hi > lo {
                choices.push((Op::Sub, hi - lo));
            }
            if hi % lo == 0 {
                choices.push((Op::Div, hi / lo));
            }
            let (op, target) = *choices.choose(rng).expect("+ and * always fit");
            (op, Target::from(target))
        }
        _ if rng.random_bool(0.5) => (Op::Add, sum()),
        _ => (Op::Mul, product()),
    };
    let op = if noop && cells.len() > 1 { Op::Any } else { op };
    Cage::new(op, target, cells).expect("planted cages are well formed")
}

/// Merges each one-cell cage into a cage beside it whose planted values
/// do not hold its own, where there is one: Killer cages of one cell are
/// givens in all but name.
fn absorb_single_cells(cages: &mut Vec<Vec<Cell>>, planted: &Grid) {
    let mut i = 0;
    while i < cages.len() {
        let single = match cages[i][..] {
            [cell] => cell,
            _ => {
                i += 1;
                continue;
            }
        };
        let beside = |c: &Cell| c.row.abs_diff(single.row) + c.col.abs_diff(single.col) == 1;
        let host = (0..cages.len()).find(|&j| {
            j != i
                && cages[j].len() > 1
                && cages[j].iter().any(beside)
                && cages[j].iter().all(|&c| planted[c] != planted[single])
        });
        match host {
            Some(j) => {
                cages[j].push(single);
                cages[j].sort_unstable();
                cages.remove(i);
            }
            None => i += 1,
        }
    }
}

/// A Killer cage over `cells`, whose planted values differ: distinct, `+`,
/// the planted sum.
fn killer_cage(cells: Vec<Cell>, planted: &Grid) -> Cage {
    let sum: u64 = cells.iter().map(|&c| u64::from(planted[c])).sum();
    Cage::new(Op::Add, sum, cells).expect("a planted sum").with_distinct(true)
}

/// A cage laid over others, planted: a little-killer diagonal of 2 to 5
/// cells (kept short, so that its tuples stay few) summing to its planted
/// values, or two neighbours under a planted `+ - * /` (a Kropki dot or
/// an XV clue).
fn overlap_cage<R: Rng + ?Sized>(planted: &Grid, rng: &mut R) -> Cage {
    let n = planted.size();
    let start = Cell::new(rng.random_range(0..n), rng.random_range(0..n));
    if n > 1 && rng.random_bool(0.5) {
        let right = rng.random_bool(0.5);
        let step = |cell: Cell| {
            let col = if right { cell.col.checked_add(1).filter(|&c| c < n) } else { cell.col.checked_sub(1) };
            col.filter(|_| cell.row + 1 < n).map(|col| Cell::new(cell.row + 1, col))
        };
        let cells: Vec<Cell> = std::iter::successors(Some(start), |&c| step(c)).take(5).collect();
        if cells.len() > 1 {
            let sum: u64 = cells.iter().map(|&c| u64::from(planted[c])).sum();
            return Cage::new(Op::Add, sum, cells).expect("a planted sum");
        }
    }
    let index = start.index(n);
    let next = neighbours(index, n).collect::<Vec<_>>().choose(rng).copied();
    let cells = next.map_or(vec![start], |c| vec![start, Cell::new(c / n, c % n)]);
    planted_cage(cells, planted, false, rng)
}

/// The exact product of `values`, in limbs of nine decimal digits (least
/// significant first), written out in decimal.
fn exact_product(values: &[u32]) -> Target {
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![1];
    for &v in values {
        let mut carry = 0;
        for limb in &mut limbs {
            let x = *limb * u64::from(v) + carry;
            *limb = x % BASE;
            carry = x / BASE;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut text = limbs.last().expect("one limb at least").to_string();
    for limb in limbs.iter().rev().skip(1) {
        text.push_str(&format!("{limb:09}"));
    }
    Target::from_decimal(&text).expect("decimal digits")
}

/// The target one above or below `target` (never below 1), by decimal
/// carrying and borrowing.
fn nudged(target: &Target, up: bool) -> Target {
    let mut digits: Vec<u8> = target.digits().bytes().map(|b| b - b'0').collect();
    if !up && digits == [1] {
        return Target::from(2);
    }
    let (edge, step) = if up { (9, 1) } else { (0, -1i8) };
    let mut i = digits.len();
    loop {
        if i == 0 {
            digits.insert(0, 1);
            break;
        }
        i -= 1;
        if digits[i] == edge {
            digits[i] = 9 - edge;
        } else {
            digits[i] = (digits[i] as i8 + step) as u8;
            break;
        }
    }
    let text: String = digits.iter().map(|&d| char::from(b'0' + d)).collect();
    Target::from_decimal(&text).expect("decimal digits")
}

/// A target that stresses arithmetic: at or next to 2^64 and 2^128, the
/// planted product times 29 (a prime no value of a grid has), or N^k for a
/// cage of k cells. Most are out of the cage's reach; an implementation
/// that saturates, wraps or rounds may take them for reachable.
fn wild_target<R: Rng + ?Sized>(cells: &[Cell], planted: &Grid, rng: &mut R) -> Target {
    let values: Vec<u32> = cells.iter().map(|&c| u32::from(planted[c])).collect();
    let up = rng.random_bool(0.5);
    let near = |base: &str| nudged(&Target::from_decimal(base).expect("digits"), up);
    match rng.random_range(0..6) {
        0 => Target::from(u64::MAX - rng.random_range(0..4)),
        1 => near("18446744073709551616"),
        2 => near("340282366920938463463374607431768211456"),
        3 => exact_product(&values.iter().copied().chain([29]).collect::<Vec<_>>()),
        4 => exact_product(&vec![planted.size() as u32; cells.len()]),
        _ => Target::from(rng.random_range(u64::MAX / 2..=u64::MAX)),
    }
}

/// A random KenKen planted on a random solution: a uniform random Latin
/// square, or a random Sudoku grid when the options ask for boxes.
///
/// ```
/// use cagey::generate::{self, KenKenOptions};
///
/// let options = KenKenOptions { max_cage: 3, noop: true, ..KenKenOptions::new(6) };
/// let generated = generate::kenken(&options, &mut generate::rng(7, 0));
/// assert_eq!(cagey::verify(&generated.puzzle, &generated.planted), Ok(()));
/// ```
pub fn kenken<R: Rng + ?Sized>(options: &KenKenOptions, rng: &mut R) -> Generated {
    let n = options.size;
    let planted = sudoku_grid(n, options.boxes, rng);
    let mut groups = options.boxes.map(|b| b.groups(n)).unwrap_or_default();
    groups.extend((0..options.extra_groups).map(|_| planted_group(&planted, rng)));
    let apart = options.killer.then_some(&planted);
    let mut cells = cage_cells(n, options.max_cage, (options.uncaged, options.scattered), apart, rng);
    if options.killer {
        absorb_single_cells(&mut cells, &planted);
    }
    let mut cages: Vec<Cage> = cells
        .into_iter()
        .map(|cells| {
            let cage = match options.killer {
                true => killer_cage(cells, &planted),
                false => planted_cage(cells, &planted, options.noop, rng),
            };
            let differ = cage.cells().iter().map(|&c| planted[c]).collect::<std::collections::BTreeSet<_>>().len()
                == cage.cells().len();
            let distinct = cage.is_distinct()
                || (cage.cells().len() > 1 && differ && options.distinct > 0.0)
                    && rng.random_bool(options.distinct.min(1.0));
            let cage = cage.with_distinct(distinct);
            let wild = options.wild > 0.0 && cage.op() != Op::Given && rng.random_bool(options.wild.min(1.0));
            let remade = |target| Cage::new(cage.op(), target, cage.cells().to_vec()).expect("a positive target");
            if wild {
                remade(wild_target(cage.cells(), &planted, rng)).with_distinct(distinct)
            } else if options.perturb > 0.0 && rng.random_bool(options.perturb.min(1.0)) {
                let target = match cage.op() {
                    // A given stays a value of the grid: another one.
                    Op::Given if n > 1 => {
                        let v = u64::from(planted[cage.cells()[0]]);
                        Target::from((v + rng.random_range(1..n as u64) - 1) % n as u64 + 1)
                    }
                    Op::Given => cage.target().clone(),
                    _ => nudged(cage.target(), rng.random_bool(0.5)),
                };
                remade(target).with_distinct(distinct)
            } else {
                cage
            }
        })
        .collect();
    let caged: Vec<Cell> = cages.iter().filter(|c| c.op() != Op::Given).flat_map(|c| c.cells().to_vec()).collect();
    for (i, cell) in caged.into_iter().enumerate() {
        if options.caged_givens > 0.0 && rng.random_bool(options.caged_givens.min(1.0)) {
            let given = Cage::new(Op::Given, u64::from(planted[cell]), vec![cell]).expect("a given");
            cages.insert(rng.random_range(0..=cages.len().min(i + 1)), given);
        }
    }
    cages.extend((0..options.overlaps).map(|_| overlap_cage(&planted, rng)));
    let puzzle = Puzzle::new(n, groups, cages).expect("planted puzzles are well formed");
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

/// The parts of the model a puzzle uses, as `fuzz` and the tests tally
/// them to show what the generator reaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Some cell is in no cage.
    pub uncaged: bool,
    /// Some cage's cells are not connected.
    pub scattered: bool,
    /// Some cage has two cells that share no group, so values may repeat.
    pub repeats: bool,
    /// Sudoku boxes with multi-cell cages over them (KenKen or Killer
    /// cages over boxes).
    pub boxes: bool,
    /// All-different groups other than rows, columns and boxes.
    pub groups: bool,
    /// `!` cages beside multi-cell cages.
    pub givens: bool,
    /// Some `?` (no-op) cage.
    pub noop: bool,
    /// Some cage of two cells or more is distinct (the Killer rule).
    pub distinct: bool,
    /// Some given sits in a cell that another cage covers.
    pub caged_givens: bool,
    /// Some cell is in two cages that are not givens.
    pub overlaps: bool,
    /// Some target of 2^63 or more (where 64-bit arithmetic overflows).
    pub big_target: bool,
    /// Some target beyond 2^64 - 1.
    pub huge_target: bool,
}

impl Features {
    /// The names of the features, in the order of [`Features::flags`].
    pub const NAMES: [&'static str; 12] = [
        "uncaged",
        "scattered",
        "repeats",
        "boxes",
        "groups",
        "givens",
        "noop",
        "distinct",
        "caged-givens",
        "overlaps",
        "big-target",
        "huge-target",
    ];

    /// What `puzzle` uses.
    pub fn of(puzzle: &Puzzle) -> Self {
        let n = puzzle.size();
        let boxes = BoxShape::default_for(n).map(|b| b.groups(n)).unwrap_or_default();
        let extra = puzzle.extra_groups();
        let boxed = !boxes.is_empty() && extra.len() >= boxes.len() && extra[..boxes.len()] == boxes[..];
        let other_groups = extra.len() > if boxed { boxes.len() } else { 0 };
        let cages = puzzle.cages();
        let share = |a: Cell, b: Cell| puzzle.groups().iter().any(|g| g.cells().contains(&a) && g.cells().contains(&b));
        let connected = |cells: &[Cell]| {
            let indices: Vec<usize> = cells.iter().map(|c| c.index(n)).collect();
            connected_parts(&indices, n).len() == 1
        };
        let target_at_least =
            |digits: &str, bound: &str| digits.len() > bound.len() || (digits.len() == bound.len() && digits >= bound);
        let multi = cages.iter().any(|c| c.cells().len() > 1);
        let (mut in_cages, mut given) = (vec![0u32; n * n], vec![false; n * n]);
        for cage in cages {
            for cell in cage.cells() {
                match cage.op() {
                    Op::Given => given[cell.index(n)] = true,
                    _ => in_cages[cell.index(n)] += 1,
                }
            }
        }
        Features {
            uncaged: !puzzle.uncaged_cells().is_empty(),
            scattered: cages.iter().any(|c| !connected(c.cells())),
            repeats: cages
                .iter()
                .any(|c| c.cells().iter().enumerate().any(|(i, &a)| c.cells()[i + 1..].iter().any(|&b| !share(a, b)))),
            boxes: boxed && multi,
            groups: other_groups,
            givens: multi && cages.iter().any(|c| c.op() == Op::Given),
            noop: cages.iter().any(|c| c.op() == Op::Any),
            distinct: cages.iter().any(|c| c.is_distinct() && c.cells().len() > 1),
            caged_givens: (0..n * n).any(|i| given[i] && in_cages[i] > 0),
            overlaps: in_cages.iter().any(|&k| k > 1),
            big_target: cages.iter().any(|c| target_at_least(c.target().digits(), "9223372036854775808")),
            huge_target: cages.iter().any(|c| target_at_least(c.target().digits(), "18446744073709551616")),
        }
    }

    /// Each feature, in the order of [`Features::NAMES`].
    pub fn flags(&self) -> [bool; 12] {
        [
            self.uncaged,
            self.scattered,
            self.repeats,
            self.boxes,
            self.groups,
            self.givens,
            self.noop,
            self.distinct,
            self.caged_givens,
            self.overlaps,
            self.big_target,
            self.huge_target,
        ]
    }
}

/// Why [`make_unique`] gave up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// A solver refused the puzzle.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The confirming solver does not agree with the one that pinned cells:
    /// a bug in one of them, shown by this puzzle.
    #[error("{pinner} made the puzzle unique, but {confirmer} finds {found}")]
    Unconfirmed {
        /// The solver that pinned cells.
        pinner: String,
        /// The solver that checked the result.
        confirmer: String,
        /// What the confirming solver found instead.
        found: String,
        /// The puzzle they disagree on.
        puzzle: Box<Puzzle>,
    },
}

/// Changes the puzzle until the solver `pinner` finds exactly one solution,
/// the planted one: while two solutions differ at a cell, that cell is
/// pinned to its planted value (taken out of its cage, whose other cells
/// get fresh cages of the same style). Each round pins a new cell, so it
/// ends. Then the solver `confirmer` (the other backend) must find exactly
/// that one solution too, or the result is [`GenerateError::Unconfirmed`].
///
/// A puzzle the planted grid does not solve (perturbed targets) is returned
/// as it is once both solvers find no solution.
pub fn make_unique<R: Rng + ?Sized>(
    generated: Generated,
    pinner: (&str, &dyn Enumerate),
    confirmer: (&str, &dyn Enumerate),
    rng: &mut R,
) -> Result<Generated, GenerateError> {
    let Generated { mut puzzle, planted } = generated;
    let verdict = loop {
        let (a, b) = match solver::uniqueness(pinner.1, &puzzle)?.uniqueness {
            Uniqueness::Multiple(a, b) => (a, b),
            verdict => break verdict,
        };
        let n = puzzle.size();
        let cell = (0..n * n)
            .map(|i| Cell::new(i / n, i % n))
            .find(|&c| a[c] != b[c])
            .expect("two different solutions differ somewhere");
        puzzle = pin(&puzzle, cell, &planted, rng);
    };
    let confirmed = solver::uniqueness(confirmer.1, &puzzle)?.uniqueness;
    if confirmed != verdict {
        let found = match confirmed {
            Uniqueness::Unknown(_) => "no answer within its timeout".to_string(),
            Uniqueness::None => "no solution".to_string(),
            Uniqueness::Unique(grid) => format!("another single solution:\n{grid}"),
            Uniqueness::Multiple(a, b) => format!("several solutions, among them:\n{a}\n{b}"),
        };
        let (pinner, confirmer) = (pinner.0.to_string(), confirmer.0.to_string());
        return Err(GenerateError::Unconfirmed { pinner, confirmer, found, puzzle: Box::new(puzzle) });
    }
    Ok(Generated { puzzle, planted })
}

/// The puzzle with `cell` made a given of its planted value, its cage
/// split around it into the parts that stay in one piece, each with its
/// planted target: a Killer cage's parts are Killer cages, and the given
/// is a Killer cage of one cell, as the forums write one.
fn pin<R: Rng + ?Sized>(puzzle: &Puzzle, cell: Cell, planted: &Grid, rng: &mut R) -> Puzzle {
    let n = puzzle.size();
    let mut cages = Vec::new();
    let mut killer = false;
    for cage in puzzle.cages() {
        if !cage.cells().contains(&cell) || cage.op() == Op::Given {
            cages.push(cage.clone());
            continue;
        }
        killer |= cage.is_distinct();
        let rest: Vec<usize> = cage.cells().iter().filter(|&&c| c != cell).map(|c| c.index(n)).collect();
        for part in connected_parts(&rest, n) {
            let cells = part.into_iter().map(|c| Cell::new(c / n, c % n)).collect();
            cages.push(match cage.is_distinct() {
                true => killer_cage(cells, planted),
                false => planted_cage(cells, planted, cage.op() == Op::Any, rng),
            });
        }
    }
    let given = match killer {
        true => killer_cage(vec![cell], planted),
        false => Cage::new(Op::Given, u64::from(planted[cell]), vec![cell]).expect("a given"),
    };
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
    use crate::puzzle::backend::Backend;
    use crate::solver::Solver;

    const NATIVE: Solver = Solver::new(Backend::Native);
    const SAT: Solver = Solver::new(Backend::Sat);
    use crate::puzzle::verify::verify;

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
            let options = KenKenOptions { noop: case % 2 == 0, ..KenKenOptions::new(1 + case as usize % 7) };
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
        let cages = cage_cells(9, 5, (0.0, 0.0), None, &mut rng);
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
    fn killer_cages_hold_distinct_planted_values_and_pins_split_them() {
        let options =
            KenKenOptions { killer: true, max_cage: 5, boxes: BoxShape::default_for(9), ..KenKenOptions::new(9) };
        for case in 0..20 {
            let generated = kenken(&options, &mut rng(3, case));
            assert_eq!(verify(&generated.puzzle, &generated.planted), Ok(()));
            for cage in generated.puzzle.cages() {
                assert!(cage.is_distinct() && cage.op() == Op::Add, "{cage:?}");
                assert!(cage.in_one_piece());
            }
            let cell = Cell::new(4, 4);
            let pinned = pin(&generated.puzzle, cell, &generated.planted, &mut rng(3, case));
            assert_eq!(verify(&pinned, &generated.planted), Ok(()));
            assert!(pinned.cages().iter().all(|c| c.is_distinct() && c.op() == Op::Add && c.in_one_piece()));
            assert_eq!(pinned.cages().last().unwrap().cells(), [cell]);
            let cells = pinned.cages().iter().map(|c| c.cells().len()).sum::<usize>();
            assert_eq!(cells, 81, "each cell in one cage still");
        }
    }

    #[test]
    fn features_name_what_a_puzzle_uses() {
        let parse = |text: &str| crate::format::kenken::parse(text, "t").unwrap().remove(0).puzzle;
        let plain = Features::of(&parse("# 2\n+ 3 A1 A2\n+ 3 B1 B2\n"));
        assert_eq!(plain, Features::default());
        let text = "# 4 boxes 2x2\ndistinct A1 D4\n? 18446744073709551616 A1 C2\n! 1 C3\n\
                    distinct + 3 C3 C4\n! 2 C4\noverlap + 3 C4 D4\n";
        let all = Features::of(&parse(text));
        assert_eq!(all.flags(), [true; 12]);
        let big = Features::of(&parse("# 3\n* 9223372036854775808 A1 B2 C3\n"));
        assert!(big.big_target && !big.huge_target && big.repeats && big.scattered);
    }

    #[test]
    fn same_seed_same_puzzle() {
        let options = KenKenOptions { perturb: 0.1, ..KenKenOptions::new(6) };
        assert_eq!(kenken(&options, &mut rng(9, 4)), kenken(&options, &mut rng(9, 4)));
        assert_ne!(kenken(&options, &mut rng(9, 4)), kenken(&options, &mut rng(9, 5)));
    }

    #[test]
    fn unique_mode_ends_with_exactly_the_planted_solution() {
        let native: (&str, &dyn Enumerate) = ("native", &NATIVE);
        let sat: (&str, &dyn Enumerate) = ("sat", &SAT);
        for case in 0..20 {
            let mut rng = rng(11, case);
            let options = KenKenOptions { max_cage: 5, noop: true, ..KenKenOptions::new(6) };
            let generated = make_unique(kenken(&options, &mut rng), native, sat, &mut rng).unwrap();
            let solutions = NATIVE.solutions(&generated.puzzle, None).unwrap().grids;
            assert_eq!(solutions, std::slice::from_ref(&generated.planted));
            let options = SudokuOptions { size: 9, boxes: BoxShape::default_for(9), clues: 0.2, perturb: 0.0 };
            let generated = make_unique(sudoku(&options, &mut rng), sat, native, &mut rng).unwrap();
            let solutions = NATIVE.solutions(&generated.puzzle, None).unwrap().grids;
            assert_eq!(solutions, [generated.planted]);
        }
    }

    /// A solver that ignores the cages: it finds many solutions where the
    /// real one finds one.
    struct NoCages;

    impl Enumerate for NoCages {
        fn enumerate(
            &self,
            puzzle: &Puzzle,
            on_solution: &mut dyn FnMut(&Grid) -> std::ops::ControlFlow<()>,
        ) -> Result<crate::puzzle::stats::Stats, SolveError> {
            let bare = Puzzle::new(puzzle.size(), puzzle.extra_groups().to_vec(), vec![]).unwrap();
            NATIVE.enumerate(&bare, on_solution)
        }
    }

    #[test]
    fn unique_mode_fails_when_the_confirming_solver_disagrees() {
        let mut rng = rng(12, 0);
        let generated = kenken(&KenKenOptions::new(4), &mut rng);
        let result = make_unique(generated, ("native", &NATIVE), ("no-cages", &NoCages), &mut rng);
        let Err(GenerateError::Unconfirmed { pinner, confirmer, found, .. }) = result else {
            panic!("{result:?}");
        };
        assert_eq!((pinner.as_str(), confirmer.as_str()), ("native", "no-cages"));
        assert!(found.starts_with("several solutions"), "{found}");
    }
}
