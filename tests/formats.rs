//! Print → parse round trips for both formats, and no input that panics.

use cagey::format::{self, Boxes, Format, ParseOptions, Parser, keen, kenken, killer, sudoku};
use cagey::{BoxShape, Cage, Cell, Grid, Group, Op, Puzzle, Target};
use itertools::Itertools;
use proptest::prelude::*;

/// A random KenKen-format puzzle: cells of an N×N grid spread over cages
/// at random (not always connected; some cells left out), each cage with
/// an op its cell count allows and a random target, small or of any length,
/// some distinct; sometimes all of them distinct (a `killer` file), Sudoku
/// boxes, extra `distinct` groups, cages over the others and givens in any
/// cell.
fn kenken_puzzle() -> impl Strategy<Value = Puzzle> {
    let target = prop_oneof![(1u64..5000).prop_map(|t| t.to_string()), "[1-9][0-9]{0,60}"];
    (1usize..=12)
        .prop_flat_map(move |size| {
            let cells = size * size;
            let some_cells = prop::collection::btree_set((0..size, 0..size), 1..=size);
            (
                Just(size),
                prop::collection::vec(0usize..=cells, cells),
                prop::collection::vec((0usize..6, target.clone(), 0u8..4), cells),
                any::<bool>(),
                prop::collection::vec(some_cells.clone(), 0..3),
                (prop::collection::vec((some_cells, 0usize..6, target.clone()), 0..3), 0u8..3),
                prop::collection::btree_map((0..size, 0..size), 1..=size as u64, 0..4),
            )
        })
        .prop_map(|(size, labels, picks, boxed, groups, (over, killer), givens)| {
            let cells = size * size;
            let mut cages = Vec::new();
            for (label, (pick, target, distinct)) in picks.iter().enumerate() {
                // Label `cells` means "in no cage".
                let members: Vec<Cell> =
                    (0..cells).filter(|&i| labels[i] == label).map(|i| Cell::new(i / size, i % size)).collect();
                if members.is_empty() {
                    continue;
                }
                let allowed: Vec<Op> = Op::ALL.into_iter().filter(|op| op.allows_cell_count(members.len())).collect();
                let op = allowed[pick % allowed.len()];
                let target = match op {
                    Op::Given => Target::from(*pick as u64 % size as u64 + 1),
                    _ => Target::from_decimal(target).unwrap(),
                };
                let distinct = (killer == 0 || *distinct == 0) && op != Op::Given && members.len() <= size;
                cages.push(Cage::new(op, target, members).unwrap().with_distinct(distinct));
            }
            for (members, pick, target) in over {
                let members: Vec<Cell> = members.into_iter().map(|(r, c)| Cell::new(r, c)).collect();
                let allowed: Vec<Op> = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Any]
                    .into_iter()
                    .filter(|op| op.allows_cell_count(members.len()))
                    .collect();
                let cage = Cage::new(allowed[pick % allowed.len()], Target::from_decimal(&target).unwrap(), members);
                cages.push(cage.unwrap().with_distinct(pick % 2 == 0));
            }
            for ((r, c), value) in givens {
                let cell = Cell::new(r, c);
                if cages.iter().any(|cage| cage.op() == Op::Given && cage.cells() == [cell]) {
                    continue;
                }
                let at = (r * 7 + c) % (cages.len() + 1);
                cages.insert(at, Cage::new(Op::Given, value, vec![Cell::new(r, c)]).unwrap());
            }
            let mut extra = BoxShape::default_for(size).filter(|_| boxed).map(|b| b.groups(size)).unwrap_or_default();
            extra.extend(groups.into_iter().map(|g| Group::new(g.into_iter().map(|(r, c)| Cell::new(r, c)).collect())));
            Puzzle::new(size, extra, cages).unwrap()
        })
}

/// A random Sudoku with the default boxes for its size.
fn sudoku_puzzle() -> impl Strategy<Value = Puzzle> {
    prop::sample::select(vec![1usize, 2, 4, 5, 6, 8, 9, 12, 16, 25])
        .prop_flat_map(|size| {
            let values = prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => 1..=size as u8], size * size);
            (Just(size), values)
        })
        .prop_map(|(size, givens)| Puzzle::sudoku(size, BoxShape::default_for(size), &givens).unwrap())
}

fn parse_one(text: &str, format: Format) -> Puzzle {
    let options = ParseOptions { format: Some(format), boxes: Boxes::Default };
    let mut parsed = format::parse(text, "roundtrip", &options).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(parsed.len(), 1);
    parsed.remove(0).puzzle
}

proptest! {
    #[test]
    fn kenken_print_then_parse_is_the_same_puzzle(puzzle in kenken_puzzle()) {
        let text = kenken::write(&puzzle);
        prop_assert_eq!(format::detect(&text), Some(Format::KenKen));
        prop_assert_eq!(parse_one(&text, Format::KenKen), puzzle);
    }

    /// Generated 9×9 Killers, unique or not, with givens outside cages
    /// (as one-cell sums) or none: written as killer strings, they read
    /// back as the same cages, sums and boxes.
    #[test]
    fn killer_strings_write_then_read_as_the_same_killer(seed in any::<u64>(), max_cage in 2usize..=9) {
        use cagey::generate::{self, KenKenOptions};
        let options = KenKenOptions { killer: true, max_cage, boxes: BoxShape::default_for(9), ..KenKenOptions::new(9) };
        let puzzle = generate::kenken(&options, &mut generate::rng(seed, 0)).puzzle;
        let line = killer::write(&puzzle).unwrap();
        prop_assert_eq!(format::detect(&line), Some(Format::Killer));
        let back = parse_one(&line, Format::Killer);
        let canonical = |p: &Puzzle| {
            let mut cages: Vec<(Vec<Cell>, String)> = p
                .cages()
                .iter()
                .map(|c| (c.cells().iter().copied().sorted().collect(), c.target().to_string()))
                .collect();
            cages.sort();
            (p.extra_groups().to_vec(), cages)
        };
        prop_assert_eq!(canonical(&back), canonical(&puzzle));
        prop_assert!(back.cages().iter().all(|c| c.is_distinct() && c.op() == Op::Add));
        prop_assert_eq!(kenken::write(&back), kenken::write(&parse_one(&kenken::write(&back), Format::KenKen)));
    }

    #[test]
    fn sudoku_print_then_parse_is_the_same_puzzle(puzzle in sudoku_puzzle()) {
        let text = sudoku::write(&puzzle).unwrap();
        prop_assert_eq!(format::detect(&text), Some(Format::Sudoku));
        let options = ParseOptions::default();
        let parsed = format::parse(&text, "roundtrip", &options).unwrap();
        prop_assert_eq!(&parsed[0].puzzle, &puzzle);
    }

    /// Text pasted together from puzzles and bad lines, read on past each
    /// error as `--keep-going` does, agrees with a whole parse.
    #[test]
    fn reading_on_past_errors_agrees_with_a_whole_parse(
        lines in prop::collection::vec(prop::sample::select(&[
            "# 4", "#2", "# note", "", "+ 3 A1 A2", "- 1 B1 B2", "% 3 A1 A2", "+ 3 A1 Z9", "distinct A1 B2", "1...",
            "1 . . .", ". . 1 .", ". . . .", "|-+-|", "1 x", "1..............2", "1.x.............", "\u{feff}# 4",
        ][..]), 0..60),
        format in prop::sample::select(&[None, Some(Format::KenKen), Some(Format::Sudoku), Some(Format::Keen), Some(Format::Killer)][..]),
    ) {
        read_on_agrees(&lines.join("\n"), &ParseOptions { format, boxes: Boxes::Default })?;
    }

    #[test]
    fn no_text_makes_the_parser_panic(text in "[#+*/!?x=0-9A-Za-z. \t\n:|÷×−<>^`',-]{0,300}") {
        for format in [None, Some(Format::KenKen), Some(Format::Sudoku), Some(Format::Keen), Some(Format::Killer)] {
            let options = ParseOptions { format, boxes: Boxes::Default };
            let _ = format::parse(&text, "fuzz", &options);
        }
    }

    #[test]
    fn no_killer_string_makes_the_parser_panic(text in "[0-9A-Za-j<>^v`',.]{81}") {
        for format in [None, Some(Format::Killer)] {
            let options = ParseOptions { format, boxes: Boxes::Default };
            if let Ok(parsed) = format::parse(&text, "killer", &options) {
                prop_assert!(parsed.iter().all(|p| p.puzzle.size() == 9 || format.is_none()));
            }
            read_on_agrees(&text, &options)?;
        }
    }

    #[test]
    fn no_bytes_make_the_parser_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        for format in [None, Some(Format::KenKen), Some(Format::Sudoku), Some(Format::Keen), Some(Format::Killer)] {
            let options = ParseOptions { format, boxes: Boxes::Default };
            let _ = format::parse(&text, "bytes", &options);
            read_on_agrees(&text, &options)?;
        }
    }

    /// Valid puzzles, in either format, with their tokens dropped, repeated,
    /// swapped or replaced by numbers at the limits, and with CRLF line
    /// ends, a byte-order mark, tabs or control characters put in: every
    /// parser answers with puzzles or an error, never a panic.
    #[test]
    fn mutated_puzzles_give_puzzles_or_errors(
        puzzle in prop_oneof![kenken_puzzle(), sudoku_puzzle()],
        mutations in prop::collection::vec((0usize..7, any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
    ) {
        const NUMBERS: [&str; 6] =
            ["0", "-1", "9223372036854775808", "18446744073709551616", "10000000000000000000000000000000000000000", "26"];
        const ODD: [&str; 5] = ["\r\n", "\u{feff}", "\t", "\u{0}", "\u{7}"];
        let text = kenken::write(&puzzle);
        let text = if puzzle.cages().iter().all(|c| c.cells().len() == 1) && !text.contains("distinct") {
            sudoku::write(&puzzle).unwrap_or(text)
        } else {
            text
        };
        // Tokens with the white space after each, so that lines survive.
        let mut tokens: Vec<String> = text.split_inclusive([' ', '\n']).map(String::from).collect();
        for (kind, a, b) in mutations {
            if tokens.is_empty() {
                break;
            }
            let (i, j) = (a.index(tokens.len()), b.index(tokens.len()));
            match kind {
                0 => drop(tokens.remove(i)),
                1 => tokens.insert(i, tokens[i].clone()),
                2 => tokens.swap(i, j),
                3 => tokens[i] = format!("{} ", NUMBERS[j % NUMBERS.len()]),
                4 => tokens.insert(i, ODD[j % ODD.len()].to_string()),
                5 => tokens[i] = tokens[i].replace('\n', "\r\n"),
                _ => tokens.insert(0, "\u{feff}".to_string()),
            }
        }
        let text: String = tokens.concat();
        for format in [None, Some(Format::KenKen), Some(Format::Sudoku), Some(Format::Keen), Some(Format::Killer)] {
            let options = ParseOptions { format, boxes: Boxes::Default };
            if let Ok(parsed) = format::parse(&text, "mutated", &options) {
                prop_assert!(!parsed.is_empty());
            }
            read_on_agrees(&text, &options)?;
        }
    }

    #[test]
    fn damaged_puzzles_give_errors_not_panics(puzzle in kenken_puzzle(), at in any::<prop::sample::Index>(), ch in "[-+#0-9A-Z ?\n]") {
        let mut text = kenken::write(&puzzle);
        let i = at.index(text.len());
        if text.is_char_boundary(i) {
            text.insert_str(i, &ch);
        }
        if let Ok(parsed) = format::parse(&text, "damaged", &ParseOptions::default()) {
            prop_assert!(!parsed.is_empty());
        }
    }
}

/// [`Parser`] fed `text` a line at a time, reading on past errors (never a
/// panic): what it gives up to its first error is what a whole parse gives,
/// the puzzles or that error.
fn read_on_agrees(text: &str, options: &ParseOptions) -> Result<(), TestCaseError> {
    let mut parser = Parser::new("t", *options);
    let mut items = Vec::new();
    for line in text.lines() {
        parser.push(line);
        items.extend(parser.by_ref());
    }
    parser.finish();
    items.extend(parser.by_ref());
    let first_error = items.iter().position(Result::is_err);
    let before: Vec<_> = items[..first_error.unwrap_or(items.len())].iter().cloned().map(Result::unwrap).collect();
    match (format::parse(text, "t", options), first_error) {
        (Ok(whole), None) => prop_assert_eq!(whole, before),
        (Err(whole), Some(i)) => prop_assert_eq!(Err(whole), items[i].clone()),
        (whole, _) => prop_assert!(false, "whole parse {:?}, read on {:?}", whole, items),
    }
    Ok(())
}

#[test]
fn the_sudoku_writer_refuses_what_its_format_cannot_say() {
    let sudoku = Puzzle::sudoku(4, BoxShape::default_for(4), &[0; 16]).unwrap();
    assert_eq!(kenken::write(&sudoku), "# 4 boxes 2x2\n", "KenKen text says everything a Sudoku says");
    let cage = Cage::new(Op::Add, 3, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap();
    let kenken = Puzzle::new(4, vec![], vec![cage]).unwrap();
    assert!(sudoku::write(&kenken).is_err());
    let latin = Puzzle::new(4, vec![], vec![]).unwrap();
    assert!(sudoku::write(&latin).is_err(), "a 4x4 without boxes is not a Sudoku");
}

/// Every game ID of the Keen corpus (500, sizes 4-9, five levels) reads as a
/// puzzle whose one solution is Keen's own, and writes back as the same
/// description.
#[test]
fn keen_game_ids_read_as_keen_meant_them_and_write_back_the_same() {
    let text = std::fs::read_to_string("puzzles/keen/keen-ids.tsv").unwrap();
    let mut read = 0;
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (id, solution) = (fields[2], fields[3]);
        let parsed = keen::parse(id, "keen-ids.tsv").unwrap_or_else(|e| panic!("{e}"));
        let puzzle = &parsed[0].puzzle;
        let values: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        let grid = Grid::new(puzzle.size(), values).unwrap();
        let found = cagey::Solver::new(cagey::Backend::Native).solutions(puzzle, Some(2)).unwrap().grids;
        assert_eq!(found, [grid], "{id}");
        let (_, desc) = id.split_once(':').unwrap();
        assert_eq!(keen::write(puzzle).unwrap(), format!("{}:{desc}", puzzle.size()));
        read += 1;
    }
    assert_eq!(read, 500);
}

/// Generated KenKen of sizes 3-9 (and larger) go through the Keen writer
/// and reader unchanged, but for one-cell `!` cages, which Keen writes as
/// one-cell sums; and what Keen cannot say is refused.
#[test]
fn generated_kenken_round_trips_through_keen_game_ids() {
    use cagey::generate::{self, KenKenOptions};
    let canonical = |puzzle: &Puzzle| {
        let n = puzzle.size();
        let mut cages: Vec<Cage> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                let op = if cage.op() == Op::Given { Op::Add } else { cage.op() };
                let mut cells = cage.cells().to_vec();
                cells.sort_by_key(|c| c.index(n));
                Cage::new(op, cage.target().clone(), cells).unwrap()
            })
            .collect();
        cages.sort_by_key(|cage| cage.cells()[0].index(n));
        Puzzle::new(n, vec![], cages).unwrap()
    };
    for size in (3..=9).chain([12, 16, 25]) {
        for seed in 0..20 {
            let options = KenKenOptions { max_cage: 1 + (seed as usize % 6), ..KenKenOptions::new(size) };
            let puzzle = generate::kenken(&options, &mut generate::rng(seed, size as u64)).puzzle;
            let id = keen::write(&puzzle).unwrap_or_else(|e| panic!("{e}: {}", kenken::write(&puzzle)));
            let back = keen::parse(&id, "t").unwrap().remove(0).puzzle;
            assert_eq!(back, canonical(&puzzle), "{id}");
        }
    }
    let noop = KenKenOptions { noop: true, max_cage: 3, ..KenKenOptions::new(4) };
    let puzzle = generate::kenken(&noop, &mut generate::rng(1, 0)).puzzle;
    assert!(keen::write(&puzzle).unwrap_err().to_string().contains("no-op"));
    let boxed = KenKenOptions { boxes: Some(BoxShape { rows: 2, cols: 2 }), ..KenKenOptions::new(4) };
    let puzzle = generate::kenken(&boxed, &mut generate::rng(1, 0)).puzzle;
    assert!(keen::write(&puzzle).is_err());
    // Nothing Keen cannot say is dropped: a distinct cage, a given inside
    // a cage, a cage over another.
    for text in [
        "# 2 killer\n+ 3 A1 A2\n+ 3 B1 B2\n",
        "# 2\n+ 3 A1 A2\n+ 3 B1 B2\n! 1 A1\n",
        "# 2\n+ 3 A1 A2\n+ 3 B1 B2\noverlap + 3 A1 B1\n",
    ] {
        let puzzle = parse_one(text, Format::KenKen);
        assert!(keen::write(&puzzle).is_err(), "{text}");
    }
}
