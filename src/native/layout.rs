//! The puzzle compiled into flat index arrays for the search.

use std::cell::RefCell;
use std::rc::Rc;

use super::factors::{self, Factors};
use super::pairs;
use crate::puzzle::{Group, Op, Puzzle};

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
    /// For a cage of 2 cells, the values that can stand beside each value
    /// (see [`pairs::partners`]).
    pub partners: Vec<u32>,
}

/// The geometry of a puzzle's groups, by cell index (row-major): the same
/// for every puzzle with the same groups, so it is built once for a batch.
pub(super) struct Shape {
    /// The cells of each all-different group.
    pub groups: Vec<Vec<usize>>,
    /// Whether a group has N cells, so that every value must appear in it.
    pub group_is_full: Vec<bool>,
    /// The other cells sharing a group with each cell, each once: those of
    /// cell c are `peers[peer_start[c]..peer_start[c + 1]]`.
    pub peers: Vec<u16>,
    pub peer_start: Vec<usize>,
    /// 64-bit words in a set of groups.
    pub group_words: usize,
    /// For each cell, the set of groups it belongs to: `group_words` words
    /// from `cell · group_words`, bit `g % 64` of word `g / 64` for group g.
    pub groups_of: Vec<u64>,
}

/// A shape with the size and groups it was built from.
struct Built {
    size: usize,
    groups: Vec<Group>,
    shape: Rc<Shape>,
}

thread_local! {
    /// The shape built last on this thread.
    static LAST_SHAPE: RefCell<Option<Built>> = const { RefCell::new(None) };
}

impl Shape {
    /// The shape of `puzzle`: the one built last on this thread if its
    /// groups are the same (as in a file of puzzles of one kind), else a
    /// new one.
    fn of(puzzle: &Puzzle) -> Rc<Shape> {
        LAST_SHAPE.with(|last| {
            let mut last = last.borrow_mut();
            if let Some(built) = &*last {
                if built.size == puzzle.size() && built.groups == puzzle.groups() {
                    return Rc::clone(&built.shape);
                }
            }
            let shape = Rc::new(Shape::new(puzzle));
            *last = Some(Built { size: puzzle.size(), groups: puzzle.groups().to_vec(), shape: Rc::clone(&shape) });
            shape
        })
    }

    fn new(puzzle: &Puzzle) -> Self {
        let size = puzzle.size();
        let groups: Vec<Vec<usize>> =
            puzzle.groups().iter().map(|g| g.cells().iter().map(|c| c.index(size)).collect()).collect();
        let mut peers = vec![Vec::new(); size * size];
        let group_words = groups.len().div_ceil(64);
        let mut groups_of = vec![0u64; size * size * group_words];
        for (index, group) in groups.iter().enumerate() {
            for &a in group {
                groups_of[a * group_words + index / 64] |= 1 << (index % 64);
                peers[a].extend(group.iter().copied().filter(|&b| b != a));
            }
        }
        let mut peer_start = vec![0];
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
            peer_start.push(peer_start.last().unwrap() + list.len());
        }
        let peers = peers.into_iter().flatten().map(|c| c as u16).collect();
        let group_is_full = groups.iter().map(|g| g.len() == size).collect();
        Shape { groups, group_is_full, peers, peer_start, group_words, groups_of }
    }

    /// Whether cells `a` and `b` (different) share a group.
    fn share(&self, a: usize, b: usize) -> bool {
        let words = |c: usize| &self.groups_of[c * self.group_words..(c + 1) * self.group_words];
        a != b && words(a).iter().zip(words(b)).any(|(x, y)| x & y != 0)
    }
}

/// Everything the search looks up, by cell index (row-major).
pub(super) struct Layout {
    pub size: usize,
    /// The candidate set with every value `1..=N` (bit `v - 1` is value v).
    pub full: u32,
    pub shape: Rc<Shape>,
    /// Each one-cell `!` cage, as its cell and its value's bit (0 when the
    /// target is no value of the grid): applied to the root, not revised.
    pub givens: Vec<(usize, u32)>,
    /// The other cages.
    pub cages: Vec<CageLayout>,
    /// For each cell, the index of its cage, if any.
    pub cage_of: Vec<Option<usize>>,
}

impl Layout {
    pub fn new(puzzle: &Puzzle) -> Self {
        let size = puzzle.size();
        let shape = Shape::of(puzzle);
        let mut givens = Vec::new();
        let mut cages = Vec::new();
        for cage in puzzle.cages() {
            let cells: Vec<usize> = cage.cells().iter().map(|c| c.index(size)).collect();
            let digits = cage.target().digits();
            if let (Op::Given, &[cell]) = (cage.op(), cells.as_slice()) {
                let value = digits.parse::<usize>().ok().filter(|v| (1..=size).contains(v));
                givens.push((cell, value.map_or(0, |v| 1 << (v - 1))));
                continue;
            }
            let apart = if (3..=64).contains(&cells.len()) {
                cells
                    .iter()
                    .map(|&a| {
                        cells.iter().enumerate().filter(|&(_, &b)| shape.share(a, b)).map(|(j, _)| 1u64 << j).sum()
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let factors = match cage.op() {
                Op::Mul | Op::Any if cells.len() != 2 => factors::of_target(digits, size),
                _ => None,
            };
            let target = digits.parse().ok();
            let partners = if cells.len() == 2 { pairs::partners(cage.op(), target, size) } else { Vec::new() };
            cages.push(CageLayout { op: cage.op(), target, factors, cells, apart, partners });
        }
        let mut cage_of = vec![None; size * size];
        for (index, cage) in cages.iter().enumerate() {
            for &cell in &cage.cells {
                cage_of[cell] = Some(index);
            }
        }
        Layout { size, full: (1u32 << size) - 1, shape, givens, cages, cage_of }
    }

    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }
}
