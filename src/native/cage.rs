//! Cage reasoning on candidate sets, one rule per op. Each rule removes
//! only candidates that no assignment of the other cells could complete,
//! and is exact once every cell of the cage is fixed.
//!
//! Pairs are checked value against value. Larger sums and products are
//! checked exactly, by a search over the cells' candidates, while few
//! combinations are left. Before that, a value stays when some choice of
//! the other cells' candidates completes it to the target, cells that must
//! differ allowed to be equal: sums as bit sets of reachable totals,
//! products over the target's divisors (see `divisors.rs`). Targets too
//! large for those sets fall back to bounds: sums by the bounds of the
//! other cells, products prime by prime (see `factors.rs`), the exponents
//! the other cells can still supply covering what the target needs.
//! Nothing here multiplies values, so no product can overflow.
//!
//! Pairs and cages checked exactly also report the values that every
//! completion puts in the cells the cage has in one group: the rest of
//! that group cannot hold them. This reasoning across a cage and a group
//! is stronger than either alone, and shrinks KenKen search trees several
//! times over.

use std::cell::RefCell;
use std::ops::{BitAnd, BitOr, Shl, Shr};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::distinct;
#[cfg(test)]
use super::factors::of_target;
use super::factors::{Factors, LEVELS, OF_VALUE, divides, quotient, value_of};
#[cfg(test)]
use super::layout::Layout;
use super::layout::{CageLayout, Part};
use super::pairs;
use super::tuning::{
    EXACT_COMBINATIONS, EXACT_COMBINATIONS_ANY, LISTED_CELLS, MOST_COMPLETIONS, ROOT_EXACT_ABOVE, ROOT_EXACT_LIMIT,
};
use crate::puzzle::Op;

/// The values each cell of `cage` can keep, against its op and target and
/// the candidate sets of its cells (`sets[i]` for `cage.cells[i]`):
/// `keep[i]` for `cage.cells[i]`. With them, for pairs and for cages
/// checked exactly, the values that every completion puts in each part of
/// the cage (see [`CageLayout::parts`]): `required[k]` for `cage.parts[k]`,
/// to be ruled out from the rest of that group. `required` is left empty
/// when not worked out. `at_root` says whether the search's root is being
/// propagated, where larger cages are checked exactly (see
/// [`exact_limit`]). `listed` is the cage's [`Completions`], if it has
/// them: read instead of searching where the check is exact.
pub(super) fn supports(
    cage: &CageLayout<'_>,
    size: usize,
    sets: &[u32],
    keep: &mut Vec<u32>,
    required: &mut Vec<u32>,
    at_root: bool,
    listed: Option<&Completions>,
) {
    let (op, target) = (cage.op, cage.target);
    keep.clear();
    keep.resize(sets.len(), 0);
    required.clear();
    match (op, sets) {
        (Op::Given, &[_]) | (Op::Any, &[_]) => keep[0] = value_bit(target, size),
        (_, &[a, b]) => {
            let (keep_a, keep_b, both) = pairs::supports(cage.partners, cage.pair_apart, a, b);
            (keep[0], keep[1]) = (keep_a, keep_b);
            if !cage.parts.is_empty() {
                required.resize(cage.parts.len(), both);
            }
        }
        (Op::Add | Op::Mul | Op::Any, sets) => {
            let sum_goal = if matches!(op, Op::Add | Op::Any) { target } else { None };
            let product_goal = if matches!(op, Op::Mul | Op::Any) { cage.factors } else { None };
            let limit = exact_limit(op, size, at_root);
            let combinations =
                sets.iter().try_fold(1u32, |acc, &set| acc.checked_mul(set.count_ones()).filter(|&p| p <= limit));
            let exact = combinations.is_some() && !cage.apart.is_empty();
            // A sum of values that all differ, too wide to check exactly
            // by tuples, is checked by sets of values (see `distinct.rs`).
            let killer_sum = target.filter(|_| op == Op::Add && cage.distinct && !exact);
            let by_sets = killer_sum.is_some_and(|t| {
                required.resize(cage.parts.len(), 0);
                distinct::supports(sets, t, size, cage.parts, keep, required)
            });
            if by_sets {
                return;
            }
            required.clear();
            if exact {
                required.resize(cage.parts.len(), u32::MAX);
                match listed {
                    Some(listed) => listed.supports(sets, keep, required),
                    None => {
                        Exact::new(sum_goal, cage.apart, sets, keep, cage.parts, required).run(product_goal, target)
                    }
                }
                if keep.contains(&0) {
                    required.fill(0);
                }
            } else {
                if let Some(goal) = sum_goal {
                    sum_support(sets, goal, keep);
                }
                match (&product_goal, cage.divisors) {
                    (Some(_), Some(divisors)) => divisors.supports(sets, keep),
                    (Some(goal), None) => product_support(sets, goal, target, keep),
                    (None, _) => {}
                }
            }
        }
        // Cell counts are checked when a cage is made.
        _ => unreachable!("a {op} cage with {} cells", cage.cells.len()),
    }
}

/// Cages of `op` in an N×N grid of `size` whose candidates combine in at
/// most this many ways are checked exactly (see the knobs in `tuning.rs`).
fn exact_limit(op: Op, size: usize, at_root: bool) -> u32 {
    match op {
        _ if at_root && size > ROOT_EXACT_ABOVE => ROOT_EXACT_LIMIT,
        Op::Any => EXACT_COMBINATIONS_ANY,
        _ => EXACT_COMBINATIONS[usize::from(size > 9)],
    }
}

/// An exact check of a `+`, `*` or `?` cage of three or more cells: every
/// combination of candidates that keeps apart the cells sharing a group is
/// tried, and each value that takes part in a complete one is kept.
struct Exact<'a> {
    /// The target as a sum, if the cage may be a sum.
    sum_goal: Option<u64>,
    apart: &'a [u64],
    /// The candidate set of each cell.
    sets: &'a [u32],
    /// The value chosen so far in each cell, as a bit (bit v - 1 for v),
    /// or 0 for a cell not chosen yet.
    chosen: [u32; 64],
    /// The cells in the order they are chosen: the cage's, but for the
    /// cell with the most candidates, which goes last. The last cell's
    /// values are looked up, not tried, so that order tries the fewest
    /// combinations.
    order: [u8; 64],
    keep: &'a mut [u32],
    /// The cage's parts (see [`CageLayout::parts`]) and the values found
    /// in each in every completion so far.
    parts: &'a [Part],
    required: &'a mut [u32],
}

impl<'a> Exact<'a> {
    fn new(
        sum_goal: Option<u64>,
        apart: &'a [u64],
        sets: &'a [u32],
        keep: &'a mut [u32],
        parts: &'a [Part],
        required: &'a mut [u32],
    ) -> Self {
        let mut order: [u8; 64] = std::array::from_fn(|j| j as u8);
        let last = sets.len() - 1;
        let widest = (0..sets.len()).rev().max_by_key(|&j| sets[j].count_ones()).unwrap_or(last);
        order.swap(widest, last);
        Exact { sum_goal, apart, sets, chosen: [0; 64], order, keep, parts, required }
    }

    /// Searches every combination: [`Exact::search`] from the first cell.
    /// `product_goal` is the target as a product, if the cage may be one,
    /// and `target` the target itself if it fits in a `u64`.
    fn run(&mut self, product_goal: Option<Factors>, target: Option<u64>) {
        let bounds = self.sets.iter().fold((0, 0), |(least, most), &set| (least + low(set), most + high(set)));
        match (product_goal, target) {
            (Some(goal), None) => self.search(0, 0, Some(goal), bounds),
            (goal, target) => self.search(0, 0, goal.and(target), bounds),
        };
    }

    /// Extends the values chosen so far, in the cells before `depth` in
    /// [`Exact::order`] (at least one cell is left), whose sum is `sum`
    /// and which leave `rest` of the target as a product (`None` once the
    /// product cannot reach it). `bounds` are the least and the most the
    /// cells from `depth` on can add to a sum. Reports whether some
    /// values of those cells complete the cage.
    fn search<R: Rest>(&mut self, depth: usize, sum: u64, rest: Option<R>, bounds: (u64, u64)) -> bool {
        let i = usize::from(self.order[depth]);
        // The values chosen in the cells that share a group with cell i.
        // Here and at the last cell, no branch on the values or on what
        // they complete: the processor cannot guess those (see
        // `pairs::supports`).
        let taken = self.chosen_in(self.apart[i]);
        if depth + 1 == self.sets.len() {
            // The last cell: the values that complete the sum or the
            // product, looked up instead of tried one by one.
            let bit = |need: Option<u64>| need.filter(|n| (1..=32).contains(n)).map_or(0, |n| 1u32 << (n - 1));
            let needed = bit(self.sum_goal.and_then(|goal| goal.checked_sub(sum))) | bit(rest.and_then(|r| r.last()));
            let last = self.sets[i] & !taken & needed;
            self.keep[i] |= last;
            // All ones if the values complete, else nothing.
            let complete = 0u32.wrapping_sub(u32::from(last != 0));
            // The values every completion puts in a part: those chosen
            // there, and the last cell's if it has only one.
            let only = if last.is_power_of_two() { last } else { 0 };
            for k in 0..self.parts.len() {
                let part = self.parts[k].cells;
                let before = self.chosen_in(part);
                let mine = 0u32.wrapping_sub((part >> i) as u32 & 1) & only;
                self.required[k] &= before | mine | !complete;
            }
            return last != 0;
        }
        let set = self.sets[i];
        let after = (bounds.0 - low(set), bounds.1 - high(set));
        let mut completed = false;
        for v in values(set & !taken) {
            let sum = sum + v;
            let (least, most) = (sum + after.0, sum + after.1);
            let sum_open = self.sum_goal.is_some_and(|goal| (least..=most).contains(&goal));
            let rest = rest.and_then(|r| r.divide(v));
            if sum_open || rest.is_some() {
                let bit = 1u32 << (v - 1);
                self.chosen[i] = bit;
                let found = self.search(depth + 1, sum, rest, after);
                self.chosen[i] = 0;
                self.keep[i] |= u32::from(found) << (v - 1);
                completed |= found;
            }
        }
        completed
    }

    /// The values chosen so far in `cells` (bit j for the j-th cell).
    fn chosen_in(&self, cells: u64) -> u32 {
        // A loop over the cells asked about only, a pattern the same at
        // every node of one cage: cheaper than a fixed loop over eight
        // slots that masks the rest.
        let (mut rest, mut t) = (cells, 0);
        while rest != 0 {
            t |= self.chosen[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        t
    }
}

/// Every completion of a small `?` cage (its values in order, as a sum
/// or a product), listed once for each kind of cage: revising the cage
/// is then a pass over the list where [`Exact`] would search. The
/// supports and required values are the same, and so are the trees.
/// `+` and `*` cages are not listed: their search prunes well by bounds and
/// divisors, and making their lists cost more than it saved.
pub(super) struct Completions {
    cells: usize,
    parts: usize,
    /// For each completion, its cells' values as bits (all ones past the
    /// last cell), then the values it puts in each part (all ones past
    /// the last part).
    rows: Vec<[[u32; LISTED_CELLS]; 2]>,
    /// The rows come in the order of their first cell's value: those of
    /// value v (from 0) are `starts[v]..starts[v + 1]`, and only those of
    /// the first cell's candidates are read.
    starts: [u16; 33],
}

impl Completions {
    /// The completions of a `?` cage of `target` in an N×N grid of `size`
    /// whose cells are apart and in parts as `apart` and `parts` say (see
    /// [`CageLayout`]); `None` if there are more than [`MOST_COMPLETIONS`].
    fn new(target: u64, size: usize, apart: &[u64], parts: &[Part]) -> Option<Completions> {
        let mut list = Completions { cells: apart.len(), parts: parts.len(), rows: Vec::new(), starts: [0; 33] };
        let mut values = [0u64; LISTED_CELLS];
        if !list.extend(0, &mut values, size as u64, target, apart, parts, (0, 1)) {
            return None;
        }
        for v in 0..32 {
            list.starts[v] = list.rows.iter().filter(|row| (row[0][0].trailing_zeros() as usize) < v).count() as u16;
        }
        list.starts[32] = list.rows.len() as u16;
        Some(list)
    }

    /// Lists the completions that extend `values`, chosen in the cells
    /// before `depth` (their sum and product `so_far`); false once there
    /// are too many.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        depth: usize,
        values: &mut [u64; LISTED_CELLS],
        size: u64,
        target: u64,
        apart: &[u64],
        parts: &[Part],
        so_far: (u64, u64),
    ) -> bool {
        if depth == self.cells {
            if self.rows.len() == MOST_COMPLETIONS {
                return false;
            }
            let mut row = [[u32::MAX; LISTED_CELLS]; 2];
            for j in 0..depth {
                row[0][j] = 1 << (values[j] - 1);
            }
            for (k, part) in parts.iter().enumerate() {
                row[1][k] = (0..depth).filter(|&j| part.cells >> j & 1 == 1).fold(0, |set, j| set | row[0][j]);
            }
            self.rows.push(row);
            return true;
        }
        // The values of the cells before this one that share a group with it.
        let apart_values = (0..depth).filter(|&j| apart[depth] >> j & 1 == 1).fold(0u64, |t, j| t | 1 << values[j]);
        let open = |v: u64| (1..=size).contains(&v) && apart_values >> v & 1 == 0;
        let left = (self.cells - depth - 1) as u64;
        let mut tried = |v: u64, values: &mut [u64; LISTED_CELLS]| {
            values[depth] = v;
            self.extend(depth + 1, values, size, target, apart, parts, (so_far.0 + v, so_far.1 * v))
        };
        if left == 0 {
            // The last cell: the values that complete the sum or the
            // product, worked out rather than tried (each once).
            let by_sum = target.checked_sub(so_far.0);
            let by_product = (target % so_far.1 == 0).then(|| target / so_far.1).filter(|&p| Some(p) != by_sum);
            return [by_sum, by_product].into_iter().flatten().filter(|&v| open(v)).all(|v| tried(v, values));
        }
        (1..=size).filter(|&v| open(v)).all(|v| {
            // A product past the target, or not dividing it, and a sum the
            // cells left would take past it, end here.
            let (sum, product) = (so_far.0 + v, so_far.1 * v);
            let reachable = sum + left <= target || (product <= target && target % product == 0);
            !reachable || tried(v, values)
        })
    }

    /// [`supports`] of the cage with candidate sets `sets`: what each cell
    /// keeps, and the values every completion puts in each part (all, if
    /// none is left).
    fn supports(&self, sets: &[u32], keep: &mut [u32], required: &mut [u32]) {
        let mut held_sets = [u32::MAX; LISTED_CELLS];
        held_sets[..self.cells].copy_from_slice(sets);
        let (mut kept, mut all) = ([0u32; LISTED_CELLS], [u32::MAX; LISTED_CELLS]);
        let mut first = sets[0];
        while first != 0 {
            let v = first.trailing_zeros() as usize;
            first &= first - 1;
            let rows = &self.rows[usize::from(self.starts[v])..usize::from(self.starts[v + 1])];
            // Every row is read whether it holds or not: a branch on it is
            // one the processor cannot guess.
            for [values, in_parts] in rows {
                let held = (0..LISTED_CELLS).fold(true, |held, j| held & (values[j] & held_sets[j] != 0));
                let mask = 0u32.wrapping_sub(u32::from(held));
                for j in 0..LISTED_CELLS {
                    kept[j] |= values[j] & mask;
                    all[j] &= in_parts[j] | !mask;
                }
            }
        }
        keep.copy_from_slice(&kept[..self.cells]);
        required.copy_from_slice(&all[..self.parts]);
    }
}

/// A kind of `?` cage, as its [`Completions`] depend on it: target, grid
/// size, cell count, and its cells' `apart` sets and parts, a byte each.
type Kind = (u64, usize, usize, u64, u64);

/// Kinds listed before the thread's lists start again: 16 MB at most
/// (512 completions of 32 bytes a kind), most lists holding a few dozen.
const LISTS: usize = 1024;

thread_local! {
    /// The completions listed on this thread, by kind of cage: a file of
    /// puzzles meets the same kinds again.
    static LISTED: RefCell<FxHashMap<Kind, Option<Rc<Completions>>>> = RefCell::new(FxHashMap::default());
}

/// The [`Completions`] of `cage` in an N×N grid of `size`, listed once
/// for each kind of cage on the thread, if it is listed: a `?` cage of 3
/// to [`LISTED_CELLS`] cells with at most [`MOST_COMPLETIONS`].
pub(super) fn completions(cage: &CageLayout<'_>, size: usize) -> Option<Rc<Completions>> {
    let target = cage.target?;
    if cage.op != Op::Any || !(3..=LISTED_CELLS).contains(&cage.cells.len()) || cage.parts.len() > LISTED_CELLS {
        return None;
    }
    let bytes = |sets: &mut dyn Iterator<Item = u64>| sets.fold(0u64, |packed, set| packed << 8 | set);
    let parts = bytes(&mut cage.parts.iter().map(|part| part.cells)) << 8 | cage.parts.len() as u64;
    // The count, since the bytes of cells that share no group are all 0.
    let kind = (target, size, cage.cells.len(), bytes(&mut cage.apart.iter().copied()), parts);
    LISTED.with_borrow_mut(|listed| {
        if listed.len() >= LISTS {
            listed.clear();
        }
        let list =
            listed.entry(kind).or_insert_with(|| Completions::new(target, size, cage.apart, cage.parts).map(Rc::new));
        list.clone()
    })
}

/// What the cells chosen so far leave of a product target.
trait Rest: Copy {
    /// What is left once a cell takes `v`, if `v` divides it.
    fn divide(&self, v: u64) -> Option<Self>;
    /// The value that completes the product, if a value can.
    fn last(&self) -> Option<u64>;
}

/// A product target as its exponents over the primes: for targets too
/// large for a `u64`.
impl Rest for Factors {
    fn divide(&self, v: u64) -> Option<Self> {
        let factors = &OF_VALUE[v as usize];
        divides(factors, self).then(|| quotient(self, factors))
    }

    fn last(&self) -> Option<u64> {
        value_of(self)
    }
}

/// A product target as a number: divided by a multiplication (see
/// [`exact_division`]), where the exponents take a dozen operations.
impl Rest for u64 {
    fn divide(&self, v: u64) -> Option<Self> {
        exact_division(*self, v)
    }

    fn last(&self) -> Option<u64> {
        Some(*self)
    }
}

/// For each value v (index v) of a grid up to 25×25: the inverse of its
/// odd part modulo 2⁶⁴, its power of two, and the largest quotient by v.
const DIVISION: [(u64, u32, u64); 26] = {
    let mut table = [(0, 0, 0); 26];
    let mut v = 1;
    while v < 26 {
        let shift = (v as u64).trailing_zeros();
        let odd = (v as u64) >> shift;
        // Newton's iteration doubles the correct low bits each step:
        // odd · odd ≡ 1 modulo 8 to begin with.
        let mut inverse = odd;
        let mut step = 0;
        while step < 5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
            step += 1;
        }
        table[v] = (inverse, shift, u64::MAX / v as u64);
        v += 1;
    }
    table
};

/// `n / v` if `v` (1 to 25) divides `n`, without a division: multiplied by
/// the inverse of v's odd part and rotated by its power of two, `n` gives
/// the quotient when v divides it, and a number above `u64::MAX / v` when
/// it does not (Granlund and Montgomery; Hacker's Delight, 10–17).
fn exact_division(n: u64, v: u64) -> Option<u64> {
    let (inverse, shift, most) = DIVISION[v as usize];
    let quotient = n.wrapping_mul(inverse).rotate_right(shift);
    (quotient <= most).then_some(quotient)
}

/// The least value of a non-empty candidate set.
fn low(set: u32) -> u64 {
    u64::from(set.trailing_zeros()) + 1
}

/// The largest value of a non-empty candidate set.
fn high(set: u32) -> u64 {
    32 - u64::from(set.leading_zeros())
}

/// The bit of value `target`, or no bit if no cell of an N×N grid can hold it.
fn value_bit(target: Option<u64>, size: usize) -> u32 {
    match target {
        Some(t) if (1..=size as u64).contains(&t) => 1 << (t - 1),
        _ => 0,
    }
}

/// Adds to `keep[i]` the values of cell i that some choice of values of
/// the other cells (each from its own set, equal or not) completes to the
/// sum: exact but for the cells that must differ. Sums are sets of bits,
/// so this works for targets below 128 (and cages of at most 64 cells);
/// beyond, it falls back to bounds.
fn sum_support(sets: &[u32], target: u64, keep: &mut [u32]) {
    // A word's sets where they do: shifting a u128 costs several
    // instructions, and a sum cage of a 25×25 is revised at every node.
    match (target, sets.len()) {
        (0..64, 0..=16) => reachable_sums::<u64, 17>(sets, target, keep),
        (0..128, 0..=64) => reachable_sums::<u128, 65>(sets, target, keep),
        _ => sum_bounds(sets, target, keep),
    }
}

/// A set of sums from 0 up, one bit a sum, of [`sum_support`].
trait Sums:
    Copy + BitOr<Output = Self> + BitAnd<Output = Self> + Shl<u64, Output = Self> + Shr<u64, Output = Self> + PartialEq
{
    const ZERO: Self;
    const ONE: Self;
}

impl Sums for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
}

impl Sums for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
}

/// [`sum_support`] in sets of sums of type `S`, which must hold `target`,
/// for at most `M - 1` cells. Sums above the target fall off the top.
fn reachable_sums<S: Sums, const M: usize>(sets: &[u32], target: u64, keep: &mut [u32]) {
    // `before[i]`: the sums of cells before i; `after`: the sums of cells
    // before i that the cells from i on can complete to the target.
    let mut before = [S::ZERO; M];
    before[0] = S::ONE;
    for (i, &set) in sets.iter().enumerate() {
        before[i + 1] = values(set).fold(S::ZERO, |sums, v| sums | before[i] << v);
    }
    let mut after = S::ONE << target;
    for (i, &set) in sets.iter().enumerate().rev() {
        let mut next = S::ZERO;
        for v in values(set) {
            let completed = after >> v;
            if before[i] & completed != S::ZERO {
                keep[i] |= 1 << (v - 1);
            }
            next = next | completed;
        }
        after = next;
    }
}

/// Adds to `keep[i]` the values of cell i that leave the rest of the sum
/// within the bounds of the other cells.
fn sum_bounds(sets: &[u32], target: u64, keep: &mut [u32]) {
    let min_sum: u64 = sets.iter().map(|&c| low(c)).sum();
    let max_sum: u64 = sets.iter().map(|&c| high(c)).sum();
    for (i, &c) in sets.iter().enumerate() {
        let others_min = min_sum - low(c);
        let others_max = max_sum - high(c);
        for v in values(c) {
            let rest = target.checked_sub(v);
            if rest.is_some_and(|r| (others_min..=others_max).contains(&r)) {
                keep[i] |= 1 << (v - 1);
            }
        }
    }
}

/// What a candidate set can contribute to a product, prime by prime: the
/// least and the most of each exponent, and whether it must contribute
/// some prime at all (1 is not a candidate).
#[derive(Clone, Copy)]
struct Contribution {
    least: [u32; 9],
    most: [u32; 9],
    above_one: u32,
}

impl Contribution {
    const NONE: Contribution = Contribution { least: [0; 9], most: [0; 9], above_one: 0 };

    /// The contribution of a non-empty candidate set.
    fn of(set: u32) -> Contribution {
        let mut least = [0; 9];
        let mut most = [0; 9];
        for &(p, mask) in &LEVELS {
            least[p] += u32::from(set & !mask == 0);
            most[p] += u32::from(set & mask != 0);
        }
        Contribution { least, most, above_one: u32::from(set & 1 == 0) }
    }

    fn add(&self, other: &Contribution, sign: i64) -> Contribution {
        let f = |a: u32, b: u32| (i64::from(a) + sign * i64::from(b)) as u32;
        Contribution {
            least: std::array::from_fn(|p| f(self.least[p], other.least[p])),
            most: std::array::from_fn(|p| f(self.most[p], other.most[p])),
            above_one: f(self.above_one, other.above_one),
        }
    }
}

/// Adds to `keep[i]` the values v of cell i that divide the target and
/// leave, for every prime, an exponent the other cells can supply: at
/// least the sum of their least exponents, at most the sum of their most;
/// and enough prime factors in all for the other cells that cannot be 1.
///
/// When the target fits in a `u64`, target / v must also lie between the
/// products of the other cells' least and largest candidates (computed with
/// checked multiplication: a product that overflows is above any such
/// target).
fn product_support(sets: &[u32], goal: &Factors, small: Option<u64>, keep: &mut [u32]) {
    let total = sets.iter().fold(Contribution::NONE, |acc, &c| acc.add(&Contribution::of(c), 1));
    // Products of the bounds of the cells after i, `None` once above u64::MAX.
    let mut suffix = vec![(Some(1u64), Some(1u64)); sets.len() + 1];
    if small.is_some() {
        for i in (0..sets.len()).rev() {
            let (lo, hi) = suffix[i + 1];
            let c = sets[i];
            suffix[i] = (lo.and_then(|x| x.checked_mul(low(c))), hi.and_then(|x| x.checked_mul(high(c))));
        }
    }
    let mut prefix = (Some(1u64), Some(1u64));
    for (i, &c) in sets.iter().enumerate() {
        let others = total.add(&Contribution::of(c), -1);
        let times = |a: Option<u64>, b: Option<u64>| a.zip(b).and_then(|(a, b)| a.checked_mul(b));
        let (others_min, others_max) = (times(prefix.0, suffix[i + 1].0), times(prefix.1, suffix[i + 1].1));
        for v in values(c) {
            let factors = &OF_VALUE[v as usize];
            if !divides(factors, goal) {
                continue;
            }
            let rest = quotient(goal, factors);
            let within = (0..9).all(|p| (others.least[p]..=others.most[p]).contains(&u32::from(rest[p])));
            let primes_left: u32 = rest.iter().map(|&e| u32::from(e)).sum();
            let in_bounds = small.is_none_or(|t| {
                let r = t / v;
                others_min.is_some_and(|m| m <= r) && others_max.is_none_or(|m| r <= m)
            });
            if within && others.above_one <= primes_left && in_bounds {
                keep[i] |= 1 << (v - 1);
            }
        }
        prefix = (prefix.0.and_then(|x| x.checked_mul(low(c))), prefix.1.and_then(|x| x.checked_mul(high(c))));
    }
}

/// The values in a candidate set, smallest first.
fn values(mut set: u32) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let v = set.trailing_zeros();
            set &= set - 1;
            u64::from(v) + 1
        })
    })
}

#[cfg(test)]
mod tests {
    use itertools::Itertools;

    use super::*;
    use crate::puzzle::{Cage, Cell, Puzzle};

    fn set(vals: &[u64]) -> u32 {
        vals.iter().map(|v| 1u32 << (v - 1)).sum()
    }

    #[test]
    fn exact_support_of_larger_cages() {
        let all = set(&[1, 2, 3, 4]);
        let cands = vec![all, all, all];
        let run = |op, target: u64, apart: &[u64]| {
            let mut keep = vec![0; 3];
            let sum_goal = matches!(op, Op::Add | Op::Any).then_some(target);
            let product_goal = if matches!(op, Op::Mul | Op::Any) { of_target(&target.to_string(), 4) } else { None };
            Exact::new(sum_goal, apart, &cands, &mut keep, &[], &mut []).run(product_goal, Some(target));
            keep
        };
        // Three cells of one row: 6 = 1 + 2 + 3 only.
        let row = [0b110, 0b101, 0b011];
        assert_eq!(run(Op::Add, 6, &row), [set(&[1, 2, 3]); 3]);
        // An L: the two ends may repeat, so 4 + 3 + 4 = 11 works; in a row it cannot.
        let l_shape = [0b010, 0b101, 0b010];
        assert_eq!(run(Op::Add, 11, &l_shape), [set(&[4]), set(&[3]), set(&[4])]);
        assert_eq!(run(Op::Add, 11, &row), [0, 0, 0]);
        // No-op: 24 = 2 * 3 * 4 or a sum of 24 (impossible), so only 2, 3, 4.
        assert_eq!(run(Op::Any, 24, &row), [set(&[2, 3, 4]); 3]);
        // A product beyond every product of the values is never reached.
        assert_eq!(run(Op::Mul, u64::MAX, &l_shape), [0, 0, 0]);
        assert_eq!(run(Op::Mul, 1 << 62, &l_shape), [0, 0, 0]);
    }

    proptest::proptest! {
        #[test]
        fn sums_as_reachable_totals_agree_with_trying_every_combination(
            size in 1usize..=25,
            raw in proptest::collection::vec(1u32.., 1..=4),
            shift in 0u64..8,
        ) {
            let sets: Vec<u32> = raw.iter().map(|r| (r & ((1 << size) - 1)).max(1)).collect();
            let least: u64 = sets.iter().map(|&c| u64::from(c.trailing_zeros()) + 1).sum();
            let target = least + shift * 3;
            let mut keep = vec![0; sets.len()];
            sum_support(&sets, target, &mut keep);
            let mut expected = vec![0; sets.len()];
            let mut chosen = vec![0; sets.len()];
            fn every(i: usize, sets: &[u32], chosen: &mut [u64], target: u64, expected: &mut [u32]) {
                if i == sets.len() {
                    if chosen.iter().sum::<u64>() == target {
                        chosen.iter().zip(expected.iter_mut()).for_each(|(&v, e)| *e |= 1 << (v - 1));
                    }
                    return;
                }
                for v in values(sets[i]) {
                    chosen[i] = v;
                    every(i + 1, sets, chosen, target, expected);
                }
            }
            every(0, &sets, &mut chosen, target, &mut expected);
            proptest::prop_assert_eq!(keep, expected);
        }
    }

    /// Whether `values` meet `op` and `target`, worked out plainly.
    fn holds(op: Op, target: u64, values: &[u64]) -> bool {
        let (high, low) = (values.iter().max().unwrap(), values.iter().min().unwrap());
        let pair = values.len() == 2;
        let add = values.iter().sum::<u64>() == target;
        let mul = values.iter().product::<u64>() == target;
        let sub = pair && high - low == target;
        let div = pair && high % low == 0 && high / low == target;
        match op {
            Op::Add => add,
            Op::Mul => mul,
            Op::Sub => sub,
            Op::Div => div,
            Op::Any => add || mul || sub || div,
            Op::Given => unreachable!("no one-cell cages here"),
        }
    }

    /// Every completion of a cage in a 7×7 grid, tried one by one: the
    /// values each cell keeps, and for each part (the cells in one row
    /// or column) the values in it in every completion.
    fn by_brute_force(puzzle: &Puzzle, cells: &[(usize, usize)], sets: &[u32]) -> (Vec<u32>, Vec<(u64, u32)>) {
        let cage = &puzzle.cages()[0];
        let in_line = |on: &dyn Fn(&(usize, usize)) -> bool| {
            cells.iter().enumerate().filter(|(_, c)| on(c)).map(|(j, _)| 1u64 << j).sum::<u64>()
        };
        let parts: Vec<u64> = (0..puzzle.size())
            .flat_map(|i| [in_line(&|c| c.0 == i), in_line(&|c| c.1 == i)])
            .filter(|p| p.count_ones() >= 2)
            .collect();
        let (mut keep, mut required) = (vec![0u32; cells.len()], vec![u32::MAX; parts.len()]);
        let combinations = sets.iter().map(|s| values(*s).collect::<Vec<_>>()).multi_cartesian_product();
        for tuple in combinations {
            let apart = |i: usize, j: usize| cells[i].0 == cells[j].0 || cells[i].1 == cells[j].1;
            let distinct = (0..tuple.len()).all(|i| (0..i).all(|j| !apart(i, j) || tuple[i] != tuple[j]));
            if distinct && holds(cage.op(), cage.target().digits().parse().unwrap(), &tuple) {
                tuple.iter().zip(keep.iter_mut()).for_each(|(&v, k)| *k |= 1 << (v - 1));
                for (&part, required) in parts.iter().zip(required.iter_mut()) {
                    *required &=
                        (0..tuple.len()).filter(|j| part & (1 << j) != 0).map(|j| 1u32 << (tuple[j] - 1)).sum::<u32>();
                }
            }
        }
        if keep.contains(&0) {
            required.fill(0);
        }
        (keep, parts.into_iter().zip(required).collect())
    }

    #[test]
    fn small_question_mark_cages_are_listed_once_each_completion() {
        let listed = |op, target: u64, size, cells: &[(usize, usize)]| {
            let cells = cells.iter().map(|&(row, col)| Cell { row, col }).collect();
            let puzzle = Puzzle::new(size, Vec::new(), vec![Cage::new(op, target, cells).unwrap()]).unwrap();
            completions(&Layout::new(&puzzle).cage(0), size).map(|list| list.rows.len())
        };
        let row = [(0, 0), (0, 1), (0, 2)];
        // 1 + 2 + 3 = 1 · 2 · 3 = 6: each order of 1, 2, 3 once.
        assert_eq!(listed(Op::Any, 6, 9, &row), Some(6));
        // An L, whose ends may repeat: 2 + 1 + 2, 1 + 3 + 1 and 1 · 5 · 1
        // (not in a row, where none of them holds).
        assert_eq!(listed(Op::Any, 5, 9, &[(0, 0), (0, 1), (1, 1)]), Some(3));
        assert_eq!(listed(Op::Any, 5, 9, &row), Some(0));
        assert_eq!(listed(Op::Any, 1000, 9, &row), Some(0), "no completion");
        assert_eq!(listed(Op::Add, 6, 9, &row), None, "only `?` cages");
        assert_eq!(listed(Op::Any, 15, 9, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]), None, "five cells");
        assert_eq!(listed(Op::Any, 50, 25, &[(0, 0), (0, 1), (0, 2), (0, 3)]), None, "too many completions");
        // Three and four cells that share no group are two kinds, though
        // no cell of either is apart from another (`fuzz --mix` found them
        // taken for one): 21 orders of three values sum to 8 and 10 have
        // a product of 8; of four values, 35 and 20, of which 12 do both
        // (1, 1, 2, 4).
        assert_eq!(listed(Op::Any, 8, 9, &[(0, 0), (1, 1), (2, 2)]), Some(21 + 10));
        assert_eq!(listed(Op::Any, 8, 9, &[(0, 0), (1, 1), (2, 2), (3, 3)]), Some(35 + 20 - 12));
    }

    #[test]
    fn required_values_are_in_every_completion() {
        let (compared, large, _, by_list) = compare_with_brute_force(7, 4000, false);
        assert!(compared > 1000, "compared {compared}");
        assert!(large > 0, "none checked exactly beyond 128 combinations");
        assert!(by_list > 300, "{by_list} `?` cages checked by their completions, listed");
    }

    #[test]
    fn required_values_are_in_every_completion_above_nine_by_nine() {
        // Where sums and products are checked exactly up to more
        // combinations than up to 9×9.
        let (compared, large, _, by_list) = compare_with_brute_force(12, 600, false);
        assert!(compared > 200, "compared {compared}");
        assert!(large > 50, "{large} checked exactly beyond 128 combinations");
        assert!(by_list > 30, "{by_list} `?` cages checked by their completions, listed");
    }

    #[test]
    fn required_values_are_in_every_completion_at_a_large_root() {
        // Where cages are checked exactly up to `ROOT_EXACT_LIMIT`
        // combinations, beyond the search's limits.
        let (compared, _, beyond, _) = compare_with_brute_force(20, 400, true);
        assert!(compared > 200, "compared {compared}");
        assert!(beyond > 50, "{beyond} checked exactly beyond the search's limit");
    }

    /// `supports` against [`by_brute_force`] on `cases` random cages of up
    /// to four cells in an N×N grid of `size`, at the root or not (at the
    /// root with denser sets, so as to have more combinations): how many
    /// were compared (those checked exactly), how many of them had over
    /// 128 combinations, and how many more than the search below the root
    /// checks exactly.
    fn compare_with_brute_force(size: usize, cases: usize, at_root: bool) -> (usize, usize, usize, usize) {
        use rand::{RngExt, SeedableRng};
        let shapes: [&[(usize, usize)]; 6] = [
            &[(0, 0), (0, 1)],
            &[(0, 0), (1, 0)],
            &[(0, 0), (0, 1), (0, 2)],
            &[(0, 0), (0, 1), (1, 1)],
            &[(0, 0), (0, 1), (1, 0), (1, 1)],
            &[(0, 0), (0, 1), (0, 2), (1, 2)],
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut compared, mut large, mut beyond, mut by_list) = (0, 0, 0, 0);
        for _ in 0..cases {
            let cells = shapes[rng.random_range(0..shapes.len())];
            let ops: &[Op] = if cells.len() == 2 {
                &[Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Any]
            } else {
                &[Op::Add, Op::Mul, Op::Any]
            };
            let op = ops[rng.random_range(0..ops.len())];
            let planted: Vec<u64> = cells.iter().map(|_| rng.random_range(1..=size as u64)).collect();
            let (high, low) = (planted.iter().max().unwrap(), planted.iter().min().unwrap());
            let target = match op {
                Op::Sub => high - low,
                Op::Div if high % low == 0 => high / low,
                Op::Div => continue,
                Op::Mul => planted.iter().product(),
                _ if rng.random_bool(0.5) => planted.iter().sum(),
                _ => planted.iter().product(),
            };
            let Ok(cage) = Cage::new(op, target, cells.iter().map(|&(row, col)| Cell { row, col }).collect()) else {
                continue;
            };
            let puzzle = Puzzle::new(size, Vec::new(), vec![cage]).unwrap();
            let layout = Layout::new(&puzzle);
            let mut random_set = || rng.random_range(1..1 << size);
            let sets: Vec<u32> =
                cells.iter().map(|_| if at_root { random_set() | random_set() } else { random_set() }).collect();
            let (mut keep, mut required) = (Vec::new(), Vec::new());
            supports(&layout.cage(0), size, &sets, &mut keep, &mut required, at_root, None);
            // A `?` cage's completions, listed, give what its search gives.
            if let Some(listed) = completions(&layout.cage(0), size) {
                let (mut listed_keep, mut listed_required) = (Vec::new(), Vec::new());
                supports(&layout.cage(0), size, &sets, &mut listed_keep, &mut listed_required, at_root, Some(&listed));
                assert_eq!((&listed_keep, &listed_required), (&keep, &required), "{op} {target} {cells:?} {sets:?}");
                by_list += usize::from(!required.is_empty());
            }
            let combinations = sets.iter().map(|s| s.count_ones()).product::<u32>();
            if required.is_empty() {
                // Too many combinations to try them all: nothing required.
                assert!(combinations > exact_limit(op, size, at_root), "{sets:?}");
                continue;
            }
            let (expected_keep, expected_parts) = by_brute_force(&puzzle, cells, &sets);
            let mut parts: Vec<(u64, u32)> = layout
                .cage(0)
                .parts
                .iter()
                .map(|part| part.cells)
                .zip(required.iter().copied().chain(std::iter::repeat(0)))
                .collect();
            parts.sort();
            let mut expected_parts = expected_parts;
            expected_parts.sort();
            compared += 1;
            large += usize::from(combinations > 128);
            beyond += usize::from(combinations > exact_limit(op, size, false));
            assert_eq!(keep, expected_keep, "{op} {target} {cells:?} {sets:?}");
            assert_eq!(parts, expected_parts, "{op} {target} {cells:?} {sets:?}");
        }
        (compared, large, beyond, by_list)
    }

    #[test]
    fn exact_check_of_a_product_beyond_u64() {
        // Thirteen cells hold 25; the fourteenth, 24 or 25, must make the
        // product: 25^13 · 24 and 25^14, both above u64::MAX.
        let mut sets = vec![1u32 << 24; 13];
        sets.push(1 << 23 | 1 << 24);
        let apart = [0u64; 14];
        for last in [24u32, 25] {
            let target = (25u128.pow(13) * u128::from(last)).to_string();
            assert!(target.parse::<u64>().is_err(), "the test needs a target beyond u64");
            let mut keep = vec![0; 14];
            Exact::new(None, &apart, &sets, &mut keep, &[], &mut []).run(of_target(&target, 25), None);
            assert_eq!(keep[..13], [1 << 24; 13]);
            assert_eq!(keep[13], 1 << (last - 1));
        }
    }

    #[test]
    fn exact_division_finds_the_quotient_or_none() {
        let near_the_top = (u64::MAX - 5000..=u64::MAX).chain((1..=5000).map(|k| u64::MAX / 25 * 25 / k));
        for n in (0..20_000).chain(near_the_top) {
            for v in 1..=25 {
                let expected = (n % v == 0).then(|| n / v);
                assert_eq!(exact_division(n, v), expected, "{n} / {v}");
            }
        }
    }

    #[test]
    fn bounds() {
        let all = set(&[1, 2, 3, 4]);
        let cands = vec![all, all, set(&[4])];
        let mut keep = vec![0; 3];
        sum_bounds(&cands, 12, &mut keep);
        assert_eq!(keep, [set(&[4]), set(&[4]), set(&[4])]);
        let mut keep = vec![0; 3];
        product_support(&cands, &of_target("8", 4).unwrap(), Some(8), &mut keep);
        assert_eq!(keep, [set(&[1, 2]), set(&[1, 2]), set(&[4])]);
        // 2^40 needs more twos than three cells of 1..=4 hold (at most 6).
        let mut keep = vec![0; 3];
        let goal = of_target(&(1u64 << 40).to_string(), 4).unwrap();
        product_support(&cands, &goal, Some(1 << 40), &mut keep);
        assert_eq!(keep, [0, 0, 0]);
        // 3 * 3: the third cell, fixed at 4, does not divide it.
        let mut keep = vec![0; 3];
        product_support(&cands, &of_target("9", 4).unwrap(), Some(9), &mut keep);
        assert_eq!(keep, [0, 0, 0]);
    }
}
