//! The last open cells of a grid with no cages but its givens (a Sudoku,
//! a Latin square): what is left is to give peers different values,
//! which a search over those cells alone does with a word of candidates
//! a cell and one of peers, where the search's boards cost a pass over
//! every value at each node. It places naked singles, as the search does
//! once enough cells are placed, and branches on the first cell with two
//! candidates (else the fewest). The search leaves it its nodes from
//! there, and every node with up to 64 open cells once it seldom fails
//! (see [`LOOSE_AFTER_NODES`]).

use super::layout::members;
use super::propagate::Bits;

/// At most this many open cells: one bit each of a `u64`.
pub(super) const MAX_OPEN: usize = 64;

/// Up to how many open cells a node of a `size` × `size` grid is left
/// to the endgame, while the search fails often and once it seldom does
/// (see [`LOOSE_AFTER_NODES`]). While it fails often, as many as the
/// search has open once it stops looking for hidden singles (more than
/// `hidden_while_placed` cells placed), which the endgame does not look
/// for either; then, up to [`MAX_OPEN`].
pub(super) fn open_up_to(size: usize, hidden_while_placed: usize) -> [usize; 2] {
    #[cfg(test)]
    if let Some(open) = OPEN_UP_TO.get() {
        return [open; 2];
    }
    [(size * size).saturating_sub(hidden_while_placed + 1).min(MAX_OPEN), MAX_OPEN]
}

/// A search seldom fails once it has made this many nodes, fewer than
/// one in [`LOOSE_NODES_A_FAILURE`] failing. Its nodes then gain little
/// from the hidden singles and box–line pruning that the endgame does
/// without, and the endgame's nodes cost a fraction of the search's.
/// Counting every solution of a Sudoku of the serg set, one node in 23
/// fails, and the endgame taking every node with up to 64 open cells
/// took the set's first 200 from 156.8M instructions to 104.4M. Proving
/// Sudoku unique fails more often (forum_hardest one node in 1.7, 17-clue
/// one in 2.6), and there the endgame without hidden singles made the
/// search trees 18 (forum_hardest) to 46 (17-clue) times larger.
pub(super) const LOOSE_AFTER_NODES: u64 = 16;

/// See [`LOOSE_AFTER_NODES`].
pub(super) const LOOSE_NODES_A_FAILURE: u64 = 8;

#[cfg(test)]
thread_local! {
    /// Tests set this to leave nodes to the endgame up to so many open
    /// cells whatever the grid and the search (0: never).
    pub(super) static OPEN_UP_TO: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The open cells of a node, numbered from 0 in cell order, and which of
/// them share a group.
pub(super) struct Endgame {
    /// Each open cell's index in the grid.
    pub cells: [usize; MAX_OPEN],
    /// How many cells are open.
    pub len: usize,
    /// Each open cell's peers among them, as bits of their numbers.
    peers: [u64; MAX_OPEN],
}

impl Default for Endgame {
    fn default() -> Self {
        Endgame { cells: [0; MAX_OPEN], len: 0, peers: [0; MAX_OPEN] }
    }
}

/// Candidates of the open cells, by number (bit v for value v + 1).
pub(super) type Candidates = [u32; MAX_OPEN];

impl Endgame {
    /// Takes the open cells `open`, at most [`MAX_OPEN`], whose peers are
    /// `peers` (by cell), with their candidates in `boards` (one for each
    /// value), written into `candidates`; `numbers` (a byte a cell) is
    /// scratch space. Returns the open cells, as bits of their numbers.
    pub fn take<const W: usize>(
        &mut self,
        open: &Bits<W>,
        peers: &[Bits<W>],
        boards: &[Bits<W>],
        numbers: &mut [u8],
        candidates: &mut Candidates,
    ) -> u64 {
        self.len = 0;
        for cell in members(open) {
            numbers[cell] = self.len as u8;
            self.cells[self.len] = cell;
            self.len += 1;
        }
        for (number, &cell) in self.cells[..self.len].iter().enumerate() {
            let mine = std::array::from_fn::<u64, W, _>(|i| peers[cell][i] & open[i]);
            self.peers[number] = members(&mine).fold(0, |set, peer| set | 1 << numbers[peer]);
        }
        for (v, board) in boards.iter().enumerate() {
            let places = std::array::from_fn::<u64, W, _>(|i| board[i] & open[i]);
            members(&places).for_each(|cell| candidates[usize::from(numbers[cell])] |= 1 << v);
        }
        if self.len == MAX_OPEN { u64::MAX } else { (1 << self.len) - 1 }
    }

    /// Places the cells of `pending` (open, each with one candidate or
    /// none) and every open cell this leaves with one: each leaves
    /// `open`, and its value leaves its open peers. False if a cell is
    /// left with none.
    pub fn settle(&self, candidates: &mut Candidates, open: &mut u64, mut pending: u64) -> bool {
        while pending != 0 {
            let cell = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let value = candidates[cell];
            if value == 0 {
                return false;
            }
            *open &= !(1 << cell);
            let mut peers = self.peers[cell] & *open;
            while peers != 0 {
                let peer = peers.trailing_zeros() as usize;
                peers &= peers - 1;
                let left = candidates[peer] & !value;
                candidates[peer] = left;
                pending |= u64::from(left & left.wrapping_sub(1) == 0) << peer;
            }
        }
        true
    }

    /// The open cell to branch on: the first with two candidates, or
    /// else the first with the fewest. `open` must not be empty.
    pub fn choose(candidates: &Candidates, open: u64) -> usize {
        let mut best = (u32::MAX, 0);
        let mut left = open;
        while left != 0 {
            let cell = left.trailing_zeros() as usize;
            left &= left - 1;
            let set = candidates[cell];
            let rest = set & (set - 1);
            if rest & (rest - 1) == 0 {
                return cell;
            }
            best = best.min((set.count_ones(), cell));
        }
        best.1
    }
}
