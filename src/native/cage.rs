//! Cage reasoning on candidate sets, one rule per op. Each rule removes
//! only candidates that no assignment of the other cells could complete,
//! and is exact once every cell of the cage is fixed.
//!
//! Pairs are checked value against value. Larger sums and products are
//! checked exactly, by a search over the cells' candidates, while few
//! combinations are left; before that, by the bounds of the other cells,
//! products also by divisibility.

use super::propagate::{Candidates, Contradiction, Propagator};
use crate::puzzle::Op;

/// Prunes the candidates of cage `index` against its op and target.
pub(super) fn revise(prop: &mut Propagator, cands: &mut Candidates, index: usize) -> Result<(), Contradiction> {
    let layout = prop.layout;
    let cage = &layout.cages[index];
    let (op, target) = (cage.op, cage.target);
    match (op, cage.cells.as_slice()) {
        (Op::Given, &[cell]) | (Op::Any, &[cell]) => prop.restrict(cands, cell, value_bit(target, layout.size)),
        (_, &[a, b]) => {
            let ops: &[Op] = match op {
                Op::Any => &[Op::Add, Op::Sub, Op::Mul, Op::Div],
                _ => std::slice::from_ref(&cage.op),
            };
            let (ca, cb) = (cands[a], cands[b]);
            let mut keep_a = 0;
            let mut keep_b = 0;
            for &op in ops {
                keep_a |= pair_support(op, target, ca, cb);
                keep_b |= pair_support(op, target, cb, ca);
            }
            prop.restrict(cands, a, keep_a)?;
            prop.restrict(cands, b, keep_b)
        }
        (Op::Add | Op::Mul | Op::Any, cells) => {
            let mut keep = std::mem::take(&mut prop.scratch);
            keep.clear();
            keep.resize(cells.len(), 0);
            let combinations = cells
                .iter()
                .try_fold(1u32, |acc, &c| acc.checked_mul(cands[c].count_ones()).filter(|&p| p <= EXACT_LIMIT));
            let exact = combinations.is_some() && !cage.apart.is_empty();
            if exact {
                let mut search =
                    Exact { op, target, cells, apart: &cage.apart, cands, values: [0; 64], keep: &mut keep };
                search.search(0, 0, 1);
            }
            if !exact && matches!(op, Op::Add | Op::Any) {
                sum_support(cells, cands, target, &mut keep);
            }
            if !exact && matches!(op, Op::Mul | Op::Any) {
                product_support(cells, cands, target, &mut keep);
            }
            let result = cells.iter().zip(&keep).try_for_each(|(&cell, &k)| prop.restrict(cands, cell, k));
            prop.scratch = keep;
            result
        }
        // Cell counts are checked when a cage is made.
        _ => unreachable!("a {op} cage with {} cells", cage.cells.len()),
    }
}

/// Cages whose candidates combine in at most this many ways are checked
/// exactly.
const EXACT_LIMIT: u32 = 128;

/// An exact check of a `+`, `*` or `?` cage of three or more cells: every
/// combination of candidates that keeps apart the cells sharing a group is
/// tried, and each value that takes part in a complete one is kept.
struct Exact<'a> {
    op: Op,
    target: u64,
    cells: &'a [usize],
    apart: &'a [u64],
    cands: &'a Candidates,
    values: [u64; 64],
    keep: &'a mut [u32],
}

impl Exact<'_> {
    fn search(&mut self, i: usize, sum: u64, product: u64) {
        let (op, target) = (self.op, self.target);
        if i == self.cells.len() {
            let holds = match op {
                Op::Add => sum == target,
                Op::Mul => product == target,
                _ => sum == target || product == target,
            };
            if holds {
                for (keep, &v) in self.keep.iter_mut().zip(&self.values) {
                    *keep |= 1 << (v - 1);
                }
            }
            return;
        }
        for v in values(self.cands[self.cells[i]]) {
            let clash = (0..i).any(|j| self.apart[i] & (1 << j) != 0 && self.values[j] == v);
            let (sum, product) = (sum + v, product.saturating_mul(v));
            let sum_open = sum <= target;
            let product_open = target % product == 0;
            let open = match op {
                Op::Add => sum_open,
                Op::Mul => product_open,
                _ => sum_open || product_open,
            };
            if !clash && open {
                self.values[i] = v;
                self.search(i + 1, sum, product);
            }
        }
    }
}

/// The bit of value `target`, or no bit if no cell of an N×N grid can hold it.
fn value_bit(target: u64, size: usize) -> u32 {
    if (1..=size as u64).contains(&target) { 1 << (target - 1) } else { 0 }
}

/// The values of `mine` that some value of `other` completes under `op`.
fn pair_support(op: Op, target: u64, mine: u32, other: u32) -> u32 {
    let mut keep = 0;
    let has = |w: u64| (1..=32).contains(&w) && other & (1 << (w - 1)) != 0;
    for v in values(mine) {
        let ok = match op {
            Op::Add => target > v && has(target - v),
            Op::Sub => has(v.saturating_add(target)) || (v > target && has(v - target)),
            Op::Mul => target % v == 0 && has(target / v),
            Op::Div => has(v.saturating_mul(target)) || (v % target == 0 && has(v / target)),
            Op::Given | Op::Any => unreachable!("pairs are checked op by op"),
        };
        if ok {
            keep |= 1 << (v - 1);
        }
    }
    keep
}

/// Adds to `keep[i]` the values of cell i that leave the rest of the sum
/// within the bounds of the other cells.
fn sum_support(cells: &[usize], cands: &Candidates, target: u64, keep: &mut [u32]) {
    let low = |c: u32| u64::from(c.trailing_zeros()) + 1;
    let high = |c: u32| 32 - u64::from(c.leading_zeros());
    let min_sum: u64 = cells.iter().map(|&c| low(cands[c])).sum();
    let max_sum: u64 = cells.iter().map(|&c| high(cands[c])).sum();
    for (i, &cell) in cells.iter().enumerate() {
        let c = cands[cell];
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

/// Adds to `keep[i]` the divisors v of the target among the values of
/// cell i for which target / v lies within the product bounds of the other
/// cells.
fn product_support(cells: &[usize], cands: &Candidates, target: u64, keep: &mut [u32]) {
    let low = |c: u32| u64::from(c.trailing_zeros()) + 1;
    let high = |c: u32| 32 - u64::from(c.leading_zeros());
    // Products of the bounds of the cells before i (prefix) and after i
    // (suffix), saturating: a saturated bound is above any u64 target.
    let k = cells.len();
    let mut suffix = vec![(1u64, 1u64); k + 1];
    for i in (0..k).rev() {
        let c = cands[cells[i]];
        let (lo, hi) = suffix[i + 1];
        suffix[i] = (lo.saturating_mul(low(c)), hi.saturating_mul(high(c)));
    }
    let mut prefix = (1u64, 1u64);
    for (i, &cell) in cells.iter().enumerate() {
        let c = cands[cell];
        let others_min = prefix.0.saturating_mul(suffix[i + 1].0);
        let others_max = prefix.1.saturating_mul(suffix[i + 1].1);
        for v in values(c) {
            if target % v == 0 && (others_min..=others_max).contains(&(target / v)) {
                keep[i] |= 1 << (v - 1);
            }
        }
        prefix = (prefix.0.saturating_mul(low(c)), prefix.1.saturating_mul(high(c)));
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
    use super::*;

    fn set(vals: &[u64]) -> u32 {
        vals.iter().map(|v| 1u32 << (v - 1)).sum()
    }

    #[test]
    fn pairs() {
        let all = set(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(pair_support(Op::Sub, 3, all, all), set(&[1, 2, 3, 4, 5, 6]));
        assert_eq!(pair_support(Op::Sub, 5, all, all), set(&[1, 6]));
        assert_eq!(pair_support(Op::Div, 2, all, all), set(&[1, 2, 3, 4, 6]));
        assert_eq!(pair_support(Op::Div, 2, all, set(&[6])), set(&[3]));
        assert_eq!(pair_support(Op::Add, 11, all, all), set(&[5, 6]));
        assert_eq!(pair_support(Op::Mul, 12, all, all), set(&[2, 3, 4, 6]));
        assert_eq!(pair_support(Op::Mul, 12, all, set(&[2])), set(&[6]));
        assert_eq!(pair_support(Op::Sub, u64::MAX, all, all), 0);
        assert_eq!(pair_support(Op::Div, u64::MAX, all, all), 0);
    }

    #[test]
    fn exact_support_of_larger_cages() {
        let all = set(&[1, 2, 3, 4]);
        let cands = vec![all, all, all];
        let run = |op, target, apart: &[u64]| {
            let mut keep = vec![0; 3];
            let mut exact =
                Exact { op, target, cells: &[0, 1, 2], apart, cands: &cands, values: [0; 64], keep: &mut keep };
            exact.search(0, 0, 1);
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
    }

    #[test]
    fn bounds() {
        let all = set(&[1, 2, 3, 4]);
        let cands = vec![all, all, set(&[4])];
        let mut keep = vec![0; 3];
        sum_support(&[0, 1, 2], &cands, 12, &mut keep);
        assert_eq!(keep, [set(&[4]), set(&[4]), set(&[4])]);
        let mut keep = vec![0; 3];
        product_support(&[0, 1, 2], &cands, 8, &mut keep);
        assert_eq!(keep, [set(&[1, 2]), set(&[1, 2]), set(&[4])]);
    }
}
