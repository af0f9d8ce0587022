//! Exact product supports: the divisors of a cage's target as a set of
//! bits, so that the products the cells can reach are worked out for all
//! cells at once, as sums are in `cage.rs`.
//!
//! A divisor 2^a·3^b·…·23^i of the target is numbered in mixed radix over
//! its exponents, so multiplying it by a value adds a fixed step to its
//! number, provided the product still divides the target.

#[cfg(test)]
use super::factors::of_target;
use super::factors::{Factors, OF_VALUE};

/// Words in a set of divisors: targets with more divisors than this holds
/// are left to the bounds of `cage::product_support`.
const MAX_WORDS: usize = 16;

/// The divisors of one target, and how each value of the grid moves
/// between them.
pub(super) struct Divisors {
    /// Words in a set of divisors (bit d for the d-th).
    words: usize,
    /// The number of the target itself, the largest divisor.
    top: usize,
    /// The values that divide the target (bit v - 1 for value v).
    dividing: u32,
    /// For each value v (index v) that divides the target, the step its
    /// product adds to a number.
    step: [usize; 26],
    /// For each value v (index v), the divisors d with d·v dividing the
    /// target (`words` words each).
    fits: Vec<u64>,
}

impl Divisors {
    /// The divisors of the target with exponents `target`, for values up
    /// to `size`; `None` if there are too many for a set.
    pub fn new(target: &Factors, size: usize) -> Option<Divisors> {
        let mut strides = [0usize; 9];
        let mut count = 1usize;
        for (stride, &e) in strides.iter_mut().zip(target) {
            *stride = count;
            count = count.checked_mul(usize::from(e) + 1).filter(|&c| c <= MAX_WORDS * 64)?;
        }
        let words = count.div_ceil(64);
        let number = |f: &Factors| f.iter().zip(&strides).map(|(&e, &s)| usize::from(e) * s).sum::<usize>();
        // Only the target's primes matter: no divisor has another, and a
        // value that has one is left out below.
        let (mut primes, mut present) = ([0; 9], 0);
        for p in (0..9).filter(|&p| target[p] > 0) {
            primes[present] = p;
            present += 1;
        }
        let primes = &primes[..present];
        // `at_most[i][k]`: the divisors whose exponent of the i-th of those
        // primes is at most k (`words` words each, primes one after another).
        let mut first = [0usize; 10];
        for (i, &p) in primes.iter().enumerate() {
            first[i + 1] = first[i] + (usize::from(target[p]) + 1) * words;
        }
        // Each divisor goes first into the set of its own exponent, without
        // a loop over the larger ones (whose varying length the processor
        // could not guess); each set then takes in the one before it.
        let mut at_most = vec![0u64; first[primes.len()]];
        let mut exponents = [0u16; 9];
        for d in 0..count {
            for (i, &p) in primes.iter().enumerate() {
                at_most[first[i] + usize::from(exponents[p]) * words + d / 64] |= 1 << (d % 64);
            }
            // The next divisor's exponents, counting in mixed radix.
            for &p in primes {
                if exponents[p] < target[p] {
                    exponents[p] += 1;
                    break;
                }
                exponents[p] = 0;
            }
        }
        for (i, &p) in primes.iter().enumerate() {
            for k in first[i] + words..first[i] + (usize::from(target[p]) + 1) * words {
                at_most[k] |= at_most[k - words];
            }
        }
        let (mut dividing, mut step) = (0, [0; 26]);
        let mut fits = vec![0; (size + 1) * words];
        for v in 1..=size {
            let f = &OF_VALUE[v];
            if f.iter().zip(target).any(|(a, b)| a > b) {
                continue;
            }
            dividing |= 1 << (v - 1);
            step[v] = number(f);
            let mine = &mut fits[v * words..(v + 1) * words];
            // Every divisor, to begin with (none past the last).
            mine.fill(u64::MAX);
            if count % 64 != 0 {
                mine[words - 1] &= (1 << (count % 64)) - 1;
            }
            for (i, &p) in primes.iter().enumerate() {
                let at = first[i] + usize::from(target[p] - f[p]) * words;
                let allowed = &at_most[at..at + words];
                mine.iter_mut().zip(allowed).for_each(|(m, a)| *m &= a);
            }
        }
        Some(Divisors { words, top: count - 1, dividing, step, fits })
    }

    /// Adds to `keep[i]` the values of cell i that some choice of values
    /// of the other cells (each from its own set, equal or not) completes
    /// to the target as a product: exact but for the cells that must
    /// differ. For cages of at most 64 cells.
    pub fn supports(&self, sets: &[u32], keep: &mut [u32]) {
        macro_rules! by_words {
            ($($w:literal)*) => {
                match self.words {
                    $($w => self.supports_in::<$w>(sets, keep),)*
                    words => unreachable!("{words} words of divisors"),
                }
            };
        }
        by_words!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    }

    fn supports_in<const W: usize>(&self, sets: &[u32], keep: &mut [u32]) {
        let fits = |v: usize| -> &[u64; W] { self.fits[v * W..(v + 1) * W].try_into().expect("W words") };
        // `before[i]`: the products of cells before i that divide the target.
        let mut before = [[0u64; W]; 65];
        before[0][0] = 1;
        for (i, &set) in sets.iter().enumerate() {
            for v in values(set & self.dividing) {
                let next = shifted_up(&and(&before[i], fits(v)), self.step[v]);
                before[i + 1] = or(&before[i + 1], &next);
            }
        }
        // `after`: the products of cells before i that the cells from i on
        // can complete to the target.
        let mut after = [0u64; W];
        after[self.top / 64] = 1 << (self.top % 64);
        for (i, &set) in sets.iter().enumerate().rev() {
            let mut next = [0; W];
            for v in values(set & self.dividing) {
                // The products d with d·v among `after`.
                let completed = and(&shifted_down(&after, self.step[v]), fits(v));
                let met = completed.iter().zip(&before[i]).fold(0, |met, (c, b)| met | c & b);
                keep[i] |= u32::from(met != 0) << (v - 1);
                next = or(&next, &completed);
            }
            after = next;
        }
    }
}

fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|k| a[k] & b[k])
}

fn or<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|k| a[k] | b[k])
}

/// `set << by`: bit d to bit d + by.
fn shifted_up<const W: usize>(set: &[u64; W], by: usize) -> [u64; W] {
    let (whole, bits) = (by / 64, by % 64);
    std::array::from_fn(|k| {
        let Some(from) = k.checked_sub(whole) else { return 0 };
        let carry = if bits != 0 && from > 0 { set[from - 1] >> (64 - bits) } else { 0 };
        set[from] << bits | carry
    })
}

/// `set >> by`: bit d + by to bit d.
fn shifted_down<const W: usize>(set: &[u64; W], by: usize) -> [u64; W] {
    let (whole, bits) = (by / 64, by % 64);
    std::array::from_fn(|k| {
        let Some(&word) = set.get(k + whole) else { return 0 };
        let high = if bits != 0 { set.get(k + whole + 1).map_or(0, |&next| next << (64 - bits)) } else { 0 };
        word >> bits | high
    })
}

/// The values in a candidate set, smallest first.
fn values(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let v = set.trailing_zeros() as usize;
            set &= set - 1;
            v + 1
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(vals: &[usize]) -> u32 {
        vals.iter().map(|v| 1u32 << (v - 1)).sum()
    }

    fn supports(target: u64, size: usize, sets: &[u32]) -> Vec<u32> {
        let divisors = Divisors::new(&of_target(&target.to_string(), size).unwrap(), size).unwrap();
        let mut keep = vec![0; sets.len()];
        divisors.supports(sets, &mut keep);
        keep
    }

    /// The same, by trying every combination.
    fn by_brute_force(target: u64, sets: &[u32]) -> Vec<u32> {
        let mut keep = vec![0; sets.len()];
        let mut chosen = vec![0usize; sets.len()];
        fn go(i: usize, product: u64, target: u64, sets: &[u32], chosen: &mut [usize], keep: &mut [u32]) {
            if i == sets.len() {
                if product == target {
                    chosen.iter().zip(keep.iter_mut()).for_each(|(&v, k)| *k |= 1 << (v - 1));
                }
                return;
            }
            for v in values(sets[i]) {
                chosen[i] = v;
                go(i + 1, product * v as u64, target, sets, chosen, keep);
            }
        }
        go(0, 1, target, sets, &mut chosen, &mut keep);
        keep
    }

    #[test]
    fn each_value_fits_as_many_divisors_as_it_should_and_none_past_the_last() {
        for (target, size) in [(1u64, 9), (60, 6), (14, 25), (576, 9), (23 * 19, 25), (2u64.pow(12) * 3, 25)] {
            let divisors = Divisors::new(&of_target(&target.to_string(), size).unwrap(), size).unwrap();
            for v in 1..=size as u64 {
                let fits = &divisors.fits[v as usize * divisors.words..][..divisors.words];
                let bits: Vec<usize> =
                    (0..divisors.words * 64).filter(|&d| fits[d / 64] >> (d % 64) & 1 == 1).collect();
                let expected = (1..=target).filter(|&x| target % (x * v) == 0).count();
                assert_eq!(bits.len(), expected, "target {target}, value {v}");
                assert!(bits.iter().all(|&d| d <= divisors.top), "target {target}, value {v}: {bits:?}");
            }
        }
    }

    #[test]
    fn products_of_each_cell_with_the_others() {
        let all6 = set(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(supports(60, 6, &[all6, all6, all6]), by_brute_force(60, &[all6, all6, all6]));
        assert_eq!(supports(60, 6, &[all6, all6, all6]), vec![set(&[2, 3, 4, 5, 6]); 3]);
        assert_eq!(supports(7 * 2, 25, &[set(&[7, 14]), set(&[1, 2, 3])]), [set(&[7, 14]), set(&[1, 2])]);
        assert_eq!(supports(1, 9, &[set(&[1, 2]), set(&[1, 3])]), [set(&[1]), set(&[1])]);
        assert_eq!(supports(5, 9, &[set(&[1, 2]), set(&[1, 3])]), [0, 0], "no value divides by 5");
    }

    #[test]
    fn agrees_with_brute_force_across_words() {
        // 8·14·18·21·15 = 2^5·3^4·5·7^2 has 6·5·2·3 = 180 divisors: three words.
        let target = 8 * 14 * 18 * 21 * 15;
        let size = 25;
        let sets = [
            set(&[1, 2, 3, 4, 6, 7, 8, 9]),
            set(&[5, 7, 10, 14, 21]),
            set(&[8, 9, 16, 18, 24, 25]),
            set(&[7, 14, 21]),
            set(&[1, 3, 5, 15]),
        ];
        let keep = supports(target, size, &sets);
        assert_eq!(keep, by_brute_force(target, &sets));
        assert!(keep.iter().all(|&k| k != 0), "the test needs a reachable target");
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_brute_force(
            size in 2usize..=25,
            raw in proptest::collection::vec(1u32.., 1..=4),
            picks in proptest::collection::vec(0usize..25, 4),
        ) {
            let sets: Vec<u32> = raw.iter().map(|r| r & ((1 << size) - 1)).map(|s| s.max(1)).collect();
            // A target the sets reach: one value of each, times one more
            // value at times, so that some targets are out of reach.
            let reached: u64 = sets.iter().zip(&picks).map(|(&s, &p)| values(s).nth(p % s.count_ones() as usize).unwrap() as u64).product();
            let target = reached * (picks[3] as u64 % 3).max(1);
            if let Some(factors) = of_target(&target.to_string(), size) {
                if let Some(divisors) = Divisors::new(&factors, size) {
                    let mut keep = vec![0; sets.len()];
                    divisors.supports(&sets, &mut keep);
                    proptest::prop_assert_eq!(keep, by_brute_force(target, &sets));
                }
            }
        }
    }

    #[test]
    fn too_many_divisors_are_refused() {
        let factorial = of_target("15511210043330985984000000", 25).unwrap();
        assert!(Divisors::new(&factorial, 25).is_none());
    }
}
