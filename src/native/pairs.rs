//! Two-cell cages: which values can stand beside which, worked out once
//! per cage so that the search looks pairs up instead of dividing, and
//! what a pair's cells keep of their candidates.

use crate::puzzle::Op;

/// For a two-cell cage of `op` and `target` in an N×N grid: entry `v - 1`
/// holds the values that can share the cage with value v (any op for
/// `?`). Every op on a pair is symmetric, so one table serves both cells.
/// All zero when the target does not fit in a `u64` (no pair reaches it).
pub(super) fn partners(op: Op, target: Option<u64>, size: usize) -> Vec<u32> {
    let ops: &[Op] = match op {
        Op::Any => &[Op::Add, Op::Sub, Op::Mul, Op::Div],
        _ => std::slice::from_ref(&op),
    };
    let full = (1u32 << size) - 1;
    (1..=size as u64)
        .map(|v| match target {
            Some(target) => ops.iter().fold(0, |k, &op| k | partners_of(op, target, v)) & full,
            None => 0,
        })
        .collect()
}

/// The supports (see [`cage::supports`](super::cage::supports)) of a
/// two-cell cage whose cells have the candidate sets `a` and `b`: what
/// each keeps, and the values that every completion puts in the pair (for
/// when its cells share a group; none if there is no completion).
/// `partners` is the cage's table of [`partners`]; `apart` says whether
/// its cells share a group.
pub(super) fn supports(partners: &[u32], apart: bool, a: u32, b: u32) -> (u32, u32, u32) {
    // Cells that share a group cannot take the same value.
    let own = if apart { u32::MAX } else { 0 };
    // The pairs of a value x are x with each of its partners; those of
    // every x have in common x's partner if x has only one. The partner
    // tables are symmetric, so the second cell keeps the partners of the
    // first cell's values.
    //
    // Every value is looked at, whether `a` holds it or not, without a
    // branch on what is found: a loop over `a`'s values, branching on
    // each, cost more in mispredicted branches than the values it skipped.
    let (mut keep_a, mut keep_b, mut both) = (0, 0, u32::MAX);
    for (x, &partners) in partners.iter().enumerate() {
        let held = 0u32.wrapping_sub(a >> x & 1);
        let partners = partners & b & !(own & 1 << x) & held;
        let found = u32::from(partners != 0);
        keep_a |= found << x;
        keep_b |= partners;
        let only = if partners & partners.wrapping_sub(1) == 0 { partners } else { 0 };
        // No change to `both` where nothing was found.
        both &= (1 << x | only) | found.wrapping_sub(1);
    }
    (keep_a, keep_b, if keep_a == 0 { 0 } else { both })
}

/// The values w from 1 to 32 with `v op w = target` or `w op v = target`.
fn partners_of(op: Op, target: u64, v: u64) -> u32 {
    let bit = |w: Option<u64>| match w {
        Some(w @ 1..=32) => 1u32 << (w - 1),
        _ => 0,
    };
    match op {
        Op::Add => bit(target.checked_sub(v)),
        Op::Sub => bit(v.checked_add(target)) | bit(v.checked_sub(target)),
        Op::Mul => bit((target % v == 0).then(|| target / v)),
        Op::Div => bit(v.checked_mul(target)) | bit((v.checked_rem(target) == Some(0)).then(|| v / target)),
        Op::Given | Op::Any => unreachable!("pairs are checked op by op"),
    }
}

/// The values of `mine` that some value of `other` completes under `op`.
#[cfg(test)]
fn pair_support(op: Op, target: u64, mine: u32, other: u32) -> u32 {
    (1..=32)
        .filter(|&v| mine & (1 << (v - 1)) != 0 && partners_of(op, target, v) & other != 0)
        .fold(0, |k, v| k | 1 << (v - 1))
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
    fn partners_of_each_value() {
        assert_eq!(partners(Op::Sub, Some(2), 4), [set(&[3]), set(&[4]), set(&[1]), set(&[2])]);
        assert_eq!(partners(Op::Div, Some(2), 4), [set(&[2]), set(&[1, 4]), 0, set(&[2])]);
        assert_eq!(partners(Op::Any, Some(4), 4)[1], set(&[2]), "2 + 2, 2 * 2");
        assert_eq!(partners(Op::Any, Some(3), 4)[0], set(&[2, 3, 4]), "1 + 2, 1 * 3, |1 - 4|, 3 / 1");
        assert_eq!(partners(Op::Mul, None, 4), [0; 4]);
    }
}
