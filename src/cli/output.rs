//! Rendering results as text or JSON lines.

use std::io::{self, Write};
use std::time::Duration;

use cagey::{Backend, Grid, Stats};
use serde_json::{Map, Value, json};

use super::input::Entry;

/// A grid as a JSON array of rows.
pub fn grid_json(grid: &Grid) -> Value {
    Value::Array(grid.rows().map(|row| json!(row)).collect())
}

/// The fields every JSON record starts with: where the puzzle came from
/// and which backend solved it.
pub fn record_head(entry: &Entry, backend: Backend) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("source".into(), json!(entry.source));
    map.insert("line".into(), json!(entry.line));
    map.insert("size".into(), json!(entry.puzzle.size()));
    map.insert("backend".into(), json!(backend.name()));
    map
}

/// Adds the count, completeness, elapsed time and backend counters.
pub fn record_tail(map: &mut Map<String, Value>, stats: &Stats, elapsed: Duration) {
    map.insert("count".into(), json!(stats.solutions));
    map.insert("complete".into(), json!(stats.complete));
    map.insert("elapsed_ms".into(), json!(elapsed.as_secs_f64() * 1e3));
    for &(name, value) in &stats.counters {
        map.insert(name.into(), json!(value));
    }
}

/// Writes one JSON record on its own line.
pub fn write_record(out: &mut dyn Write, map: Map<String, Value>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &Value::Object(map))?;
    writeln!(out)
}

/// Writes a grid in the seeds' style followed by a blank line.
pub fn write_grid(out: &mut dyn Write, grid: &Grid) -> io::Result<()> {
    write!(out, "{grid}")?;
    writeln!(out)
}

/// `1 solution`, `3 solutions`.
pub fn plural(count: u64, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}
