//! The last open cells of a grid with no cages but its givens (a Sudoku,
//! a Latin square): what is left is to give peers different values,
//! which a search over those cells alone does with a word of them for
//! each value (the cells that may hold it) and one for each cell (its
//! peers), where the search's boards cost a pass over every value of the
//! whole grid at each node. Placing a value clears it from the cell's
//! peers with one AND-NOT, and the cells left with one value are counted
//! bit-sliced, all at once. It places naked singles, as the search does
//! once enough cells are placed, and branches on the first cell with two
//! values (else the fewest). The search leaves it its nodes from
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
    if size > MAX_VALUES {
        return [0; 2];
    }
    [(size * size).saturating_sub(hidden_while_placed + 1).min(MAX_OPEN), MAX_OPEN]
}

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

/// The most values a grid may have for the endgame to take its nodes: a
/// node's places (for each value, the open cells that may hold it and the
/// endgame's placed cells that hold it, as bits of their numbers) are
/// kept in an array of this many words.
pub(super) const MAX_VALUES: usize = 32;

impl Endgame {
    /// Takes the open cells `open`, at most [`MAX_OPEN`], of a grid whose
    /// groups are `groups`, with their candidates in `boards` (one for
    /// each value), written into `places`; `numbers` (a byte a cell) is
    /// scratch space. Returns the open cells, as bits of their numbers.
    pub fn take<const W: usize>(
        &mut self,
        open: &Bits<W>,
        groups: &[Bits<W>],
        boards: &[Bits<W>],
        numbers: &mut [u8],
        places: &mut [u64],
    ) -> u64 {
        self.len = 0;
        for cell in members(open) {
            numbers[cell] = self.len as u8;
            self.cells[self.len] = cell;
            self.len += 1;
        }
        // Each open cell's peers, group by group: a cell is in a few
        // groups and has many peers.
        let numbered = |set: &Bits<W>| {
            let mine = std::array::from_fn::<u64, W, _>(|i| set[i] & open[i]);
            members(&mine).fold(0u64, |mine, cell| mine | 1 << numbers[cell])
        };
        self.peers[..self.len].fill(0);
        for group in groups {
            let mine = numbered(group);
            let mut left = mine;
            while left != 0 {
                self.peers[left.trailing_zeros() as usize] |= mine;
                left &= left - 1;
            }
        }
        for (number, peers) in self.peers[..self.len].iter_mut().enumerate() {
            *peers &= !(1 << number);
        }
        for (board, place) in boards.iter().zip(places) {
            *place = numbered(board);
        }
        if self.len == MAX_OPEN { u64::MAX } else { (1 << self.len) - 1 }
    }

    /// Writes into `child` the places of `places` with `cell` given the
    /// value `value`: the cell leaves every other value, and its peers
    /// that value.
    pub fn place(&self, places: &[u64], child: &mut [u64], cell: usize, value: usize) {
        let (peers, bit) = (self.peers[cell], 1 << cell);
        for (u, (child, &place)) in child.iter_mut().zip(places).enumerate() {
            *child = place & if u == value { !peers } else { !bit };
        }
    }

    /// Places every `open` cell of `places` left with one value, and
    /// those this leaves with one, until none is: each leaves `open`,
    /// and its value leaves its peers. Returns the open cells left with
    /// two values, or `None` if a cell is left with none or two peers
    /// with the same one.
    pub fn settle(&self, places: &mut [u64], open: &mut u64) -> Option<u64> {
        loop {
            // Bit-sliced: the open cells with one value or more, with two
            // or more, and with three or more.
            let (mut ones, mut twos, mut threes) = (0, 0, 0);
            for &place in places.iter() {
                let place = place & *open;
                threes |= twos & place;
                twos |= ones & place;
                ones |= place;
            }
            if *open & !ones != 0 {
                return None;
            }
            let singles = *open & !twos;
            if singles == 0 {
                return Some(twos & !threes);
            }
            *open &= !singles;
            for place in places.iter_mut() {
                let mut placed = *place & singles;
                let mut peers = 0;
                while placed != 0 {
                    peers |= self.peers[placed.trailing_zeros() as usize];
                    placed &= placed - 1;
                }
                if peers & *place & singles != 0 {
                    return None;
                }
                *place &= !peers;
            }
        }
    }

    /// The open cell to branch on: the first of `pairs` (those with two
    /// values), or else the first with the fewest. `open` must not be
    /// empty.
    pub fn choose(places: &[u64], open: u64, pairs: u64) -> usize {
        if pairs != 0 {
            return pairs.trailing_zeros() as usize;
        }
        let mut best = (usize::MAX, 0);
        let mut left = open;
        while left != 0 {
            let cell = left.trailing_zeros() as usize;
            left &= left - 1;
            best = best.min((places.iter().filter(|&&place| place >> cell & 1 != 0).count(), cell));
        }
        best.1
    }
}
