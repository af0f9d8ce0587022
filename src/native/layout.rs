//! The puzzle compiled into flat index arrays for the search.

use super::factors::{self, Factors};
use crate::puzzle::{Op, Puzzle};

/// A cage with its cells as indices and its target read for the search.
pub(super) struct CageLayout {
    pub op: Op,
    /// The target, when it fits in a `u64` (every reachable sum, difference,
    /// quotient and one-cell value does).
    pub target: Option<u64>,
    /// The target as a product of values: its exponents over the primes,
    /// for `*` cages and `?` cages of three or more cells; `None` when no product
    /// of the grid's values reaches it.
    pub factors: Option<Factors>,
    pub cells: Vec<usize>,
    /// For a cage of 3 to 64 cells, bit j of `apart[i]` is set when its
    /// cells i and j share a group (and so hold different values).
    pub apart: Vec<u64>,
}

/// Everything the search looks up, by cell index (row-major).
pub(super) struct Layout {
    pub size: usize,
    /// The candidate set with every value `1..=N` (bit `v - 1` is value v).
    pub full: u32,
    /// The cells of each all-different group.
    pub groups: Vec<Vec<usize>>,
    /// Whether a group has N cells, so that every value must appear in it.
    pub group_is_full: Vec<bool>,
    /// For each cell, the other cells sharing a group with it, each once.
    pub peers: Vec<Vec<usize>>,
    /// 64-bit words in a set of groups.
    pub group_words: usize,
    /// For each cell, the set of groups it belongs to: `group_words` words
    /// from `cell · group_words`, bit `g % 64` of word `g / 64` for group g.
    pub groups_of: Vec<u64>,
    pub cages: Vec<CageLayout>,
    /// For each cell, the index of its cage, if any.
    pub cage_of: Vec<Option<usize>>,
}

impl Layout {
    pub fn new(puzzle: &Puzzle) -> Self {
        let size = puzzle.size();
        let cells = size * size;
        let groups: Vec<Vec<usize>> =
            puzzle.groups().iter().map(|g| g.cells().iter().map(|c| c.index(size)).collect()).collect();
        let mut peers = vec![Vec::new(); cells];
        let group_words = groups.len().div_ceil(64);
        let mut groups_of = vec![0u64; cells * group_words];
        for (index, group) in groups.iter().enumerate() {
            for &a in group {
                groups_of[a * group_words + index / 64] |= 1 << (index % 64);
                peers[a].extend(group.iter().copied().filter(|&b| b != a));
            }
        }
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
        }
        let cages: Vec<CageLayout> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                let cells: Vec<usize> = cage.cells().iter().map(|c| c.index(size)).collect();
                let share = |a: usize, b: usize| {
                    let words = |c: usize| &groups_of[c * group_words..(c + 1) * group_words];
                    a != b && words(a).iter().zip(words(b)).any(|(x, y)| x & y != 0)
                };
                let apart = if (3..=64).contains(&cells.len()) {
                    cells
                        .iter()
                        .map(|&a| cells.iter().enumerate().filter(|&(_, &b)| share(a, b)).map(|(j, _)| 1u64 << j).sum())
                        .collect()
                } else {
                    Vec::new()
                };
                let digits = cage.target().digits();
                let factors = match cage.op() {
                    Op::Mul | Op::Any if cells.len() != 2 => factors::of_target(digits, size),
                    _ => None,
                };
                CageLayout { op: cage.op(), target: digits.parse().ok(), factors, cells, apart }
            })
            .collect();
        let mut cage_of = vec![None; cells];
        for (index, cage) in cages.iter().enumerate() {
            for &cell in &cage.cells {
                cage_of[cell] = Some(index);
            }
        }
        let group_is_full: Vec<bool> = groups.iter().map(|g| g.len() == size).collect();
        Layout { size, full: (1u32 << size) - 1, group_is_full, groups, peers, group_words, groups_of, cages, cage_of }
    }

    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }
}
