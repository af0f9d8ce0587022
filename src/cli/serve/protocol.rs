//! The f-puzzles solver protocol (Rangsk's SudokuSolver, whose userscript
//! connects f-puzzles to a solver on `ws://localhost:4545`): a request is
//! `{"nonce", "command", "dataType": "fpuzzles", "data"}`, the data an
//! f-puzzles payload, and each answer carries the request's nonce.
//!
//! - `truecandidates`: `solutionsPerCandidate`, N²·N counts capped at the
//!   payload's `truecandidatesnumsolutions=K` (1 without it);
//! - `solve`: `solved` with a solution; `check`: `count` up to 2; `count`:
//!   `count` with `inProgress` updates, then the total;
//! - `estimate`, `solvepath` and `step`: `invalid`, saying why (cagey counts
//!   exactly and has no human-style steps);
//! - anything it cannot read or solve: `invalid` with the reason; no
//!   solution: `invalid`, "No solutions found.", as SudokuSolver says it.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use cagey::format::{self, Boxes, Format, ParseOptions, fpuzzles};
use cagey::{Puzzle, SolveError};
use serde_json::{Value, json};

use super::reply::Reply;
use super::server::Server;

/// The answer when there is none.
const NONE: &str = "No solutions found.";

/// Answers `command` (any but `cancel` and `study`).
pub fn answer(server: &Server, command: &str, request: &Value, reply: &Reply) {
    match command {
        "truecandidates" | "solve" | "check" | "count" => {}
        "estimate" => return reply.invalid("cagey does not estimate: it counts every solution (use Count)"),
        "solvepath" | "step" => {
            return reply.invalid(format!("cagey has no human-style logical solver: '{command}' is not answered"));
        }
        other => {
            let expected = "expected truecandidates, solve, check, count or cancel";
            return reply
                .invalid(format!("unknown command '{}': {expected}", other.chars().take(40).collect::<String>()));
        }
    }
    match request["dataType"].as_str() {
        Some("fpuzzles") => {}
        other => {
            let found = other.map_or("none".to_string(), |t| format!("'{}'", t.chars().take(40).collect::<String>()));
            return reply.invalid(format!("dataType {found} is not read: expected \"fpuzzles\""));
        }
    }
    let Some(json) = request["data"].as_str().and_then(fpuzzles::payload_json) else {
        return reply.invalid("the data is not an f-puzzles payload (LZ-String base64 of the puzzle's JSON)");
    };
    let Some(mut payload) = serde_json::from_str::<Value>(&json).ok().filter(Value::is_object) else {
        return reply.invalid("the payload is not f-puzzles JSON");
    };
    let cap = cap(&payload);
    // The solution f-puzzles keeps is the setter's, from before the edit
    // being checked: the question is what the puzzle allows now.
    payload.as_object_mut().expect("an object").remove("solution");
    let puzzle = match read(&payload.to_string()) {
        Ok(puzzle) => puzzle,
        Err(message) => return reply.invalid(message),
    };
    let started = Instant::now();
    let tally = Arc::new(AtomicU64::new(0));
    let solver = server.solver(&reply.stop, Some(&tally));
    let answered = match command {
        "truecandidates" => true_candidates(server, &solver, &puzzle, cap, reply),
        "solve" => solver.first(&puzzle).map(|first| match first.grid {
            Some(grid) => reply.send("solved", json!({ "solution": grid.values() })),
            None if first.stats.complete => reply.invalid(NONE),
            None => unfinished(server, reply, 0, started),
        }),
        "check" => solver.count(&puzzle, Some(2)).map(|count| match count.stats {
            stats if stats.complete || stats.solutions >= 2 => {
                reply.send("count", json!({ "count": stats.solutions.min(2), "inProgress": false }))
            }
            stats => unfinished(server, reply, stats.solutions, started),
        }),
        _ => {
            let report = |count| reply.send("count", json!({ "count": count, "inProgress": true }));
            reply.with_progress(&tally, report, || solver.count(&puzzle, None)).map(|count| match count.stats {
                stats if stats.complete => {
                    reply.send("count", json!({ "count": stats.solutions, "inProgress": false }))
                }
                stats => unfinished(server, reply, stats.solutions, started),
            })
        }
    };
    if let Err(error) = answered {
        reply.invalid(error.to_string());
    }
}

/// The one puzzle of an f-puzzles JSON text, or why it cannot be solved.
fn read(json: &str) -> Result<Puzzle, String> {
    let options = ParseOptions { format: Some(Format::FPuzzles), boxes: Boxes::Default };
    let parsed = format::parse(json, "puzzle", &options).map_err(|error| error.kind.to_string())?;
    let mut parsed = parsed.into_iter();
    match (parsed.next(), parsed.next()) {
        (Some(one), None) => Ok(one.puzzle),
        _ => Err("expected one puzzle in the payload".to_string()),
    }
}

/// The cap the userscript asks for true candidates: its
/// `truecandidatesoptions` hold `truecandidatesnumsolutions=K` when K > 1.
fn cap(payload: &Value) -> u64 {
    let options = payload["truecandidatesoptions"].as_array().into_iter().flatten();
    options
        .filter_map(|option| option.as_str()?.split_once('='))
        .find(|(name, _)| name.eq_ignore_ascii_case("truecandidatesnumsolutions"))
        .and_then(|(_, k)| k.trim().parse::<u64>().ok())
        .unwrap_or(1)
        .clamp(1, MOST_CAP)
}

/// The highest cap answered: enough to tell "few" from "many" at a glance,
/// and bounded so that one request's work stays bounded too.
const MOST_CAP: u64 = 1_000;

fn true_candidates(
    server: &Server,
    solver: &cagey::Solver,
    puzzle: &Puzzle,
    cap: u64,
    reply: &Reply,
) -> Result<(), SolveError> {
    let started = Instant::now();
    let analysis = solver.analyze(puzzle)?;
    if analysis.complete() && analysis.first().is_none() {
        reply.invalid(NONE);
        return Ok(());
    }
    let counts = match analysis.complete() {
        true => solver.true_candidates(puzzle, &analysis, cap)?,
        false => Vec::new(),
    };
    // Counts cut short by the clock or a newer request would mislead.
    match !analysis.complete() || reply.stopped() || started.elapsed() >= server.timeout {
        true => unfinished(server, reply, 0, started),
        false => reply.send("truecandidates", json!({ "solutionsPerCandidate": counts })),
    }
    Ok(())
}

/// The answer to work cut short: `canceled` when a newer request or a
/// cancel stopped it, else `invalid`, naming the time budget.
fn unfinished(server: &Server, reply: &Reply, solutions: u64, started: Instant) {
    if reply.stopped() {
        return reply.send("canceled", json!({}));
    }
    let found = match solutions {
        0 => String::new(),
        n => format!(" with {n} solutions found so far"),
    };
    let seconds = server.timeout.as_secs_f64();
    reply.invalid(format!(
        "stopped after {:.1} s{found}: each request may take {seconds} s (cagey serve --timeout)",
        started.elapsed().as_secs_f64()
    ));
}
