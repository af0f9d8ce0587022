//! The puzzle compiled into flat index arrays for the search.

use crate::puzzle::{Op, Puzzle};

/// A cage with its cells as indices.
pub(super) struct CageLayout {
    pub op: Op,
    pub target: u64,
    pub cells: Vec<usize>,
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
    /// For each cell, the groups it belongs to.
    pub groups_of: Vec<Vec<usize>>,
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
        let mut groups_of = vec![Vec::new(); cells];
        for (index, group) in groups.iter().enumerate() {
            for &a in group {
                groups_of[a].push(index);
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
            .map(|cage| CageLayout {
                op: cage.op(),
                target: cage.target(),
                cells: cage.cells().iter().map(|c| c.index(size)).collect(),
            })
            .collect();
        let mut cage_of = vec![None; cells];
        for (index, cage) in cages.iter().enumerate() {
            for &cell in &cage.cells {
                cage_of[cell] = Some(index);
            }
        }
        let group_is_full: Vec<bool> = groups.iter().map(|g| g.len() == size).collect();
        Layout { size, full: (1u32 << size) - 1, group_is_full, groups, peers, groups_of, cages, cage_of }
    }

    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }
}
