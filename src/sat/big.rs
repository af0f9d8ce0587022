//! Whole numbers of any size, just as much of them as a cage's diagram
//! needs: read from decimal, multiplied and divided exactly by a value,
//! compared.

use std::cmp::Ordering;

/// A whole number in base 2^32 limbs, least significant first, with no
/// zero limb at the top (zero has no limbs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Big {
    limbs: Vec<u32>,
}

/// Targets longer than this are beyond every product of a grid's values
/// (25^625, the largest, has 874 digits) and are not read.
const MAX_DIGITS: usize = 1000;

impl Big {
    pub fn from_u64(value: u64) -> Big {
        let mut big = Big { limbs: vec![value as u32, (value >> 32) as u32] };
        big.trim();
        big
    }

    /// The number written in decimal, or `None` if it has more digits than
    /// any product of a grid's values.
    pub fn read_decimal(digits: &str) -> Option<Big> {
        if digits.len() > MAX_DIGITS {
            return None;
        }
        let mut big = Big { limbs: Vec::new() };
        for d in digits.bytes() {
            let mut carry = u64::from(d - b'0');
            for limb in &mut big.limbs {
                let x = u64::from(*limb) * 10 + carry;
                *limb = x as u32;
                carry = x >> 32;
            }
            if carry > 0 {
                big.limbs.push(carry as u32);
            }
        }
        Some(big)
    }

    /// `self · factor`.
    pub fn times(&self, factor: u32) -> Big {
        let mut limbs = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry = 0u64;
        for &limb in &self.limbs {
            let x = u64::from(limb) * u64::from(factor) + carry;
            limbs.push(x as u32);
            carry = x >> 32;
        }
        limbs.push(carry as u32);
        let mut big = Big { limbs };
        big.trim();
        big
    }

    /// `self / divisor` if it leaves no remainder.
    pub fn divided_exactly(&self, divisor: u32) -> Option<Big> {
        let mut limbs = vec![0; self.limbs.len()];
        let mut remainder = 0u64;
        for (i, &limb) in self.limbs.iter().enumerate().rev() {
            let x = (remainder << 32) | u64::from(limb);
            limbs[i] = (x / u64::from(divisor)) as u32;
            remainder = x % u64::from(divisor);
        }
        let mut big = Big { limbs };
        big.trim();
        (remainder == 0).then_some(big)
    }

    pub fn is_one(&self) -> bool {
        self.limbs == [1]
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_multiplies_divides_and_compares_exactly() {
        let max = Big::read_decimal("18446744073709551615").unwrap();
        assert_eq!(max, Big::from_u64(u64::MAX));
        let two_to_64 = Big::read_decimal("18446744073709551616").unwrap();
        assert!(max < two_to_64);
        assert_eq!(Big::from_u64(1 << 63).times(2), two_to_64);
        assert_eq!(two_to_64.divided_exactly(2), Some(Big::from_u64(1 << 63)));
        assert_eq!(max.divided_exactly(2), None);
        // 2^64 - 1 = 3 · 5 · 17 · 257 · 641 · 65537 · 6700417: no other value up to 25 divides it.
        let mut rest = max.clone();
        for v in [3, 5, 17] {
            rest = rest.divided_exactly(v).unwrap();
        }
        assert!((2..=25).all(|v| rest.divided_exactly(v).is_none()));
        // 25!, then back to 1.
        let mut factorial = Big::from_u64(1);
        for v in 1..=25 {
            factorial = factorial.times(v);
        }
        assert_eq!(factorial, Big::read_decimal("15511210043330985984000000").unwrap());
        for v in (1..=25).rev() {
            factorial = factorial.divided_exactly(v).unwrap();
        }
        assert!(factorial.is_one());
        assert_eq!(Big::read_decimal("0").unwrap(), Big::from_u64(0));
        assert_eq!(Big::read_decimal(&"1".repeat(1001)), None);
    }
}
