//! The one model every puzzle is translated into: an N×N Latin square with
//! extra all-different groups and arithmetic cages.
//!
//! Nothing here knows which text format a puzzle came from, and nothing here
//! solves anything. Cage semantics (the contract every solver and the
//! checker implement independently) are documented on [`Op`].

pub(crate) mod backend;
pub(crate) mod stats;
pub(crate) mod verify;

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use itertools::{Itertools, iproduct};

use thiserror::Error;

/// The largest supported grid size. Candidate sets fit in a `u32`, and rows
/// are named by the letters `A`..=`Y` in the KenKen format.
pub const MAX_SIZE: usize = 25;

/// A cell of the grid, by 0-based row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// 0-based row (row `A` is 0).
    pub row: usize,
    /// 0-based column (column `1` is 0).
    pub col: usize,
}

impl Cell {
    /// The cell at 0-based `row` and `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Cell { row, col }
    }

    /// The index of this cell in a row-major array of an N×N grid.
    pub const fn index(self, size: usize) -> usize {
        self.row * size + self.col
    }
}

/// Whether `cells` form one piece, each reached from another side to side
/// (true for none).
pub(crate) fn in_one_piece(cells: &[Cell]) -> bool {
    let mut reached = vec![false; cells.len()];
    let mut stack = Vec::from_iter((!cells.is_empty()).then_some(0));
    if let Some(first) = reached.first_mut() {
        *first = true;
    }
    while let Some(i) = stack.pop() {
        for (j, other) in cells.iter().enumerate() {
            if !reached[j] && cells[i].row.abs_diff(other.row) + cells[i].col.abs_diff(other.col) == 1 {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.into_iter().all(|r| r)
}

/// Cells print in the KenKen notation: a row letter and a 1-based column,
/// so `Cell::new(1, 2)` is `B3`.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'A' + self.row as u8);
        write!(f, "{letter}{}", self.col + 1)
    }
}

/// The operation of a cage.
///
/// | op | cells | holds when |
/// |---|---|---|
/// | `Add` | ≥ 1 | sum of the values = target |
/// | `Mul` | ≥ 1 | product of the values = target |
/// | `Sub` | exactly 2 | \|a − b\| = target |
/// | `Div` | exactly 2 | max / min = target, dividing exactly |
/// | `Given` | exactly 1 | the value = target |
/// | `Any` | ≥ 1 | some op allowed for this many cells holds: 1 cell, value = target; 2 cells, any of `+ - * /`; 3 or more, `+` or `*` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `+`: the values sum to the target.
    Add,
    /// `-`: two values differ by the target.
    Sub,
    /// `*`: the values multiply to the target.
    Mul,
    /// `/`: the larger of two values is the target times the smaller.
    Div,
    /// `!`: a single cell holds the target (a Sudoku given).
    Given,
    /// `?`: the no-op cage; only the target is shown.
    Any,
}

impl Op {
    /// Every op, in the order of their symbols `+ - * / ! ?`.
    pub const ALL: [Op; 6] = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Given, Op::Any];

    /// The canonical symbol of the op in the KenKen text format.
    pub const fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Sub => '-',
            Op::Mul => '*',
            Op::Div => '/',
            Op::Given => '!',
            Op::Any => '?',
        }
    }

    /// The op written as `symbol`, including the aliases `x`, `×` (for `*`),
    /// `÷` (for `/`), `−` (for `-`) and `=` (for `!`).
    pub fn from_symbol(symbol: &str) -> Option<Op> {
        Some(match symbol {
            "+" => Op::Add,
            "-" | "−" => Op::Sub,
            "*" | "x" | "X" | "×" => Op::Mul,
            "/" | "÷" => Op::Div,
            "!" | "=" => Op::Given,
            "?" => Op::Any,
            _ => return None,
        })
    }

    /// Whether a cage of this op may have `cells` cells.
    pub const fn allows_cell_count(self, cells: usize) -> bool {
        match self {
            Op::Add | Op::Mul | Op::Any => cells >= 1,
            Op::Sub | Op::Div => cells == 2,
            Op::Given => cells == 1,
        }
    }

    /// The cell counts this op allows, in words, for error messages.
    pub const fn cell_count_rule(self) -> &'static str {
        match self {
            Op::Add | Op::Mul | Op::Any => "at least 1 cell",
            Op::Sub | Op::Div => "exactly 2 cells",
            Op::Given => "exactly 1 cell",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A cage's target: a whole number of any length, kept as its decimal
/// digits.
///
/// The model only carries the number. Every component that computes with
/// targets (the two backends, the checker, the generator) reads the digits
/// and does its own exact arithmetic, so that no arithmetic is shared.
///
/// ```
/// use cagey::Target;
///
/// let row_product = Target::from_decimal("15511210043330985984000000").unwrap(); // 25!
/// assert_eq!(row_product.digits(), "15511210043330985984000000");
/// assert_eq!(Target::from_decimal("007"), Some(Target::from(7)));
/// assert_eq!(Target::from_decimal("-3"), None);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Target {
    digits: Digits,
}

/// Decimal digits, kept inline when they are few (every target of a `u64`
/// is), so that a file of puzzles does not allocate one string a cage.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Digits {
    /// The first `len` bytes; the rest are zero.
    Short {
        len: u8,
        bytes: [u8; SHORT],
    },
    Long(Box<str>),
}

/// The most digits kept inline.
const SHORT: usize = 22;

impl Target {
    /// The number written in decimal as `text`: one or more ASCII digits,
    /// leading zeros allowed. `None` for anything else (signs, spaces, an
    /// empty text).
    pub fn from_decimal(text: &str) -> Option<Target> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = text.trim_start_matches('0');
        Some(Target::of_digits(if digits.is_empty() { "0" } else { digits }))
    }

    /// `digits`: ASCII digits, with no leading zero unless it is `"0"`.
    fn of_digits(digits: &str) -> Target {
        let digits = if digits.len() <= SHORT {
            let mut bytes = [0; SHORT];
            bytes[..digits.len()].copy_from_slice(digits.as_bytes());
            Digits::Short { len: digits.len() as u8, bytes }
        } else {
            Digits::Long(digits.into())
        };
        Target { digits }
    }

    /// [`Target::digits`] as ASCII bytes, read without checking them again.
    pub fn digit_bytes(&self) -> &[u8] {
        match &self.digits {
            Digits::Short { len, bytes } => &bytes[..usize::from(*len)],
            Digits::Long(digits) => digits.as_bytes(),
        }
    }

    /// The decimal digits, most significant first, with no leading zero
    /// (`"0"` for zero).
    pub fn digits(&self) -> &str {
        match &self.digits {
            Digits::Short { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)]).expect("ASCII digits"),
            Digits::Long(digits) => digits,
        }
    }
}

impl From<u64> for Target {
    fn from(mut value: u64) -> Self {
        // Least significant first, then turned round: a `u64` has at most
        // 20 digits, so they are always kept inline, and they are digits by
        // construction (a Sudoku's givens are made here, 17 to 81 a puzzle).
        let (mut bytes, mut len) = ([0u8; SHORT], 0);
        loop {
            bytes[len] = b'0' + (value % 10) as u8;
            len += 1;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        bytes[..len].reverse();
        Target { digits: Digits::Short { len: len as u8, bytes } }
    }
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target").field("digits", &self.digits()).finish()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.digits())
    }
}

/// A cage: its cells' values combine under `op` to `target`, and, if the
/// cage is *distinct* (the Killer rule), no two of them are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    op: Op,
    target: Target,
    cells: CageCells,
    distinct: bool,
}

/// A cage's cells: one inline (a Sudoku given), or more.
#[derive(Clone, PartialEq, Eq, Hash)]
enum CageCells {
    One([Cell; 1]),
    More(Vec<Cell>),
}

impl CageCells {
    fn as_slice(&self) -> &[Cell] {
        match self {
            CageCells::One(cell) => cell,
            CageCells::More(cells) => cells,
        }
    }
}

impl fmt::Debug for CageCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Cage {
    /// A cage, checked for a positive target, a cell count the op allows and
    /// no repeated cell. Whether the cells lie inside the grid, and whether
    /// a `!` target is a value of the grid, is checked by [`Puzzle::new`],
    /// which knows the size.
    pub fn new(op: Op, target: impl Into<Target>, cells: Vec<Cell>) -> Result<Self, InvalidPuzzle> {
        let target = target.into();
        if target.digits() == "0" {
            return Err(InvalidPuzzle::NonPositiveTarget { op });
        }
        if !op.allows_cell_count(cells.len()) {
            return Err(InvalidPuzzle::WrongCellCount { op, found: cells.len() });
        }
        if let Some((&cell, _)) = cells.iter().tuple_combinations().find(|(a, b)| a == b) {
            return Err(InvalidPuzzle::RepeatedCell { cell });
        }
        let cells = match *cells {
            [cell] => CageCells::One([cell]),
            _ => CageCells::More(cells),
        };
        Ok(Cage { op, target, cells, distinct: false })
    }

    /// The same cage, its values required to differ (`true`: a Killer
    /// cage) or not.
    pub fn with_distinct(self, distinct: bool) -> Self {
        Cage { distinct, ..self }
    }

    /// The one-cell `!` cage of a given `value` (not 0) in `cell`.
    pub(crate) fn given(cell: Cell, value: u8) -> Self {
        Cage { op: Op::Given, target: u64::from(value).into(), cells: CageCells::One([cell]), distinct: false }
    }

    /// The cage's op.
    pub fn op(&self) -> Op {
        self.op
    }

    /// The cage's target (always positive).
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The cage's cells, in the order they were given.
    pub fn cells(&self) -> &[Cell] {
        self.cells.as_slice()
    }

    /// Whether the cage's values must also all differ (the Killer rule).
    pub fn is_distinct(&self) -> bool {
        self.distinct
    }

    /// Whether the cells are in one piece, each reached from another
    /// through cells that share a side.
    pub fn in_one_piece(&self) -> bool {
        in_one_piece(self.cells())
    }
}

/// A set of cells that must hold distinct values: a row, a column, a box.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    cells: Vec<Cell>,
}

impl Group {
    /// A group of `cells` (at most N of them, each at most once; checked by
    /// [`Puzzle::new`]).
    pub fn new(cells: Vec<Cell>) -> Self {
        Group { cells }
    }

    /// The cells of the group.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}

/// The shape of the boxes of a Sudoku: `rows` × `cols` cells, with
/// `rows · cols = N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxShape {
    /// Rows of cells in one box.
    pub rows: usize,
    /// Columns of cells in one box.
    pub cols: usize,
}

impl BoxShape {
    /// The default boxes of an N×N Sudoku: square for N = k², otherwise the
    /// most-square r×c with r·c = N and r, c > 1, rows ≤ columns (6 → 2×3,
    /// 12 → 3×4). `None` when N is 1 or prime: such a grid has no boxes.
    pub fn default_for(size: usize) -> Option<BoxShape> {
        (2..size).rfind(|&r| size % r == 0 && r <= size / r).map(|rows| BoxShape { rows, cols: size / rows })
    }

    /// The box groups of an N×N grid, row by row of boxes.
    pub fn groups(self, size: usize) -> Vec<Group> {
        let corners = iproduct!((0..size).step_by(self.rows), (0..size).step_by(self.cols));
        let cells = |(top, left)| iproduct!(top..top + self.rows, left..left + self.cols).map(|(r, c)| Cell::new(r, c));
        corners.map(|corner| Group::new(cells(corner).collect())).collect()
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// Checks groups beyond the rows and columns of an N×N grid: at most N
/// cells each, inside the grid, none twice.
fn check_groups(size: usize, groups: &[Group]) -> Result<(), InvalidPuzzle> {
    for group in groups {
        if group.cells.len() > size {
            return Err(InvalidPuzzle::GroupTooLarge { cells: group.cells.len(), size });
        }
        if let Some(&cell) = group.cells.iter().find(|c| c.row >= size || c.col >= size) {
            return Err(InvalidPuzzle::CellOutsideGrid { cell, size });
        }
        if let Some((&cell, _)) = group.cells.iter().tuple_combinations().find(|(a, b)| a == b) {
            return Err(InvalidPuzzle::RepeatedCell { cell });
        }
    }
    Ok(())
}

/// The groups of the last puzzle made on a thread, for the next one to
/// share if they are the same (as in a file of puzzles of one kind): so
/// that a Sudoku of a file does not build and free its 27 groups.
#[derive(Default)]
struct LastGroups {
    size: usize,
    /// The Sudoku box shape they were made for, if they were.
    boxes: Option<Option<BoxShape>>,
    /// Rows, columns, then the extra groups (checked).
    groups: Option<Arc<[Group]>>,
}

impl LastGroups {
    fn reuse(&self, size: usize, extra: &[Group]) -> Option<Arc<[Group]>> {
        let groups = self.groups.as_ref().filter(|g| self.size == size && g[2 * size..] == *extra)?;
        Some(Arc::clone(groups))
    }

    fn reuse_boxes(&self, size: usize, boxes: Option<BoxShape>) -> Option<Arc<[Group]>> {
        let groups = self.groups.as_ref().filter(|_| self.size == size && self.boxes == Some(boxes))?;
        Some(Arc::clone(groups))
    }

    /// The rows and columns of an N×N grid and `extra` (checked), kept,
    /// with the Sudoku box shape `extra` was made for, if it was.
    fn keep(&mut self, size: usize, extra: Vec<Group>, boxes: Option<Option<BoxShape>>) -> Arc<[Group]> {
        let rows = (0..size).map(|r| Group::new((0..size).map(|c| Cell::new(r, c)).collect()));
        let cols = (0..size).map(|c| Group::new((0..size).map(|r| Cell::new(r, c)).collect()));
        let groups: Arc<[Group]> = rows.chain(cols).chain(extra).collect();
        *self = LastGroups { size, boxes, groups: Some(Arc::clone(&groups)) };
        groups
    }
}

thread_local! {
    static LAST_GROUPS: RefCell<LastGroups> = RefCell::new(LastGroups::default());
}

/// An N×N Latin-square puzzle: values `1..=N`, every row and column
/// all-different, plus extra all-different groups (Sudoku boxes) and cages.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    size: usize,
    /// Rows, columns, then the extra groups: shared between puzzles of a
    /// thread with the same groups.
    groups: Arc<[Group]>,
    extra_groups: usize,
    cages: Vec<Cage>,
}

impl Puzzle {
    /// A puzzle of the given size whose groups are the rows, the columns and
    /// `extra_groups`, with `cages`. Checks the size (1 to [`MAX_SIZE`]), that
    /// every cell lies in the grid, that no group or distinct cage has more
    /// than N cells, that no group has a cell twice, that every `!` target
    /// is a value from 1 to N, and that no cell has two different givens.
    /// Cages may overlap, and a given may sit in a caged cell.
    ///
    /// ```
    /// use cagey::{Cage, Cell, Group, InvalidPuzzle, Op, Puzzle};
    ///
    /// // A 4x4 with its main diagonal all different and one product cage.
    /// let diagonal = Group::new((0..4).map(|i| Cell::new(i, i)).collect());
    /// let cage = Cage::new(Op::Mul, 12u64, vec![Cell::new(0, 1), Cell::new(0, 2)]).unwrap();
    /// let puzzle = Puzzle::new(4, vec![diagonal], vec![cage]).unwrap();
    /// assert_eq!(puzzle.groups().len(), 4 + 4 + 1);
    ///
    /// let given = Cage::new(Op::Given, 5u64, vec![Cell::new(0, 0)]).unwrap();
    /// assert!(matches!(Puzzle::new(4, vec![], vec![given]), Err(InvalidPuzzle::GivenOutOfRange { .. })));
    /// ```
    pub fn new(size: usize, extra_groups: Vec<Group>, cages: Vec<Cage>) -> Result<Self, InvalidPuzzle> {
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(InvalidPuzzle::SizeOutOfRange { size });
        }
        let extra = extra_groups.len();
        let groups = match LAST_GROUPS.with_borrow(|last| last.reuse(size, &extra_groups)) {
            Some(groups) => groups,
            None => {
                check_groups(size, &extra_groups)?;
                LAST_GROUPS.with_borrow_mut(|last| last.keep(size, extra_groups, None))
            }
        };
        Puzzle::with_groups(size, groups, extra, cages)
    }

    /// A puzzle with `groups` (rows, columns, then `extra` more, all
    /// checked), once its cages are checked.
    fn with_groups(size: usize, groups: Arc<[Group]>, extra: usize, cages: Vec<Cage>) -> Result<Self, InvalidPuzzle> {
        let inside = |cell: &Cell| cell.row < size && cell.col < size;
        let mut given: Vec<Option<&Target>> = vec![None; size * size];
        for cage in &cages {
            if let Some(cell) = cage.cells().iter().find(|cell| !inside(cell)) {
                return Err(InvalidPuzzle::CellOutsideGrid { cell: *cell, size });
            }
            if cage.distinct && cage.cells().len() > size {
                return Err(InvalidPuzzle::GroupTooLarge { cells: cage.cells().len(), size });
            }
            if cage.op == Op::Given {
                let cell = cage.cells()[0];
                let value = cage.target.digits().parse::<usize>().ok().filter(|v| (1..=size).contains(v));
                if value.is_none() {
                    return Err(InvalidPuzzle::GivenOutOfRange { cell, target: cage.target.clone(), size });
                }
                match given[cell.index(size)].replace(&cage.target) {
                    Some(first) if *first != cage.target => {
                        let (first, second) = (first.clone(), cage.target.clone());
                        return Err(InvalidPuzzle::TwoGivens { cell, first, second });
                    }
                    _ => {}
                }
            }
        }
        Ok(Puzzle { size, groups, extra_groups: extra, cages })
    }

    /// A Sudoku: boxes of the given shape (none for a plain Latin square) and
    /// one `!` cage per given, `givens` being row-major with 0 for empty.
    pub fn sudoku(size: usize, boxes: Option<BoxShape>, givens: &[u8]) -> Result<Self, InvalidPuzzle> {
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(InvalidPuzzle::SizeOutOfRange { size });
        }
        if givens.len() != size * size {
            return Err(InvalidPuzzle::WrongGridLength { expected: size * size, found: givens.len() });
        }
        if let Some(shape) = boxes.filter(|shape| shape.rows * shape.cols != size) {
            return Err(InvalidPuzzle::BadBoxShape { shape, size });
        }
        let groups = match LAST_GROUPS.with_borrow(|last| last.reuse_boxes(size, boxes)) {
            Some(groups) => groups,
            None => {
                let extra = boxes.map_or_else(Vec::new, |shape| shape.groups(size));
                LAST_GROUPS.with_borrow_mut(|last| last.keep(size, extra, Some(boxes)))
            }
        };
        let extra = groups.len() - 2 * size;
        let mut cages = Vec::with_capacity(givens.iter().filter(|&&value| value != 0).count());
        for (i, &value) in givens.iter().enumerate() {
            if value == 0 {
                continue;
            }
            let cell = Cell::new(i / size, i % size);
            if usize::from(value) > size {
                return Err(InvalidPuzzle::GivenOutOfRange { cell, target: u64::from(value).into(), size });
            }
            cages.push(Cage::given(cell, value));
        }
        // Each cell is inside the grid with one given at most, and each
        // given is a value: all that `with_groups` would check.
        Ok(Puzzle { size, groups, extra_groups: extra, cages })
    }

    /// N: the grid is N×N and holds the values `1..=N`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every all-different group: the N rows, then the N columns, then the
    /// extra groups.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// [`Puzzle::groups`] as shared: puzzles made one after another on a
    /// thread with the same groups share them.
    pub(crate) fn shared_groups(&self) -> &Arc<[Group]> {
        &self.groups
    }

    /// The groups beyond rows and columns (Sudoku boxes, for instance).
    pub fn extra_groups(&self) -> &[Group] {
        &self.groups[self.groups.len() - self.extra_groups..]
    }

    /// The cages, in the order they were given.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The cells that belong to no cage, row by row.
    pub fn uncaged_cells(&self) -> Vec<Cell> {
        let mut caged = vec![false; self.size * self.size];
        for cell in self.cages.iter().flat_map(Cage::cells) {
            caged[cell.index(self.size)] = true;
        }
        (0..self.size * self.size).filter(|&i| !caged[i]).map(|i| Cell::new(i / self.size, i % self.size)).collect()
    }
}

/// A filled N×N grid: a candidate solution of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Grid {
    size: usize,
    values: Vec<u8>,
}

impl Grid {
    /// A grid from its values, row-major. Returns `None` unless there are
    /// exactly N² values, each in `1..=N`, with N from 1 to [`MAX_SIZE`].
    pub fn new(size: usize, values: Vec<u8>) -> Option<Self> {
        let ok = (1..=MAX_SIZE).contains(&size)
            && values.len() == size * size
            && values.iter().all(|&v| v >= 1 && usize::from(v) <= size);
        ok.then_some(Grid { size, values })
    }

    /// N.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Rewrites the values in place (row-major), so that a backend hands
    /// out every solution in one grid instead of allocating one each:
    /// `fill` must leave every value in `1..=N`.
    pub(crate) fn refill(&mut self, fill: impl FnOnce(&mut [u8])) {
        fill(&mut self.values);
        debug_assert!(self.values.iter().all(|&v| v >= 1 && usize::from(v) <= self.size), "a value out of range");
    }

    /// The value at `row`, `col` (from 0), or `None` outside the grid.
    /// `grid[cell]` gives a [`Cell`]'s.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        (row < self.size && col < self.size).then(|| self.values[row * self.size + col])
    }

    /// All values, row-major.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The rows of the grid.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.values.chunks(self.size)
    }
}

/// Prints the grid in the seeds' style: `3 | 5 | 2` rows and `--+---+--`
/// rules between them. Values above 9 print as letters (`A` is 10), as in
/// the Sudoku format, so that a printed grid reads back as a puzzle.
/// The value of a cell; panics outside the grid, as slices do.
impl std::ops::Index<Cell> for Grid {
    type Output = u8;

    fn index(&self, cell: Cell) -> &u8 {
        assert!(cell.row < self.size && cell.col < self.size, "{cell} is outside a {0}x{0} grid", self.size);
        &self.values[cell.index(self.size)]
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size;
        let segment = |i: usize| "-".repeat(1 + usize::from(i > 0) + usize::from(i + 1 < n));
        let rule = (0..n).map(segment).join("+");
        for (r, row) in self.rows().enumerate() {
            if r > 0 {
                writeln!(f, "{rule}")?;
            }
            writeln!(f, "{}", row.iter().map(|&v| value_symbol(v)).join(" | "))?;
        }
        Ok(())
    }
}

/// The character of value `v` in grids and Sudoku text: `1`-`9`, then `A`
/// for 10, `B` for 11, … up to `P` for 25.
pub(crate) fn value_symbol(v: u8) -> char {
    match v {
        0..=9 => char::from(b'0' + v),
        _ => char::from(b'A' + v - 10),
    }
}

/// A puzzle that breaks a structural rule of the model.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum InvalidPuzzle {
    /// N outside 1..=25.
    #[error("grid size {size} is out of range: expected 1 to {MAX_SIZE}")]
    SizeOutOfRange {
        /// The size asked for.
        size: usize,
    },
    /// A cage or group names a cell outside the N×N grid.
    #[error("cell {cell} lies outside the {size}x{size} grid")]
    CellOutsideGrid {
        /// The cell.
        cell: Cell,
        /// N.
        size: usize,
    },
    /// A cell is named twice in one cage or group.
    #[error("cell {cell} is named twice")]
    RepeatedCell {
        /// The cell.
        cell: Cell,
    },
    /// A cell has two different givens.
    #[error("cell {cell} is given both {first} and {second}")]
    TwoGivens {
        /// The cell.
        cell: Cell,
        /// The first given value.
        first: Target,
        /// The other.
        second: Target,
    },
    /// A cage's op does not allow its number of cells.
    #[error("a '{op}' cage needs {}, found {found}", op.cell_count_rule())]
    WrongCellCount {
        /// The op.
        op: Op,
        /// How many cells the cage has.
        found: usize,
    },
    /// A cage target of zero.
    #[error("a '{op}' cage needs a positive target")]
    NonPositiveTarget {
        /// The op.
        op: Op,
    },
    /// A given (a `!` cage) outside 1..=N.
    #[error("given {target} at {cell} is out of range: expected a value from 1 to {size}")]
    GivenOutOfRange {
        /// The cell.
        cell: Cell,
        /// The given value.
        target: Target,
        /// N.
        size: usize,
    },
    /// A Sudoku grid with other than N² entries.
    #[error("expected {expected} cells, found {found}")]
    WrongGridLength {
        /// N².
        expected: usize,
        /// What was supplied.
        found: usize,
    },
    /// Boxes that do not tile the grid.
    #[error("boxes of {shape} do not tile a {size}x{size} grid")]
    BadBoxShape {
        /// The shape asked for.
        shape: BoxShape,
        /// N.
        size: usize,
    },
    /// An all-different group with more than N cells.
    #[error("a group of {cells} cells cannot hold distinct values 1 to {size}")]
    GroupTooLarge {
        /// Cells in the group.
        cells: usize,
        /// N.
        size: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes() {
        let shape = |n| BoxShape::default_for(n).map(|b| (b.rows, b.cols));
        assert_eq!(shape(1), None);
        assert_eq!(shape(2), None);
        assert_eq!(shape(4), Some((2, 2)));
        assert_eq!(shape(5), None);
        assert_eq!(shape(6), Some((2, 3)));
        assert_eq!(shape(8), Some((2, 4)));
        assert_eq!(shape(9), Some((3, 3)));
        assert_eq!(shape(12), Some((3, 4)));
        assert_eq!(shape(16), Some((4, 4)));
        assert_eq!(shape(25), Some((5, 5)));
    }

    #[test]
    fn grid_prints_in_the_seed_style() {
        let grid = Grid::new(2, vec![1, 2, 2, 1]).unwrap();
        assert_eq!(grid.to_string(), "1 | 2\n--+--\n2 | 1\n");
    }

    #[test]
    fn cells_print_in_kenken_notation() {
        assert_eq!(Cell::new(1, 2).to_string(), "B3");
        assert_eq!(Cell::new(24, 24).to_string(), "Y25");
    }

    #[test]
    fn model_rejects_bad_structure() {
        let cage =
            |op, t, cells: &[(usize, usize)]| Cage::new(op, t, cells.iter().map(|&(r, c)| Cell::new(r, c)).collect());
        assert!(matches!(cage(Op::Sub, 1, &[(0, 0)]), Err(InvalidPuzzle::WrongCellCount { .. })));
        assert!(matches!(cage(Op::Add, 0, &[(0, 0)]), Err(InvalidPuzzle::NonPositiveTarget { .. })));
        assert!(matches!(cage(Op::Add, 3, &[(0, 0), (0, 0)]), Err(InvalidPuzzle::RepeatedCell { .. })));
        let a = cage(Op::Add, 3, &[(0, 0), (0, 1)]).unwrap();
        let b = cage(Op::Given, 1, &[(0, 1)]).unwrap();
        let c = cage(Op::Given, 2, &[(0, 1)]).unwrap();
        assert!(Puzzle::new(2, vec![], vec![a.clone(), b.clone(), b.clone()]).is_ok(), "overlaps, a given twice");
        assert!(matches!(Puzzle::new(2, vec![], vec![a, b, c]), Err(InvalidPuzzle::TwoGivens { .. })));
        let wide = cage(Op::Add, 6, &[(0, 0), (0, 1), (1, 0)]).unwrap();
        assert!(Puzzle::new(2, vec![], vec![wide.clone()]).is_ok());
        let distinct = wide.with_distinct(true);
        assert!(matches!(Puzzle::new(2, vec![], vec![distinct]), Err(InvalidPuzzle::GroupTooLarge { .. })));
        let too_big = cage(Op::Given, 3, &[(0, 0)]).unwrap();
        assert!(matches!(Puzzle::new(2, vec![], vec![too_big]), Err(InvalidPuzzle::GivenOutOfRange { .. })));
        let outside = cage(Op::Given, 1, &[(2, 0)]).unwrap();
        assert!(matches!(Puzzle::new(2, vec![], vec![outside]), Err(InvalidPuzzle::CellOutsideGrid { .. })));
        assert!(matches!(Puzzle::new(26, vec![], vec![]), Err(InvalidPuzzle::SizeOutOfRange { .. })));
    }

    #[test]
    fn targets_keep_every_digit_inline_or_not() {
        for digits in ["1", "18446744073709551615", "1234567890123456789012", "12345678901234567890123"] {
            let target = Target::from_decimal(digits).unwrap();
            assert_eq!((target.digits(), target.to_string()), (digits, digits.to_string()));
            assert_eq!(format!("{target:?}"), format!("Target {{ digits: {digits:?} }}"));
        }
        assert!(matches!(Target::from_decimal("1234567890123456789012").unwrap().digits, Digits::Short { .. }));
        assert!(matches!(Target::from_decimal("12345678901234567890123").unwrap().digits, Digits::Long(_)));
        for value in [0, 1, 9, 10, 4096, u64::MAX] {
            assert_eq!(Target::from(value), Target::from_decimal(&value.to_string()).unwrap());
        }
        assert_eq!(Target::from_decimal("000").unwrap().digits(), "0");
    }

    #[test]
    fn a_sudoku_given_beyond_the_size_is_refused_at_its_cell() {
        let mut givens = [0u8; 16];
        givens[6] = 5;
        let refused = Puzzle::sudoku(4, None, &givens);
        assert!(
            matches!(refused, Err(InvalidPuzzle::GivenOutOfRange { cell: Cell { row: 1, col: 2 }, size: 4, .. })),
            "{refused:?}"
        );
        givens[6] = 4;
        let puzzle = Puzzle::sudoku(4, None, &givens).expect("4 is a value of a 4×4 grid");
        assert_eq!(puzzle.cages(), &[Cage::given(Cell::new(1, 2), 4)]);
    }

    #[test]
    fn a_given_is_the_cage_its_parts_make() {
        let cell = Cell::new(1, 2);
        assert_eq!(Cage::given(cell, 7), Cage::new(Op::Given, 7u64, vec![cell]).unwrap());
        assert_eq!(Cage::given(cell, 7).cells(), &[cell]);
        assert_eq!(format!("{:?}", Cage::given(cell, 7).cells), format!("{:?}", [cell]));
    }

    #[test]
    fn puzzles_made_in_a_row_share_their_groups_only_when_equal() {
        let boxes = Some(BoxShape { rows: 2, cols: 2 });
        let a = Puzzle::sudoku(4, boxes, &[0; 16]).unwrap();
        let b = Puzzle::sudoku(4, boxes, &[0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).unwrap();
        assert!(Arc::ptr_eq(a.shared_groups(), b.shared_groups()));
        let plain = Puzzle::sudoku(4, None, &[0; 16]).unwrap();
        assert_eq!(plain.groups().len(), 8);
        assert_eq!(a.groups().len(), 12);
        assert_eq!(a.extra_groups(), BoxShape { rows: 2, cols: 2 }.groups(4));
        let rows_then_cols = |p: &Puzzle| p.groups()[..8].iter().map(|g| g.cells().to_vec()).collect::<Vec<_>>();
        assert_eq!(rows_then_cols(&a), rows_then_cols(&plain));
        assert_eq!(a.groups()[1].cells(), (0..4).map(|c| Cell::new(1, c)).collect::<Vec<_>>());
        assert_eq!(a.groups()[4 + 1].cells(), (0..4).map(|r| Cell::new(r, 1)).collect::<Vec<_>>());
        // The same groups through `new` are shared; a bad group is still refused.
        let c = Puzzle::new(4, BoxShape { rows: 2, cols: 2 }.groups(4), vec![]).unwrap();
        let d = Puzzle::new(4, BoxShape { rows: 2, cols: 2 }.groups(4), vec![]).unwrap();
        assert!(Arc::ptr_eq(c.shared_groups(), d.shared_groups()));
        assert_eq!(c, a);
        let twice = Group::new(vec![Cell::new(0, 0), Cell::new(0, 0)]);
        assert!(matches!(Puzzle::new(4, vec![twice], vec![]), Err(InvalidPuzzle::RepeatedCell { .. })));
        let diagonal = Group::new((0..4).map(|i| Cell::new(i, i)).collect());
        let e = Puzzle::new(4, vec![diagonal.clone()], vec![]).unwrap();
        assert_eq!(e.extra_groups(), [diagonal]);
        assert!(Puzzle::new(5, vec![], vec![]).unwrap().extra_groups().is_empty());
    }
}
