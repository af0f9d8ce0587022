//! One puzzle's search split into disjoint parts by the values of a few
//! cells, so that separate jobs (threads, or machines under a batch
//! scheduler) can each count a part and the counts add up.
//!
//! The rule is fixed, so that separate runs of any version that follows it
//! agree on the parts:
//!
//! 1. **Split cells.** Go through the cells in row-major order and take each
//!    one that is not a one-cell cage (a given) and shares no group with a
//!    cell already taken; then, if needed, go through them again taking any
//!    cell not a given and not taken; stop as soon as the product, over the
//!    cells taken, of the number of values no given in the cell's groups
//!    holds reaches 512 × parts.
//! 2. **Cubes.** A cube gives each split cell a value; cube `k` gives the
//!    `i`-th split cell (from 0) the value `⌊k / Nⁱ⌋ mod N + 1`. Every
//!    solution lies in exactly one cube. Cubes that give a split cell the
//!    value of a given in one of its groups, or two split cells in one
//!    group the same value, hold no solution and are left out.
//! 3. **Parts.** Cube `k` belongs to part `splitmix64(k) mod parts + 1`
//!    (`splitmix64` is the finaliser of Vigna's SplitMix64 generator), which
//!    spreads cubes of every size evenly over the parts.
//!
//! Many cubes a part keep the parts close in size; split cells that share
//! no group come first, so that most cubes hold solutions.

use crate::puzzle::Puzzle;

/// Cells fixed to values: one cube of the search space, as `(cell, value)`
/// pairs with cells as row-major indices and values from 1.
pub(crate) type Cube = Vec<(usize, usize)>;

/// A puzzle's search space split into parts.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    size: usize,
    cells: Vec<usize>,
    /// For each split cell, the values no given in its groups holds (bit
    /// v for value v).
    candidates: Vec<u32>,
    /// For each split cell, the earlier split cells it shares a group with.
    clashes: Vec<Vec<usize>>,
    parts: u64,
}

/// Cubes each part gets at least, on average: enough that parts of
/// band1 Sudoku counts differ by a third at most, with 256 parts.
const CUBES_A_PART: u64 = 512;

impl Split {
    /// The split of `puzzle` into `parts` parts (at least one).
    pub(crate) fn new(puzzle: &Puzzle, parts: u64) -> Self {
        Self::with_cubes(puzzle, parts, CUBES_A_PART.saturating_mul(parts.max(1)))
    }

    /// The split of `puzzle` into `parts` parts (at least one), into
    /// about `wanted` cubes.
    pub(crate) fn with_cubes(puzzle: &Puzzle, parts: u64, wanted: u64) -> Self {
        let n = puzzle.size();
        let parts = parts.max(1);
        let mut given = vec![0u8; n * n];
        for cage in puzzle.cages().iter().filter(|cage| cage.cells().len() == 1) {
            let value = cage.target().digits().parse::<u8>().ok().filter(|&v| (1..=n as u8).contains(&v));
            given[cage.cells()[0].index(n)] = value.unwrap_or(u8::MAX);
        }
        let peers: Vec<Vec<usize>> = (0..n * n)
            .map(|cell| {
                let groups = puzzle.groups().iter().filter(|g| g.cells().iter().any(|c| c.index(n) == cell));
                groups.flat_map(|g| g.cells().iter().map(|c| c.index(n))).filter(|&c| c != cell).collect()
            })
            .collect();
        let all = ((1u32 << n) - 1) << 1;
        // The values no given in the cell's groups holds.
        let left = |cell: usize| peers[cell].iter().fold(all, |left, &p| left & !(1u32 << given[p].min(31)));
        let mut cells = Vec::new();
        let mut cubes = 1u64;
        // Cells that share no group first, then any that are left.
        for independent in [true, false] {
            for cell in 0..n * n {
                if cubes >= wanted || n < 2 {
                    break;
                }
                let taken = cells.contains(&cell);
                let clash = peers[cell].iter().any(|p| cells.contains(p));
                if given[cell] != 0 || taken || (independent && clash) {
                    continue;
                }
                cells.push(cell);
                cubes = cubes.saturating_mul(u64::from(left(cell).count_ones()).max(1));
            }
        }
        let candidates = cells.iter().map(|&cell| left(cell)).collect();
        let clashes = cells
            .iter()
            .enumerate()
            .map(|(i, cell)| (0..i).filter(|&j| peers[*cell].contains(&cells[j])).collect())
            .collect();
        Split { size: n, cells, candidates, clashes, parts }
    }

    /// The split cells, in order.
    #[cfg(test)]
    pub(crate) fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// Cube `k`.
    fn cube(&self, k: u64) -> Cube {
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
    fn part_of(&self, k: u64) -> u64 {
        splitmix64(k) % self.parts + 1
    }

    /// The cubes of part `part` (from 1), or of every part, in order,
    /// leaving out those that give a split cell the value of a given in
    /// its groups, or two split cells in one group the same value: they
    /// hold no solution.
    pub(crate) fn cubes(&self, part: Option<u64>) -> Vec<Cube> {
        let mut found = Vec::new();
        let mut values = vec![0usize; self.cells.len()];
        self.extend(0, 0, 1, &mut values, part, &mut found);
        found
    }

    /// Gives split cells `i..` each value they may take, in turn, below
    /// the cube number `k` of the cells before (whose place value is
    /// `weight`).
    fn extend(&self, i: usize, k: u64, weight: u64, values: &mut [usize], part: Option<u64>, found: &mut Vec<Cube>) {
        if i == self.cells.len() {
            if part.is_none_or(|p| self.part_of(k) == p) {
                found.push(self.cube(k));
            }
            return;
        }
        for value in 1..=self.size {
            let clash = self.clashes[i].iter().any(|&j| values[j] == value);
            if self.candidates[i] & (1 << value) == 0 || clash {
                continue;
            }
            values[i] = value;
            self.extend(i + 1, k + (value as u64 - 1) * weight, weight * self.size as u64, values, part, found);
        }
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
        let split = Split::with_cubes(&sudoku, 16, 1024);
        // 8 · 9 · 9 · 9 ≥ 1024: four cells; A1 is given, and each next
        // cell is the first in no row, column or box of one taken.
        assert_eq!(split.cells(), [1, 12, 24, 27]);
    }

    #[test]
    fn cubes_number_every_assignment_once() {
        let latin = Puzzle::new(4, vec![], vec![]).unwrap();
        let split = Split::with_cubes(&latin, 2, 128);
        // 4^4 = 256 ≥ 128: the diagonal.
        assert_eq!(split.cells(), [0, 5, 10, 15]);
        let cubes: std::collections::HashSet<Cube> = split.cubes(None).into_iter().collect();
        assert_eq!(cubes.len(), 256);
        assert_eq!(split.cube(1), vec![(0, 2), (5, 1), (10, 1), (15, 1)]);
        let parts: Vec<Vec<Cube>> = (1..=2).map(|p| split.cubes(Some(p))).collect();
        assert_eq!(parts[0].len() + parts[1].len(), 256);
        assert!(parts.iter().all(|p| p.len() > 100), "{:?}", parts.iter().map(Vec::len).collect::<Vec<_>>());
        assert!(parts[0].iter().all(|c| !parts[1].contains(c)));
    }

    #[test]
    fn more_parts_than_free_cells_allow_take_cells_that_share_groups() {
        let latin = Puzzle::new(3, vec![], vec![]).unwrap();
        let split = Split::with_cubes(&latin, 4, 256);
        // 256 cubes: the diagonal gives 27, A2, A3 and B1 the rest.
        assert_eq!(split.cells(), [0, 4, 8, 1, 2, 3]);
        // Values differ along rows and columns: 36 of the 729 assignments
        // (counted by brute force).
        let cubes = split.cubes(None);
        assert_eq!(cubes.len(), 36);
        assert!(cubes.iter().all(|c| c[0].1 != c[3].1 && c[0].1 != c[4].1 && c[3].1 != c[4].1));
    }
}
