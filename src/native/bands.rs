//! Box–line interactions on a 9×9 grid with 3×3 boxes, for one value at a
//! time: a few table lookups on the value's board.
//!
//! A band is three rows of boxes. In each of its three rows the value has
//! one place, and in each of its three boxes one, so the minirows that
//! hold it (a row's three cells in one box) pair the band's rows with its
//! boxes one to one. A minirow on no such pairing of the minirows still
//! open loses the value. Stacks, three columns of boxes, pair their
//! columns with the bands in the same way. This takes in the locked
//! candidates of both kinds (a value confined to one line within a box
//! leaves the rest of the line, and one confined to a box within a line
//! leaves the rest of the box) and more, such as two boxes of a band
//! that share the value's last two rows. The group-by-group look of
//! `propagate.rs` costs too much for these; on a board they are a
//! lookup per band and per stack.
//!
//! Hidden singles are found here too, for every row, column and box of a
//! value at once: a few mask operations and table lookups a band, with
//! no branch on each group (see `propagate.rs` for what that gained).
//!
//! A board here is the value's places as an 81-bit set, bit 9r + c for
//! the cell at row r and column c, as in the rest of the engine.

/// The cells of a band (27) and of a row (9), from its first.
const BAND: u32 = (1 << 27) - 1;
const ROW: u32 = (1 << 9) - 1;

/// Multiplying a set of columns (9 bits) by this copies it to each row
/// of a band.
const EVERY_ROW: u32 = 1 | 1 << 9 | 1 << 18;

/// The six one-to-one pairings of three with three, as the second of
/// each pair for the first.
const PAIRINGS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

struct Tables {
    /// For a row of 9 cells, its boxes with a cell in the set (bit j
    /// for the box of cells 3j to 3j + 2).
    boxes_of_row: [u8; 512],
    /// For a 3×3 matrix of pairs (bit 3i + j for i with j), the pairs on
    /// some one-to-one pairing inside it; none if there is none.
    paired: [u16; 512],
    /// For a set of minirows of a band (bit 3i + j for row i in box j),
    /// their cells.
    cells_of_minirows: [u32; 512],
    /// For a set of a band's columns, the columns of its boxes that hold
    /// one of the set.
    boxes_met: [u16; 512],
    /// For the i-th row of a band (9 cells), the row, in its place in the
    /// band, if it has exactly one cell in the set; none if it has more;
    /// and [`EMPTY`] alone if it has none.
    lone_row: [[u32; 512]; 3],
    /// For a set of a band's columns, the columns of its boxes that hold
    /// exactly one of the set, with [`EMPTY`] if some box holds none.
    /// The flags of empty groups ride in the same words as the lone places,
    /// so that a band takes one lookup fewer and no shifts to put its rows
    /// together.
    lone_box_columns: [u32; 512],
}

/// The bit that says a row or box has no place, above every cell of a
/// band.
const EMPTY: u32 = 1 << 31;

/// The tables, built at compile time: read from a fixed address, with no
/// check that they were built.
static TABLES: Tables = Tables::build();

impl Tables {
    const fn build() -> Tables {
        let mut tables = Tables {
            boxes_of_row: [0; 512],
            paired: [0; 512],
            cells_of_minirows: [0; 512],
            boxes_met: [0; 512],
            lone_row: [[0; 512]; 3],
            lone_box_columns: [0; 512],
        };
        let mut set = 0usize;
        while set < 512 {
            // The boxes (as their three columns) holding some of the set's
            // columns, and those holding exactly one.
            let (mut boxes_of_row, mut met, mut met_once) = (0u8, 0u16, 0u32);
            let mut j = 0;
            while j < 3 {
                let n = (set >> (3 * j) & 7).count_ones();
                if n > 0 {
                    boxes_of_row |= 1 << j;
                    met |= 7 << (3 * j);
                }
                if n == 1 {
                    met_once |= 7 << (3 * j);
                }
                j += 1;
            }
            tables.boxes_of_row[set] = boxes_of_row;
            tables.boxes_met[set] = met;
            let mut paired = 0u16;
            let mut p = 0;
            while p < PAIRINGS.len() {
                let pairing = (1 << PAIRINGS[p][0]) | (1 << (3 + PAIRINGS[p][1])) | (1 << (6 + PAIRINGS[p][2]));
                if set & pairing == pairing {
                    paired |= pairing as u16;
                }
                p += 1;
            }
            tables.paired[set] = paired;
            let mut cells = 0u32;
            let mut b = 0;
            while b < 9 {
                if set >> b & 1 == 1 {
                    cells |= 7 << (3 * b);
                }
                b += 1;
            }
            tables.cells_of_minirows[set] = cells;
            let mut i = 0;
            while i < 3 {
                tables.lone_row[i][set] = match set.count_ones() {
                    0 => EMPTY,
                    1 => (set as u32) << (9 * i),
                    _ => 0,
                };
                i += 1;
            }
            let no_box = if boxes_of_row == 7 { 0 } else { EMPTY };
            tables.lone_box_columns[set] = met_once | no_box;
            set += 1;
        }
        tables
    }
}

/// The places of `board` that lie on a pairing in their band and in their
/// stack (see the module's docs); `None` if some band or stack has none,
/// so that the value has no room left.
pub(super) fn prune(board: u128) -> Option<u128> {
    let tables = &TABLES;
    let mut bands = [0u32; 3];
    for (k, band) in bands.iter_mut().enumerate() {
        let cells = (board >> (27 * k)) as u32 & BAND;
        let minirows =
            (0..3).fold(0, |m, i| m | usize::from(tables.boxes_of_row[(cells >> (9 * i) & ROW) as usize]) << (3 * i));
        let paired = tables.paired[minirows];
        if paired == 0 {
            return None;
        }
        *band = cells & tables.cells_of_minirows[usize::from(paired)];
    }
    // A stack's matrix: bit 3k + i for its i-th column in band k.
    let columns = bands.map(|cells| (cells | cells >> 9 | cells >> 18) & ROW);
    let mut kept = [0u32; 3];
    for stack in 0..3 {
        let matrix = (0..3).fold(0, |m, k| m | (columns[k] >> (3 * stack) & 7) << (3 * k));
        let paired = u32::from(tables.paired[matrix as usize]);
        if paired == 0 {
            return None;
        }
        for (k, kept) in kept.iter_mut().enumerate() {
            *kept |= (paired >> (3 * k) & 7) << (3 * stack);
        }
    }
    Some((0..3).fold(0, |out, k| out | u128::from(bands[k] & (kept[k] * EVERY_ROW)) << (27 * k)))
}

/// The places of `board` that are its only place in their row, column or
/// box (placed cells among them); `None` if some row, column or box has
/// none, so that the value has no room left.
#[inline(always)]
pub(super) fn singles(board: u128) -> Option<u128> {
    let singles = lone_places(board);
    (singles != NO_ROOM).then_some(singles)
}

/// What [`lone_places`] gives for a board with no room: more than the 81
/// cells of any board.
const NO_ROOM: u128 = u128::MAX;

/// [`singles`], or [`NO_ROOM`]. Not inlined: inlined, it ran slower.
///
/// A number comes back in registers, where an `Option` of one goes
/// through memory, and every band's work is done whether or not a group
/// has no room, the flag folded into the result without a branch: with
/// an early return, the compiler tested all three bands' flags first and
/// kept their workings on the stack meanwhile.
#[inline(never)]
fn lone_places(board: u128) -> u128 {
    let tables = &TABLES;
    // Columns of the grid seen in a band, and seen in two bands or twice
    // in one; and the bands' lone places and boxes, whose `EMPTY` bit says
    // whether a row or box has no place, tested once at the end rather
    // than band by band, so that each band is done with before the next
    // (fewer values kept across bands).
    let (mut once, mut twice, mut out, mut flags) = (0u32, 0u32, 0u128, 0u32);
    for k in 0..3 {
        let cells = (board >> (27 * k)) as u32 & BAND;
        let rows = [cells & ROW, cells >> 9 & ROW, cells >> 18];
        // Each row's lone place, or that it has none, looked up: cheaper
        // than working them out from `row & (row - 1)` and testing each row.
        let lone_rows = tables.lone_row[0][rows[0] as usize]
            | tables.lone_row[1][rows[1] as usize]
            | tables.lone_row[2][rows[2] as usize];
        let seen = rows[0] | rows[1] | rows[2];
        let again = rows[0] & rows[1] | (rows[0] | rows[1]) & rows[2];
        let lone_box_columns = tables.lone_box_columns[seen as usize];
        flags |= lone_rows | lone_box_columns;
        let lone_boxes = lone_box_columns & ROW & !u32::from(tables.boxes_met[again as usize]);
        out |= u128::from(lone_rows & BAND | cells & (lone_boxes * EVERY_ROW)) << (27 * k);
        twice |= once & seen | again;
        once |= seen;
    }
    let lone_columns = u128::from((once & !twice) * EVERY_ROW);
    let singles = out | board & (lone_columns | lone_columns << 27 | lone_columns << 54);
    let no_room = u128::from(flags >> 31 | u32::from(once != ROW));
    singles | no_room.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Every way to place one value on an empty 9×9 grid with 3×3 boxes
    /// (46,656 of them), as boards.
    fn placements() -> Vec<u128> {
        fn extend(row: usize, used_cols: u16, board: u128, out: &mut Vec<u128>) {
            if row == 9 {
                out.push(board);
                return;
            }
            for col in (0..9).filter(|c| used_cols >> c & 1 == 0) {
                // One place per box: none earlier in this band's box.
                let band_rows = row / 3 * 3..row;
                let clash = band_rows.into_iter().any(|r| (board >> (9 * r)) as u32 & ROW & 7 << (col / 3 * 3) != 0);
                if !clash {
                    extend(row + 1, used_cols | 1 << col, board | 1 << (9 * row + col), out);
                }
            }
        }
        let mut out = Vec::new();
        extend(0, 0, 0, &mut out);
        out
    }

    #[test]
    fn there_are_46656_placements() {
        assert_eq!(placements().len(), 46_656);
    }

    #[test]
    fn pruning_keeps_every_placement_that_fits_and_says_none_only_when_none_does() {
        let all = placements();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut emptied = 0;
        for round in 0..3000 {
            // From sparse boards to dense ones, some built around a placement.
            let density = [0.2, 0.35, 0.5, 0.7][round % 4];
            let mut board: u128 = (0..81).filter(|_| rng.random_bool(density)).map(|c| 1u128 << c).sum();
            if round % 3 == 0 {
                board |= all[rng.random_range(0..all.len())];
            }
            let fitting = all.iter().filter(|&&p| p & board == p).fold(0, |u, &p| u | p);
            match prune(board) {
                Some(kept) => {
                    assert_eq!(kept & !board, 0, "pruning added places to {board:x}");
                    assert_eq!(fitting & !kept, 0, "pruning took places of a placement from {board:x}");
                }
                None => {
                    assert_eq!(fitting, 0, "no room said for {board:x}, which has a placement");
                    emptied += 1;
                }
            }
        }
        assert!(emptied > 100, "the rounds should meet boards with no room: {emptied}");
    }

    /// The rows, columns and boxes of a 9×9 grid with 3×3 boxes, as sets.
    fn groups() -> Vec<u128> {
        let set = |cells: &mut dyn Iterator<Item = usize>| cells.map(|c| 1u128 << c).sum();
        (0..9)
            .flat_map(|i| {
                [
                    set(&mut (0..9).map(|c| 9 * i + c)),
                    set(&mut (0..9).map(|r| 9 * r + i)),
                    set(&mut (0..9).map(|k| 9 * (i / 3 * 3 + k / 3) + i % 3 * 3 + k % 3)),
                ]
            })
            .collect()
    }

    #[test]
    fn singles_are_the_lone_places_of_rows_columns_and_boxes() {
        let groups = groups();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
        let (mut some, mut none) = (0, 0);
        for round in 0..20_000 {
            // Sparse boards, where groups with one place or none are common.
            let density = [0.08, 0.12, 0.18, 0.3][round % 4];
            let board: u128 = (0..81).filter(|_| rng.random_bool(density)).map(|c| 1u128 << c).sum();
            let places = |g: &u128| (board & g).count_ones();
            let expected = match groups.iter().any(|g| places(g) == 0) {
                true => None,
                false => Some(groups.iter().filter(|g| places(g) == 1).fold(0, |s, g| s | board & g)),
            };
            assert_eq!(singles(board), expected, "{board:x}");
            match expected {
                Some(s) if s != 0 => some += 1,
                None => none += 1,
                Some(_) => {}
            }
        }
        assert!(some > 1000 && none > 1000, "both outcomes should be met often: {some} and {none}");
        // Every placement of a value is its own singles.
        for placement in placements().into_iter().step_by(97) {
            assert_eq!(singles(placement), Some(placement));
        }
    }

    #[test]
    fn a_value_confined_to_one_line_of_a_box_leaves_the_rest_of_the_line() {
        let full: u128 = (1 << 81) - 1;
        // In the top-left box, only row 0: the rest of row 0 loses it.
        let box0_rows12: u128 = (0..3).map(|c| 1u128 << (9 + c) | 1u128 << (18 + c)).sum();
        let kept = prune(full & !box0_rows12).expect("room left");
        assert_eq!(kept >> 3 & 0x3F, 0, "row 0 outside the first box");
        assert_eq!(kept & 7, 7);
        // In the top-left box, only column 0: the rest of column 0 loses it.
        let box0_cols12: u128 = (0..3).map(|r| 6u128 << (9 * r)).sum();
        let kept = prune(full & !box0_cols12).expect("room left");
        assert!((3..9).all(|r| kept >> (9 * r) & 1 == 0), "column 0 below the first box");
        // A full board keeps every place.
        assert_eq!(prune(full), Some(full));
    }
}
