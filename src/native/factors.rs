//! Products of cell values as exponents over the primes up to 25.
//!
//! Every value of a grid is at most 25, so every product of values is
//! 2^a·3^b·5^c·…·23^i, whatever its length: the native backend reasons on
//! these nine exponents, exactly, and never multiplies values. A target
//! with another prime factor, or with more digits than any product of a
//! grid's values, is out of reach.

/// The primes up to 25, the largest value of a grid.
const PRIMES: [u64; 9] = [2, 3, 5, 7, 11, 13, 17, 19, 23];

/// The exponent of each prime in [`PRIMES`], in order.
pub(super) type Factors = [u16; 9];

/// A product of 625 values of at most 25 has at most this many decimal
/// digits (25^625 has 874).
const MAX_DIGITS: usize = 900;

/// The exponents of each value from 0 to 25 (0 is never used).
pub(super) const OF_VALUE: [Factors; 26] = {
    let mut table = [[0; 9]; 26];
    let mut v = 1;
    while v <= 25 {
        let mut rest = v as u64;
        let mut i = 0;
        while i < PRIMES.len() {
            while rest % PRIMES[i] == 0 {
                rest /= PRIMES[i];
                table[v][i] += 1;
            }
            i += 1;
        }
        v += 1;
    }
    table
};

/// For each prime (by its index in [`PRIMES`]) and each k from 1 up to its
/// largest exponent in a value up to 25: the set of values (bit v - 1 for
/// value v) whose exponent of that prime is at least k. A candidate set's
/// least exponent is the number of these sets that hold it whole; its most,
/// the number it meets.
pub(super) const LEVELS: [(usize, u32); 14] = {
    let mut levels = [(0, 0); 14];
    let mut at = 0;
    let mut p = 0;
    while p < PRIMES.len() {
        let mut k = 1;
        loop {
            let mut mask = 0u32;
            let mut v = 1;
            while v <= 25 {
                if OF_VALUE[v][p] >= k {
                    mask |= 1 << (v - 1);
                }
                v += 1;
            }
            if mask == 0 {
                break;
            }
            levels[at] = (p, mask);
            at += 1;
            k += 1;
        }
        p += 1;
    }
    assert!(at == levels.len());
    levels
};

/// The number written in decimal as `digits` (ASCII digits), if it fits
/// in a `u64`.
pub(super) fn decimal(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

/// The exponents of a target given by its decimal digits, or `None` when
/// no product of values from 1 to `size` can equal it: it has a prime
/// factor above `size`, or more digits than the largest product of a grid.
pub(super) fn of_target(digits: &str, size: usize) -> Option<Factors> {
    if digits.len() > MAX_DIGITS {
        return None;
    }
    let primes = || PRIMES.iter().take_while(|&&p| p <= size as u64).enumerate();
    let mut out = [0; 9];
    if let Some(mut number) = decimal(digits.as_bytes()).filter(|&n| n > 0) {
        // Most targets fit in a word: divided there, without digit lists.
        for (i, &p) in primes() {
            while number % p == 0 {
                number /= p;
                out[i] += 1;
            }
        }
        return (number == 1).then_some(out);
    }
    let mut number: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
    for (i, &p) in primes() {
        while let Some(quotient) = divide_exactly(&number, p) {
            number = quotient;
            out[i] += 1;
        }
    }
    (number == [1]).then_some(out)
}

/// `number / divisor` (decimal digits, most significant first, no leading
/// zero) when the division leaves no remainder.
fn divide_exactly(number: &[u8], divisor: u64) -> Option<Vec<u8>> {
    let mut quotient = Vec::with_capacity(number.len());
    let mut remainder = 0;
    for &d in number {
        let x = remainder * 10 + u64::from(d);
        let q = (x / divisor) as u8;
        if !quotient.is_empty() || q != 0 {
            quotient.push(q);
        }
        remainder = x % divisor;
    }
    (remainder == 0 && !quotient.is_empty()).then_some(quotient)
}

/// Whether `part` divides `whole`: no exponent larger.
/// The value of the grid (1 to 25) that has these exponents, if one has.
pub(super) fn value_of(factors: &Factors) -> Option<u64> {
    let mut value = 1u64;
    for (&p, &e) in PRIMES.iter().zip(factors) {
        for _ in 0..e {
            value *= p;
            if value > 25 {
                return None;
            }
        }
    }
    Some(value)
}

pub(super) fn divides(part: &Factors, whole: &Factors) -> bool {
    part.iter().zip(whole).all(|(a, b)| a <= b)
}

/// `whole / part`, for a `part` that divides `whole`.
pub(super) fn quotient(whole: &Factors, part: &Factors) -> Factors {
    std::array::from_fn(|i| whole[i] - part[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_targets_factor_exactly() {
        assert_eq!(OF_VALUE[1], [0; 9]);
        assert_eq!(OF_VALUE[24], [3, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(OF_VALUE[25], [0, 0, 2, 0, 0, 0, 0, 0, 0]);
        assert_eq!(OF_VALUE[23], [0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert!((1..=25).all(|v| value_of(&OF_VALUE[v as usize]) == Some(v)), "value_of undoes OF_VALUE");
        assert_eq!(value_of(&[2, 0, 0, 0, 1, 0, 0, 0, 0]), None, "44 is no value");
        // 2 to the 1st..4th, 3 and 5 to the 1st and 2nd, six primes once.
        assert_eq!(LEVELS.iter().filter(|&&(p, _)| p == 0).count(), 4);
        assert_eq!(LEVELS[3], (0, 1 << 15), "only 16 has 2^4");
        assert_eq!(of_target("24", 4), Some([3, 1, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(of_target("5", 4), None, "5 is no value of a 4x4 grid");
        assert_eq!(of_target("1", 1), Some([0; 9]));
        // 2^64 - 1 = 3·5·17·257·641·65537·6700417.
        assert_eq!(of_target("18446744073709551615", 25), None);
        // 2^64 exactly.
        assert_eq!(of_target("18446744073709551616", 25), Some([64, 0, 0, 0, 0, 0, 0, 0, 0]));
        // 25!, the product of a full row of a 25x25 grid.
        assert_eq!(of_target("15511210043330985984000000", 25), Some([22, 10, 6, 3, 2, 1, 1, 1, 1]));
        assert_eq!(of_target(&"9".repeat(1000), 25), None);
    }

    #[test]
    fn decimal_digits_are_read_as_far_as_a_u64_goes() {
        for digits in ["0", "7", "10", "18446744073709551615", "18446744073709551616", "99999999999999999999"] {
            assert_eq!(decimal(digits.as_bytes()), digits.parse::<u64>().ok(), "{digits}");
        }
        assert_eq!(decimal(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(decimal(b"18446744073709551616"), None);
    }

    #[test]
    fn exact_division_of_decimal_digits() {
        assert_eq!(divide_exactly(&[1, 2], 4), Some(vec![3]));
        assert_eq!(divide_exactly(&[1, 3], 4), None);
        assert_eq!(divide_exactly(&[7], 7), Some(vec![1]));
        assert!(divides(&OF_VALUE[6], &OF_VALUE[12]));
        assert!(!divides(&OF_VALUE[4], &OF_VALUE[6]));
        assert_eq!(quotient(&OF_VALUE[24], &OF_VALUE[6]), OF_VALUE[4]);
    }
}
