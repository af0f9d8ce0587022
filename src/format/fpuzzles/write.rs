//! Puzzles written as f-puzzles JSON, and as the f-puzzles and SudokuPad
//! links that open it.
//!
//! Extra groups become regions (the default boxes, or any N-cell groups
//! that tile the grid), the diagonals, anti-knight, anti-king and disjoint
//! groups where the groups are exactly those, and extra regions otherwise.
//! Distinct `+` cages are Killer cages. Other cages are XV pairs, Kropki
//! dots or little killers where their shape and op allow, or, in a puzzle
//! with no distinct cage, KenKen cages labelled with their op (`12x`, `3-`,
//! `2/`, `6+`).

use serde_json::{Map, Value, json};

use crate::format::error::WriteError;
use crate::puzzle::{BoxShape, Cage, Cell, Grid, Group, Op, Puzzle};

use super::link::compress;
use super::rules;

/// An f-puzzles link to `puzzle`, with `solution` embedded if given.
pub fn fpuzzles_link(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<String, WriteError> {
    Ok(format!("https://f-puzzles.com/?load={}", compress(&json(puzzle, solution)?)))
}

/// A SudokuPad link to `puzzle` (its f-puzzles payload), with `solution`
/// embedded if given.
pub fn sudokupad_link(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<String, WriteError> {
    Ok(format!("https://sudokupad.app/fpuzzles{}", compress(&json(puzzle, solution)?)))
}

fn refuse(what: impl Into<String>) -> WriteError {
    WriteError::NotFPuzzles(what.into())
}

/// `R3C5`.
fn name(cell: Cell) -> String {
    format!("R{}C{}", cell.row + 1, cell.col + 1)
}

fn names(cells: &[Cell]) -> Value {
    Value::Array(cells.iter().map(|&cell| Value::String(name(cell))).collect())
}

/// The f-puzzles JSON of `puzzle`.
pub(super) fn json(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<String, WriteError> {
    let n = puzzle.size();
    let mut object = Map::new();
    object.insert("size".into(), json!(n));
    let mut grid: Vec<Vec<Map<String, Value>>> = vec![vec![Map::new(); n]; n];
    groups(puzzle, &mut object, &mut grid);
    cages(puzzle, &mut object, &mut grid)?;
    object.insert("grid".into(), Value::Array(grid.into_iter().map(|row| json!(row)).collect()));
    if let Some(solution) = solution {
        object.insert("solution".into(), json!(solution.values()));
    }
    Ok(Value::Object(object).to_string())
}

/// The cells of a group, sorted, for comparing groups as sets.
fn sorted(group: &Group) -> Vec<Cell> {
    let mut cells = group.cells().to_vec();
    cells.sort_by_key(|cell| (cell.row, cell.col));
    cells
}

/// Regions, global rules and extra regions from the extra groups.
fn groups(puzzle: &Puzzle, object: &mut Map<String, Value>, grid: &mut [Vec<Map<String, Value>>]) {
    let n = puzzle.size();
    let mut pool: Vec<Vec<Cell>> = puzzle.extra_groups().iter().map(sorted).collect();
    let take = |wanted: &[Vec<Cell>], pool: &mut Vec<Vec<Cell>>| {
        let present = wanted.iter().all(|group| pool.contains(group));
        if present {
            pool.retain(|group| !wanted.contains(group));
        }
        present
    };
    let boxes = BoxShape::default_for(n);
    let default: Vec<Vec<Cell>> = boxes.map_or_else(Vec::new, |shape| shape.groups(n).iter().map(sorted).collect());
    let mut region = vec![None; n * n];
    if !default.is_empty() && take(&default, &mut pool) {
        for (index, group) in default.iter().enumerate() {
            group.iter().for_each(|cell| region[cell.index(n)] = Some(index));
        }
    } else {
        // N-cell groups that tile the grid, taken as they come.
        let mut tiles = Vec::new();
        for group in pool.iter().filter(|group| group.len() == n) {
            if group.iter().all(|cell| region[cell.index(n)].is_none()) {
                group.iter().for_each(|cell| region[cell.index(n)] = Some(tiles.len()));
                tiles.push(group.clone());
            }
        }
        if region.iter().all(Option::is_some) {
            take(&tiles, &mut pool);
        } else {
            region.fill(None);
        }
        for (index, cell) in grid.iter_mut().flatten().enumerate() {
            cell.insert("region".into(), region[index].map_or(Value::Null, |r| json!(r)));
        }
    }
    for rule in rules::RULES {
        let groups = rules::groups(rule, n);
        // Pairs in one region differ anyway: the rule may leave them out.
        let apart = |pair: &Vec<Cell>| {
            pair.len() == 2
                && region[pair[0].index(n)].is_some()
                && region[pair[0].index(n)] == region[pair[1].index(n)]
        };
        let needed: Vec<&Vec<Cell>> = groups.iter().filter(|group| !apart(group)).collect();
        if n > 1 && !needed.is_empty() && needed.iter().all(|group| pool.contains(group)) {
            pool.retain(|group| !groups.contains(group));
            object.insert(rule.into(), json!(true));
        }
    }
    let extra: Vec<Value> = pool.iter().filter(|g| g.len() > 1).map(|cells| json!({"cells": names(cells)})).collect();
    if !extra.is_empty() {
        object.insert("extraregion".into(), Value::Array(extra));
    }
}

/// Givens, Killer cages, pairs, little killers and KenKen cages.
fn cages(
    puzzle: &Puzzle,
    object: &mut Map<String, Value>,
    grid: &mut [Vec<Map<String, Value>>],
) -> Result<(), WriteError> {
    let n = puzzle.size();
    let killer = puzzle.cages().iter().any(Cage::is_distinct);
    let others: Vec<&Cage> = puzzle.cages().iter().filter(|c| c.op() != Op::Given && !c.is_distinct()).collect();
    let kenken = !killer && others.iter().any(|cage| variant(cage, n).is_none());
    if kenken && others.iter().all(|cage| cage.op() == Op::Any) {
        return Err(refuse("a no-op KenKen: its cages' bare numbers would read as Killer sums"));
    }
    let mut lists: Vec<(&str, Vec<Value>)> = Vec::new();
    let mut push = |key: &'static str, value: Value| match lists.iter_mut().find(|(k, _)| *k == key) {
        Some((_, list)) => list.push(value),
        None => lists.push((key, vec![value])),
    };
    for cage in puzzle.cages() {
        let cells = cage.cells();
        let target = cage.target().digits().to_string();
        match (cage.op(), cage.is_distinct()) {
            (Op::Given, _) => {
                let cell = &mut grid[cells[0].row][cells[0].col];
                cell.insert("value".into(), json!(target.parse::<u64>().unwrap_or(0)));
                cell.insert("given".into(), json!(true));
            }
            (Op::Add, true) => push("killercage", json!({"cells": names(cells), "value": target})),
            (op, true) => return Err(refuse(format!("a distinct '{op}' cage: f-puzzles' Killer cages are sums"))),
            (op, false) if kenken => {
                let label = match op {
                    Op::Add => format!("{target}+"),
                    Op::Sub => format!("{target}-"),
                    Op::Mul => format!("{target}x"),
                    Op::Div => format!("{target}/"),
                    _ => target,
                };
                push("killercage", json!({"cells": names(cells), "value": label}));
            }
            (op, false) => {
                let (key, value) = variant(cage, n).ok_or_else(|| {
                    refuse(format!(
                        "the '{op} {target}' cage on {} beside Killer cages: only XV pairs, Kropki dots \
                         and little killers share a puzzle with them",
                        name(cells[0])
                    ))
                })?;
                push(key, value);
            }
        }
    }
    for (key, list) in lists {
        object.insert(key.into(), Value::Array(list));
    }
    Ok(())
}

/// A cage written as an XV pair, a Kropki dot or a little killer, if its
/// op and shape allow.
fn variant(cage: &Cage, n: usize) -> Option<(&'static str, Value)> {
    let cells = cage.cells();
    let target: u64 = cage.target().digits().parse().ok()?;
    let adjacent = cells.len() == 2 && cells[0].row.abs_diff(cells[1].row) + cells[0].col.abs_diff(cells[1].col) == 1;
    match cage.op() {
        Op::Add if adjacent && (target == 10 || target == 5) => {
            Some(("xv", json!({"cells": names(cells), "value": if target == 10 { "X" } else { "V" }})))
        }
        Op::Sub if adjacent => Some(("difference", json!({"cells": names(cells), "value": target.to_string()}))),
        Op::Div if adjacent => Some(("ratio", json!({"cells": names(cells), "value": target.to_string()}))),
        Op::Add => little_killer(cells, n).map(|(clue, direction)| {
            let value =
                json!({"cell": clue, "cells": names(cells), "direction": direction, "value": target.to_string()});
            ("littlekillersum", value)
        }),
        _ => None,
    }
}

/// The clue cell (outside the grid) and direction of a little killer over
/// `cells`, if they run along a diagonal from edge to edge.
fn little_killer(cells: &[Cell], n: usize) -> Option<(String, &'static str)> {
    let (first, second) = (cells.first()?, cells.get(1)?);
    let step = (second.row as isize - first.row as isize, second.col as isize - first.col as isize);
    if step.0.abs() != 1 || step.1.abs() != 1 {
        return None;
    }
    let along = cells
        .windows(2)
        .all(|w| (w[1].row as isize - w[0].row as isize, w[1].col as isize - w[0].col as isize) == step);
    let inside = |r: isize, c: isize| (0..n as isize).contains(&r) && (0..n as isize).contains(&c);
    let last = cells[cells.len() - 1];
    let before = (first.row as isize - step.0, first.col as isize - step.1);
    let after = (last.row as isize + step.0, last.col as isize + step.1);
    if !along || inside(before.0, before.1) || inside(after.0, after.1) {
        return None;
    }
    let direction = match step {
        (-1, 1) => "UR",
        (1, 1) => "DR",
        (1, -1) => "DL",
        _ => "UL",
    };
    Some((format!("R{}C{}", before.0 + 1, before.1 + 1), direction))
}
