//! Sums of values that all differ: a Killer cage, or a `+` cage whose
//! cells share a group, revised over the *sets* of values that reach its
//! target rather than over tuples. A 5-cell cage of 9×9 candidates has
//! tens of thousands of tuples but at most 126 sets of 5 values, and a set
//! is checked at once: the cells can take its values one each exactly
//! when they can be matched to them.
//!
//! A value stays in a cell when some set that reaches the target holds it
//! and can be matched to the cells; across the sets, the values that every
//! set must put in one part of the cage (only cells of that part can take
//! them) leave the rest of the part's group.

use std::sync::OnceLock;

use super::layout::Part;

/// Sets of values tried before a revision gives up and leaves the cage to
/// the general rules: only grids above [`LISTED_UP_TO`] walk.
const MOST_STEPS: u32 = 4096;

/// Up to this size, the sets of each count and sum are listed once (for a
/// 16×16, 65,536 sets); above, they are walked for each revision.
const LISTED_UP_TO: usize = 16;

/// The values each cell of a cage of distinct cells that sums to `target`
/// can keep (`keep[i]` for `sets[i]`, both as long as the cage) and, as in
/// `cage::supports`, the values every completion puts in each of `parts`
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
    if sets.len() > 32 || parts.len() > 64 {
        return false;
    }
    let mut walk = Walk { sets, parts, keep: [0; 32], required: [u32::MAX; 64], steps: 0, found: false };
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
    if fixed.count_ones() == fixed_count && fixed_sum <= target {
        let (open, rest) = (open & !fixed, target - fixed_sum);
        if size <= LISTED_UP_TO {
            for &set in listed(size, need, rest) {
                if set & !open == 0 {
                    walk.try_set(set | fixed);
                }
            }
        } else if !walk.search(open, need, rest, fixed) {
            return false;
        }
    }
    keep.copy_from_slice(&walk.keep[..sets.len()]);
    for (k, r) in required.iter_mut().enumerate() {
        *r = if walk.found { walk.required[k] } else { 0 };
    }
    true
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

/// A search over the sets of values a cage can hold.
struct Walk<'a> {
    sets: &'a [u32],
    parts: &'a [Part],
    keep: [u32; 32],
    required: [u32; 64],
    steps: u32,
    /// Whether some set was matched to the cells.
    found: bool,
}

impl Walk<'_> {
    /// Tries the sets of `need` more values from `avail` that add `rest`
    /// to `chosen`, the largest value first. Returns `false` once the
    /// steps run out.
    fn search(&mut self, avail: u32, need: u32, rest: u64, chosen: u32) -> bool {
        self.steps += 1;
        if self.steps > MOST_STEPS {
            return false;
        }
        if need == 0 {
            if rest == 0 {
                self.try_set(chosen);
            }
            return true;
        }
        if avail.count_ones() < need || rest < lowest(avail, need) || rest > highest(avail, need) {
            return true;
        }
        let top = 1u32 << (31 - avail.leading_zeros());
        let v = u64::from(31 - avail.leading_zeros()) + 1;
        if v <= rest && !self.search(avail & !top, need - 1, rest - v, chosen | top) {
            return false;
        }
        self.search(avail & !top, need, rest, chosen)
    }

    /// Takes in the set of values `set` if the cells can hold it, one
    /// value each: each cell keeps the values it takes in some way of
    /// holding it.
    fn try_set(&mut self, set: u32) {
        let Some(owner) = matching(self.sets, set) else { return };
        self.found = true;
        let n = self.sets.len();
        // `reach[c]`: the cells whose values cell c can take, moving each
        // of them on to another one's, and so on.
        let mut reach = [0u32; 32];
        for (c, r) in reach.iter_mut().enumerate().take(n) {
            let mut open = self.sets[c] & set;
            while open != 0 {
                let v = open.trailing_zeros() as usize;
                open &= open - 1;
                *r |= 1 << owner[v];
            }
            *r &= !(1 << c);
        }
        for m in 0..n {
            for c in 0..n {
                if reach[c] >> m & 1 == 1 {
                    reach[c] |= reach[m];
                }
            }
        }
        // Cell c can take value v when v is its own, or when the cell
        // holding v can reach c: each cell on that cycle moves on by one.
        let mut held = [0u32; 32];
        for (c, h) in held.iter_mut().enumerate().take(n) {
            let mut open = self.sets[c] & set;
            while open != 0 {
                let v = open.trailing_zeros() as usize;
                open &= open - 1;
                let holder = usize::from(owner[v]);
                if holder == c || reach[holder] >> c & 1 == 1 {
                    *h |= 1 << v;
                }
            }
            self.keep[c] |= *h;
        }
        for (k, part) in self.parts.iter().enumerate() {
            // The values of the set that only cells of the part can take.
            let outside = (0..n).filter(|&j| part.cells >> j & 1 == 0);
            let elsewhere = outside.fold(0, |acc, j| acc | held[j]);
            self.required[k] &= set & !elsewhere;
        }
    }
}

/// A way for the cells to take a value of `set` each (`set` has as many
/// values as there are cells), if there is one: the cell that takes each
/// value (`owner[v - 1]`), by augmenting paths.
fn matching(sets: &[u32], set: u32) -> Option<[u8; 32]> {
    let mut owner = [u8::MAX; 32];
    (0..sets.len())
        .all(|cell| {
            let mut seen = 0u32;
            augment(sets, set, cell, &mut owner, &mut seen)
        })
        .then_some(owner)
}

/// Finds a value of `set` for `cell`, moving other cells to other values
/// as needed; `seen` holds the values already tried on this path.
fn augment(sets: &[u32], set: u32, cell: usize, owner: &mut [u8; 32], seen: &mut u32) -> bool {
    let mut open = sets[cell] & set & !*seen;
    while open != 0 {
        let v = open.trailing_zeros() as usize;
        open &= open - 1;
        *seen |= 1 << v;
        let holder = owner[v];
        if holder == u8::MAX || augment(sets, set, usize::from(holder), owner, seen) {
            owner[v] = cell as u8;
            return true;
        }
    }
    false
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
        assert_eq!(keep, [set(&[6, 8]), set(&[6, 8]), set(&[9])]);
        assert_eq!(required, [set(&[6, 8])]);
    }

    #[test]
    fn cells_that_cannot_be_matched_to_a_set_rule_it_out() {
        // {1, 2, 9} sums to 12 but the first two cells both hold only 1.
        let sets = [set(&[1, 3]), set(&[1, 3]), set(&[1, 2, 8, 9])];
        let (mut keep, mut required) = ([0; 3], [0; 0]);
        assert!(supports(&sets, 12, 9, &[], &mut keep, &mut required));
        assert_eq!(keep, [set(&[1, 3]), set(&[1, 3]), set(&[8])]);
        assert!(supports(&[set(&[1]), set(&[1]), set(&[9])], 11, 9, &[], &mut keep, &mut required));
        assert_eq!(keep, [0; 3]);
    }

    #[test]
    fn too_many_sets_leave_the_cage_to_the_general_rules() {
        let sets = [(1 << 25) - 1; 12];
        let (mut keep, mut required) = ([7; 12], [0; 0]);
        assert!(!supports(&sets, 150, 25, &[], &mut keep, &mut required));
        assert_eq!(keep, [7; 12]);
    }

    proptest! {
        /// A value is kept exactly when some completion has it, and
        /// required of a part exactly when every completion puts it there.
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
            prop_assert_eq!(keep, exact);
            prop_assert_eq!(required, in_every);
        }
    }
}
