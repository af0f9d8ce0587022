//! A cache of cage supports: the values each cell of a cage can keep
//! depend only on the cage and its cells' candidate sets, and the same sets
//! come back again and again across a search.

use std::cell::RefCell;

use super::tuning::MEMO_BITS;

/// Entries in the cache of a search of an N×N grid of `size` (a power of
/// two; see [`MEMO_BITS`]).
fn entries(size: usize) -> usize {
    1 << MEMO_BITS[usize::from(size > 9)]
}

/// One remembered revision: the cage, its cells' candidate sets packed
/// `size` bits a cell, the supports packed the same way, and the values
/// required in each of the cage's parts, `size` bits a part; `stamp` names
/// the search it belongs to.
#[derive(Clone, Copy, Default)]
struct Entry {
    cage: u32,
    stamp: u32,
    sets: u128,
    keep: u128,
    required: u128,
}

/// Supports of cages whose cells' sets fit in 128 bits together (up to 5
/// cells of a 25×25), in a direct-mapped table: a new revision replaces the
/// one in its slot.
///
/// The table is kept on the thread from one search to the next, since
/// clearing it would cost an easy puzzle more than its search: each search
/// takes a new stamp instead, and entries of other stamps are void.
pub(super) struct Memo {
    entries: Vec<Entry>,
    stamp: u32,
    /// How many entries this search's table has, once it has any.
    len: usize,
}

thread_local! {
    /// The table of the last search on this thread, and its stamp.
    static TABLE: RefCell<(Vec<Entry>, u32)> = const { RefCell::new((Vec::new(), 0)) };
}

impl Drop for Memo {
    fn drop(&mut self) {
        let entries = std::mem::take(&mut self.entries);
        TABLE.with(|table| {
            if let Ok(mut table) = table.try_borrow_mut() {
                table.0 = entries;
            }
        });
    }
}

/// Sets of values, `size` bits a set, if they fit in 128 bits.
pub(super) fn pack(sets: &[u32], size: usize) -> Option<u128> {
    (sets.len() * size <= 128).then(|| sets.iter().rev().fold(0u128, |acc, &s| (acc << size) | u128::from(s)))
}

/// The `count` sets of [`pack`]ed, into `sets`.
pub(super) fn unpack(packed: u128, count: usize, size: usize, sets: &mut Vec<u32>) {
    let mask = (1u128 << size) - 1;
    sets.clear();
    sets.extend((0..count).map(|i| (packed >> (i * size) & mask) as u32));
}

impl Memo {
    /// An empty memo for a search of an N×N grid of `size`: the thread's
    /// table, under a new stamp.
    pub fn new(size: usize) -> Self {
        let len = entries(size);
        TABLE.with(|table| {
            let (entries, stamp) = &mut *table.borrow_mut();
            *stamp = stamp.wrapping_add(1);
            if *stamp == 0 {
                // After 2³² searches, stamps come round: start clean.
                entries.fill(Entry::default());
                *stamp = 1;
            }
            Memo { entries: std::mem::take(entries), stamp: *stamp, len }
        })
    }

    fn slot(&self, cage: usize, sets: u128) -> usize {
        let folded = sets as u64 ^ (sets >> 64) as u64;
        let hash = (folded ^ (cage as u64).rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (hash >> (64 - self.len.trailing_zeros())) as usize
    }

    /// The supports and required values remembered for `cage` with its
    /// cells' `sets`, all packed.
    pub fn get(&self, cage: usize, sets: u128) -> Option<(u128, u128)> {
        let entry = self.entries.get(self.slot(cage, sets))?;
        (entry.stamp == self.stamp && entry.cage == cage as u32 && entry.sets == sets)
            .then_some((entry.keep, entry.required))
    }

    /// Remembers the supports `keep` and the `required` values of `cage`
    /// with `sets`, all packed.
    pub fn put(&mut self, cage: usize, sets: u128, keep: u128, required: u128) {
        if self.entries.len() != self.len {
            // None yet, or a table for another size (its entries are of
            // other searches: void).
            self.entries = vec![Entry::default(); self.len];
        }
        let slot = self.slot(cage, sets);
        self.entries[slot] = Entry { cage: cage as u32, stamp: self.stamp, sets, keep, required };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_by_cage_and_sets() {
        let sets = pack(&[0b011, 0b110, 0b101], 3).unwrap();
        assert_eq!(sets, 0b101_110_011);
        assert_eq!(pack(&[1; 6], 25), None, "150 bits do not fit");
        assert_eq!(pack(&[1; 5], 25), Some((0..5).map(|i| 1 << (25 * i)).sum()), "125 bits do");
        let mut memo = Memo::new(9);
        assert_eq!(memo.get(4, sets), None);
        memo.put(4, sets, 0b001_010_011, 0b011);
        assert_eq!(memo.get(4, sets), Some((0b001_010_011, 0b011)));
        let mut unpacked = Vec::new();
        unpack(sets, 3, 3, &mut unpacked);
        assert_eq!(unpacked, [0b011, 0b110, 0b101]);
        assert_eq!(memo.get(5, sets), None, "another cage");
        assert_eq!(memo.get(4, sets ^ 1), None, "other sets");
        drop(memo);
        assert_eq!(Memo::new(9).get(4, sets), None, "another search");
        let mut large = Memo::new(25);
        assert_eq!(large.get(4, sets), None, "another search, of another size");
        large.put(4, sets, 0b001, 0);
        assert_eq!(large.entries.len(), entries(25), "a table of its own size");
        assert_ne!(entries(25), entries(9));
        assert_eq!(large.get(4, sets), Some((0b001, 0)));
    }
}
