//! Candidate sets and propagation to a fixpoint: naked singles through
//! peers, hidden singles in every group, and cage reasoning.

use super::cage;
use super::layout::Layout;

/// Propagation found a cell with no candidate left, or a value with no
/// place in a group: this branch holds no solution.
#[derive(Debug)]
pub(super) struct Contradiction;

/// The candidate set of every cell (bit `v - 1` stands for value v).
pub(super) type Candidates = Vec<u32>;

/// Work lists shared by every propagation of one search, so that nothing
/// is allocated per node.
pub(super) struct Propagator<'a> {
    pub layout: &'a Layout,
    /// Cells that became fixed and whose value has not yet left their peers.
    fixed: Vec<usize>,
    /// Cages with a cell that changed since the cage was last revised.
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    /// The set of groups with a cell that changed since their last
    /// hidden-single scan, as in [`Layout::groups_of`].
    dirty_groups: Vec<u64>,
    /// Scratch space for cage reasoning.
    scratch: Vec<u32>,
}

impl<'a> Propagator<'a> {
    pub fn new(layout: &'a Layout) -> Self {
        Propagator {
            layout,
            fixed: Vec::new(),
            dirty: Vec::new(),
            is_dirty: vec![false; layout.cages.len()],
            dirty_groups: vec![0; layout.shape.group_words],
            scratch: Vec::new(),
        }
    }

    /// Starts a propagation from scratch: every cell, every cage is new.
    pub fn start(&mut self, cands: &Candidates) {
        self.clear();
        self.fixed.extend((0..cands.len()).filter(|&c| cands[c].count_ones() == 1));
        self.dirty.extend(0..self.layout.cages.len());
        self.is_dirty.iter_mut().for_each(|d| *d = true);
        for group in 0..self.layout.shape.groups.len() {
            self.dirty_groups[group / 64] |= 1 << (group % 64);
        }
    }

    fn clear(&mut self) {
        self.fixed.clear();
        for cage in self.dirty.drain(..) {
            self.is_dirty[cage] = false;
        }
        self.dirty_groups.iter_mut().for_each(|w| *w = 0);
    }

    /// Restricts `cell` to `value` and propagates.
    pub fn assign(&mut self, cands: &mut Candidates, cell: usize, value_bit: u32) -> Result<(), Contradiction> {
        self.clear();
        self.restrict(cands, cell, value_bit)?;
        self.run(cands)
    }

    /// Removes every candidate of `cell` outside `keep`, recording what the
    /// change makes worth looking at again.
    #[inline]
    pub fn restrict(&mut self, cands: &mut Candidates, cell: usize, keep: u32) -> Result<(), Contradiction> {
        let old = cands[cell];
        let new = old & keep;
        if new == old {
            return Ok(());
        }
        if new == 0 {
            return Err(Contradiction);
        }
        cands[cell] = new;
        if new.is_power_of_two() {
            self.fixed.push(cell);
        }
        self.touch(cell);
        Ok(())
    }

    /// Marks the cage and the groups of a changed cell for another look.
    fn touch(&mut self, cell: usize) {
        let layout = self.layout;
        if let Some(cage) = layout.cage_of[cell] {
            if !self.is_dirty[cage] {
                self.is_dirty[cage] = true;
                self.dirty.push(cage);
            }
        }
        let words = layout.shape.group_words;
        let groups_of = &layout.shape.groups_of[cell * words..(cell + 1) * words];
        for (dirty, groups) in self.dirty_groups.iter_mut().zip(groups_of) {
            *dirty |= groups;
        }
    }

    /// Propagates until nothing changes.
    pub fn run(&mut self, cands: &mut Candidates) -> Result<(), Contradiction> {
        let result = self.fixpoint(cands);
        if result.is_err() {
            self.clear();
        }
        result
    }

    fn fixpoint(&mut self, cands: &mut Candidates) -> Result<(), Contradiction> {
        let layout = self.layout;
        loop {
            while let Some(cell) = self.fixed.pop() {
                let value = cands[cell];
                let shape = &layout.shape;
                for &peer in &shape.peers[shape.peer_start[cell]..shape.peer_start[cell + 1]] {
                    if cands[usize::from(peer)] & value != 0 {
                        self.restrict(cands, usize::from(peer), !value)?;
                    }
                }
            }
            if let Some(index) = self.dirty.pop() {
                self.is_dirty[index] = false;
                self.revise(cands, index)?;
                continue;
            }
            if !self.hidden_singles(cands)? {
                return Ok(());
            }
        }
    }

    /// Prunes the candidates of cage `index` against its op and target.
    fn revise(&mut self, cands: &mut Candidates, index: usize) -> Result<(), Contradiction> {
        let cage = &self.layout.cages[index];
        let mut keep = std::mem::take(&mut self.scratch);
        cage::supports(cage, self.layout.size, cands, &mut keep);
        let result = cage.cells.iter().zip(&keep).try_for_each(|(&cell, &k)| self.restrict(cands, cell, k));
        self.scratch = keep;
        result
    }

    /// Fixes every value that has only one place left in a changed group;
    /// reports whether anything was fixed.
    fn hidden_singles(&mut self, cands: &mut Candidates) -> Result<bool, Contradiction> {
        let layout = self.layout;
        let mut found = false;
        while let Some(word) = self.dirty_groups.iter().position(|&w| w != 0) {
            let bits = &mut self.dirty_groups[word];
            let index = word * 64 + bits.trailing_zeros() as usize;
            *bits &= *bits - 1;
            let group = &layout.shape.groups[index];
            let is_full = layout.shape.group_is_full[index];
            let (mut once, mut twice, mut fixed) = (0u32, 0u32, 0u32);
            for &cell in group {
                let c = cands[cell];
                twice |= once & c;
                once |= c;
                if c.is_power_of_two() {
                    fixed |= c;
                }
            }
            if is_full && once != layout.full {
                return Err(Contradiction);
            }
            if !is_full {
                continue;
            }
            let mut single = once & !twice & !fixed;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single &= single - 1;
                // An earlier fix in this group may have taken the value's last place.
                let Some(&cell) = group.iter().find(|&&c| cands[c] & bit != 0) else {
                    return Err(Contradiction);
                };
                self.restrict(cands, cell, bit)?;
                found = true;
            }
            if found {
                // Let the new singles leave their peers before looking further.
                return Ok(true);
            }
        }
        Ok(false)
    }
}
