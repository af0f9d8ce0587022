//! SudokuPad's own `scl…`/`ctc…` payloads: LZ-String base64 of its puzzle
//! JSON, often "zipped" (keys unquoted and shortened, quotes as `'`,
//! `true`/`false` as `t`/`f`). SudokuPad draws a puzzle: givens, regions
//! and cages carry rules, while lines, arrows and shapes are drawings whose
//! meaning is in the rules text, so a payload with any of them is refused.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::format::error::ParseErrorKind;
use crate::puzzle::{Cage, Cell, Grid, Group, Op, Puzzle, Target};

use super::link::bad;

/// Keys SudokuPad's zipping shortens, and what they stand for.
const KEYS: [(&str, &str); 25] = [
    ("c", "color"),
    ("ca", "cages"),
    ("ct", "center"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("ce", "cells"),
    ("cs", "cellSize"),
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("w", "width"),
    ("h", "height"),
    ("v", "value"),
    ("vd", "videos"),
    ("l", "lines"),
    ("r", "rounded"),
    ("re", "regions"),
    ("fs", "fontSize"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("wp", "wayPoints"),
    ("t", "title"),
    ("te", "text"),
    ("d", "duration"),
    ("d2", "d"),
];

/// Drawings: a payload that has any is refused, as their rules are text.
const DRAWINGS: [&str; 4] = ["lines", "arrows", "overlays", "underlays"];

/// Keys that constrain nothing.
const COSMETIC: [&str; 5] = ["id", "settings", "cellSize", "metadata", "videos"];

/// The puzzle of a SudokuPad payload's text, zipped or not, and the solution
/// it carries.
pub(super) fn read(text: &str) -> Result<(Puzzle, Option<Grid>), ParseErrorKind> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(_) => serde_json::from_str(&unzip(text)).map_err(|e| bad(format!("bad SudokuPad puzzle data: {e}")))?,
    };
    let Value::Object(object) = unmap(value) else {
        return Err(bad("the SudokuPad puzzle data is not an object"));
    };
    decode(&object)
}

/// SudokuPad's zipped JSON made JSON again.
fn unzip(zipped: &str) -> String {
    let text = if zipped.contains('"') {
        zipped.to_string()
    } else {
        zipped.replace("\\'", "\u{e000}").replace('\'', "\"").replace('\u{e000}', "'")
    };
    // Strings pass through untouched.
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                out.extend(&chars[start..(i + 1).min(chars.len())]);
                i += 1;
                continue;
            }
            ',' | '{' | '[' => {
                out.push(c);
                match chars.get(i + 1) {
                    Some('}') if c == '{' => {}
                    Some(',' | '}' | ']') => out.push_str("{}"),
                    _ => {
                        let key: String = chars[i + 1..].iter().take_while(|k| k.is_ascii_alphanumeric()).collect();
                        if !key.is_empty() && chars.get(i + 1 + key.chars().count()) == Some(&':') {
                            out.push_str(&format!("\"{key}\""));
                            i += key.chars().count();
                        }
                    }
                }
            }
            ':' => {
                out.push(c);
                let token: String = chars[i + 1..].iter().take_while(|t| !matches!(t, ',' | '}' | ']')).collect();
                let ends = chars.get(i + 1 + token.chars().count()).is_some();
                let hex = token.len() == 6 && token.chars().all(|h| h.is_ascii_hexdigit());
                let replaced = match token.as_str() {
                    "f" if ends => Some("false".to_string()),
                    "t" if ends => Some("true".to_string()),
                    "#0" if ends => Some("\"#000000\"".to_string()),
                    "#F" if ends => Some("\"#FFFFFF\"".to_string()),
                    _ if ends && hex => Some(format!("\"#{token}\"")),
                    _ => None,
                };
                if let Some(replaced) = replaced {
                    out.push_str(&replaced);
                    i += token.chars().count();
                }
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// `value` with SudokuPad's short keys spelled out.
fn unmap(value: Value) -> Value {
    match value {
        Value::Array(list) => Value::Array(list.into_iter().map(unmap).collect()),
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| {
                    let long = KEYS.iter().find(|(short, _)| *short == key).map_or(key, |(_, long)| long.to_string());
                    (long, unmap(value))
                })
                .collect(),
        ),
        other => other,
    }
}

/// A `[row, column]` pair, 0-based, inside an N×N grid.
fn cell(value: &Value, n: usize) -> Result<Cell, ParseErrorKind> {
    let pair = value.as_array().filter(|pair| pair.len() == 2);
    let rc = pair.and_then(|pair| Some((pair[0].as_u64()? as usize, pair[1].as_u64()? as usize)));
    match rc {
        Some((r, c)) if r < n && c < n => Ok(Cell::new(r, c)),
        _ => Err(bad(format!("bad SudokuPad cell {value}: expected [row, column] inside the {n}x{n} grid"))),
    }
}

fn cells(value: Option<&Value>, n: usize) -> Result<Vec<Cell>, ParseErrorKind> {
    value.and_then(Value::as_array).map_or(Ok(Vec::new()), |list| list.iter().map(|v| cell(v, n)).collect())
}

/// The puzzle and solution of SudokuPad's puzzle JSON.
fn decode(object: &Map<String, Value>) -> Result<(Puzzle, Option<Grid>), ParseErrorKind> {
    let rows = object.get("cells").and_then(Value::as_array).ok_or_else(|| bad("SudokuPad puzzle without 'cells'"))?;
    let n = rows.len();
    if !(1..=crate::puzzle::MAX_SIZE).contains(&n) {
        return Err(ParseErrorKind::BadSize { found: n.to_string() });
    }
    let (mut groups, mut cages, mut refused) = (Vec::new(), Vec::new(), BTreeMap::<String, usize>::new());
    let mut solution = None;
    for (r, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|row| row.len() == n)
            .ok_or_else(|| bad(format!("SudokuPad row {} is not {n} cells", r + 1)))?;
        for (c, cell) in row.iter().enumerate() {
            let value = match cell.get("value") {
                Some(Value::Number(v)) => v.as_u64(),
                Some(Value::String(v)) if !v.is_empty() => {
                    Some(v.parse().map_err(|_| bad(format!("bad given '{v}'")))?)
                }
                _ => None,
            };
            if let Some(value) = value {
                if !(1..=n as u64).contains(&value) {
                    return Err(ParseErrorKind::BadGiven { found: value.to_string(), size: n });
                }
                cages.push(Cage::given(Cell::new(r, c), value as u8));
            }
        }
    }
    for region in object.get("regions").and_then(Value::as_array).into_iter().flatten() {
        let region = cells(Some(region), n)?;
        let line = region.iter().all(|c| c.row == region[0].row) || region.iter().all(|c| c.col == region[0].col);
        if region.len() > 1 && !(region.len() == n && line) {
            groups.push(Group::new(region));
        }
    }
    for cage in object.get("cages").and_then(Value::as_array).into_iter().flatten() {
        let members = cells(cage.get("cells"), n)?;
        let value = match cage.get("value") {
            Some(Value::String(text)) => Some(text.trim().to_string()),
            Some(Value::Number(number)) => Some(number.to_string()),
            _ => None,
        };
        if members.is_empty() {
            if let Some(text) = value.as_deref().and_then(|v| v.strip_prefix("solution:")) {
                let digits: Option<Vec<u8>> = text.trim().chars().map(|d| d.to_digit(36).map(|d| d as u8)).collect();
                solution = digits.filter(|d| d.len() == n * n && d.iter().all(|&v| (1..=n as u8).contains(&v)));
            }
            continue;
        }
        let unique = cage.get("unique").and_then(Value::as_bool) == Some(true);
        let hidden = cage.get("hidden").and_then(Value::as_bool) == Some(true);
        match (unique, value.filter(|v| !v.is_empty())) {
            (false, _) if hidden => {}
            (true, None) => groups.push(Group::new(members)),
            (true, Some(value)) => {
                let target = Target::from_decimal(&value).ok_or_else(|| bad(format!("bad cage sum '{value}'")))?;
                cages.push(Cage::new(Op::Add, target, members).map_err(ParseErrorKind::Invalid)?.with_distinct(true));
            }
            (false, _) => *refused.entry("cages without the Killer rule".to_string()).or_default() += 1,
        }
    }
    for (key, value) in object {
        let count = value.as_array().map_or(1, Vec::len);
        if DRAWINGS.contains(&key.as_str()) && count > 0 {
            *refused.entry(format!("SudokuPad {key} (drawings whose rules are text)")).or_default() += count;
        } else if !["cells", "regions", "cages"].contains(&key.as_str()) && !COSMETIC.contains(&key.as_str()) {
            *refused.entry(key.clone()).or_default() += count;
        }
    }
    if !refused.is_empty() {
        let what = refused.iter().map(|(name, count)| format!("{name} ({count})")).collect::<Vec<_>>();
        return Err(ParseErrorKind::Unsupported { what: what.join(", ") });
    }
    let puzzle = Puzzle::new(n, groups, cages).map_err(ParseErrorKind::Invalid)?;
    Ok((puzzle, solution.and_then(|values| Grid::new(n, values))))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Text made of zipped JSON's characters, and zipped puzzles with
        /// random cells, values and cages: a puzzle or an error, never a panic.
        #[test]
        fn any_text_reads_or_is_refused(
            text in "[{}\\[\\],:'tfvcearuniqhd0-9#\\\\ ]{0,80}",
            rows in 0usize..4,
            value in -2i64..6,
            cell in prop::collection::vec(-1i64..5, 0..3),
            unique in any::<bool>(),
        ) {
            let _ = read(&text);
            let row = format!("[{}]", vec![format!("{{v:{value}}}"); rows].join(","));
            let cells = format!("[{}]", vec![row; rows].join(","));
            let pair = format!("[{}]", cell.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
            let zipped = format!("{{ce:{cells},re:[[{pair}]],ca:[{{ce:[{pair}],v:{value},unique:{}}}]}}", if unique { 't' } else { 'f' });
            let _ = read(&zipped);
        }
    }

    #[test]
    fn zipped_json_is_json_again() {
        let zipped = "{a:t,b:f,c:#0,c2:#F,c1:34BBE6,ce:[[0,0],[1,1]],x:[{v:1},,],s:'it\\'s',v:12}";
        let json: Value = serde_json::from_str(&unzip(zipped)).unwrap();
        let expected = serde_json::json!({
            "a": true, "b": false, "c": "#000000", "c2": "#FFFFFF", "c1": "#34BBE6",
            "ce": [[0, 0], [1, 1]], "x": [{"v": 1}, {}, {}], "s": "it's", "v": 12,
        });
        assert_eq!(json, expected);
        let long = unmap(json);
        assert_eq!(long["cells"], serde_json::json!([[0, 0], [1, 1]]));
        assert_eq!((long["value"].as_u64(), long["backgroundColor"].as_str()), (Some(12), Some("#FFFFFF")));
        // Already JSON: left as it is.
        assert_eq!(unzip("{\"a\":\"t\"}"), "{\"a\":\"t\"}");
    }
}
