//! Sums of values that all differ: a Killer cage, or a derived sum whose
//! cells share a group, revised over the *sets* of values that reach its
//! target rather than over tuples. A 5-cell cage of 9×9 candidates has
//! tens of thousands of tuples but at most 126 sets of 5 values, and a set
//! is tried at once: it stays when it holds only candidates of the cage
//! and each cell has a candidate in it.
//!
//! A value stays in a cell when some set that stays holds it, and the
//! values of every set that only cells of one part of the cage can take
//! leave the rest of the part's group. Cheap rather than exact: a set is
//! not matched to the cells, which the groups' own rules see to.

use std::sync::OnceLock;

use super::layout::Part;
use super::tuning::{LISTED_UP_TO, MOST_STEPS};

/// The values each cell of a cage of distinct cells that sums to `target`
/// can keep (`keep[i]` for `sets[i]`, both as long as the cage) and, as in
/// `cage::supports`, values every completion puts in each of `parts`
/// (`required`, as long as `parts`), in a grid of `size`. Returns `false`,
/// with `keep` and `required` untouched, when the sets are too many to try.
pub(super) fn supports(
    sets: &[u32],
    target: u64,
    size: usize,
    parts: &[Part],
    keep: &mut [u32],
    required: &mut [u32],
) -> bool {
    // Cells of one candidate hold it in every set: the other cells share
    // out the rest of the target.
    let (mut fixed, mut fixed_count, mut open) = (0u32, 0u32, 0u32);
    for &set in sets {
        if set.is_power_of_two() {
            fixed |= set;
            fixed_count += 1;
        } else {
            open |= set;
        }
    }
    let fixed_sum = sum_of(fixed);
    let need = sets.len() as u32 - fixed_count;
    let mut found = Found { sets, union: 0, common: 0 };
    if fixed.count_ones() == fixed_count && fixed_sum <= target {
        let (open, rest) = (open & !fixed, target - fixed_sum);
        if size <= LISTED_UP_TO {
            for &set in listed(size, need, rest) {
                if set & !open == 0 {
                    found.try_set(set | fixed);
                }
            }
        } else if !walk(&mut found, open, need, rest, fixed, &mut 0) {
            return false;
        }
    }
    for (keep, &set) in keep.iter_mut().zip(sets) {
        *keep = set & found.union;
    }
    for (part, required) in parts.iter().zip(required.iter_mut()) {
        let outside = sets.iter().enumerate().filter(|&(j, _)| part.cells >> j & 1 == 0);
        *required = found.common & !outside.fold(0, |acc, (_, &set)| acc | set);
    }
    true
}

/// The sets of values a cage's cells can hold: their union, and the
/// values they have in common.
struct Found<'a> {
    sets: &'a [u32],
    union: u32,
    common: u32,
}

impl Found<'_> {
    /// Takes in the set of values `set` if each cell has a candidate in it.
    fn try_set(&mut self, set: u32) {
        if self.sets.iter().all(|&s| s & set != 0) {
            self.common = if self.union == 0 { set } else { self.common & set };
            self.union |= set;
        }
    }
}

/// Tries the sets of `need` more values from `avail` that add `rest` to
/// `chosen`, the largest value first, counting the nodes in `steps`.
/// Returns `false` once the steps run out.
fn walk(found: &mut Found<'_>, avail: u32, need: u32, rest: u64, chosen: u32, steps: &mut u32) -> bool {
    *steps += 1;
    if *steps > MOST_STEPS {
        return false;
    }
    if need == 0 {
        if rest == 0 {
            found.try_set(chosen);
        }
        return true;
    }
    if avail.count_ones() < need || rest < lowest(avail, need) || rest > highest(avail, need) {
        return true;
    }
    let top = 31 - avail.leading_zeros();
    let v = u64::from(top) + 1;
    let avail = avail & !(1 << top);
    if v <= rest && !walk(found, avail, need - 1, rest - v, chosen | 1 << top, steps) {
        return false;
    }
    walk(found, avail, need, rest, chosen, steps)
}

/// The sets of `count` values of an N×N grid of `size` that sum to `sum`.
fn listed(size: usize, count: u32, sum: u64) -> &'static [u32] {
    static TABLES: [OnceLock<Listed>; LISTED_UP_TO + 1] = [const { OnceLock::new() }; LISTED_UP_TO + 1];
    let table = TABLES[size].get_or_init(|| Listed::new(size));
    let most = size * (size + 1) / 2;
    match usize::try_from(sum) {
        Ok(sum) if sum <= most => {
            let k = count as usize * (most + 1) + sum;
            &table.sets[table.start[k] as usize..table.start[k + 1] as usize]
        }
        _ => &[],
    }
}

/// Every set of values of a grid, ordered by count, then sum.
struct Listed {
    sets: Vec<u32>,
    /// Where the sets of count c and sum s begin: `start[c · (M + 1) + s]`,
    /// M the sum of every value.
    start: Vec<u32>,
}

impl Listed {
    fn new(size: usize) -> Self {
        let most = size * (size + 1) / 2;
        let key = |set: u32| set.count_ones() as usize * (most + 1) + sum_of(set) as usize;
        let mut sets: Vec<u32> = (0..1u32 << size).collect();
        sets.sort_by_key(|&set| key(set));
        let keys = (size + 1) * (most + 1);
        let start = (0..=keys).map(|k| sets.partition_point(|&set| key(set) < k) as u32).collect();
        Listed { sets, start }
    }
}

/// The sum of the values in `set`.
fn sum_of(mut set: u32) -> u64 {
    let mut sum = 0;
    while set != 0 {
        sum += u64::from(set.trailing_zeros()) + 1;
        set &= set - 1;
    }
    sum
}

/// The sum of the `n` smallest values of `set` (which has that many).
fn lowest(mut set: u32, n: u32) -> u64 {
    (0..n).fold(0, |sum, _| {
        let v = set.trailing_zeros();
        set &= set - 1;
        sum + u64::from(v) + 1
    })
}

/// The sum of the `n` largest values of `set` (which has that many).
fn highest(mut set: u32, n: u32) -> u64 {
    (0..n).fold(0, |sum, _| {
        let bit = 31 - set.leading_zeros();
        set &= !(1 << bit);
        sum + u64::from(bit) + 1
    })
}

#[cfg(test)]
mod tests {
    use itertools::Itertools;
    use proptest::prelude::*;

    use super::*;

    fn set(vals: &[u32]) -> u32 {
        vals.iter().map(|v| 1u32 << (v - 1)).sum()
    }

    /// Every tuple of distinct values from the sets that sums to the
    /// target: the values each cell keeps, and those every tuple puts in
    /// each part.
    fn by_tuples(sets: &[u32], target: u64, parts: &[Part]) -> (Vec<u32>, Vec<u32>) {
        let mut keep = vec![0; sets.len()];
        let mut required = vec![u32::MAX; parts.len()];
        let choices = sets.iter().map(|&s| (0..32u32).filter(move |v| s >> v & 1 == 1).collect_vec());
        let mut any = false;
        for tuple in choices.multi_cartesian_product() {
            let distinct = tuple.iter().all_unique();
            if distinct && tuple.iter().map(|&v| u64::from(v) + 1).sum::<u64>() == target {
                any = true;
                tuple.iter().zip(&mut keep).for_each(|(&v, k)| *k |= 1 << v);
                for (part, r) in parts.iter().zip(&mut required) {
                    let inside = tuple.iter().enumerate().filter(|&(j, _)| part.cells >> j & 1 == 1);
                    *r &= inside.fold(0, |acc, (_, &v)| acc | 1 << v);
                }
            }
        }
        if !any {
            required.fill(0);
        }
        (keep, required)
    }

    #[test]
    fn a_cage_of_three_to_23_holds_six_eight_and_nine() {
        let sets = [set(&[1, 2, 3, 4, 5, 6, 7, 8, 9]); 3];
        let parts = [Part { cells: 0b011, group: 0 }];
        let (mut keep, mut required) = ([0; 3], [0; 1]);
        assert!(supports(&sets, 23, 9, &parts, &mut keep, &mut required));
        assert_eq!(keep, [set(&[6, 8, 9]); 3]);
        assert_eq!(required, [0], "no value is sure to be in the first two cells");
        let sets = [set(&[6, 8]), set(&[6, 8]), set(&[1, 2, 3, 4, 5, 6, 7, 8, 9])];
        assert!(supports(&sets, 23, 9, &parts, &mut keep, &mut required));
        // The third cell's 6 and 8 are left to the group's rules.
        assert_eq!(keep, [set(&[6, 8]), set(&[6, 8]), set(&[6, 8, 9])]);
        let sets = [set(&[6, 8]), set(&[6, 8, 9]), set(&[1, 2, 3, 9])];
        assert!(supports(&sets, 23, 9, &parts, &mut keep, &mut required));
        assert_eq!(required, [set(&[6, 8])], "only the first two cells can hold 6 and 8");
    }

    #[test]
    fn a_set_that_leaves_a_cell_nothing_is_ruled_out() {
        // {3, 1, 8} sums to 12 but leaves the first two cells nothing.
        let sets = [set(&[1, 2]), set(&[1, 2]), set(&[3, 9])];
        let (mut keep, mut required) = ([0; 3], [0; 0]);
        assert!(supports(&sets, 12, 9, &[], &mut keep, &mut required));
        assert_eq!(keep, [set(&[1, 2]), set(&[1, 2]), set(&[9])]);
        assert!(supports(&[set(&[1]), set(&[1]), set(&[9])], 11, 9, &[], &mut keep, &mut required));
        assert_eq!(keep, [0; 3], "two cells cannot both hold 1");
    }

    #[test]
    fn too_many_sets_leave_the_cage_to_the_general_rules() {
        let sets = [(1 << 25) - 1; 12];
        let (mut keep, mut required) = ([7; 12], [0; 0]);
        assert!(!supports(&sets, 150, 25, &[], &mut keep, &mut required));
        assert_eq!(keep, [7; 12]);
    }

    proptest! {
        /// Every value of a completion is kept, and a value required of a
        /// part is there in every completion.
        #[test]
        fn agrees_with_trying_every_tuple(
            sets in prop::collection::vec(1u32..(1 << 7), 3..=5),
            target in 6u64..=30,
            part in 1u64..(1 << 5),
        ) {
            let parts = [Part { cells: part & ((1 << sets.len()) - 1), group: 0 }];
            let (mut keep, mut required) = (vec![0; sets.len()], vec![0; 1]);
            prop_assert!(supports(&sets, target, 7, &parts, &mut keep, &mut required));
            let (exact, in_every) = by_tuples(&sets, target, &parts);
            for i in 0..sets.len() {
                prop_assert_eq!(exact[i] & !keep[i], 0, "cell {} lost a value of a completion", i);
            }
            // With no completion, any value is in every one.
            let none = exact.contains(&0);
            prop_assert!(none || required[0] & !in_every[0] == 0, "required beyond every completion");
        }
    }
}
