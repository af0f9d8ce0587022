//! The page's own request, `{"nonce", "command": "study", "text",
//! "limit"}`: everything a setter wants to know about one puzzle's text,
//! sent as it is found, each reply with the request's nonce:
//!
//! 1. `error` (`message` as the CLI writes it, `line`, `column`) or
//!    `empty`, and nothing more; else `puzzle` (`svg` as `cagey render`
//!    draws it, `format`, `size`, `ignored`, and `warnings` of likely slips
//!    in KenKen text, as the command line gives them);
//! 2. `verdict`: `unique`, `none`, `multiple` (with `differ`, the cells
//!    where two solutions differ) or `unknown` (the time budget ran out);
//! 3. `count` with `inProgress` updates, then `count`, `complete`;
//! 4. `analysis`: the picture with open cells shaded and their values
//!    pencilled in (`svg`), and the `open` cells;
//! 5. `suggestions`: `items`, each a `label` and the puzzle's `text` with
//!    it applied (in the text's own format where that can hold it, else
//!    as KenKen text);
//! 6. `done`, or `canceled` when a newer request stopped it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use cagey::format::{self, Format, ParseError, ParseErrorKind, ParseOptions, fpuzzles, keen, kenken, killer, sudoku};
use cagey::{Cage, Cell, Op, Puzzle, SolveError, Solver, Uniqueness};
use serde_json::{Value, json};

use super::reply::Reply;
use super::server::Server;
use crate::analyze::{CHANGES, cage_text};
use crate::input::{Entry, slips};
use crate::render::{Fill, draw};
use crate::solve::differing_cells;

/// The count's limit when the page names none, and the highest it may name.
const LIMIT: u64 = 100_000;
const MOST_LIMIT: u64 = 1_000_000_000;

/// Answers the page's `study` request, in the steps the module names.
pub fn study(server: &Server, request: &Value, reply: &Reply) {
    let started = Instant::now();
    let Some(text) = request["text"].as_str() else {
        return reply.send("error", json!({ "message": "the request carries no \"text\"" }));
    };
    let limit = request["limit"].as_u64().unwrap_or(LIMIT).clamp(1, MOST_LIMIT);
    let entry = match read(text) {
        Ok(Some(entry)) => entry,
        Ok(None) => return reply.send("empty", json!({})),
        Err(error) => {
            let (line, column) = (error.line, error.column);
            return reply.send("error", json!({ "message": error.to_string(), "line": line, "column": column }));
        }
    };
    reply.send(
        "puzzle",
        json!({
            "format": entry.format.to_string(),
            "size": entry.puzzle.size(),
            "svg": draw(&entry, &Fill::Nothing),
            "ignored": entry.ignored,
            "warnings": if entry.format == Format::KenKen { slips(&entry.puzzle) } else { Vec::new() },
        }),
    );
    let tally = Arc::new(AtomicU64::new(0));
    let solver = server.solver(&reply.stop, Some(&tally));
    match steps(server, &solver, &entry, limit, &tally, reply) {
        Ok(()) if reply.stopped() => reply.send("canceled", json!({})),
        Ok(()) => reply.send("done", json!({ "elapsed_ms": started.elapsed().as_millis() as u64 })),
        Err(error) => reply.send("error", json!({ "message": error.to_string() })),
    }
}

/// The one puzzle of `text`, `None` for a text with none.
fn read(text: &str) -> Result<Option<Entry>, ParseError> {
    let Some(format) = format::detect(text) else {
        return Ok(None);
    };
    let options = ParseOptions { format: Some(format), ..ParseOptions::default() };
    let mut parsed = format::parse(text, SOURCE, &options)?.into_iter();
    let Some(first) = parsed.next() else {
        return Ok(None);
    };
    if let Some(second) = parsed.next() {
        let kind = ParseErrorKind::MorePuzzles;
        return Err(ParseError { source_name: SOURCE.into(), line: second.line, column: 1, kind });
    }
    let (line, puzzle, ignored) = (first.line, first.puzzle, first.ignored);
    Ok(Some(Entry { source: SOURCE.into(), line, puzzle, format, skipped: None, ignored }))
}

/// The name the page's text goes by in messages.
const SOURCE: &str = "puzzle";

/// Verdict, count, analysis and suggestions, each sent as found; they stop
/// early (with nothing more sent) once the request is stopped.
fn steps(
    server: &Server,
    solver: &Solver,
    entry: &Entry,
    limit: u64,
    tally: &AtomicU64,
    reply: &Reply,
) -> Result<(), SolveError> {
    let puzzle = &entry.puzzle;
    let names = |cells: Vec<Cell>| cells.into_iter().map(|c| entry.cell_name(c)).collect::<Vec<_>>();
    let verdict = solver.uniqueness(puzzle)?;
    if reply.stopped() {
        return Ok(());
    }
    let (word, known) = match &verdict.uniqueness {
        Uniqueness::Unique(_) => ("unique", Some(1)),
        Uniqueness::None => ("none", Some(0)),
        Uniqueness::Multiple(..) => ("multiple", None),
        Uniqueness::Unknown(_) => ("unknown", None),
    };
    let mut record = json!({ "verdict": word });
    match &verdict.uniqueness {
        Uniqueness::Multiple(a, b) => record["differ"] = names(differing_cells(a, b).collect()).into(),
        Uniqueness::Unknown(_) => record["message"] = out_of_time(server).into(),
        _ => {}
    }
    reply.send("verdict", record);
    if matches!(verdict.uniqueness, Uniqueness::Unknown(_)) {
        return Ok(());
    }
    let count = match known {
        Some(count) => count,
        None => {
            tally.store(0, Ordering::Relaxed);
            let report = |count| reply.send("count", json!({ "count": count, "inProgress": true }));
            let count = reply.with_progress(tally, report, || solver.count(puzzle, Some(limit)))?;
            if reply.stopped() {
                return Ok(());
            }
            let stats = count.stats;
            let mut record = json!({ "count": stats.solutions, "complete": stats.complete, "inProgress": false });
            if stats.timed_out {
                record["message"] = out_of_time(server).into();
            }
            reply.send("count", record);
            stats.solutions
        }
    };
    if count == 0 {
        return Ok(());
    }
    let analysis = solver.analyze(puzzle)?;
    if reply.stopped() {
        return Ok(());
    }
    let open: Vec<_> = analysis
        .open()
        .into_iter()
        .map(|(cell, values)| json!({ "cell": entry.cell_name(cell), "values": values }))
        .collect();
    let mut record = json!({
        "svg": draw(entry, &Fill::Analysis(&analysis)),
        "fixed": analysis.fixed().len(),
        "open": open,
        "complete": analysis.complete(),
    });
    if !analysis.complete() {
        record["message"] = out_of_time(server).into();
    }
    reply.send("analysis", record);
    let Some(keep) = analysis.first().filter(|_| count > 1 && analysis.complete()) else {
        return Ok(());
    };
    let suggestion = solver.suggest(puzzle, keep)?;
    if reply.stopped() {
        return Ok(());
    }
    let mut items = Vec::new();
    if !suggestion.givens.is_empty() {
        let givens = suggestion.givens.iter().map(|&(cell, value)| format!("{} = {value}", entry.cell_name(cell)));
        let label = format!("add {}", givens.collect::<Vec<_>>().join(", "));
        let mut cages = puzzle.cages().to_vec();
        for &(cell, value) in &suggestion.givens {
            cages.push(Cage::new(Op::Given, u64::from(value), vec![cell]).expect("a given is a cage"));
        }
        items.push(json!({ "label": label, "text": rewrite(entry, cages) }));
    }
    if entry.format == Format::KenKen {
        for change in solver.cage_changes(puzzle, keep, CHANGES)? {
            let was = cage_text(&puzzle.cages()[change.cage]);
            let into: Vec<String> = change.into.iter().map(cage_text).collect();
            let label = format!("change {was} into {}", into.join(" and "));
            let mut cages = puzzle.cages().to_vec();
            cages.splice(change.cage..=change.cage, change.into);
            items.push(json!({ "label": label, "text": rewrite(entry, cages) }));
        }
    }
    if reply.stopped() {
        return Ok(());
    }
    reply.send(
        "suggestions",
        json!({ "items": items, "smallest": suggestion.smallest, "complete": suggestion.complete }),
    );
    Ok(())
}

fn out_of_time(server: &Server) -> String {
    format!("cut short: each request may take {} s (cagey serve --timeout)", server.timeout.as_secs_f64())
}

/// The puzzle with `cages` for its own, written in the entry's format
/// where that can hold it, else as KenKen text (which holds any puzzle).
fn rewrite(entry: &Entry, cages: Vec<Cage>) -> String {
    let puzzle = &entry.puzzle;
    let Ok(changed) = Puzzle::new(puzzle.size(), puzzle.extra_groups().to_vec(), cages) else {
        return kenken::write(puzzle);
    };
    let written = match entry.format {
        Format::KenKen => Ok(kenken::write(&changed)),
        Format::Sudoku => sudoku::write(&changed),
        Format::Keen => keen::write(&changed).map(|id| id + "\n"),
        Format::Killer => killer::write(&changed).map(|line| line + "\n"),
        Format::FPuzzles => fpuzzles::fpuzzles_link(&changed, None).map(|link| link + "\n"),
    };
    written.unwrap_or_else(|_| kenken::write(&changed))
}
