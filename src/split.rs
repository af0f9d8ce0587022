//! One puzzle's search split into disjoint parts by the values of a few
//! cells, so that separate jobs (threads, or machines under a batch
//! scheduler) can each count a part and the counts add up.
//!
//! The rule is fixed, so that separate runs of any version that follows it
//! agree on the parts:
//!
//! 1. **Split cells.** Go through the cells in row-major order and take each
//!    one that is not a one-cell cage (a given) and shares no group with a
//!    cell already taken, until N^(cells taken) ≥ 64 × parts, or no cell
//!    is left.
//! 2. **Cubes.** A cube gives each split cell a value; cube `k` gives the
//!    `i`-th split cell (from 0) the value `⌊k / Nⁱ⌋ mod N + 1`. Every
//!    solution lies in exactly one cube.
//! 3. **Parts.** Cube `k` belongs to part `splitmix64(k) mod parts + 1`
//!    (`splitmix64` is the finaliser of Vigna's SplitMix64 generator), which
//!    spreads cubes of every size evenly over the parts.
//!
//! Split cells share no group, so most cubes have solutions, and many
//! cubes a part (64 on average at least) keep the parts close in size.

use crate::puzzle::Puzzle;

/// Cells fixed to values: one cube of the search space, as `(cell, value)`
/// pairs with cells as row-major indices and values from 1.
pub(crate) type Cube = Vec<(usize, usize)>;

/// A puzzle's search space split into parts.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    size: usize,
    cells: Vec<usize>,
    parts: u64,
}

/// Cubes each part gets at least, on average.
const CUBES_A_PART: u64 = 64;

impl Split {
    /// The split of `puzzle` into `parts` parts (at least one).
    pub(crate) fn new(puzzle: &Puzzle, parts: u64) -> Self {
        let n = puzzle.size();
        let parts = parts.max(1);
        let mut given = vec![false; n * n];
        for cage in puzzle.cages().iter().filter(|cage| cage.cells().len() == 1) {
            given[cage.cells()[0].index(n)] = true;
        }
        let mut apart = vec![false; n * n];
        let mut cells = Vec::new();
        let mut cubes = 1u64;
        for cell in 0..n * n {
            if cubes >= CUBES_A_PART.saturating_mul(parts) || n < 2 {
                break;
            }
            if given[cell] || apart[cell] {
                continue;
            }
            cells.push(cell);
            cubes *= n as u64;
            for group in puzzle.groups().iter().filter(|g| g.cells().iter().any(|c| c.index(n) == cell)) {
                for member in group.cells() {
                    apart[member.index(n)] = true;
                }
            }
        }
        Split { size: n, cells, parts }
    }

    /// The split cells, in order.
    #[cfg(test)]
    pub(crate) fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// How many cubes there are: N^(split cells).
    pub(crate) fn cubes(&self) -> u64 {
        (self.size as u64).pow(self.cells.len() as u32)
    }

    /// Cube `k`.
    pub(crate) fn cube(&self, k: u64) -> Cube {
        let n = self.size as u64;
        let mut rest = k;
        self.cells
            .iter()
            .map(|&cell| {
                let value = (rest % n + 1) as usize;
                rest /= n;
                (cell, value)
            })
            .collect()
    }

    /// The part (from 1) cube `k` belongs to.
    pub(crate) fn part_of(&self, k: u64) -> u64 {
        splitmix64(k) % self.parts + 1
    }

    /// The cubes of part `part` (from 1), in order.
    pub(crate) fn part(&self, part: u64) -> impl Iterator<Item = Cube> + '_ {
        (0..self.cubes()).filter(move |&k| self.part_of(k) == part).map(|k| self.cube(k))
    }
}

/// The finaliser of SplitMix64 (Steele, Lea and Flood; constants from
/// Vigna's reference code): a fixed bijection that scatters consecutive
/// numbers.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_cells_share_no_group_and_skip_givens() {
        let mut givens = [0u8; 81];
        givens[0] = 5;
        let sudoku = Puzzle::sudoku(9, crate::BoxShape::default_for(9), &givens).unwrap();
        let split = Split::new(&sudoku, 16);
        // 9^4 = 6561 ≥ 64 × 16: four cells; A1 is given, and each next cell
        // is the first in no row, column or box of one taken.
        assert_eq!(split.cells(), [1, 12, 24, 27]);
    }

    #[test]
    fn cubes_number_every_assignment_once() {
        let latin = Puzzle::new(4, vec![], vec![]).unwrap();
        let split = Split::new(&latin, 2);
        // 4^4 = 256 ≥ 64 × 2: the diagonal.
        assert_eq!(split.cells(), [0, 5, 10, 15]);
        assert_eq!(split.cubes(), 256);
        let cubes: std::collections::HashSet<Cube> = (0..256).map(|k| split.cube(k)).collect();
        assert_eq!(cubes.len(), 256);
        assert_eq!(split.cube(1), vec![(0, 2), (5, 1), (10, 1), (15, 1)]);
        let sizes: Vec<usize> = (1..=2).map(|p| split.part(p).count()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), 256);
        assert!(sizes.iter().all(|&s| s > 100), "{sizes:?}");
    }
}
