//! The native and SAT backends and the checker share nothing but the
//! puzzle model's data (and the plain record of statistics they fill): none may reach into another, the cross-check or any
//! other part of the crate, nor call behaviour of the model, so that a bug
//! in one cannot hide in another. The one thing they share beyond data is
//! the geometry of groups (rows, columns, boxes), checked here against a
//! construction of its own.

use std::collections::BTreeSet;
use std::path::Path;

use cagey::{BoxShape, Cell, Puzzle};

fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

/// The independent components: each directory or file, on its own.
fn components() -> Vec<Vec<(String, String)>> {
    let verify = "src/puzzle/verify.rs";
    vec![
        sources(Path::new("src/native")),
        sources(Path::new("src/sat")),
        vec![(verify.to_string(), std::fs::read_to_string(verify).unwrap())],
    ]
}

/// Public items of `puzzle/mod.rs` that the components may use: the model's
/// data and its constructors.
const DATA: &[&str] = &[
    "MAX_SIZE",
    "Cell",
    "new",
    "index",
    "Op",
    "ALL",
    "Target",
    "digits",
    "digit_bytes",
    "Cage",
    "op",
    "target",
    "cells",
    "with_distinct",
    "is_distinct",
    "Group",
    "Puzzle",
    "size",
    "groups",
    "extra_groups",
    "cages",
    "Grid",
    "get",
    "values",
    "rows",
    "InvalidPuzzle",
];

/// Public items of `puzzle/mod.rs` that are behaviour (parsing, printing,
/// rules, geometry): the components must not use them.
const BEHAVIOUR: &[&str] = &[
    "symbol",
    "from_symbol",
    "allows_cell_count",
    "cell_count_rule",
    "from_decimal",
    "BoxShape",
    "default_for",
    "sudoku",
    "uncaged_cells",
    "in_one_piece",
    "value_symbol",
];

/// Every `pub` fn, const, struct and enum name in `puzzle/mod.rs`.
fn public_items_of_the_model() -> BTreeSet<String> {
    let text = std::fs::read_to_string("src/puzzle/mod.rs").unwrap();
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.next() != Some("pub") {
            continue;
        }
        let mut kind = words.next().unwrap_or("");
        if kind == "const" && words.peek() == Some(&"fn") {
            kind = words.next().unwrap();
        }
        if ["fn", "const", "struct", "enum", "type"].contains(&kind) {
            let name: String =
                words.next().unwrap_or("").chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            names.insert(name);
        }
    }
    names
}

#[test]
fn every_public_item_of_the_model_is_classed_as_data_or_behaviour() {
    for name in public_items_of_the_model() {
        assert!(
            DATA.contains(&name.as_str()) || BEHAVIOUR.contains(&name.as_str()),
            "puzzle/mod.rs has a new public item '{name}': add it to DATA if it is the model's data, \
             or to BEHAVIOUR (which the backends and the checker may not use) if it computes anything"
        );
    }
    assert!(public_items_of_the_model().contains("digits"), "the scan finds the model's items");
}

#[test]
fn backends_and_checker_use_nothing_of_the_crate_but_the_model_data() {
    for files in components() {
        assert!(!files.is_empty());
        for (path, text) in files {
            // Comments (doc examples among them) are not the component's code.
            let text: String =
                text.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect();
            for (at, _) in text.match_indices("crate::") {
                let rest = &text[at + "crate::".len()..];
                let import = &rest[..rest.find(';').unwrap_or(rest.len())];
                let model_data =
                    rest.starts_with("puzzle::") && !import.contains("verify") && !import.contains("backend");
                assert!(model_data, "{path} uses crate::{}", rest.lines().next().unwrap());
            }
            for name in ["super::super", "cagey::"] {
                assert!(!text.contains(name), "{path} reaches outside its module through {name}");
            }
            for name in BEHAVIOUR {
                let used = text.match_indices(name).any(|(at, _)| {
                    let before = text[..at].chars().next_back().unwrap_or(' ');
                    let after = text[at + name.len()..].chars().next().unwrap_or(' ');
                    let word = |c: char| c.is_alphanumeric() || c == '_';
                    !word(before) && !word(after)
                });
                assert!(!used, "{path} uses {name} of the model, which is behaviour, not data");
            }
        }
    }
}

#[test]
fn the_statistics_the_backends_share_are_data_only() {
    let text = std::fs::read_to_string("src/puzzle/stats.rs").unwrap();
    assert!(text.contains("pub struct Stats"));
    // The one import: `Backend`, which names the engine that answered.
    let text = text.replace("use crate::puzzle::backend::Backend;", "");
    for word in ["fn ", "impl ", "use crate"] {
        let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        assert!(code.clone().all(|l| !l.contains(word)), "stats.rs holds '{word}': it must stay plain data");
    }
}

/// Rows, columns and boxes built here, cell by cell, with no help from
/// the model.
fn independent_groups(n: usize, boxes: Option<(usize, usize)>) -> BTreeSet<BTreeSet<(usize, usize)>> {
    let mut groups = BTreeSet::new();
    for i in 0..n {
        groups.insert((0..n).map(|j| (i, j)).collect());
        groups.insert((0..n).map(|j| (j, i)).collect());
    }
    if let Some((h, w)) = boxes {
        for band in 0..n / h {
            for stack in 0..n / w {
                let mut cells = BTreeSet::new();
                for k in 0..n {
                    cells.insert((band * h + k / w, stack * w + k % w));
                }
                groups.insert(cells);
            }
        }
    }
    groups
}

#[test]
fn group_geometry_matches_an_independent_construction() {
    for n in 1..=25 {
        let mut shapes: Vec<Option<(usize, usize)>> = vec![None];
        shapes.extend((1..=n).filter(|h| n % h == 0).map(|h| Some((h, n / h))));
        for shape in shapes {
            let boxes = shape.map(|(rows, cols)| BoxShape { rows, cols });
            let puzzle = Puzzle::sudoku(n, boxes, &vec![0; n * n]).unwrap();
            let model: BTreeSet<BTreeSet<(usize, usize)>> = puzzle
                .groups()
                .iter()
                .map(|g| g.cells().iter().map(|&Cell { row, col }| (row, col)).collect())
                .collect();
            assert_eq!(model, independent_groups(n, shape), "{n}x{n} with boxes {shape:?}");
            let expected_groups = 2 * n + shape.map_or(0, |_| n);
            assert_eq!(puzzle.groups().len(), expected_groups, "{n}x{n} with boxes {shape:?}");
        }
    }
}
