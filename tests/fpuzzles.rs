//! f-puzzles links and JSON from public sources (see tests/fpuzzles/README.md),
//! read by the built `cagey` binary, and links it writes read back.

#![cfg(feature = "cli")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cagey(args: &[&str], input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cagey"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The grid of `solve` text output as values, row-major.
fn values(solved: &str) -> Vec<u64> {
    solved
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with('-'))
        .flat_map(|line| line.split('|').filter_map(|v| v.trim().parse().ok()))
        .collect()
}

#[test]
fn published_puzzles_have_their_authors_solutions() {
    for name in ["alien-abacus", "finger-counting", "joined-up-thinking", "piggly-wiggly", "wormhole-sixxtreme"] {
        let path = format!("tests/fpuzzles/{name}.json");
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let published: Vec<u64> = json["solution"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let out = cagey(&["solve", "--all", &path], "");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let solved = text(&out.stdout);
        assert!(solved.ends_with("# 1 solution\n"), "{name}: {solved}");
        assert_eq!(values(&solved), published, "{name}");
        let sat = cagey(&["count", "--backend", "sat", &path], "");
        assert_eq!(text(&sat.stdout), "1\n", "{name} on SAT");
    }
}

#[test]
fn constraints_cagey_cannot_solve_are_refused_by_name() {
    for (name, what) in [("frost", "thermometer (5)"), ("our-lady-of-the-adjacent", "nonconsecutive (1)")] {
        let path = format!("tests/fpuzzles/{name}.json");
        let out = cagey(&["count", &path], "");
        assert_eq!(out.status.code(), Some(2), "{name}");
        let expected = format!("cagey: {path}:1:1: f-puzzles constraints cagey cannot solve: {what}\n");
        assert_eq!(text(&out.stderr), expected);
    }
}

#[test]
fn public_links_read_as_their_sources_say() {
    let out = cagey(&["count", "--limit", "2", "tests/fpuzzles/links.txt"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // SudokuSolver's tests say the first is unique; the second is an
    // exercise with one box, the third a Sudoku with few givens.
    assert_eq!(text(&out.stdout), "1\n2+\n2+\n");
    let out = cagey(&["unique", "--format", "json", "tests/fpuzzles/links.txt"], "");
    let first: serde_json::Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["verdict"], "unique", "{first}");
}

#[test]
fn json_output_lists_what_was_ignored() {
    let out = cagey(&["count", "--format", "json", "tests/fpuzzles/piggly-wiggly.json"], "");
    let record: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let ignored = serde_json::json!(["author (1)", "cells' candidates (36)", "ruleset (1)", "title (1)"]);
    assert_eq!(record["ignored"], ignored, "{record}");
    let plain = cagey(&["count", "--format", "json", "puzzles/sudoku/6x6-unique.txt"], "");
    assert!(!text(&plain.stdout).contains("ignored"), "nothing is ignored in a Sudoku line");
}

#[test]
fn cells_are_named_as_f_puzzles_names_them() {
    let out = cagey(&["unique", "tests/fpuzzles/links.txt"], "");
    assert!(text(&out.stdout).contains("# they differ at R8C3 "), "{}", text(&out.stdout));
}

#[test]
fn generated_puzzles_open_as_links_with_their_solutions() {
    let killer = cagey(&["generate", "--size", "9", "--killer", "--unique", "--seed", "11"], "");
    let link = cagey(&["convert", "--to", "sudokupad", "-"], &text(&killer.stdout));
    assert_eq!(link.status.code(), Some(0), "{}", text(&link.stderr));
    let link = text(&link.stdout);
    assert!(link.starts_with("https://sudokupad.app/fpuzzles") && link.lines().count() == 1, "{link}");
    let back = cagey(&["solve", "-"], &link);
    let again = cagey(&["solve", "-"], &text(&killer.stdout));
    assert_eq!(values(&text(&back.stdout)), values(&text(&again.stdout)));
    let bare = cagey(&["convert", "--to", "fpuzzles", "--no-solution", "-"], &text(&killer.stdout));
    assert!(text(&bare.stdout).starts_with("https://f-puzzles.com/?load=N4Ig"));
    assert!(text(&bare.stdout).len() < link.len(), "no solution, a shorter link");
    let kenken = cagey(&["generate", "--size", "6", "--noop", "--seed", "2"], "");
    let refused = cagey(&["convert", "--to", "fpuzzles", "-"], &text(&kenken.stdout));
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("f-puzzles cannot show a no-op KenKen"), "{}", text(&refused.stderr));
}

#[test]
fn true_candidates_count_the_solutions_through_each_value() {
    let seed = "puzzles/kenken/seed-5x5-three-solutions.txt";
    let solved = text(&cagey(&["solve", "--all", seed], "").stdout);
    let grids: Vec<Vec<u64>> = solved.split("\n\n").map(values).filter(|g| g.len() == 25).collect();
    assert_eq!(grids.len(), 3);
    for cap in [1, 2, 3] {
        let out = cagey(&["analyze", "--format", "json", "--true-candidates", &cap.to_string(), seed], "");
        let record: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        let counts: Vec<u64> =
            record["solutionsPerCandidate"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let expected: Vec<u64> = (0..25 * 5)
            .map(|i| grids.iter().filter(|g| g[i / 5] == (i % 5 + 1) as u64).count() as u64)
            .map(|count| count.min(cap))
            .collect();
        assert_eq!(counts, expected, "cap {cap}");
    }
}

#[test]
fn sudokupad_payloads_read_zipped_or_not_and_drawings_are_refused() {
    let out = cagey(&["count", "--keep-going", "--format", "json", "tests/fpuzzles/sudokupad.txt"], "");
    let records: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    // Six solutions, as the KenKen text of the same puzzle counts on SAT.
    assert_eq!((records[0]["count"].as_u64(), records[1]["count"].as_u64()), (Some(6), Some(6)), "{records:?}");
    let kenken = "# 4 boxes 2x2 killer\ndistinct C1 D1\n! 1 A1\n! 1 D4\n+ 5 A2 A3\n";
    assert_eq!(text(&cagey(&["count", "--backend", "sat", "-"], kenken).stdout), "6\n");
    assert_eq!(records[2]["type"], "skipped");
    let error = records[2]["error"].as_str().unwrap();
    assert!(error.contains("cannot solve: SudokuPad lines (drawings whose rules are text) (1)"), "{error}");
}
