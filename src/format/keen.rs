//! Game IDs of Simon Tatham's Keen: `PARAMS:DESC`, one puzzle a line.
//!
//! `PARAMS` is the size, then optionally `d` and a difficulty letter and `m`
//! (multiplication only): `6`, `6dh`, `9dum`. `DESC` is the block structure,
//! a comma, and the clues.
//!
//! The block structure walks the `w·(w−1)` edges between horizontal
//! neighbours in reading order, then the `w·(w−1)` edges between vertical
//! neighbours column by column, then one closing edge, and writes each run
//! of edges *inside* a block as a letter for its length, ended by an edge
//! between blocks: `_` for none, `a` to `y` for 1 to 25. `z` stands for 25
//! inside edges with no edge after them, so that longer runs are `z`s and a
//! letter. A letter repeated `k > 2` times is written once followed by `k`.
//! This follows Keen's writer (`encode_block_structure` in `keen.c`); its
//! reader takes `y`, not `z`, as the letter with no edge after it, which
//! only matters past runs of 25 (grids larger than Keen's 9×9).
//!
//! The clues follow, one per block in the order of each block's first cell
//! in reading order: `a` (add), `s` (subtract), `m` (multiply) or `d`
//! (divide) and the target. Every cell is in a block, and every block is in
//! one piece: a puzzle with other cages, groups or cells in no cage has no
//! game ID.

use crate::format::error::{ParseError, ParseErrorKind, WriteError};
use crate::puzzle::{Cage, Cell, MAX_SIZE, Op, Puzzle, Target, in_one_piece};

use super::options::Parsed;
use super::reader::{Item, LineReader, read_all};

/// Parses every game ID in `text`, one a line (blank lines and `#` lines
/// are skipped); `source_name` is used in error messages.
///
/// ```
/// use cagey::format::keen;
///
/// let parsed = keen::parse("4de:a3_3a__a__a_ba,d2a9s1m4m48d2s2\n", "keen.txt").unwrap();
/// let puzzle = &parsed[0].puzzle;
/// assert_eq!((puzzle.size(), puzzle.cages().len()), (4, 7));
/// assert_eq!(keen::write(puzzle).unwrap(), "4:a3_3a__a__a_ba,d2a9s1m4m48d2s2");
/// ```
pub fn parse(text: &str, source_name: &str) -> Result<Vec<Parsed>, ParseError> {
    read_all(&mut Reader, text, source_name)
}

/// Whether `token` looks like a game ID: a size of 2 or more, perhaps a
/// difficulty and `m`, and a colon. No Sudoku line has one or two
/// characters before a colon but a 1×1's.
pub(super) fn looks_like_id(token: &str) -> bool {
    token.split_once(':').is_some_and(|(params, _)| params_size(params).is_some_and(|n| n >= 2))
}

/// The size in `PARAMS`, if it is `N`, `NdX`, `Nm` or `NdXm`.
fn params_size(params: &str) -> Option<usize> {
    let digits = params.len() - params.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &params[digits..];
    let rest = rest.strip_suffix('m').unwrap_or(rest);
    let difficulty =
        rest.is_empty() || (rest.len() == 2 && rest.starts_with('d') && rest.as_bytes()[1].is_ascii_lowercase());
    if digits == 0 || digits > 2 || !difficulty {
        return None;
    }
    params[..digits].parse().ok()
}

/// One game ID a line.
pub(super) struct Reader;

impl LineReader for Reader {
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item)) {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return;
        }
        let column = line[..line.len() - trimmed.len()].chars().count() + 1;
        let token = trimmed.split_whitespace().next().expect("a line with text");
        out(read_id(token)
            .map(|puzzle| Parsed::new(puzzle, line_no))
            .map_err(|(at, kind)| (line_no, column + at, kind)));
    }

    fn finish(&mut self, _: &mut dyn FnMut(Item)) {}

    fn held(&self) -> usize {
        0
    }
}

/// The puzzle of one game ID; an error carries its 0-based column in the ID.
fn read_id(id: &str) -> Result<Puzzle, (usize, ParseErrorKind)> {
    let bad = |at: usize, expected: &'static str| {
        let found = id.chars().skip(at).take(12).collect::<String>();
        (at, ParseErrorKind::BadKeenId { found, expected })
    };
    let Some((params, desc)) = id.split_once(':') else {
        return Err(bad(0, "a game ID, PARAMS:DESC, like 4de:a3_3a__a__a_ba,d2a9s1m4m48d2s2"));
    };
    let w = params_size(params)
        .filter(|w| (1..=MAX_SIZE).contains(w))
        .ok_or_else(|| bad(0, "a size from 1 to 25, perhaps with d and a difficulty letter, and m"))?;
    let start = params.len() + 1;
    let (blocks, clues_at) = read_blocks(desc, w).map_err(|(at, expected)| bad(start + at, expected))?;
    let clues = &desc[clues_at..];
    let mut cages = Vec::with_capacity(blocks.len());
    let mut rest = clues;
    for cells in &blocks {
        let at = start + clues_at + (clues.len() - rest.len());
        let mut chars = rest.chars();
        let op = match chars.next() {
            Some('a') => Op::Add,
            Some('s') => Op::Sub,
            Some('m') => Op::Mul,
            Some('d') => Op::Div,
            None => return Err(bad(at, "a clue for every block: too few")),
            Some(_) => return Err(bad(at, "a clue: a, s, m or d and a number")),
        };
        let digits = chars.as_str().len() - chars.as_str().trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let target = Target::from_decimal(&chars.as_str()[..digits])
            .ok_or_else(|| bad(at, "a number after the clue's letter"))?;
        rest = &chars.as_str()[digits..];
        let cage = Cage::new(op, target, cells.clone()).map_err(|e| (at, ParseErrorKind::Invalid(e)))?;
        cages.push(cage);
    }
    if !rest.is_empty() {
        return Err(bad(start + desc.len() - rest.len(), "no more clues than blocks"));
    }
    Puzzle::new(w, Vec::new(), cages).map_err(|e| (0, ParseErrorKind::Invalid(e)))
}

/// The two cells on either side of edge `i` of a grid of size `w`.
fn edge(i: usize, w: usize) -> (usize, usize) {
    if i < w * (w - 1) {
        let (y, x) = (i / (w - 1), i % (w - 1));
        (y * w + x, y * w + x + 1)
    } else {
        let (x, y) = (i / (w - 1) - w, i % (w - 1));
        (y * w + x, (y + 1) * w + x)
    }
}

/// Blocks of cells, each in reading order.
type Blocks = Vec<Vec<Cell>>;

/// The blocks of the block structure at the start of `desc`, each a list
/// of cells in reading order, ordered by their first cell; and where the
/// clues start (after the comma). An error carries its offset.
fn read_blocks(desc: &str, w: usize) -> Result<(Blocks, usize), (usize, &'static str)> {
    let edges = 2 * w * (w - 1);
    let mut parent: Vec<usize> = (0..w * w).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let bytes = desc.as_bytes();
    let (mut at, mut pos) = (0, 0);
    while at < bytes.len() && bytes[at] != b',' {
        let letter = bytes[at];
        let run = match letter {
            b'_' => 0,
            b'a'..=b'z' => usize::from(letter - b'a' + 1).min(25),
            _ => return Err((at, "the block structure: _ or a letter, then a comma")),
        };
        at += 1;
        let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        let times = if digits == 0 {
            1
        } else {
            let count = desc[at..at + digits].parse::<usize>().ok().filter(|&k| k <= 2 * edges + 2);
            count.ok_or((at, "a repeat count no larger than the grid has edges"))?
        };
        at += digits;
        for _ in 0..times {
            for _ in 0..run {
                if pos >= edges {
                    return Err((at, "no more block structure than the grid has edges"));
                }
                let (a, b) = edge(pos, w);
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
                pos += 1;
            }
            // `z` runs on; every other letter ends at an edge.
            if letter != b'z' {
                pos += 1;
                if pos > edges + 1 {
                    return Err((at, "no more block structure than the grid has edges"));
                }
            }
        }
    }
    if pos != edges + 1 {
        return Err((at, "a block structure that covers every edge of the grid, then a comma"));
    }
    if at == bytes.len() {
        return Err((at, "a comma, then the clues"));
    }
    let mut blocks: Vec<Vec<Cell>> = Vec::new();
    let mut index = vec![usize::MAX; w * w];
    for cell in 0..w * w {
        let r = root(&mut parent, cell);
        if index[r] == usize::MAX {
            index[r] = blocks.len();
            blocks.push(Vec::new());
        }
        blocks[index[r]].push(Cell::new(cell / w, cell % w));
    }
    Ok((blocks, at + 1))
}

/// Writes `puzzle` as a game ID with no difficulty (`6:…`), which Keen
/// opens. Fails for a puzzle the format cannot say: extra groups, a cell in
/// no cage, a cage in more than one piece, or a `?` cage. A one-cell cage
/// (`!`, `+` or `*`) is a block of one cell with an `a` or `m` clue.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    let w = puzzle.size();
    if !puzzle.extra_groups().is_empty() {
        return Err(WriteError::NotKeen("boxes or other groups"));
    }
    let mut block = vec![usize::MAX; w * w];
    for (i, cage) in puzzle.cages().iter().enumerate() {
        if cage.is_distinct() && cage.cells().len() > 1 {
            return Err(WriteError::NotKeen("a distinct (Killer) cage"));
        }
        for cell in cage.cells() {
            if std::mem::replace(&mut block[cell.index(w)], i) != usize::MAX {
                return Err(WriteError::NotKeen("a cell in two cages, or a given inside a cage"));
            }
        }
    }
    if block.contains(&usize::MAX) {
        return Err(WriteError::NotKeen("a cell in no cage"));
    }
    if !puzzle.cages().iter().all(|cage| in_one_piece(cage.cells())) {
        return Err(WriteError::NotKeen("a cage in more than one piece"));
    }
    let mut letters = Vec::new();
    let mut run = 0;
    for i in 0..=2 * w * (w - 1) {
        let is_edge = i == 2 * w * (w - 1) || {
            let (a, b) = edge(i, w);
            block[a] != block[b]
        };
        if !is_edge {
            run += 1;
            continue;
        }
        while run > 25 {
            letters.push(b'z');
            run -= 25;
        }
        letters.push(if run == 0 { b'_' } else { b'a' - 1 + run as u8 });
        run = 0;
    }
    let mut out = format!("{w}:");
    for chunk in letters.chunk_by(|a, b| a == b) {
        out.push(char::from(chunk[0]));
        match chunk.len() {
            1 => {}
            2 => out.push(char::from(chunk[0])),
            k => out.push_str(&k.to_string()),
        }
    }
    out.push(',');
    let mut cages: Vec<&Cage> = puzzle.cages().iter().collect();
    cages.sort_by_key(|cage| cage.cells().iter().map(|cell| cell.index(w)).min());
    for cage in cages {
        let letter = match cage.op() {
            Op::Add | Op::Given => 'a',
            Op::Sub => 's',
            Op::Mul => 'm',
            Op::Div => 'd',
            Op::Any => return Err(WriteError::NotKeen("a no-op '?' cage")),
        };
        out.push(letter);
        out.push_str(cage.target().digits());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(id: &str) -> String {
        parse(id, "t").unwrap_err().to_string()
    }

    #[test]
    fn ids_of_keens_generator_read_as_their_cages() {
        let parsed = parse("4de:a3_3a__a__a_ba,d2a9s1m4m48d2s2", "t").unwrap();
        let cages: Vec<String> = parsed[0]
            .puzzle
            .cages()
            .iter()
            .map(|c| {
                format!(
                    "{} {} {}",
                    c.op(),
                    c.target(),
                    c.cells().iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
                )
            })
            .collect();
        // As Keen's own puzzle list gives it, in neknek text.
        assert_eq!(
            cages,
            ["/ 2 A1 A2", "+ 9 A3 A4 B4", "- 1 B1 C1", "* 4 B2 B3", "* 48 C2 D1 D2", "/ 2 C3 D3", "- 2 C4 D4"]
        );
    }

    #[test]
    fn bad_ids_say_where_and_what() {
        assert!(error("4de").contains("t:1:1: bad Keen game ID '4de'"), "{}", error("4de"));
        assert!(error("30:_,a1").contains("a size from 1 to 25"));
        let short = error("2:_4,a1a1a1a1");
        assert!(short.contains("t:1:5:") && short.contains("covers every edge"), "{short}");
        assert!(error("2:_6,a1a1a1a1").contains("no more block structure"));
        assert!(error("2:_5a1a1a1a1").contains("no more block structure"));
        assert!(error("2:_5").contains("a comma, then the clues"));
        assert!(error("2:_5,a1a1a1").contains("too few"));
        assert!(error("2:_5,a1a1a1a1a1").contains("no more clues than blocks"));
        assert!(error("2:_5,a1a1x1a1").contains("a, s, m or d"));
        assert!(error("2:_5,a1a1aa1").contains("a number after"));
        assert!(error("2:_5,a1a1s1a1").contains("t:1:10:"), "a subtraction of one cell");
        // Any size from 1, with or without a difficulty and `m`.
        let desc = "a3_3a__a__a_ba,d2a9s1m4m48d2s2";
        let text = format!("1:_,a1\n4dem:{desc}\n4m:{desc}\n4:{desc}\n");
        let sizes: Vec<usize> = parse(&text, "t").unwrap().iter().map(|p| p.puzzle.size()).collect();
        assert_eq!(sizes, [1, 4, 4, 4]);
        // Two dominoes: a 2-block row above a 2-block row.
        let two = parse("2:b__,s1a3", "t").unwrap();
        assert_eq!(two[0].puzzle.cages().len(), 2);
    }

    #[test]
    fn long_runs_use_z_as_keens_writer_does() {
        // A 14×14 with one block of the whole first row: 13 edges inside
        // it, and many long runs of inside edges in larger blocks.
        let w = 14;
        let row: Vec<Cell> = (0..w).map(|c| Cell::new(0, c)).collect();
        let mut cages = vec![Cage::new(Op::Add, 105, row).unwrap()];
        for r in 1..w {
            let cells: Vec<Cell> = (0..w).map(|c| Cell::new(r, c)).collect();
            cages.push(Cage::new(Op::Add, 105, cells).unwrap());
        }
        let puzzle = Puzzle::new(w, Vec::new(), cages).unwrap();
        let id = write(&puzzle).unwrap();
        assert!(id.contains('z'), "{id}");
        assert_eq!(parse(&id, "t").unwrap()[0].puzzle, puzzle);
    }
}
