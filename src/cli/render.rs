//! `cagey render`: a puzzle drawn as a printed KenKen or Sudoku looks, as
//! SVG, or as PNG through resvg; with its solution, or with where it is
//! ambiguous.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cagey::{Analysis, Cell, Grid, Op, Puzzle};
use resvg::{tiny_skia, usvg};
use svg::Document;
use svg::node::element::{Line, Rectangle, Text};

use super::args::RenderArgs;
use super::exit::{Answer, RunError};
use super::input::{CliError, Entries, Entry};

/// The side of a cell, in pixels.
const CELL: f64 = 60.0;
/// Space around the grid.
const MARGIN: f64 = 8.0;
/// The font built in, a subset of DejaVu Sans (digits, capitals, signs).
const FONT: &str = "DejaVu Sans";
const REGULAR: &[u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold-subset.ttf");

/// What is drawn in the cells besides the puzzle's own clues.
pub enum Fill<'a> {
    /// Nothing: the puzzle as set.
    Nothing,
    /// A solution's values.
    Solution(&'a Grid),
    /// Fixed cells' values, and open cells shaded with their values small.
    Analysis(&'a Analysis),
}

pub fn render(args: &RenderArgs, entries: &mut Entries, out: &mut dyn Write) -> Result<Answer, RunError> {
    let solver = args.solver.solver();
    let unfit = |message: &str| CliError::Unfit { place: args.output.display().to_string(), message: message.into() };
    let single = match args.output.extension() {
        None => false,
        Some(_) if image_kind(&args.output).is_some() => true,
        Some(_) if args.output.is_dir() => false,
        Some(_) => return Err(unfit("expected a file ending in .svg or .png, or a directory").into()),
    };
    // Nothing is written before it is known that one file is enough.
    let (ahead, _) = entries.peek(2);
    if single && matches!(ahead.as_slice(), [_, Ok(_)]) {
        return Err(unfit("the input holds several puzzles: give -o a directory, one file each").into());
    }
    for (k, entry) in ahead.into_iter().chain(entries).enumerate() {
        let entry = entry?;
        if entry.skipped.is_some() {
            entry.write_skipped(out, false)?;
            continue;
        }
        let path = match single {
            true => args.output.clone(),
            false => args.output.join(format!("{}.{}", k + 1, if args.png { "png" } else { "svg" })),
        };
        let failed = |error| CliError::Solve { label: entry.label(), error };
        let picture = if args.analysis {
            let analysis = solver.analyze(&entry.puzzle).map_err(failed)?;
            draw(&entry, &Fill::Analysis(&analysis))
        } else if args.solution {
            let found = solver.solutions(&entry.puzzle, Some(args.index)).map_err(failed)?.grids;
            match found.get(args.index as usize - 1) {
                Some(grid) => draw(&entry, &Fill::Solution(grid)),
                None => {
                    let message =
                        format!("the puzzle has {} solutions: there is no solution {}", found.len(), args.index);
                    return Err(CliError::Unfit { place: entry.label(), message }.into());
                }
            }
        } else {
            draw(&entry, &Fill::Nothing)
        };
        write_image(&path, &picture)?;
        if !single {
            writeln!(out, "{}: {}", entry.label(), path.display())?;
        }
    }
    Ok(Answer::Positive)
}

/// `svg` or `png` when `path` names an image file, by its extension.
fn image_kind(path: &Path) -> Option<&'static str> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Some("svg"),
        Some("png") => Some("png"),
        _ => None,
    }
}

/// Writes the SVG text `picture` to `path`, as PNG if its name says so.
fn write_image(path: &PathBuf, picture: &str) -> Result<(), CliError> {
    let failed = |error| CliError::Write { path: path.clone(), error };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(failed)?;
    }
    let bytes = match image_kind(path) {
        Some("png") => {
            let pixmap =
                rasterise(picture).map_err(|message| CliError::Unfit { place: path.display().to_string(), message })?;
            pixmap.encode_png().map_err(|e| failed(std::io::Error::other(e.to_string())))?
        }
        _ => picture.as_bytes().to_vec(),
    };
    std::fs::write(path, bytes).map_err(failed)
}

/// The picture rasterised by resvg, with the built-in font.
pub fn rasterise(picture: &str) -> Result<tiny_skia::Pixmap, String> {
    let mut options = usvg::Options { font_family: FONT.to_string(), ..usvg::Options::default() };
    let fonts = Arc::make_mut(&mut options.fontdb);
    fonts.load_font_data(REGULAR.to_vec());
    fonts.load_font_data(BOLD.to_vec());
    let tree = usvg::Tree::from_str(picture, &options).map_err(|e| format!("cannot read the SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("an empty picture")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The top-left corner of `cell`.
fn corner(cell: Cell) -> (f64, f64) {
    (MARGIN + cell.col as f64 * CELL, MARGIN + cell.row as f64 * CELL)
}

/// Text at `(x, y)` (the baseline's start, or its middle when `centred`).
fn text(content: String, x: f64, y: f64, size: f64, bold: bool, centred: bool, colour: &str) -> Text {
    Text::new(content)
        .set("x", x)
        .set("y", y)
        .set("font-family", FONT)
        .set("font-size", size)
        .set("font-weight", if bold { "bold" } else { "normal" })
        .set("text-anchor", if centred { "middle" } else { "start" })
        .set("fill", colour)
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64, width: f64, colour: &str) -> Line {
    Line::new()
        .set("x1", x1)
        .set("y1", y1)
        .set("x2", x2)
        .set("y2", y2)
        .set("stroke", colour)
        .set("stroke-width", width)
        .set("stroke-linecap", "square")
}

/// The puzzle as an SVG document, with `fill`. A KenKen: thin cell lines,
/// thick lines where cages meet, each cage's target and op in its first
/// cell. A Killer (some cage distinct): a Sudoku's grid, thick box lines,
/// each cage a dashed outline inset in its cells with its sum in the
/// top-left corner. Either way givens are bold, and a cage laid over others
/// (a little killer, a pair) is a dotted line through its cells' centres.
pub fn draw(entry: &Entry, fill: &Fill) -> String {
    let puzzle = &entry.puzzle;
    let n = puzzle.size();
    let side = 2.0 * MARGIN + n as f64 * CELL;
    let mut doc = Document::new()
        .set("viewBox", (0, 0, side, side))
        .set("width", side)
        .set("height", side)
        .add(Rectangle::new().set("width", side).set("height", side).set("fill", "white"));
    let cells = (0..n * n).map(|i| Cell::new(i / n, i % n));
    if let Fill::Analysis(analysis) = fill {
        for (cell, _) in analysis.open() {
            let (x, y) = corner(cell);
            doc = doc.add(
                Rectangle::new().set("x", x).set("y", y).set("width", CELL).set("height", CELL).set("fill", "#fde9a6"),
            );
        }
    }
    // Where each cell belongs: its cage, the first that holds it (a cage
    // over others is drawn apart), and its box.
    let mut cage_of = vec![usize::MAX; n * n];
    let mut over = Vec::new();
    for (i, cage) in puzzle.cages().iter().enumerate().filter(|(_, c)| c.op() != Op::Given) {
        if cage.cells().iter().any(|c| cage_of[c.index(n)] != usize::MAX) {
            over.push(cage);
            continue;
        }
        for cell in cage.cells() {
            cage_of[cell.index(n)] = i;
        }
    }
    let caged = |i: usize| puzzle.cages().get(i);
    let killer = cage_of.iter().any(|&i| caged(i).is_some_and(|cage| cage.is_distinct()));
    let kenken = !killer && cage_of.iter().any(|&i| i != usize::MAX);
    let box_of = boxes(puzzle);
    let split = |a: Cell, b: Cell| -> f64 {
        let (a, b) = (a.index(n), b.index(n));
        if kenken && cage_of[a] != cage_of[b] {
            3.0
        } else if box_of.as_ref().is_some_and(|boxes| boxes[a] != boxes[b]) {
            if kenken { 2.0 } else { 3.0 }
        } else {
            1.0
        }
    };
    for cell in cells.clone() {
        let (x, y) = corner(cell);
        if cell.col + 1 < n {
            let width = split(cell, Cell::new(cell.row, cell.col + 1));
            doc = doc.add(line(x + CELL, y, x + CELL, y + CELL, width, if width > 1.0 { "black" } else { "#999" }));
        }
        if cell.row + 1 < n {
            let width = split(cell, Cell::new(cell.row + 1, cell.col));
            doc = doc.add(line(x, y + CELL, x + CELL, y + CELL, width, if width > 1.0 { "black" } else { "#999" }));
        }
    }
    let end = MARGIN + n as f64 * CELL;
    doc = doc.add(
        Rectangle::new()
            .set("x", MARGIN)
            .set("y", MARGIN)
            .set("width", end - MARGIN)
            .set("height", end - MARGIN)
            .set("fill", "none")
            .set("stroke", "black")
            .set("stroke-width", 3),
    );
    if killer {
        doc = dashed_outlines(doc, n, &cage_of);
    }
    for cage in &over {
        doc = dotted_path(doc, cage.cells());
    }
    let big = CELL * 0.55;
    let centre = |cell: Cell| {
        let (x, y) = corner(cell);
        (x + CELL / 2.0, y + CELL / 2.0 + big * 0.36)
    };
    let mut given = vec![false; n * n];
    for cage in puzzle.cages() {
        let first = *cage.cells().iter().min_by_key(|c| c.index(n)).expect("a cage has cells");
        if cage.op() == Op::Given {
            given[first.index(n)] = true;
            let (x, y) = centre(first);
            doc = doc.add(text(cage.target().to_string(), x, y, big, true, true, "black"));
            continue;
        }
        let sign = match cage.op() {
            // A Killer's sums go without their sign, as printed.
            Op::Add if killer => "",
            Op::Add => "+",
            Op::Sub => "−",
            Op::Mul => "×",
            Op::Div => "÷",
            Op::Given | Op::Any => "",
        };
        let (x, y) = corner(first);
        let label = format!("{}{sign}", cage.target());
        // A long target shrinks to fit its cell (a character is about 0.62
        // of the font size wide).
        let size = (CELL * 0.22).min(CELL * 0.9 / (0.62 * label.chars().count() as f64));
        let (x, y) = if over.iter().any(|o| std::ptr::eq(*o, cage)) {
            // A cage over others: its label beside its first cell's centre.
            (x + CELL * 0.55, y + CELL * 0.45)
        } else {
            (x + 3.0, y + CELL * 0.22)
        };
        if killer {
            let width = 0.62 * size * label.chars().count() as f64 + 2.0;
            let backing = Rectangle::new().set("x", x - 1.0).set("y", y - size * 0.85).set("fill", "white");
            doc = doc.add(backing.set("width", width).set("height", size));
        }
        doc = doc.add(text(label, x, y, size, false, false, "black"));
    }
    for cell in cells {
        if given[cell.index(n)] {
            continue;
        }
        let (x, y) = centre(cell);
        match fill {
            Fill::Nothing => {}
            Fill::Solution(grid) => doc = doc.add(text(grid[cell].to_string(), x, y, big, false, true, "#1d4e9e")),
            Fill::Analysis(analysis) => {
                let values = analysis.values(cell);
                if let [value] = values[..] {
                    doc = doc.add(text(value.to_string(), x, y, big, false, true, "#444"));
                } else {
                    doc = candidates(doc, cell, n, &values);
                }
            }
        }
    }
    doc.to_string()
}

/// Inset from a cell's edge of a Killer cage's dashed outline.
const INSET: f64 = 5.0;

/// Each cage of `cage_of` (the cage of each cell, `usize::MAX` for none) as
/// a dashed outline inset in its cells: along every side a cell shares with
/// no cell of its cage, from corner to corner, each end reaching the next
/// side's line (inward at an outer corner, outward at an inner one).
fn dashed_outlines(mut doc: Document, n: usize, cage_of: &[usize]) -> Document {
    let same = |cell: Cell, dr: isize, dc: isize| -> bool {
        let (r, c) = (cell.row as isize + dr, cell.col as isize + dc);
        let inside = (0..n as isize).contains(&r) && (0..n as isize).contains(&c);
        inside && cage_of[r as usize * n + c as usize] == cage_of[cell.index(n)]
    };
    for cell in (0..n * n).map(|i| Cell::new(i / n, i % n)).filter(|c| cage_of[c.index(n)] != usize::MAX) {
        let (x, y) = corner(cell);
        // Each side: its outward step, and the steps along it to its two ends.
        for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            if same(cell, dr, dc) {
                continue;
            }
            let ends = [(-dc.abs(), -dr.abs()), (dc.abs(), dr.abs())].map(|(er, ec)| {
                // Inward where the side turns here, outward where the cage
                // goes on around a corner, to the cell's edge where it runs on.
                match (same(cell, er, ec), same(cell, er + dr, ec + dc)) {
                    (false, _) => INSET,
                    (true, true) => -INSET,
                    (true, false) => 0.0,
                }
            });
            let (x1, y1, x2, y2) = match (dr, dc) {
                (-1, 0) => (x + ends[0], y + INSET, x + CELL - ends[1], y + INSET),
                (1, 0) => (x + ends[0], y + CELL - INSET, x + CELL - ends[1], y + CELL - INSET),
                (0, -1) => (x + INSET, y + ends[0], x + INSET, y + CELL - ends[1]),
                _ => (x + CELL - INSET, y + ends[0], x + CELL - INSET, y + CELL - ends[1]),
            };
            let dashed = line(x1, y1, x2, y2, 1.2, "#333").set("stroke-dasharray", "4 3").set("stroke-linecap", "butt");
            doc = doc.add(dashed);
        }
    }
    doc
}

/// A cage laid over others, as a dotted line through its cells' centres.
fn dotted_path(mut doc: Document, cells: &[Cell]) -> Document {
    let centre = |c: &Cell| {
        let (x, y) = corner(*c);
        (x + CELL / 2.0, y + CELL / 2.0)
    };
    for (a, b) in cells.iter().zip(&cells[1..]) {
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        doc =
            doc.add(line(x1, y1, x2, y2, 2.0, "#3a6fb0").set("stroke-dasharray", "2 4").set("stroke-linecap", "round"));
    }
    doc
}

/// An open cell's values, small, each in its place of a k×k grid of the
/// cell (k the square root of N, rounded up), as setters pencil them in.
fn candidates(mut doc: Document, cell: Cell, n: usize, values: &[u8]) -> Document {
    let k = (1..=n).find(|k| k * k >= n).unwrap_or(n);
    let (x, y) = corner(cell);
    // Below the cage label, the rest of the cell.
    let top = y + CELL * 0.28;
    let (w, h) = (CELL / k as f64, (CELL * 0.72) / k as f64);
    let size = h.min(w) * 0.8;
    for &v in values {
        let i = usize::from(v) - 1;
        let (cx, cy) = (x + w * ((i % k) as f64 + 0.5), top + h * ((i / k) as f64 + 0.5) + size * 0.36);
        doc = doc.add(text(v.to_string(), cx, cy, size, false, true, "#7a4b00"));
    }
    doc
}

/// The box of each cell, if the puzzle's extra groups of N cells tile the
/// grid (Sudoku boxes); a puzzle with other groups gets none drawn.
fn boxes(puzzle: &Puzzle) -> Option<Vec<usize>> {
    let n = puzzle.size();
    let groups: Vec<_> = puzzle.extra_groups().iter().filter(|g| g.cells().len() == n).collect();
    let mut box_of = vec![usize::MAX; n * n];
    for (i, group) in groups.iter().enumerate() {
        for cell in group.cells() {
            if box_of[cell.index(n)] != usize::MAX {
                return None;
            }
            box_of[cell.index(n)] = i;
        }
    }
    (!groups.is_empty() && !box_of.contains(&usize::MAX)).then_some(box_of)
}

#[cfg(test)]
mod tests {
    use cagey::format::{self, Format};
    use cagey::{Backend, Solver};

    use super::*;

    const SEED: &str = "# 5\n+ 14 A1 A2 B1 B2\n- 3 A3 B3\n/ 4 A4 A5\n- 2 B4 B5\n- 2 C1 C2\n* 40 C3 D3 D4 E4\n+ 9 C4 C5 D5\n/ 2 D1 E1\n* 12 D2 E2 E3\n! 5 E5\n";

    fn seed() -> Entry {
        let puzzle = format::parse(SEED, "seed", &Default::default()).unwrap().remove(0).puzzle;
        Entry { source: "seed".into(), line: 1, puzzle, format: Format::KenKen, skipped: None, ignored: Vec::new() }
    }

    /// The red channel of the pixel at `(x, y)`: 0 black, 255 white.
    fn red(pixmap: &tiny_skia::Pixmap, x: f64, y: f64) -> u8 {
        pixmap.pixel(x as u32, y as u32).expect("inside the picture").red()
    }

    /// Whether some pixel of the box from `(x0, y0)` to `(x1, y1)` is ink:
    /// darker than the grey of thin lines and the shade of open cells.
    fn inked(pixmap: &tiny_skia::Pixmap, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> bool {
        (x0 as u32..x1 as u32).any(|x| (y0 as u32..y1 as u32).any(|y| pixmap.pixel(x, y).unwrap().red() < 140))
    }

    #[test]
    fn borders_are_thick_where_cages_meet_and_targets_are_inked() {
        let pixmap = rasterise(&draw(&seed(), &Fill::Nothing)).unwrap();
        let middle = MARGIN + CELL / 2.0;
        // A1|A2 lie in one cage: a thin grey line; A2|A3 do not: a thick one.
        assert!(red(&pixmap, MARGIN + CELL, middle) > 120);
        assert!(red(&pixmap, MARGIN + 2.0 * CELL, middle) < 60);
        assert!(red(&pixmap, MARGIN + 2.0 * CELL - 1.0, middle) < 60, "three pixels wide");
        // The grid's edge is thick.
        assert!(red(&pixmap, MARGIN, middle) < 60);
        // "14+" in A1's corner; nothing in A2, nor in the middle of A1.
        assert!(inked(&pixmap, (MARGIN + 3.0, MARGIN + 3.0), (MARGIN + 40.0, MARGIN + 18.0)));
        assert!(!inked(&pixmap, (MARGIN + CELL + 4.0, MARGIN + 4.0), (MARGIN + 2.0 * CELL - 4.0, MARGIN + CELL - 4.0)));
        assert!(!inked(&pixmap, (MARGIN + 10.0, MARGIN + 25.0), (MARGIN + CELL - 10.0, MARGIN + CELL - 5.0)));
        // The given 5 in E5, in bold, in the middle of the cell.
        let e5 = (MARGIN + 4.0 * CELL, MARGIN + 4.0 * CELL);
        assert!(inked(&pixmap, (e5.0 + 20.0, e5.1 + 20.0), (e5.0 + 40.0, e5.1 + 50.0)));
    }

    #[test]
    fn a_solution_fills_the_cells_and_an_analysis_shades_the_open_ones() {
        let entry = seed();
        let found = Solver::new(Backend::Native).solutions(&entry.puzzle, Some(1)).unwrap().grids;
        let pixmap = rasterise(&draw(&entry, &Fill::Solution(&found[0]))).unwrap();
        let a2 = (MARGIN + CELL, MARGIN);
        assert!(inked(&pixmap, (a2.0 + 18.0, a2.1 + 20.0), (a2.0 + 42.0, a2.1 + 50.0)));
        let analysis = Solver::new(Backend::Sat).analyze(&entry.puzzle).unwrap();
        let pixmap = rasterise(&draw(&entry, &Fill::Analysis(&analysis))).unwrap();
        // A2 is open: shaded, with its values small; A4 is fixed: white.
        let shade = pixmap.pixel((a2.0 + 5.0) as u32, (a2.1 + CELL - 5.0) as u32).unwrap();
        assert_eq!((shade.red(), shade.green(), shade.blue()), (0xfd, 0xe9, 0xa6));
        assert!(inked(&pixmap, (a2.0 + 3.0, a2.1 + 20.0), (a2.0 + CELL - 3.0, a2.1 + CELL - 3.0)));
        let a4 = pixmap.pixel((MARGIN + 3.0 * CELL + 5.0) as u32, (MARGIN + CELL - 5.0) as u32).unwrap();
        assert_eq!((a4.red(), a4.green(), a4.blue()), (255, 255, 255));
    }

    #[test]
    fn killer_cages_are_dashed_inside_their_cells_and_boxes_stay_heavier() {
        let text = "# 4 boxes 2x2 killer\n+ 3 A1 A2\n+ 7 B1 B2\n+ 10 A3 A4 B3 B4\n+ 10 C1 C2 C3 C4\n+ 10 D1 D2 D3 D4\n";
        let puzzle = format::parse(text, "k", &Default::default()).unwrap().remove(0).puzzle;
        let entry =
            Entry { source: "k".into(), line: 1, puzzle, format: Format::KenKen, skipped: None, ignored: Vec::new() };
        let pixmap = rasterise(&draw(&entry, &Fill::Nothing)).unwrap();
        let (a1, middle) = (MARGIN, MARGIN + CELL / 2.0);
        // A1|B1 part two cages inside a box: the cell line stays thin, and
        // each cage's dashed outline runs a few pixels inside its cell.
        assert!(red(&pixmap, middle, a1 + CELL) > 120, "a thin line between cages in a box");
        let dashes = |y: f64| inked(&pixmap, (a1 + 15.0, y - 1.0), (a1 + 2.0 * CELL - 15.0, y + 1.0));
        assert!(dashes(a1 + CELL - INSET) && dashes(a1 + CELL + INSET), "both outlines, inset");
        assert!(!inked(&pixmap, (a1 + 15.0, a1 + CELL - INSET + 2.0), (a1 + CELL - 15.0, a1 + CELL - 2.0)));
        // A2|A3 is a box line: thick and black, heavier than any cage line.
        assert!(red(&pixmap, a1 + 2.0 * CELL, middle) < 60 && red(&pixmap, a1 + 2.0 * CELL - 1.0, middle) < 60);
        // The sum, with no sign, in the top-left corner of A1.
        assert!(inked(&pixmap, (a1 + 2.0, a1 + 2.0), (a1 + 14.0, a1 + 16.0)));
        assert!(!inked(&pixmap, (a1 + 13.0, a1 + 3.0), (a1 + 22.0, a1 + 11.0)), "no '+' after the 3");
    }

    #[test]
    fn sudoku_boxes_are_thick_and_givens_bold() {
        let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let puzzle = format::parse(line, "s", &Default::default()).unwrap().remove(0).puzzle;
        let entry =
            Entry { source: "s".into(), line: 1, puzzle, format: Format::Sudoku, skipped: None, ignored: Vec::new() };
        let pixmap = rasterise(&draw(&entry, &Fill::Nothing)).unwrap();
        let middle = MARGIN + CELL / 2.0;
        assert!(red(&pixmap, MARGIN + CELL, middle) > 120, "inside a box");
        assert!(red(&pixmap, MARGIN + 3.0 * CELL, middle) < 60, "between boxes");
        assert!(inked(&pixmap, (MARGIN + 20.0, MARGIN + 20.0), (MARGIN + 40.0, MARGIN + 50.0)), "the 5 in r1c1");
    }
}
