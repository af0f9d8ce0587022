//! The JSON object of an f-puzzles puzzle, read into the model.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::format::error::ParseErrorKind;
use crate::puzzle::verify::{Violation, verify};
use crate::puzzle::{BoxShape, Cage, Cell, Grid, Group, Op, Puzzle, Target};

use super::link::bad;
use super::rules;
use crate::format::options::Parsed;

/// Keys that draw, annotate or set up the page and constrain nothing
/// (the last two the f-puzzles solver userscript adds).
const COSMETIC: [&str; 11] = [
    "title",
    "author",
    "ruleset",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "activeConstraints",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Keys of a cell that constrain nothing: pencil marks, colours, the
/// solver's own entries (a `value` without `given`).
const CELL_COSMETIC: [&str; 7] =
    ["candidates", "centerPencilMarks", "cornerPencilMarks", "givenPencilMarks", "c", "cArray", "highlight"];

/// The puzzle of f-puzzles JSON text.
pub(super) fn read_json(text: &str) -> Result<Read, ParseErrorKind> {
    let value: Value = serde_json::from_str(text).map_err(|error| bad(format!("bad f-puzzles JSON: {error}")))?;
    let object =
        value.as_object().ok_or_else(|| bad("the f-puzzles JSON is not an object: expected {\"size\": N, …}"))?;
    Decoder::new(object)?.read()?.checked()
}

/// Where a solution fails a puzzle, with cells named as f-puzzles names
/// them.
fn explain(puzzle: &Puzzle, violation: &Violation) -> String {
    let named = |cells: &[Cell]| {
        let mut names: Vec<String> = cells.iter().take(4).map(|c| format!("R{}C{}", c.row + 1, c.col + 1)).collect();
        if cells.len() > 4 {
            names.push("…".to_string());
        }
        names.join(" ")
    };
    match *violation {
        Violation::Repeated { group, value } => {
            format!("{value} repeats in the group {}", named(puzzle.groups()[group].cells()))
        }
        Violation::CageBroken { cage } => {
            let cage = &puzzle.cages()[cage];
            format!("the cage '{} {}' on {} does not hold", cage.op(), cage.target(), named(cage.cells()))
        }
        Violation::WrongSize { .. } => violation.to_string(),
    }
}

/// The cells and value of an entry of a constraint's list.
type Entry = (Vec<Cell>, Option<String>);

/// A puzzle read, the solution the payload carried, and what it held that
/// constrains nothing.
pub(super) struct Read {
    puzzle: Puzzle,
    solution: Option<Grid>,
    ignored: BTreeMap<String, usize>,
}

impl Read {
    /// `puzzle`, with nothing ignored, once `solution` (if any) solves it.
    pub(super) fn new(puzzle: Puzzle, solution: Option<Grid>) -> Result<Read, ParseErrorKind> {
        Read { puzzle, solution, ignored: BTreeMap::new() }.checked()
    }

    /// This, if the solution it carries (if any) solves the puzzle.
    fn checked(self) -> Result<Read, ParseErrorKind> {
        if let Some(solution) = &self.solution {
            if let Err(violation) = verify(&self.puzzle, solution) {
                return Err(ParseErrorKind::WrongSolution { why: explain(&self.puzzle, &violation) });
            }
        }
        Ok(self)
    }

    /// The puzzle as read from `line`, with what was ignored.
    pub(super) fn parsed(self, line: usize) -> Parsed {
        let ignored = self.ignored.into_iter().map(|(what, count)| format!("{what} ({count})")).collect();
        Parsed { ignored, ..Parsed::new(self.puzzle, line) }
    }
}

/// Reads the JSON object of an f-puzzles puzzle.
struct Decoder<'a> {
    object: &'a Map<String, Value>,
    size: usize,
    groups: Vec<Group>,
    cages: Vec<Cage>,
    /// Constraints the model cannot hold, with how many of each.
    refused: BTreeMap<String, usize>,
    /// Entries that constrain nothing, with how many of each.
    ignored: BTreeMap<String, usize>,
}

impl<'a> Decoder<'a> {
    fn new(object: &'a Map<String, Value>) -> Result<Self, ParseErrorKind> {
        let size = object.get("size").and_then(Value::as_u64).unwrap_or(0) as usize;
        if !(1..=crate::puzzle::MAX_SIZE).contains(&size) {
            let found = object.get("size").map_or_else(|| "nothing".to_string(), Value::to_string);
            return Err(ParseErrorKind::BadSize { found });
        }
        let (groups, cages, refused, ignored) = (Vec::new(), Vec::new(), BTreeMap::new(), BTreeMap::new());
        Ok(Decoder { object, size, groups, cages, refused, ignored })
    }

    fn read(mut self) -> Result<Read, ParseErrorKind> {
        self.grid()?;
        for (key, value) in self.object {
            match key.as_str() {
                "size" | "grid" | "solution" => {}
                "killercage" => self.killer_cages(value)?,
                "littlekillersum" => self.little_killers(value)?,
                "extraregion" => self.extra_regions(value)?,
                rule if rules::RULES.contains(&rule) => {
                    if value.as_bool() == Some(true) {
                        self.global(key);
                    }
                }
                "difference" => self.pairs(value, "difference", Op::Sub, |v| v.unwrap_or("1").parse().ok())?,
                "ratio" => self.pairs(value, "ratio", Op::Div, |v| v.unwrap_or("2").parse().ok())?,
                "xv" => self.pairs(value, "xv", Op::Add, |v| match v.map(str::to_ascii_uppercase).as_deref() {
                    Some("X") => Some(10),
                    Some("V") => Some(5),
                    _ => None,
                })?,
                "negative" => {
                    let rules =
                        value.as_array().map_or(1, |rules| rules.len()) * usize::from(value.as_bool() != Some(false));
                    if rules > 0 {
                        *self.refused.entry("negative constraint".to_string()).or_default() += rules;
                    }
                }
                key if COSMETIC.contains(&key) => {
                    if let Some(count) = present(value) {
                        *self.ignored.entry(key.to_string()).or_default() += count;
                    }
                }
                key => {
                    if let Some(count) = present(value) {
                        *self.refused.entry(key.to_string()).or_default() += count;
                    }
                }
            }
        }
        if !self.refused.is_empty() {
            let what = self.refused.iter().map(|(name, count)| format!("{name} ({count})")).collect::<Vec<_>>();
            return Err(ParseErrorKind::Unsupported { what: what.join(", ") });
        }
        let solution = self.solution();
        let puzzle = Puzzle::new(self.size, self.groups, self.cages).map_err(ParseErrorKind::Invalid)?;
        Ok(Read { puzzle, solution, ignored: self.ignored })
    }

    /// Givens and regions.
    fn grid(&mut self) -> Result<(), ParseErrorKind> {
        let n = self.size;
        let rows = self.object.get("grid").and_then(Value::as_array).filter(|rows| rows.len() == n);
        let rows = rows.ok_or_else(|| bad(format!("expected 'grid', {n} rows of {n} cells")))?;
        let default = BoxShape::default_for(n);
        let mut regions: BTreeMap<i64, Vec<Cell>> = BTreeMap::new();
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_array().filter(|row| row.len() == n);
            let row = row.ok_or_else(|| bad(format!("grid row {} does not have {n} cells", r + 1)))?;
            for (c, cell) in row.iter().enumerate() {
                let name = format!("R{}C{}", r + 1, c + 1);
                let cell_object = cell.as_object().ok_or_else(|| bad(format!("grid cell {name} is not an object")))?;
                let region = match cell_object.get("region") {
                    None => default.map(|shape| ((r / shape.rows) * (n / shape.cols) + c / shape.cols) as i64),
                    Some(Value::Null) => None,
                    Some(region) => Some(
                        region.as_i64().ok_or_else(|| bad(format!("grid cell {name} has a bad region {region}")))?,
                    ),
                };
                if let Some(region) = region {
                    regions.entry(region).or_default().push(Cell::new(r, c));
                }
                if cell_object.get("given").and_then(Value::as_bool) == Some(true) {
                    let value = cell_object.get("value").and_then(Value::as_u64).unwrap_or(0);
                    if !(1..=n as u64).contains(&value) {
                        let found = cell_object.get("value").map_or_else(String::new, Value::to_string);
                        return Err(ParseErrorKind::BadGiven { found, size: n });
                    }
                    self.cages.push(Cage::given(Cell::new(r, c), value as u8));
                }
                for (key, value) in cell_object {
                    let key = key.as_str();
                    if CELL_COSMETIC.contains(&key) && present(value).is_some() {
                        *self.ignored.entry(format!("cells' {key}")).or_default() += 1;
                    } else if key == "value" && cell_object.get("given").and_then(Value::as_bool) != Some(true) {
                        *self.ignored.entry("cells' entered digits".to_string()).or_default() += 1;
                    } else if !["region", "given", "value"].contains(&key) && !CELL_COSMETIC.contains(&key) {
                        *self.refused.entry(format!("cell {key}")).or_default() += 1;
                    }
                }
            }
        }
        for (_, cells) in regions {
            let is_row = cells.iter().all(|cell| cell.row == cells[0].row);
            let is_col = cells.iter().all(|cell| cell.col == cells[0].col);
            if cells.len() > 1 && !(cells.len() == n && (is_row || is_col)) {
                self.groups.push(Group::new(cells));
            }
        }
        Ok(())
    }

    /// A list of `{"cells": [...], "value": ...}` entries of `key`.
    fn entries(&self, value: &'a Value, key: &str) -> Result<Vec<Entry>, ParseErrorKind> {
        let entries = value.as_array().ok_or_else(|| bad(format!("'{key}' is not a list")))?;
        entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let cells = entry.get("cells").and_then(Value::as_array);
                let cells = cells.ok_or_else(|| bad(format!("{key} {} has no 'cells'", index + 1)))?;
                let cells = cells.iter().map(|name| self.cell(name, key, index)).collect::<Result<Vec<_>, _>>()?;
                let value = match entry.get("value") {
                    Some(Value::String(text)) if !text.trim().is_empty() => Some(text.trim().to_string()),
                    Some(Value::Number(number)) => Some(number.to_string()),
                    _ => None,
                };
                Ok((cells, value))
            })
            .collect()
    }

    /// A cell named `R3C5`.
    fn cell(&self, name: &Value, key: &str, index: usize) -> Result<Cell, ParseErrorKind> {
        let text = name.as_str().unwrap_or_default();
        let parsed = text
            .strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(row, col)| Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?)))
            .filter(|&(row, col)| (1..=self.size).contains(&row) && (1..=self.size).contains(&col));
        let (row, col) = parsed.ok_or_else(|| {
            bad(format!("{key} {}: bad cell {name}: expected R1C1 to R{n}C{n}", index + 1, n = self.size))
        })?;
        Ok(Cell::new(row - 1, col - 1))
    }

    /// Killer cages, or KenKen cages if any value has an op.
    fn killer_cages(&mut self, value: &'a Value) -> Result<(), ParseErrorKind> {
        let entries = self.entries(value, "killercage")?;
        let labels: Vec<Option<(Op, Target)>> = entries
            .iter()
            .enumerate()
            .map(|(index, (_, value))| value.as_deref().map(|text| label(text, index)).transpose())
            .collect::<Result<_, _>>()?;
        let kenken = labels.iter().flatten().any(|(op, _)| *op != Op::Any);
        for ((cells, _), label) in entries.into_iter().zip(labels) {
            match label {
                Some((op, target)) => {
                    let op = if kenken { op } else { Op::Add };
                    let cage = Cage::new(op, target, cells).map_err(ParseErrorKind::Invalid)?;
                    self.cages.push(cage.with_distinct(!kenken));
                }
                None if kenken => {
                    return Err(bad("a KenKen cage (in a puzzle whose cages carry ops) has no value"));
                }
                None if cells.len() > 1 => self.groups.push(Group::new(cells)),
                None => {}
            }
        }
        Ok(())
    }

    fn little_killers(&mut self, value: &'a Value) -> Result<(), ParseErrorKind> {
        for (index, (cells, value)) in self.entries(value, "littlekillersum")?.into_iter().enumerate() {
            let Some(value) = value else { continue };
            let target = Target::from_decimal(&value)
                .ok_or_else(|| bad(format!("littlekillersum {}: bad sum '{value}'", index + 1)))?;
            if !cells.is_empty() {
                self.cages.push(Cage::new(Op::Add, target, cells).map_err(ParseErrorKind::Invalid)?);
            }
        }
        Ok(())
    }

    fn extra_regions(&mut self, value: &'a Value) -> Result<(), ParseErrorKind> {
        for (cells, _) in self.entries(value, "extraregion")? {
            if cells.len() > 1 {
                self.groups.push(Group::new(cells));
            }
        }
        Ok(())
    }

    /// Two-cell cages of `op` from `key`'s entries, the target from each
    /// value (or its absence) by `target`.
    fn pairs(
        &mut self,
        value: &'a Value,
        key: &str,
        op: Op,
        target: impl Fn(Option<&str>) -> Option<u64>,
    ) -> Result<(), ParseErrorKind> {
        for (index, (cells, value)) in self.entries(value, key)?.into_iter().enumerate() {
            let found = value.clone().unwrap_or_default();
            let target = target(value.as_deref())
                .filter(|&t| t > 0)
                .ok_or_else(|| bad(format!("{key} {}: bad value '{found}'", index + 1)))?;
            if cells.len() != 2 {
                return Err(bad(format!("{key} {}: expected two cells, found {}", index + 1, cells.len())));
            }
            self.cages.push(Cage::new(op, target, cells).map_err(ParseErrorKind::Invalid)?);
        }
        Ok(())
    }

    /// The groups of a global rule.
    fn global(&mut self, key: &str) {
        self.groups.extend(rules::groups(key, self.size).into_iter().map(Group::new));
    }

    /// The solution the payload carries, if it is whole.
    fn solution(&self) -> Option<Grid> {
        let n = self.size;
        let values: Option<Vec<u8>> = match self.object.get("solution") {
            Some(Value::Array(values)) => values.iter().map(|v| v.as_u64().map(|v| v as u8)).collect(),
            Some(Value::String(text)) => text.chars().map(|c| c.to_digit(36).map(|v| v as u8)).collect(),
            _ => None,
        };
        let values =
            values.filter(|values| values.len() == n * n && values.iter().all(|&v| (1..=n as u8).contains(&v)));
        values.and_then(|values| Grid::new(n, values))
    }
}

/// How many entries a key's value holds, if any: a list's length, one for
/// anything else but `false`, `null`, an empty list or an empty text.
fn present(value: &Value) -> Option<usize> {
    match value {
        Value::Null | Value::Bool(false) => None,
        Value::Array(list) => (!list.is_empty()).then_some(list.len()),
        Value::String(text) => (!text.trim().is_empty()).then_some(1),
        _ => Some(1),
    }
}

/// A cage value: a number with an op before or after it (a KenKen label)
/// or alone (`Op::Any`).
fn label(text: &str, index: usize) -> Result<(Op, Target), ParseErrorKind> {
    let ops = [
        (Op::Add, &["+"][..]),
        (Op::Sub, &["-", "−"][..]),
        (Op::Mul, &["x", "X", "×", "*"][..]),
        (Op::Div, &["/", "÷"][..]),
    ];
    let mut found = (Op::Any, text);
    for (op, symbols) in ops {
        for symbol in symbols {
            if let Some(number) = text.strip_suffix(symbol).or_else(|| text.strip_prefix(symbol)) {
                found = (op, number.trim());
            }
        }
    }
    let (op, number) = found;
    let target = Target::from_decimal(number).filter(|_| !number.is_empty()).ok_or_else(|| {
        bad(format!(
            "killercage {}: bad value '{text}': expected a sum, or a KenKen label like 12x, 3-, 2÷, 6+",
            index + 1
        ))
    })?;
    Ok((op, target))
}
