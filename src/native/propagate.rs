//! Candidates as one bitboard per value, and propagation to a fixpoint:
//! naked singles, hidden singles, cage reasoning and, on 9×9 grids with
//! 3×3 boxes, box–line interactions (there, hidden singles too are found
//! band by band), each a few mask operations.

use std::rc::Rc;

use super::bands;
use super::cage;
use super::layout::{CageLayout, Layout, Part, Shape, members};
use super::memo::{self, Memo};
use super::pairs;
use super::spare;
use super::tuning::{BANDS_WHILE_PLACED, HIDDEN_WHILE_PLACED_PERCENT, PAIRS_FIRST_UP_TO, SINGLES_BY_CELL_UP_TO_WORDS};
use crate::puzzle::Op;

/// Whether a test asked for naked singles placed value by value.
#[cfg(test)]
fn by_value_in_tests() -> bool {
    SINGLES_VALUE_BY_VALUE.get()
}

/// Whether a test asked for naked singles placed value by value: none here.
#[cfg(not(test))]
fn by_value_in_tests() -> bool {
    false
}

/// Propagation found a cell with no candidate left, or a value with no
/// place in a group (or no room in a band): this branch holds no solution.
#[derive(Debug)]
pub(super) struct Contradiction;

/// A set of cells, one bit per cell (row-major): bit `c % 64` of word
/// `c / 64` for cell c. `W` is ⌈N² / 64⌉, from 1 to 10 for N up to 25.
pub(super) type Bits<const W: usize> = [u64; W];

/// The state of a search node: for each value v (from 0), the cells where
/// it is still a candidate, then the cells already placed (`N + 1` sets).
pub(super) type Boards<const W: usize> = [Bits<W>];

pub(super) fn and<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    let mut out = *a;
    for i in 0..W {
        out[i] &= b[i];
    }
    out
}

pub(super) fn and_not<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    let mut out = *a;
    for i in 0..W {
        out[i] &= !b[i];
    }
    out
}

pub(super) fn is_empty<const W: usize>(a: &Bits<W>) -> bool {
    a.iter().all(|&w| w == 0)
}

pub(super) fn has<const W: usize>(a: &Bits<W>, cell: usize) -> bool {
    a[cell / 64] & (1 << (cell % 64)) != 0
}

/// How many cells a set has.
///
/// Without the processor's population count (not in the baseline x86-64
/// that release builds target), `count_ones` is a dozen instructions a
/// word; here the words' bits are summed in parallel within each word
/// first and the words' sums added before the last steps, which are done
/// once for the set.
pub(super) fn count<const W: usize>(a: &Bits<W>) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return a.iter().map(|w| w.count_ones()).sum();
    }
    const PAIRS: u64 = 0x5555_5555_5555_5555;
    const NIBBLES: u64 = 0x3333_3333_3333_3333;
    const BYTES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Each byte of a word's sum counts at most 8 of its cells, and a byte
    // of `bytes` at most 80 (10 words, a 25×25 set).
    let mut bytes = 0u64;
    for &w in a {
        let pairs = w - (w >> 1 & PAIRS);
        let nibbles = (pairs & NIBBLES) + (pairs >> 2 & NIBBLES);
        bytes += (nibbles + (nibbles >> 4)) & BYTES;
    }
    if W * 64 < 256 {
        return (bytes.wrapping_mul(ONES) >> 56) as u32;
    }
    // Sums past 255 in 16-bit lanes.
    const LANES: u64 = 0x00FF_00FF_00FF_00FF;
    let lanes = (bytes & LANES) + (bytes >> 8 & LANES);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// A set of cells of a grid of at most 128 (`W` at most 2), as one number.
fn wide<const W: usize>(a: &Bits<W>) -> u128 {
    a.iter().enumerate().fold(0, |set, (i, &w)| set | u128::from(w) << (64 * i))
}

/// [`wide`] undone.
fn narrow<const W: usize>(set: u128) -> Bits<W> {
    std::array::from_fn(|i| (set >> (64 * i)) as u64)
}

/// Removes `cells` from `board`, adding the cells it had to `changed`.
/// Reports whether it had any.
fn clear<const W: usize>(board: &mut Bits<W>, cells: &Bits<W>, changed: &mut Bits<W>) -> bool {
    let mut had = 0;
    for i in 0..W {
        let gone = board[i] & cells[i];
        had |= gone;
        changed[i] |= gone;
        board[i] &= !cells[i];
    }
    had != 0
}

/// Calls `f` on each cell of `set`, smallest first, until it fails. A
/// loop per word, which the compiler unrolls over the words, so that each
/// word's loop has its own branch to predict. Naked singles are placed
/// this way; hidden singles, placed this way, ran slower.
#[inline(always)]
fn try_each<const W: usize, E>(set: &Bits<W>, mut f: impl FnMut(usize) -> Result<(), E>) -> Result<(), E> {
    for (index, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            f(index * 64 + bit)?;
        }
    }
    Ok(())
}

/// The `i`-th set of a table of sets of `W` words each.
fn set<const W: usize>(table: &[u64], i: usize) -> &Bits<W> {
    table[i * W..(i + 1) * W].try_into().expect("a table of sets of W words")
}

/// Whether `a` and `b` are the same set, compared a word at a time: a
/// wide load of words just stored one by one cannot take them from the
/// stores, and waits until they are written.
#[inline(always)]
fn same<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> bool {
    (0..W).fold(0, |d, i| d | (a[i] ^ b[i])) == 0
}

/// The values (bit v for value v + 1) whose boards differ between `a`
/// and `b`, found without a branch on each.
#[inline(always)]
fn differing<const W: usize>(a: &[Bits<W>], b: &[Bits<W>]) -> u32 {
    a.iter().zip(b).enumerate().fold(0, |mask, (v, (a, b))| mask | u32::from(!same(a, b)) << v)
}

/// Turns the sets of the cells of the bits of `turned`: value v becomes
/// N + 1 - v, in an N×N grid of `size` (see [`CageLayout::turned`]).
fn turn(sets: &mut [u32], turned: u64, size: usize) {
    let mut bits = turned;
    while bits != 0 {
        let j = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        sets[j] = sets[j].reverse_bits() >> (32 - size);
    }
}

/// Whether `a` has two cells or more, with no branch on the words: a word
/// with two bits, or a set bit after a word that had one.
fn several<const W: usize>(a: &Bits<W>) -> bool {
    let (mut seen, mut several) = (0u64, 0u64);
    for &w in a {
        several |= w & w.wrapping_sub(1) | w & 0u64.wrapping_sub(u64::from(seen != 0));
        seen |= w;
    }
    several != 0
}

/// The cage and group tables of a layout, seen as sets of `W` words, and
/// work lists shared by every propagation of one search, so that nothing
/// is allocated per node.
///
/// `N` is the grid's size when it is fixed at compile time, so that every
/// loop over the values has a known count (see `mod.rs`), or 0 for a size
/// read from the layout.
pub(super) struct Propagator<'a, const W: usize, const N: usize> {
    pub layout: &'a Layout,
    /// The grid's size, whatever `N`.
    size: usize,
    /// Every cell of the grid.
    pub all: Bits<W>,
    caged: Bits<W>,
    /// The cells in two cages or more (see [`Layout::shared`]).
    shared: Bits<W>,
    /// Cells whose candidates changed since their cages were last marked.
    changed: Bits<W>,
    /// For each cell, the full groups it is in, as a set of group indices
    /// (`group_words` words each).
    groups_of: &'a [u64],
    group_words: usize,
    /// Work lists, kept from one search to the next on the thread.
    work: Box<Work<W>>,
    /// Cage supports already worked out.
    memo: Memo,
    /// Whether the root is being propagated. Its revisions do not go
    /// through the memo: its candidate sets do not come again. Its pairs may come before its larger cages (see
    /// [`PAIRS_FIRST_UP_TO`]), and above 16×16 its cages are checked
    /// exactly up to more combinations (see [`ROOT_EXACT_LIMIT`](super::tuning::ROOT_EXACT_LIMIT)).
    at_root: bool,
    /// The largest weight (see [`Work::weight`]).
    pub max_weight: u32,
    /// Whether hidden singles have not been looked for since the root was
    /// set up: every group is looked at then, not just those where a value
    /// lost a place, since nearly all have.
    fresh: bool,
    /// Whether box–line interactions are worked out in bands (see
    /// [`Shape::in_bands`]).
    in_bands: bool,
    /// How many cells may be placed for hidden singles to be looked for
    /// (see [`HIDDEN_WHILE_PLACED_PERCENT`]).
    hidden_while_placed: u32,
    /// Whether naked singles may be placed cell by cell (see
    /// [`SINGLES_BY_CELL_UP_TO_WORDS`]): always but in tests that ask not.
    singles_by_cell: bool,
}

#[cfg(test)]
thread_local! {
    /// Tests set this to have naked singles placed value by value at every
    /// size, and count the clashes of singles met cell by cell.
    pub(super) static SINGLES_VALUE_BY_VALUE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    pub(super) static CLASHES_BY_CELL: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The lists a propagator works in, sized for one puzzle but kept on the
/// thread for the next (see `spare.rs`).
#[derive(Default)]
pub(super) struct Work<const W: usize> {
    /// For each value, its places when hidden singles were last looked
    /// for: only groups with a cell that lost the value since need a look.
    seen: Vec<Bits<W>>,
    /// For box–line interactions, each value's places as they were left
    /// by the last look for them, in this search: places found again
    /// (as after a look that took none) need no look. Unlike `seen`, not
    /// set again for each node: a child's boards differ from its
    /// parent's in most values anyway, and setting it cost more than the
    /// looks it saved.
    in_bands_seen: Vec<Bits<W>>,
    /// Cages with a cell that changed since the cage was last revised:
    /// the first `dirty_len` of `dirty`, which has room for every cage and
    /// one more, so that a cage is written there whether it is already in
    /// or not (and counted only if not), without a branch on which.
    dirty: Vec<usize>,
    dirty_len: usize,
    is_dirty: Vec<bool>,
    /// Scratch space for cage reasoning: candidate sets, then supports.
    sets: Vec<u32>,
    keep: Vec<u32>,
    required: Vec<u32>,
    /// Each `?` cage's completions (see [`cage::Completions`]), once asked
    /// for: `Some(None)` for a cage that is not listed.
    listed: Vec<Option<Option<Rc<cage::Completions>>>>,
    /// How many contradictions each cell took part in, plus one: the
    /// search branches where failures concentrate (see `mod.rs`).
    weight: Vec<u32>,
    /// For each value, the full groups it was placed in since the last
    /// propagation ended, the decision before this one included
    /// (`group_words` words a value): hidden singles need no look there,
    /// though the cells that lost the value on placing it lie in them.
    /// Not kept on a grid in bands, whose look has no use for it.
    placed_in: Vec<u64>,
    /// For each cell, the cells sharing a group with it, every group and
    /// the groups of N cells: the layout's, as sets, so that reading one
    /// costs one bounds check.
    peers: Vec<Bits<W>>,
    groups: Vec<Bits<W>>,
    full_groups: Vec<Bits<W>>,
    /// The shape those two were copied from: the next puzzle of the same
    /// shape (of a file, as a rule) copies nothing.
    shape: Option<Rc<Shape>>,
}

impl<const W: usize> Work<W> {
    /// Lists for a search of `layout`, in those the thread kept, if any.
    fn new(layout: &Layout) -> Box<Self> {
        let mut work = spare::take::<Work<W>>();
        // Set at the root (see `Propagator::unpruned`).
        work.seen.resize(layout.size, [0; W]);
        work.in_bands_seen.resize(layout.size, [0; W]);
        work.dirty.clear();
        work.dirty.resize(layout.cage_count() + 1, 0);
        work.dirty_len = 0;
        work.is_dirty.clear();
        work.is_dirty.resize(layout.cage_count(), false);
        work.listed.clear();
        work.listed.resize(layout.cage_count(), None);
        work.weight.clear();
        work.weight.resize(layout.size * layout.size, 1);
        work.placed_in.clear();
        work.placed_in.resize(layout.size * layout.shape.group_words, 0);
        if !work.shape.as_ref().is_some_and(|shape| Rc::ptr_eq(shape, &layout.shape)) {
            let sets = |table: &[u64], into: &mut Vec<Bits<W>>| {
                into.clear();
                into.extend(table.chunks_exact(W).map(|s| Bits::<W>::try_from(s).expect("sets of W words")));
            };
            sets(&layout.shape.peers, &mut work.peers);
            sets(&layout.shape.groups, &mut work.groups);
            sets(&layout.shape.full_groups, &mut work.full_groups);
            work.shape = Some(Rc::clone(&layout.shape));
        }
        work
    }
}

impl<'a, const W: usize, const N: usize> Propagator<'a, W, N> {
    pub fn new(layout: &'a Layout) -> Self {
        let shape = &*layout.shape;
        Propagator {
            layout,
            size: layout.size,
            all: *set(&shape.all, 0),
            caged: *set(&layout.caged, 0),
            shared: *set(&layout.shared, 0),
            changed: [0; W],
            groups_of: &shape.groups_of,
            group_words: shape.group_words,
            work: Work::new(layout),
            memo: Memo::new(layout.size),
            at_root: true,
            max_weight: 1,
            fresh: true,
            in_bands: shape.in_bands,
            hidden_while_placed: (layout.size * layout.size * HIDDEN_WHILE_PLACED_PERCENT / 100) as u32,
            singles_by_cell: !by_value_in_tests(),
        }
    }

    /// The grid's size: `N`, or the layout's when `N` is 0.
    #[inline(always)]
    pub fn size(&self) -> usize {
        if N == 0 { self.size } else { N }
    }

    /// Gives the work lists back to the thread, for the next search.
    pub fn finish(self) {
        spare::give(self.work);
    }

    /// How many contradictions `cell` took part in, plus one.
    pub fn weight(&self) -> &[u32] {
        &self.work.weight
    }

    /// The root, into `boards`: every value a candidate everywhere but
    /// where a given says otherwise, every cage to be revised; up to
    /// [`PAIRS_FIRST_UP_TO`], with the pairs revised once already.
    pub fn root(&mut self, boards: &mut Vec<Bits<W>>) {
        self.unpruned(boards);
        if self.size() <= PAIRS_FIRST_UP_TO {
            self.changed = [0; W];
            // A pair's cell that is given, or in another cage too, has
            // more to tell than the pair's table knows.
            let seeded = and_not(&and_not(&self.seed_pairs(boards), &self.shared), set(&self.layout.given, 0));
            self.changed = std::array::from_fn(|i| self.all[i] & !seeded[i] | self.changed[i]);
        }
    }

    /// [`Propagator::root`] with nothing pruned yet, not even by the pairs.
    pub fn unpruned(&mut self, boards: &mut Vec<Bits<W>>) {
        let open = and_not(&self.all, set(&self.layout.given, 0));
        boards.clear();
        boards.extend(
            (0..self.size()).map(|v| std::array::from_fn(|i| open[i] | set::<W>(&self.layout.given_values, v)[i])),
        );
        boards.push([0; W]);
        self.changed = self.all;
        self.work.seen.fill(self.all);
        self.work.in_bands_seen.fill([0; W]);
        self.at_root = true;
        self.fresh = true;
    }

    /// The root's first revision of every pair, whose cells have every
    /// value yet: its outcome is the pair's table's (see
    /// [`Layout::full_pair`]), applied without reading the candidates.
    /// Returns the cells of the pairs, which need no revision again unless
    /// something else takes a value from them (so noted in `changed`).
    fn seed_pairs(&mut self, boards: &mut Boards<W>) -> Bits<W> {
        let mut seeded = [0u64; W];
        let layout = self.layout;
        for index in 0..layout.cage_count() {
            let Some((keep, both)) = layout.full_pair(index) else { continue };
            let &[a, b] = layout.cells(index) else { unreachable!("a pair has two cells") };
            let mut pair = [0u64; W];
            for cell in [a, b] {
                pair[cell / 64] |= 1 << (cell % 64);
            }
            // Both cells at once, every board without a branch on which
            // values go (as `take_values` does for one cell).
            for (v, board) in boards[..self.size()].iter_mut().enumerate() {
                let gone = 0u64.wrapping_sub(u64::from(!keep >> v & 1));
                for i in 0..W {
                    board[i] &= !(pair[i] & gone);
                }
            }
            seeded = std::array::from_fn(|i| seeded[i] | pair[i]);
            if both != 0 {
                for part in layout.pair(index).2 {
                    self.rule_out(boards, &[a, b], part, both);
                }
            }
        }
        seeded
    }

    /// Up to how many placed cells hidden singles are looked for.
    pub fn looks_for_hidden_while_placed(&self) -> usize {
        self.hidden_while_placed as usize
    }

    /// For each cell, the cells sharing a group with it.
    pub fn peers(&self) -> &[Bits<W>] {
        &self.work.peers
    }

    /// The most peers a cell has.
    pub fn most_peers(&self) -> u32 {
        self.layout.shape.most_peers
    }

    /// Every group of the grid.
    pub fn groups(&self) -> &[Bits<W>] {
        &self.work.groups
    }

    /// The values still possible in `cell`, as a set (bit v for value v + 1).
    pub fn values(&self, boards: &Boards<W>, cell: usize) -> u32 {
        let (word, bit) = (cell / 64, cell % 64);
        // Each value's bit for the cell, left where it is and turned v
        // places: the values' bits land side by side (N ≤ 25 < 64), and
        // one turn back puts them at 0.
        let mut set = 0u64;
        for (v, board) in boards[..self.size()].iter().enumerate() {
            set |= (board[word] & 1 << bit).rotate_left(v as u32);
        }
        set.rotate_right(bit as u32) as u32
    }

    /// Places value `v` (from 0) in `cell`, which must hold it as a
    /// candidate: the cell loses its other values, its peers lose `v`.
    pub fn place(&mut self, boards: &mut Boards<W>, cell: usize, v: usize) {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        for board in &mut boards[..self.size()] {
            board[word] &= !bit;
        }
        boards[self.size()][word] |= bit;
        let board = &mut boards[v];
        board[word] |= bit;
        clear(board, &self.work.peers[cell], &mut self.changed);
        self.changed[word] |= bit;
        self.note_placed(cell, v);
    }

    /// Notes that value `v` (from 0) was placed in the groups of `cell`,
    /// for the group-by-group look for hidden singles (a grid in bands has
    /// no use for it).
    fn note_placed(&mut self, cell: usize, v: usize) {
        if self.in_bands {
            return;
        }
        let gw = self.group_words;
        for k in 0..gw {
            self.work.placed_in[v * gw + k] |= self.groups_of[cell * gw + k];
        }
    }

    /// Removes the values `gone` (bit v for value v + 1) from the
    /// candidates of `cell`, leaving the rest to the next propagation.
    pub fn remove(&mut self, boards: &mut Boards<W>, cell: usize, gone: u32) {
        self.changed[cell / 64] |= 1 << (cell % 64);
        self.take_values(boards, cell, gone);
    }

    /// [`Propagator::remove`] without noting that `cell` changed.
    fn take_values(&self, boards: &mut Boards<W>, cell: usize, gone: u32) {
        let (word, shift) = (cell / 64, cell % 64);
        // Every board, without a branch on which values go: cheaper than
        // the mispredicted branches of a loop over `gone`.
        for (v, board) in boards[..self.size()].iter_mut().enumerate() {
            board[word] &= !(u64::from(gone >> v & 1) << shift);
        }
    }

    /// Whether `cell` is placed, and with value `v` (from 0).
    pub fn holds(&self, boards: &Boards<W>, cell: usize, v: usize) -> bool {
        has(&boards[self.size()], cell) && has(&boards[v], cell)
    }

    /// Propagates until nothing changes.
    pub fn run(&mut self, boards: &mut Boards<W>) -> Result<(), Contradiction> {
        let result = self.fixpoint(boards);
        // A grid in bands notes nothing there (see `note_placed`).
        if !self.in_bands {
            self.work.placed_in.fill(0);
        }
        if result.is_err() {
            // The list may be half sorted into pairs and the rest.
            self.work.is_dirty.fill(false);
            self.work.dirty_len = 0;
            self.changed = [0; W];
        }
        result
    }

    fn fixpoint(&mut self, boards: &mut Boards<W>) -> Result<(), Contradiction> {
        loop {
            if !(self.naked_singles(boards)?
                || self.revise_cages(boards)?
                || self.hidden_singles(boards)?
                || self.in_bands && self.box_lines(boards)?)
            {
                return Ok(());
            }
        }
    }

    /// Counts a contradiction against `cells`.
    pub(super) fn blame(&mut self, cells: impl IntoIterator<Item = usize>) {
        for cell in cells {
            self.work.weight[cell] = self.work.weight[cell].saturating_add(1);
            self.max_weight = self.max_weight.max(self.work.weight[cell]);
        }
    }

    /// Places every unplaced cell with one candidate left; fails on a cell
    /// with none. Reports whether anything was placed and cells are still
    /// open: once every cell is placed, a look for more would find none.
    fn naked_singles(&mut self, boards: &mut Boards<W>) -> Result<bool, Contradiction> {
        let size = self.size();
        let (mut once, mut twice) = ([0u64; W], [0u64; W]);
        for board in &boards[..size] {
            for i in 0..W {
                twice[i] |= once[i] & board[i];
                once[i] |= board[i];
            }
        }
        let empty = and_not(&self.all, &once);
        let singles = and_not(&and_not(&once, &twice), &boards[size]);
        // One branch on both: branched on `empty` alone first, the compiler
        // put `twice` off past it, and kept every board's words on the stack
        // meanwhile.
        if !is_empty(&empty) | is_empty(&singles) {
            if !is_empty(&empty) {
                self.blame(members(&empty));
                return Err(Contradiction);
            }
            return Ok(false);
        }
        if W <= SINGLES_BY_CELL_UP_TO_WORDS && self.singles_by_cell {
            // Each single's value, bit-sliced: plane j is the union of the
            // boards of the values with bit j set, so that a single, in one
            // board only, has there the bits of its one candidate's index.
            // Other cells' bits mean nothing.
            let planes = (usize::BITS - (size - 1).leading_zeros()) as usize;
            let mut index = [[0u64; W]; 5];
            for (v, board) in boards[..size].iter().enumerate() {
                for (j, plane) in index[..planes].iter_mut().enumerate() {
                    if v >> j & 1 == 1 {
                        for i in 0..W {
                            plane[i] |= board[i];
                        }
                    }
                }
            }
            self.place_by_cell(boards, &singles, &index[..planes])?;
            // Not joined with the return below, which compiles worse.
            return Ok(!same(&boards[size], &self.all));
        }
        // The singles of each value are placed together: the value leaves
        // every peer of them (their other boards have nothing to clear).
        // The values with singles are found first, without a branch on each.
        let mut values = 0u32;
        for (v, board) in boards[..size].iter().enumerate() {
            values |= u32::from(!is_empty(&and(&singles, board))) << v;
        }
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            self.place_all(boards, v, &and(&singles, &boards[v]))?;
        }
        Ok(!same(&boards[size], &self.all))
    }

    /// Places `singles` one by one, each cell's value read from `index`
    /// (bit-sliced); fails, as [`Propagator::place_all`] would, if two of
    /// one value share a group.
    fn place_by_cell(
        &mut self,
        boards: &mut Boards<W>,
        singles: &Bits<W>,
        index: &[Bits<W>],
    ) -> Result<(), Contradiction> {
        try_each(singles, |cell| {
            let (word, bit) = (cell / 64, cell % 64);
            let v = index.iter().enumerate().fold(0, |v, (j, plane)| v | ((plane[word] >> bit) as usize & 1) << j);
            // An earlier single of the value shares a group with this one.
            if !has(&boards[v], cell) {
                self.blame_first_clash(singles, index, cell, v);
                return Err(Contradiction);
            }
            clear(&mut boards[v], &self.work.peers[cell], &mut self.changed);
            self.note_placed(cell, v);
            Ok(())
        })?;
        self.mark_placed(boards, singles);
        Ok(())
    }

    /// Marks `cells` placed, and changed.
    #[inline(always)]
    fn mark_placed(&mut self, boards: &mut Boards<W>, cells: &Bits<W>) {
        let size = self.size();
        for i in 0..W {
            boards[size][i] |= cells[i];
            self.changed[i] |= cells[i];
        }
    }

    /// Blames the cell that placing `singles` value by value (each value's
    /// in cell order, as [`Propagator::place_all`] does) first finds taken
    /// by an earlier single: the same as the search has always blamed, so
    /// that the weights, and the trees, do not depend on the order the
    /// singles are placed in. `index` is the singles' values, bit-sliced;
    /// `clash`, of value `value`, is the first clash in cell order, so the
    /// first of its value: only a lower value can clash before it.
    #[cold]
    fn blame_first_clash(&mut self, singles: &Bits<W>, index: &[Bits<W>], clash: usize, value: usize) {
        #[cfg(test)]
        CLASHES_BY_CELL.set(CLASHES_BY_CELL.get() + 1);
        for v in 0..value {
            let mine = index.iter().enumerate().fold(*singles, |mine, (j, plane)| match v >> j & 1 {
                1 => and(&mine, plane),
                _ => and_not(&mine, plane),
            });
            let mut peers = [0u64; W];
            for cell in members(&mine) {
                if has(&peers, cell) {
                    self.blame([cell]);
                    return;
                }
                peers = std::array::from_fn(|i| peers[i] | self.work.peers[cell][i]);
            }
        }
        self.blame([clash]);
    }

    /// Places value `v` (from 0) in every cell of `cells`, which must be
    /// open and have it as their one candidate: their peers lose `v`.
    /// Fails if two of the cells share a group.
    #[inline(always)]
    fn place_all(&mut self, boards: &mut Boards<W>, v: usize, cells: &Bits<W>) -> Result<(), Contradiction> {
        let mut peers = [0u64; W];
        for cell in members(cells) {
            // An earlier cell's placement takes this one's value.
            if has(&peers, cell) {
                self.blame([cell]);
                return Err(Contradiction);
            }
            let theirs = &self.work.peers[cell];
            for i in 0..W {
                peers[i] |= theirs[i];
            }
            self.note_placed(cell, v);
        }
        clear(&mut boards[v], &peers, &mut self.changed);
        self.mark_placed(boards, cells);
        Ok(())
    }

    /// Records `boards`, propagated, as the state that hidden singles were
    /// last looked for in: to call before deciding on a copy of them.
    /// Below a node with too many cells placed for hidden singles to be
    /// looked for, none are, so nothing is recorded.
    pub fn propagated(&mut self, boards: &Boards<W>) {
        let size = self.size();
        if count(&boards[size]) < self.hidden_while_placed {
            self.work.seen.copy_from_slice(&boards[..size]);
        }
        self.at_root = false;
    }

    /// Places every value that has one place left in a full group; fails
    /// on a value with none. Looks only at the groups where the value lost
    /// a place since the last look, and only while few enough cells are
    /// placed (see [`HIDDEN_WHILE_PLACED_PERCENT`]).
    fn hidden_singles(&mut self, boards: &mut Boards<W>) -> Result<bool, Contradiction> {
        if count(&boards[self.size()]) > self.hidden_while_placed {
            return Ok(false);
        }
        if self.in_bands {
            return self.hidden_singles_in_bands(boards);
        }
        let mut found = false;
        for v in 0..self.size() {
            let lost = and_not(&self.work.seen[v], &boards[v]);
            if is_empty(&lost) {
                continue;
            }
            self.work.seen[v] = boards[v];
            // The groups to look at, one word of group indices at a time
            // (one word in all for up to 64 groups: every grid up to 21×21
            // with boxes).
            let gw = self.group_words;
            for k in 0..gw {
                let look = if self.fresh {
                    let groups = self.work.full_groups.len();
                    match groups.saturating_sub(k * 64) {
                        64.. => u64::MAX,
                        left => (1 << left) - 1,
                    }
                } else {
                    members(&lost).fold(0, |look, cell| look | self.groups_of[cell * gw + k])
                };
                let mut word = look & !self.work.placed_in[v * gw + k];
                while word != 0 {
                    let g = k * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    found |= self.hidden_single(boards, v, g)?;
                }
            }
        }
        self.fresh = false;
        Ok(found)
    }

    /// [`Propagator::hidden_singles`] on a grid in bands (see
    /// [`Shape::in_bands`]), every row, column and box of a value at once
    /// (see `bands.rs`), for each value whose places changed since its last
    /// look. It takes about as many instructions as the group-by-group
    /// look, but has no branch on each group, whose outcome the processor
    /// mispredicts often.
    fn hidden_singles_in_bands(&mut self, boards: &mut Boards<W>) -> Result<bool, Contradiction> {
        // Out of the work lists for the look, so that its length is known
        // and its place kept in a register across the calls of
        // `bands::singles`, not read again after each.
        let mut seen = std::mem::take(&mut self.work.seen);
        let found = self.hidden_singles_seen(boards, &mut seen);
        self.work.seen = seen;
        found
    }

    /// [`Propagator::hidden_singles_in_bands`], with `seen` the values'
    /// places when last looked at.
    fn hidden_singles_seen(&mut self, boards: &mut Boards<W>, seen: &mut [Bits<W>]) -> Result<bool, Contradiction> {
        let size = self.size();
        let seen = &mut seen[..size];
        let mut found = false;
        // The values to look at as a mask, found without a branch on each,
        // and kept up to date as singles are placed: the same values in the
        // same order as a test of each against its last look, whose
        // outcome the processor mispredicted often.
        let mut changed = differing(seen, &boards[..size]);
        while changed != 0 {
            let v = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            seen[v] = boards[v];
            let singles = bands::singles(wide(&boards[v])).ok_or(Contradiction)?;
            let singles = and_not(&narrow(singles), &boards[size]);
            // All at once: two that share a group fail here, where placing
            // them one by one left the second to fail a look later.
            if !is_empty(&singles) {
                // A later value that loses a place is looked at in this
                // pass, an earlier one in the next, as by the test of each.
                let later = !((2u32 << v) - 1);
                for (u, board) in boards[..size].iter_mut().enumerate() {
                    changed |= u32::from(!is_empty(&and(board, &singles))) << u & later;
                    *board = and_not(board, &singles);
                }
                boards[v] = std::array::from_fn(|i| boards[v][i] | singles[i]);
                self.place_all(boards, v, &singles)?;
                found = true;
            }
        }
        self.fresh = false;
        Ok(found)
    }

    /// Places value `v` in full group `g` if it has one place left there
    /// and is not placed yet; fails if it has none.
    fn hidden_single(&mut self, boards: &mut Boards<W>, v: usize, g: usize) -> Result<bool, Contradiction> {
        let group = self.work.full_groups[g];
        let places = and(&boards[v], &group);
        if several(&places) {
            return Ok(false);
        }
        match members(&places).next() {
            Some(cell) if !has(&boards[self.size()], cell) => {
                self.place(boards, cell, v);
                Ok(true)
            }
            Some(_) => Ok(false),
            None => {
                self.blame(members(&group));
                Err(Contradiction)
            }
        }
    }

    /// On a grid in bands (see [`Shape::in_bands`]), takes from each value
    /// whose places changed since the last look the places that box–line
    /// interactions rule out (see `bands.rs`), while at most
    /// [`BANDS_WHILE_PLACED`] cells are placed; fails on a value left
    /// with no room. Reports whether any place went. The singles this
    /// leaves are for the next look for hidden singles.
    #[inline(never)]
    fn box_lines(&mut self, boards: &mut Boards<W>) -> Result<bool, Contradiction> {
        let size = self.size();
        if count(&boards[size]) > BANDS_WHILE_PLACED {
            return Ok(false);
        }
        let mut pruned = false;
        let seen = &mut self.work.in_bands_seen[..size];
        // As a mask, as in `hidden_singles_seen`.
        let mut changed = differing(seen, &boards[..size]);
        while changed != 0 {
            let v = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (places, seen) = (&mut boards[v], &mut seen[v]);
            let board = wide(places);
            let kept = bands::prune(board).ok_or(Contradiction)?;
            if kept != board {
                let kept = narrow(kept);
                for i in 0..W {
                    self.changed[i] |= places[i] & !kept[i];
                }
                *places = kept;
                pruned = true;
            }
            *seen = *places;
        }
        Ok(pruned)
    }

    /// Revises every cage with a changed cell against its op and target.
    /// Reports whether any candidate went.
    fn revise_cages(&mut self, boards: &mut Boards<W>) -> Result<bool, Contradiction> {
        let touched = and(&self.changed, &self.caged);
        self.changed = [0; W];
        // Nothing to revise, as in every propagation of a plain Sudoku.
        if is_empty(&touched) && self.work.dirty_len == 0 {
            return Ok(false);
        }
        let work = &mut *self.work;
        for cell in members(&touched) {
            if let Some(cage) = self.layout.cage_of[cell] {
                work.dirty[work.dirty_len] = cage;
                work.dirty_len += usize::from(!work.is_dirty[cage]);
                work.is_dirty[cage] = true;
            }
            if has(&self.shared, cell) {
                for cage in self.layout.also(cell) {
                    work.dirty[work.dirty_len] = cage;
                    work.dirty_len += usize::from(!work.is_dirty[cage]);
                    work.is_dirty[cage] = true;
                }
            }
        }
        // At the root of a grid of up to `PAIRS_FIRST_UP_TO`, a first pass
        // revises the pairs only (see there).
        let mut pairs_only = self.at_root && self.size() <= PAIRS_FIRST_UP_TO;
        let layout = self.layout;
        loop {
            let mut found = false;
            // Last in, first out; cages left for later go to the end of
            // the list, behind the one being revised, and then to the front.
            let (mut i, mut later) = (self.work.dirty_len, self.work.dirty_len);
            while i > 0 {
                i -= 1;
                let index = self.work.dirty[i];
                let cells = layout.cells(index);
                if pairs_only && cells.len() != 2 {
                    later -= 1;
                    self.work.dirty[later] = index;
                    continue;
                }
                self.work.is_dirty[index] = false;
                found |= match *cells {
                    [a, b] if !layout.turns(index) => self.revise_pair(boards, index, a, b)?,
                    _ => self.revise(boards, index, &layout.cage(index))?,
                };
                self.unchange(cells);
            }
            let len = self.work.dirty_len;
            // In the search nothing is left for later: no call to move none.
            if later < len {
                self.work.dirty.copy_within(later..len, 0);
            }
            self.work.dirty_len = len - later;
            if found || !pairs_only {
                return Ok(found);
            }
            pairs_only = false;
        }
    }

    /// Forgets that `cells`, those of a cage just revised, changed: what a
    /// cage removes itself does not call for revising it again.
    /// A cell in another cage too stays changed, for that cage to see.
    fn unchange(&mut self, cells: &[usize]) {
        for &cell in cells {
            self.changed[cell / 64] &= !(1 << (cell % 64)) | self.shared[cell / 64];
        }
    }

    /// Prunes the candidates of `cage`, of index `index`; reports whether
    /// any went.
    fn revise(&mut self, boards: &mut Boards<W>, index: usize, cage: &CageLayout<'_>) -> Result<bool, Contradiction> {
        let mut sets = std::mem::take(&mut self.work.sets);
        let mut keep = std::mem::take(&mut self.work.keep);
        sets.clear();
        sets.extend(cage.cells.iter().map(|&cell| self.values(boards, cell)));
        let size = self.size();
        turn(&mut sets, cage.turned, size);
        let mut required = std::mem::take(&mut self.work.required);
        // Memoised when the sets and the required values each fit in 128 bits.
        let fits = !self.at_root && sets.len() > 2 && cage.parts.len() * size <= 128;
        let packed = if fits { memo::pack(&sets, size) } else { None };
        match packed.and_then(|p| self.memo.get(index, p)) {
            Some((packed_keep, packed_required)) => {
                memo::unpack(packed_keep, sets.len(), size, &mut keep);
                memo::unpack(packed_required, cage.parts.len(), size, &mut required);
            }
            None => {
                // Only `?` cages are listed (see `cage::completions`).
                let listed = match cage.op {
                    Op::Any => self.work.listed[index].get_or_insert_with(|| cage::completions(cage, size)).as_deref(),
                    _ => None,
                };
                cage::supports(cage, size, &sets, &mut keep, &mut required, self.at_root, listed);
                if let Some(p) = packed {
                    let kept = memo::pack(&keep, size).expect("as many cells as the sets");
                    let required = memo::pack(&required, size).expect("parts checked to fit");
                    self.memo.put(index, p, kept, required);
                }
            }
        }
        turn(&mut sets, cage.turned, size);
        turn(&mut keep, cage.turned, size);
        let mut result = Ok(false);
        for ((&cell, &set), &kept) in cage.cells.iter().zip(&sets).zip(&keep) {
            if kept & set == 0 {
                self.blame(cage.cells.iter().copied());
                result = Err(Contradiction);
                break;
            }
            if set & !kept != 0 {
                self.remove(boards, cell, set & !kept);
                result = Ok(true);
            }
        }
        if result.is_ok() {
            for (part, &values) in cage.parts.iter().zip(&required).filter(|(_, v)| **v != 0) {
                if self.rule_out(boards, cage.cells, part, values) {
                    result = Ok(true);
                }
            }
        }
        self.work.sets = sets;
        self.work.keep = keep;
        self.work.required = required;
        result
    }

    /// [`Propagator::revise`] for the cage of index `index`, of two cells,
    /// `a` and `b`: the common case in KenKen, worked out without the
    /// general case's lists.
    fn revise_pair(&mut self, boards: &mut Boards<W>, index: usize, a: usize, b: usize) -> Result<bool, Contradiction> {
        let (partners, apart, parts) = self.layout.pair(index);
        let (set_a, set_b) = (self.values(boards, a), self.values(boards, b));
        let (keep_a, keep_b, both) = pairs::supports(partners, apart, set_a, set_b);
        if keep_a & set_a == 0 || keep_b & set_b == 0 {
            self.blame([a, b]);
            return Err(Contradiction);
        }
        let mut pruned = false;
        for (cell, set, kept) in [(a, set_a, keep_a), (b, set_b, keep_b)] {
            if set & !kept != 0 {
                self.remove(boards, cell, set & !kept);
                pruned = true;
            }
        }
        // A value placed in a cell of the pair has already left the rest
        // of its groups.
        let settled = self.placed_value(boards, a, set_a) | self.placed_value(boards, b, set_b);
        let both = both & !settled;
        if both != 0 {
            for part in parts {
                pruned |= self.rule_out(boards, &[a, b], part, both);
            }
        }
        Ok(pruned)
    }

    /// `set`, the candidates of `cell`, if the cell is placed; else none.
    fn placed_value(&self, boards: &Boards<W>, cell: usize, set: u32) -> u32 {
        0u32.wrapping_sub(u32::from(has(&boards[self.size()], cell))) & set
    }

    /// Removes `values`, which every completion of the cage of `cells`
    /// puts in `part`, from the rest of the part's group. Reports whether
    /// any went.
    fn rule_out(&mut self, boards: &mut Boards<W>, cells: &[usize], part: &Part, mut values: u32) -> bool {
        let mut outside = self.work.full_groups[part.group];
        for cell in (0..cells.len()).filter(|j| part.cells & (1 << j) != 0).map(|j| cells[j]) {
            outside[cell / 64] &= !(1 << (cell % 64));
        }
        let mut pruned = false;
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            pruned |= clear(&mut boards[v], &outside, &mut self.changed);
        }
        pruned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Cage, Cell, Group, Op, Puzzle};
    use rand::{RngExt, SeedableRng};

    /// On 9×9 Sudoku, each node that propagates without a contradiction,
    /// down random paths of the search, is left where the looks in bands
    /// find nothing more: no value has an unplaced hidden single while
    /// they are looked for, and every value has been pruned for box–line
    /// interactions as it now stands while that is done (pruning once, as
    /// `box_lines` does: a second pruning can take more, since the
    /// stacks' pairings change with the bands'). A value that the looks
    /// skipped as unchanged, when it had changed, would fail this.
    #[test]
    fn propagation_in_bands_leaves_no_hidden_single_or_box_line_behind() {
        let puzzles = [
            &b"98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2"[..],
            b"98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
            b"98.7..6..5...9..7...7..4...4...327....65...9.......3.11...8.5...2.........54...8.",
            b".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(53);
        let (mut nodes, mut with_box_lines) = (0, 0);
        let boxes: Vec<Group> = (0..9)
            .map(|b| Group::new((0..9).map(|i| Cell::new(b / 3 * 3 + i / 3, b % 3 * 3 + i % 3)).collect()))
            .collect();
        for givens in puzzles {
            let given = |i: usize| Cage::new(Op::Given, u64::from(givens[i] - b'0'), vec![Cell::new(i / 9, i % 9)]);
            let cages = (0..81).filter(|&i| givens[i].is_ascii_digit()).map(|i| given(i).unwrap()).collect();
            let puzzle = Puzzle::new(9, boxes.clone(), cages).unwrap();
            let layout = Layout::new(&puzzle);
            assert!(layout.shape.in_bands);
            for _ in 0..30 {
                let mut prop = Propagator::<2, 9>::new(&layout);
                let mut boards = Vec::new();
                prop.root(&mut boards);
                while prop.run(&mut boards).is_ok() {
                    let placed = count(&boards[9]);
                    for board in &boards[..9] {
                        let board = wide(board);
                        if placed <= prop.hidden_while_placed {
                            let singles = bands::singles(board).expect("room for every value");
                            assert_eq!(singles & !wide(&boards[9]), 0, "a hidden single left behind");
                        }
                    }
                    if placed <= BANDS_WHILE_PLACED {
                        assert_eq!(&boards[..9], &prop.work.in_bands_seen[..9], "a value left unpruned");
                    }
                    nodes += 1;
                    with_box_lines += usize::from(placed <= BANDS_WHILE_PLACED);
                    let open: Vec<usize> = members(&and_not(&prop.all, &boards[9])).collect();
                    if open.is_empty() {
                        break;
                    }
                    prop.propagated(&boards);
                    let cell = open[rng.random_range(0..open.len())];
                    let values = prop.values(&boards, cell);
                    let v =
                        (0..9).filter(|v| values >> v & 1 == 1).nth(rng.random_range(0..values.count_ones() as usize));
                    prop.place(&mut boards, cell, v.expect("a candidate"));
                }
                prop.finish();
            }
        }
        assert!(
            nodes > 200 && with_box_lines > 100,
            "the paths should be long: {nodes} nodes, {with_box_lines} of them pruned"
        );
    }

    /// [`count`] of sets of `W` words: empty, full, and random at every
    /// density, against the words' own counts.
    fn counts_of<const W: usize>(rng: &mut impl RngExt) {
        let mut sets = vec![[0u64; W], [u64::MAX; W]];
        for density in [0.02, 0.3, 0.5, 0.9, 0.99] {
            sets.extend(
                (0..200).map(|_| {
                    std::array::from_fn(|_| (0..64).filter(|_| rng.random_bool(density)).map(|b| 1 << b).sum())
                }),
            );
        }
        for set in sets {
            assert_eq!(count(&set), set.iter().map(|w| w.count_ones()).sum::<u32>(), "{set:x?}");
        }
    }

    #[test]
    fn count_is_the_number_of_cells_at_every_width() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(64);
        counts_of::<1>(&mut rng);
        counts_of::<2>(&mut rng);
        counts_of::<3>(&mut rng);
        counts_of::<4>(&mut rng);
        counts_of::<7>(&mut rng);
        counts_of::<10>(&mut rng);
    }
}
