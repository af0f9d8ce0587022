//! The puzzle compiled into flat index arrays for the search.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::derive;
use super::divisors::Divisors;
use super::factors::{self, Factors};
use super::pairs;
use super::spare;
use crate::puzzle::{Cell, Group, Op, Puzzle};

/// A cage with its cells as indices and its target read for the search:
/// a view into its [`Layout`] (see [`Layout::cage`]).
pub(super) struct CageLayout<'a> {
    pub op: Op,
    /// The target, when it fits in a `u64` (every reachable sum, difference,
    /// quotient and one-cell value does).
    pub target: Option<u64>,
    /// The target as a product of values: its exponents over the primes,
    /// for `*` cages and `?` cages of three or more cells; `None` when no product
    /// of the grid's values reaches it.
    pub factors: Option<Factors>,
    /// The divisors of that product, for cages of at most 64 cells whose
    /// target has few enough of them (see [`Divisors`]).
    pub divisors: Option<&'a Divisors>,
    pub cells: &'a [usize],
    /// For a cage of 3 to 64 cells, bit j of `apart[i]` is set when its
    /// cells i and j share a group (and so hold different values).
    pub apart: &'a [u64],
    /// For a cage of 2 cells, the values that can stand beside each value
    /// (see [`pairs::partners`]).
    pub partners: &'a [u32],
    /// For a cage of 2 cells, whether they share a group.
    pub pair_apart: bool,
    /// For a Killer cage or a derived one, of 3 to 32 cells, whether every
    /// two of them share a group (so that its values all differ).
    pub distinct: bool,
    /// For a derived sum (`derive.rs`), bit j set when the value v of cell
    /// j counts as N + 1 - v: the sum is revised on the candidate sets so
    /// turned, and its target is what they add up to.
    pub turned: u64,
    /// The cage's parts: one for each full group holding two of its cells
    /// or more (a cage of at most 64 cells).
    pub parts: &'a [Part],
}

/// What [`Layout`] keeps of a cage: its target read for the search, and
/// where its cells, `apart` sets and parts lie in the layout's tables.
struct Stored {
    op: Op,
    target: Option<u64>,
    factors: Option<Factors>,
    divisors: Option<Rc<Divisors>>,
    /// A pair's partner table; none for other cages.
    partners: Option<Rc<PairTable>>,
    /// For a pair, whether its cells share a group (or a distinct cage).
    pair_apart: bool,
    /// See [`CageLayout::distinct`].
    distinct: bool,
    /// See [`CageLayout::turned`].
    turned: u64,
    /// The cage's cells are `cells[cells.0..cells.1]` of the layout, its
    /// `apart` sets and parts likewise.
    cells: (usize, usize),
    apart: (usize, usize),
    parts: (usize, usize),
}

/// What revising a two-cell cage needs, the same for every pair of one
/// op, target and grid size: built once for them all.
struct PairTable {
    /// The values that can stand beside each value (see [`pairs::partners`]).
    partners: Box<[u32]>,
    /// [`pairs::supports`] with every value a candidate in both
    /// cells, for cells apart (index 1: sharing a group) and not (index
    /// 0): the values each cell keeps (the same for both, every op on a
    /// pair being symmetric), and the values every completion puts in it.
    full: [(u32, u32); 2],
}

impl PairTable {
    fn new(op: Op, target: Option<u64>, size: usize) -> Self {
        let partners: Box<[u32]> = pairs::partners(op, target, size).into();
        let all = (1 << size) - 1;
        let full = [false, true].map(|apart| {
            let (keep, _, both) = pairs::supports(&partners, apart, all, all);
            (keep, both)
        });
        PairTable { partners, full }
    }
}

/// A cage's cells in one full group.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct Part {
    /// The cells, as positions in the cage (bit j for `cells[j]`).
    pub cells: u64,
    /// The group, as an index into [`Shape::full_groups`].
    pub group: usize,
}

/// The geometry of a puzzle's groups as sets of cells, each set one bit
/// per cell (row-major) in `words` 64-bit words: the same for every puzzle
/// with the same groups, so it is built once for a batch. Sets are stored
/// one after another, `words` words each.
#[derive(Default)]
pub(super) struct Shape {
    /// 64-bit words in a set of cells: ⌈N² / 64⌉.
    pub words: usize,
    /// Every cell of the grid.
    pub all: Vec<u64>,
    /// For each cell, the other cells that share a group with it.
    pub peers: Vec<u64>,
    /// The most peers a cell has.
    pub most_peers: u32,
    /// Every group.
    pub groups: Vec<u64>,
    /// Each group of N cells, in which every value must appear.
    pub full_groups: Vec<u64>,
    /// 64-bit words in a set of full groups.
    pub group_words: usize,
    /// For each cell, the full groups it is in (bit g for the g-th).
    pub groups_of: Vec<u64>,
    /// Whether the grid is 9×9 with its 3×3 boxes among the groups: its
    /// box–line interactions are then worked out in bands (`bands.rs`).
    pub in_bands: bool,
}

/// A shape with the groups it was built from.
struct Built {
    groups: Arc<[Group]>,
    distinct: Vec<Vec<Cell>>,
    shape: Rc<Shape>,
}

thread_local! {
    /// The shape built last on this thread.
    static LAST_SHAPE: RefCell<Option<Built>> = const { RefCell::new(None) };
}

impl Shape {
    /// The shape of `puzzle`: the one built last on this thread if its
    /// groups are the same (as in a file of puzzles of one kind), else a
    /// new one. The cells of each distinct cage count as a group.
    fn of(puzzle: &Puzzle) -> Rc<Shape> {
        let distinct = || puzzle.cages().iter().filter(|cage| cage.is_distinct() && cage.cells().len() > 1);
        LAST_SHAPE.with(|last| {
            let mut last = last.borrow_mut();
            let groups = puzzle.shared_groups();
            if let Some(built) = &*last {
                let same_cages = || distinct().map(|cage| cage.cells()).eq(built.distinct.iter().map(Vec::as_slice));
                if (Arc::ptr_eq(&built.groups, groups) || built.groups == *groups) && same_cages() {
                    return Rc::clone(&built.shape);
                }
            }
            let distinct: Vec<Vec<Cell>> = distinct().map(|cage| cage.cells().to_vec()).collect();
            let shape = Rc::new(Shape::new(puzzle, &distinct));
            *last = Some(Built { groups: Arc::clone(groups), distinct, shape: Rc::clone(&shape) });
            shape
        })
    }

    /// The shape of `puzzle`'s groups and the cells of its `distinct`
    /// cages, each a group of its own.
    fn new(puzzle: &Puzzle, distinct: &[Vec<Cell>]) -> Self {
        let size = puzzle.size();
        let words = (size * size).div_ceil(64);
        let set = |cells: &mut dyn Iterator<Item = usize>| {
            let mut set = vec![0u64; words];
            cells.for_each(|c| set[c / 64] |= 1 << (c % 64));
            set
        };
        let cells = puzzle.groups().iter().map(|g| g.cells()).chain(distinct.iter().map(Vec::as_slice));
        let groups: Vec<Vec<u64>> = cells.map(|cells| set(&mut cells.iter().map(|c| c.index(size)))).collect();
        let all = set(&mut (0..size * size));
        let mut peers = vec![0u64; size * size * words];
        for group in &groups {
            for cell in members(group) {
                let mine = &mut peers[cell * words..(cell + 1) * words];
                mine.iter_mut().zip(group).for_each(|(p, g)| *p |= g);
                mine[cell / 64] &= !(1 << (cell % 64));
            }
        }
        let most_peers = peers.chunks(words).map(|set| members(set).count() as u32).max().unwrap_or(0);
        let is_full = |g: &[u64]| members(g).count() == size;
        let full: Vec<&Vec<u64>> = groups.iter().filter(|g| is_full(g)).collect();
        let group_words = full.len().div_ceil(64).max(1);
        let mut groups_of = vec![0u64; size * size * group_words];
        for (g, group) in full.iter().enumerate() {
            for cell in members(group) {
                groups_of[cell * group_words + g / 64] |= 1 << (g % 64);
            }
        }
        let box_of = |b: usize| set(&mut (0..9).map(|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3));
        let in_bands = size == 9 && (0..9).all(|b| full.contains(&&box_of(b)));
        let full_groups = full.into_iter().flatten().copied().collect();
        let groups = groups.into_iter().flatten().collect();
        Shape { words, all, peers, most_peers, groups, full_groups, group_words, groups_of, in_bands }
    }

    /// Whether cells `a` and `b` share a group.
    fn share(&self, a: usize, b: usize) -> bool {
        self.peers[a * self.words + b / 64] & (1 << (b % 64)) != 0
    }
}

/// Partner tables and divisor sets built lately on this thread, by op,
/// target and size: the targets of a file of KenKen repeat from puzzle to
/// puzzle, and building them costs as much as solving an easy one. Keyed
/// by a few small integers of the thread's own cages, so the quick hash of
/// rustc's tables serves.
#[derive(Default)]
struct Tables {
    /// The pair tables of targets up to N² (every target a pair can reach)
    /// for the grid size `pairs_size`, by op and target: found without
    /// hashing, as the pairs of a KenKen file ask for them cage by cage.
    pairs_size: usize,
    pairs: Vec<Option<Rc<PairTable>>>,
    /// The other pair tables.
    partners: FxHashMap<(Op, Option<u64>, usize), Rc<PairTable>>,
    divisors: FxHashMap<(Factors, usize), Option<Rc<Divisors>>>,
}

/// Tables of each kind kept before the cache starts again: a few MB at
/// most, with the largest divisor sets.
const TABLES: usize = 1024;

thread_local! {
    static BUILT: RefCell<Tables> = RefCell::new(Tables::default());
}

impl Tables {
    /// Runs `f` on the thread's tables, first emptying any kind that has
    /// grown to [`TABLES`].
    fn with<R>(f: impl FnOnce(&mut Tables) -> R) -> R {
        BUILT.with_borrow_mut(|built| {
            if built.partners.len() >= TABLES {
                built.partners.clear();
            }
            if built.divisors.len() >= TABLES {
                built.divisors.clear();
            }
            f(built)
        })
    }

    /// The [`PairTable`] of a two-cell cage.
    fn partners(&mut self, op: Op, target: Option<u64>, size: usize) -> Rc<PairTable> {
        let targets = size * size + 1;
        if let Some(t) = target.map(|t| t as usize).filter(|&t| t < targets) {
            if self.pairs_size != size {
                self.pairs_size = size;
                self.pairs.clear();
                self.pairs.resize(Op::ALL.len() * targets, None);
            }
            let table = &mut self.pairs[op as usize * targets + t];
            return Rc::clone(table.get_or_insert_with(|| PairTable::new(op, target, size).into()));
        }
        Rc::clone(self.partners.entry((op, target, size)).or_insert_with(|| PairTable::new(op, target, size).into()))
    }

    /// [`Divisors::new`] of a product target.
    fn divisors(&mut self, target: Factors, size: usize) -> Option<Rc<Divisors>> {
        self.divisors.entry((target, size)).or_insert_with(|| Divisors::new(&target, size).map(Rc::new)).clone()
    }
}

/// The cells of a set, smallest first.
pub(super) fn members(set: &[u64]) -> Members<'_> {
    Members { words: set, index: 0, word: set.first().copied().unwrap_or(0) }
}

/// The iterator of [`members`]: a plain loop over the words, which the
/// compiler keeps tighter than a flattened iterator of iterators.
pub(super) struct Members<'a> {
    words: &'a [u64],
    /// The word being read, and what is left of it.
    index: usize,
    word: u64,
}

impl Iterator for Members<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.index += 1;
            self.word = *self.words.get(self.index)?;
        }
        let bit = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.index * 64 + bit)
    }

    /// A loop per word: where the words are an array, the compiler
    /// unrolls it, and each word's loop has its own branch to predict.
    fn fold<B, F: FnMut(B, usize) -> B>(self, init: B, mut f: F) -> B {
        let mut each = |mut acc, index: usize, mut word: u64| {
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                acc = f(acc, index * 64 + bit);
            }
            acc
        };
        let Members { words, index, word } = self;
        let acc = each(init, index, word);
        words.iter().enumerate().skip(index + 1).fold(acc, |acc, (i, &w)| each(acc, i, w))
    }
}

/// Everything the search looks up, by cell index (row-major). The cages'
/// cells, `apart` sets and parts are kept in three tables for all of
/// them, so that a puzzle takes a handful of allocations, not a few per
/// cage, and those only until the thread has built a layout as large.
#[derive(Default)]
pub(super) struct Layout {
    pub size: usize,
    pub shape: Rc<Shape>,
    /// The cells of one-cell `!` cages (givens), as a set of cells (see
    /// [`Shape`]): applied to the root, not revised.
    pub given: Vec<u64>,
    /// For each value, the givens of that value, as a set of cells: `W`
    /// words a value. A given whose target is no value of the grid is in
    /// none of them, so no value is left to its cell.
    pub given_values: Vec<u64>,
    /// The other cages (see [`Layout::cage`]).
    cages: Vec<Stored>,
    cells: Vec<usize>,
    apart: Vec<u64>,
    parts: Vec<Part>,
    /// For each cell, the index of its first cage, if any.
    pub cage_of: Vec<Option<usize>>,
    /// The cells in a cage, as a set of cells (see [`Shape`]).
    pub caged: Vec<u64>,
    /// The cells in two cages or more (overlapping cages), as a set of
    /// cells: what one cage takes from them, another must see.
    pub shared: Vec<u64>,
    /// For each cell of `shared`, its cages after the first, as (cell,
    /// cage) sorted by cell.
    also: Vec<(usize, usize)>,
}

impl Layout {
    /// The layout of `puzzle`, in the buffers of the last layout given
    /// back on this thread (see [`spare`]), if any.
    pub fn new(puzzle: &Puzzle) -> Box<Self> {
        let mut layout = spare::take::<Layout>();
        layout.build(puzzle);
        layout
    }

    fn build(&mut self, puzzle: &Puzzle) {
        let size = puzzle.size();
        let shape = Shape::of(puzzle);
        let words = shape.words;
        let Layout { given, given_values, cages, cells, apart, parts, cage_of, caged, shared, also, .. } = self;
        // Only the last puzzle's caged cells have a cage to forget: a file
        // of Sudoku, with none, writes nothing here.
        for &cell in cells.iter() {
            cage_of[cell] = None;
        }
        cage_of.resize(size * size, None);
        given.clear();
        given.resize(words, 0);
        given_values.clear();
        given_values.resize(size * words, 0);
        cages.clear();
        cells.clear();
        apart.clear();
        parts.clear();
        caged.clear();
        caged.resize(words, 0);
        shared.clear();
        shared.resize(words, 0);
        also.clear();
        let mut others = false;
        for cage in puzzle.cages() {
            if let (Op::Given, &[cell]) = (cage.op(), cage.cells()) {
                let cell = cell.index(size);
                let bit = 1 << (cell % 64);
                given[cell / 64] |= bit;
                // A value of the grid has one or two digits.
                let value = match *cage.target().digit_bytes() {
                    [d] => usize::from(d - b'0'),
                    [d, e] => usize::from(d - b'0') * 10 + usize::from(e - b'0'),
                    _ => 0,
                };
                if (1..=size).contains(&value) {
                    given_values[(value - 1) * words + cell / 64] |= bit;
                }
            } else {
                others = true;
            }
        }
        self.size = size;
        if others {
            Tables::with(|tables| self.add_cages(puzzle, &shape, tables));
        }
        self.shape = shape;
    }

    /// Adds the cages of `puzzle` but its givens, and the sums it implies
    /// (`derive.rs`), with their cells, `apart` sets and parts. Kept out of
    /// the givens' loop, which is all a Sudoku needs.
    #[inline(never)]
    fn add_cages(&mut self, puzzle: &Puzzle, shape: &Shape, tables: &mut Tables) {
        let size = puzzle.size();
        for cage in puzzle.cages().iter().filter(|cage| cage.op() != Op::Given) {
            let factors = match cage.op() {
                Op::Mul | Op::Any if cage.cells().len() != 2 => factors::of_target(cage.target().digits(), size),
                _ => None,
            };
            let target = factors::decimal(cage.target().digit_bytes());
            let cells = cage.cells().iter().map(|c| c.index(size));
            self.add_cage(shape, tables, (cage.op(), target, factors), cells, cage.is_distinct(), 0);
        }
        for sum in derive::derived(puzzle) {
            // A value v of a cell taken away counts as N + 1 - v added.
            let turned = sum.minus.len();
            let target = u64::try_from(sum.total + turned as i64 * (size as i64 + 1)).ok();
            // Below zero no values reach it, nor zero.
            let target = Some(target.unwrap_or(0));
            let bits = ((1u64 << turned) - 1) << sum.plus.len();
            let cells = sum.plus.iter().chain(&sum.minus).copied();
            self.add_cage(shape, tables, (Op::Add, target, None), cells, true, bits);
        }
        self.also.sort_unstable();
    }

    /// Adds a cage of `op`, `target` and `factors` (see [`CageLayout`]),
    /// whose values its `killer` flag says may be checked as distinct and
    /// whose cells of the bits of `turned` count as turned.
    fn add_cage(
        &mut self,
        shape: &Shape,
        tables: &mut Tables,
        (op, target, factors): (Op, Option<u64>, Option<Factors>),
        cage: impl Iterator<Item = usize>,
        killer: bool,
        turned: u64,
    ) {
        let size = self.size;
        let Layout { cages, cells, apart, parts, cage_of, caged, shared, also, .. } = self;
        let index = cages.len();
        let start = (cells.len(), apart.len(), parts.len());
        for cell in cage {
            cells.push(cell);
            if cage_of[cell].is_some() {
                shared[cell / 64] |= 1 << (cell % 64);
                also.push((cell, index));
            } else {
                cage_of[cell] = Some(index);
            }
            caged[cell / 64] |= 1 << (cell % 64);
        }
        let mine = &cells[start.0..];
        // Values turned and values not turned may be equal where the
        // cells differ, and are in no part.
        let side = |j: usize| turned >> j & 1;
        match *mine {
            _ if turned != 0 => {}
            [a, b] => pair_parts(shape, a, b, parts),
            _ if mine.len() <= 64 => cage_parts(shape, mine, parts),
            _ => {}
        }
        if (3..=64).contains(&mine.len()) {
            apart.extend(mine.iter().enumerate().map(|(i, &a)| {
                let apart = mine.iter().enumerate().filter(|&(j, &b)| side(i) == side(j) && shape.share(a, b));
                apart.map(|(j, _)| 1u64 << j).sum::<u64>()
            }));
        }
        let count = mine.len();
        let full = (1u64 << count.min(63)) - 1;
        let distinct = killer
            && turned == 0
            && (3..=32).contains(&count)
            && apart[start.1..].iter().enumerate().all(|(j, &a)| a | 1 << j == full);
        let partners = (count == 2).then(|| tables.partners(op, target, size));
        let pair_apart = count == 2 && side(0) == side(1) && shape.share(mine[0], mine[1]);
        let divisors = factors.filter(|_| count <= 64).and_then(|f| tables.divisors(f, size));
        cages.push(Stored {
            op,
            target,
            factors,
            divisors,
            cells: (start.0, cells.len()),
            apart: (start.1, apart.len()),
            partners,
            pair_apart,
            distinct,
            turned,
            parts: (start.2, parts.len()),
        });
    }

    /// The cages of a cell of [`Layout::shared`] after its first.
    pub fn also(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.also.partition_point(|&(c, _)| c < cell);
        self.also[start..].iter().take_while(move |&&(c, _)| c == cell).map(|&(_, cage)| cage)
    }

    /// How many cages the search revises (all but the givens).
    pub fn cage_count(&self) -> usize {
        self.cages.len()
    }

    /// The cells of the cage of index `index` (as in [`Layout::cage_of`]).
    pub fn cells(&self, index: usize) -> &[usize] {
        let (start, end) = self.cages[index].cells;
        &self.cells[start..end]
    }

    /// The partner table, whether the cells are apart (share a group),
    /// and the parts of the cage of index `index`, a pair: what revising
    /// it needs of [`Layout::cage`], without the rest.
    pub fn pair(&self, index: usize) -> (&[u32], bool, &[Part]) {
        let cage = &self.cages[index];
        let partners = cage.partners.as_ref().map_or(&[][..], |t| &t.partners);
        (partners, cage.pair_apart, &self.parts[cage.parts.0..cage.parts.1])
    }

    /// For the cage of index `index`, a pair, what revising it gives
    /// while both its cells have every value: the values each keeps, and
    /// those every completion puts in it (ruled out of the rest of each of
    /// its parts' groups). `None` for other cages, and for pairs with a
    /// turned cell (see [`CageLayout::turned`]).
    pub fn full_pair(&self, index: usize) -> Option<(u32, u32)> {
        let cage = &self.cages[index];
        let table = cage.partners.as_ref().filter(|_| cage.turned == 0);
        table.map(|table| table.full[usize::from(cage.pair_apart)])
    }

    /// Whether the cage of index `index` has turned cells (see
    /// [`CageLayout::turned`]).
    pub fn turns(&self, index: usize) -> bool {
        self.cages[index].turned != 0
    }

    /// The cage of index `index` (as in [`Layout::cage_of`]).
    pub fn cage(&self, index: usize) -> CageLayout<'_> {
        let cage = &self.cages[index];
        CageLayout {
            op: cage.op,
            target: cage.target,
            factors: cage.factors,
            divisors: cage.divisors.as_deref(),
            cells: &self.cells[cage.cells.0..cage.cells.1],
            apart: &self.apart[cage.apart.0..cage.apart.1],
            partners: cage.partners.as_ref().map_or(&[], |t| &t.partners),
            pair_apart: cage.pair_apart,
            distinct: cage.distinct,
            turned: cage.turned,
            parts: &self.parts[cage.parts.0..cage.parts.1],
        }
    }
}

/// The parts of a cage of at most 64 `cells`, appended to `parts` in the
/// order of their groups.
fn cage_parts(shape: &Shape, cells: &[usize], parts: &mut Vec<Part>) {
    let gw = shape.group_words;
    let groups_of = |cell: usize, k: usize| shape.groups_of[cell * gw + k];
    for k in 0..gw {
        // The groups (of this word of group indices) with two cells of the
        // cage or more.
        let (mut once, mut twice) = (0u64, 0u64);
        for &cell in cells {
            twice |= once & groups_of(cell, k);
            once |= groups_of(cell, k);
        }
        while twice != 0 {
            let bit = twice & twice.wrapping_neg();
            twice &= twice - 1;
            let mine = cells.iter().enumerate().filter(|&(_, &c)| groups_of(c, k) & bit != 0);
            let cells = mine.map(|(j, _)| 1u64 << j).sum();
            parts.push(Part { cells, group: k * 64 + bit.trailing_zeros() as usize });
        }
    }
}

/// [`cage_parts`] of a pair, the cage of most KenKen puzzles, in less
/// work: both its cells are in every group it has two cells in.
fn pair_parts(shape: &Shape, a: usize, b: usize, parts: &mut Vec<Part>) {
    let gw = shape.group_words;
    for k in 0..gw {
        let mut both = shape.groups_of[a * gw + k] & shape.groups_of[b * gw + k];
        while both != 0 {
            parts.push(Part { cells: 0b11, group: k * 64 + both.trailing_zeros() as usize });
            both &= both - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_the_set_bits_in_order() {
        let sets: [&[u64]; 6] =
            [&[], &[0], &[0, 0, 0], &[1 << 63, 1], &[0, u64::MAX, 0, 5], &[0x8000_0000_0000_0001, 0, 1 << 17]];
        for set in sets {
            let naive: Vec<usize> = (0..set.len() * 64).filter(|&c| set[c / 64] >> (c % 64) & 1 == 1).collect();
            assert_eq!(members(set).collect::<Vec<_>>(), naive, "{set:x?}");
            // `fold` (and so `for_each`), from the start and after a first cell.
            let folded = |cells: Members| cells.fold(Vec::new(), |all, c| [all, vec![c]].concat());
            assert_eq!(folded(members(set)), naive, "{set:x?}");
            let mut rest = members(set);
            rest.next();
            assert_eq!(folded(rest), naive.get(1..).unwrap_or_default(), "{set:x?}");
        }
    }

    #[test]
    fn the_parts_of_a_pair_are_those_of_any_cage() {
        // Sudoku groups (pairs sharing a row and a box have two parts),
        // and 25×25, whose 75 groups take two words of group indices.
        for (size, side) in [(9, 3), (25, 5)] {
            let boxes = (0..size).map(|b| {
                let (top, left) = (b / side * side, b % side * side);
                Group::new((0..size).map(|i| Cell { row: top + i / side, col: left + i % side }).collect())
            });
            let puzzle = Puzzle::new(size, boxes.collect(), Vec::new()).expect("a grid with boxes");
            let shape = Shape::new(&puzzle, &[]);
            for a in 0..size * size {
                for b in (0..size * size).filter(|&b| b != a) {
                    let (mut pair, mut any) = (Vec::new(), Vec::new());
                    pair_parts(&shape, a, b, &mut pair);
                    cage_parts(&shape, &[a, b], &mut any);
                    assert_eq!(pair, any, "cells {a} and {b} of a {size}×{size}");
                }
            }
        }
    }

    #[test]
    fn only_9x9_grids_with_their_3x3_boxes_are_worked_in_bands() {
        let boxes = |size: usize, rows: usize, cols: usize, skip: usize| -> Vec<Group> {
            let corners = (0..size / rows).flat_map(|r| (0..size / cols).map(move |c| (r * rows, c * cols)));
            let cells = |(top, left): (usize, usize)| {
                (0..size).map(move |i| Cell { row: top + i / cols, col: left + i % cols }).collect::<Vec<_>>()
            };
            corners.skip(skip).map(|corner| Group::new(cells(corner))).collect()
        };
        let in_bands = |size: usize, groups: Vec<Group>| {
            Shape::new(&Puzzle::new(size, groups, Vec::new()).expect("a grid with groups"), &[]).in_bands
        };
        assert!(in_bands(9, boxes(9, 3, 3, 0)), "a Sudoku's grid");
        assert!(!in_bands(9, Vec::new()), "a 9×9 Latin square");
        assert!(!in_bands(9, boxes(9, 3, 3, 1)), "a 9×9 grid missing a box");
        assert!(!in_bands(4, boxes(4, 2, 2, 0)), "a 4×4 Sudoku's grid");
        assert!(!in_bands(16, boxes(16, 4, 4, 0)), "a 16×16 Sudoku's grid");
    }
}
