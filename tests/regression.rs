//! Regression tests, each named after the issue that reported the bug.

#![cfg(feature = "cli")]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SEED: &str = "puzzles/kenken/seed-5x5-three-solutions.txt";

fn cagey_with_input(args: &[&str], input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cagey"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
    }
    child.wait_with_output().unwrap()
}

fn cagey(args: &[&str]) -> Output {
    cagey_with_input(args, "")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cagey-regression-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn issue_74_render_to_one_file_of_several_puzzles_writes_nothing() {
    let dir = scratch("several");
    let png = dir.join("s.png");
    let out = cagey(&["render", "puzzles/sudoku/sixteen-clue-5.txt", "-o", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("give -o a directory"), "{}", stderr(&out));
    assert!(!png.exists(), "nothing is written before the error");
}

#[test]
fn issue_74_render_to_a_file_of_another_kind_is_refused() {
    let dir = scratch("jpg");
    let jpg = dir.join("x.jpg");
    let out = cagey(&["render", SEED, "-o", jpg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("expected a file ending in .svg or .png, or a directory"), "{}", stderr(&out));
    assert!(!jpg.exists(), "no directory x.jpg/ is made");
    // An existing directory may have a dot in its name.
    let out = cagey(&["render", SEED, "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.join("1.svg").exists());
}

#[test]
fn issue_74_a_kept_grid_that_breaks_a_cage_names_the_cage() {
    let dir = scratch("keep");
    // A Latin square, but not a solution: the seed's first solution with 1
    // and 2 swapped breaks its cages, not its rows and columns.
    let grid = "3 | 5 | 1 | 2 | 4\n4 | 1 | 5 | 3 | 2\n5 | 3 | 2 | 4 | 1\n1 | 2 | 4 | 5 | 3\n2 | 4 | 3 | 1 | 5\n";
    let keep = dir.join("keep.txt");
    std::fs::write(&keep, grid).unwrap();
    let out = cagey(&["analyze", "--suggest", "--keep", keep.to_str().unwrap(), SEED]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.contains("is not a solution of puzzles/kenken/seed-5x5-three-solutions.txt:1"), "{message}");
    assert!(message.contains("the cage '+ 14 A1 A2 B1 B2' does not hold"), "{message}");
    assert!(!message.contains("cage 0"), "{message}");
}

#[test]
fn issue_74_a_sudoku_line_too_long_for_any_size_says_so() {
    let out = cagey_with_input(&["count", "-"], &format!("{}\n", ".".repeat(900)));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a grid of at most 25×25 (625 characters; 900 is 30×30)"), "{}", stderr(&out));
}

#[test]
fn issue_74_every_file_the_help_names_exists() {
    let top = String::from_utf8(cagey(&["--help"]).stdout).unwrap();
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .map_while(|l| l.strip_prefix("  ").and_then(|l| l.split_whitespace().next()))
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() > 8, "{commands:?}");
    let mut named = 0;
    for command in commands {
        let help = stdout(&cagey(&[command, "--help"]));
        for word in help.split_whitespace().filter(|w| w.starts_with("puzzles/")) {
            let path = word.trim_end_matches(|c: char| !c.is_alphanumeric());
            // A glob names its folder.
            let path = if path.contains('*') { &path[..path.rfind('/').unwrap()] } else { path };
            assert!(Path::new(path).exists(), "`cagey {command} --help` names {path}, which does not exist");
            named += 1;
        }
    }
    assert!(named > 5, "the help names example files");
}

#[test]
fn issue_74_the_input_format_help_lists_keen() {
    let help = stdout(&cagey(&["count", "--help"]));
    assert!(help.contains("--input-format <kenken|sudoku|keen|killer|fpuzzles>"), "{help}");
    let ids = cagey(&["count", "--input-format", "keen", "puzzles/keen/keen-ids-sample.txt"]);
    assert_eq!(ids.status.code(), Some(0));
}

#[test]
fn issue_74_a_broken_keen_id_is_read_as_one() {
    let out = cagey_with_input(&["count", "-"], "4:garbage\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad Keen game ID"), "{}", stderr(&out));
}

#[test]
fn issue_74_a_cage_in_two_pieces_is_warned_of_and_an_empty_grid_is_not() {
    let out = cagey_with_input(&["count", "-"], "# 3\n* 3 A1 C3\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("1 cage is not in one piece: '* 3 A1 C3'"), "{}", stderr(&out));
    let out = cagey_with_input(&["count", "-"], "# 4\n! 1 A1\n");
    assert_eq!((stdout(&out).as_str(), stderr(&out).as_str()), ("144\n", ""), "a Latin square with a given");
}

#[test]
fn issue_74_the_library_reads_like_rust() -> Result<(), cagey::Error> {
    use cagey::{Backend, Cell, Puzzle, Solver};
    let puzzle: Puzzle = "# 3\n+ 6 A1 A2 A3\n- 1 B1 B2\n".parse()?;
    let solver = Solver::default();
    let count = solver.count(&puzzle, None)?;
    assert_eq!((count.count(), count.is_complete(), count.stats.solutions), (8, true, 8));
    assert!(!solver.uniqueness(&puzzle)?.is_unique());
    let unique: Puzzle = "# 2\n! 1 A1\n".parse()?;
    let verdict = solver.uniqueness(&unique)?;
    assert!(verdict.is_unique() && verdict.uniqueness.is_unique());
    let grid = solver.first(&unique)?.grid.expect("a solution");
    assert_eq!((grid.get(0, 0), grid.get(1, 0), grid.get(2, 0)), (Some(1), Some(2), None));
    assert_eq!(grid[Cell::parse("B2")?], 1);
    assert_eq!("r1c2".parse::<Cell>()?, Cell::new(0, 1));
    // Bad arguments are errors, not panics.
    assert!(Solver::builder().shard(0, 3).is_err() && Solver::builder().shard(4, 3).is_err());
    assert!(matches!("# 2\n+ 3 A1 Z9\n".parse::<Puzzle>().map_err(cagey::Error::from), Err(cagey::Error::Parse(_))));
    // An interrupt needs no 'static flag.
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = Solver::builder().backend(Backend::Native).interrupt(flag).build();
    assert!(!stopped.count(&puzzle, None)?.is_complete());
    Ok(())
}

#[test]
fn issue_74_completions_and_man_pages_come_from_the_command_line() {
    let bash = stdout(&cagey(&["completions", "bash"]));
    assert!(bash.contains("_cagey()") && bash.contains("--input-format"), "{bash}");
    let zsh = stdout(&cagey(&["completions", "zsh"]));
    assert!(zsh.starts_with("#compdef cagey"), "{zsh}");
    let dir = scratch("man");
    let out = cagey(&["man", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for page in ["cagey.1", "cagey-count.1", "cagey-analyze.1", "cagey-man.1"] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(text.contains(".TH") && text.contains("cagey"), "{page}");
    }
    let count = std::fs::read_to_string(dir.join("cagey-count.1")).unwrap();
    assert!(count.contains("\\-\\-limit"), "the flags are there");
}

/// The keys of a JSON record, in the order written.
fn keys(line: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    value.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn issue_74_json_records_have_every_key_in_one_order() {
    let stats =
        ["count", "complete", "timed_out", "answered_by", "nodes", "failures", "variables", "clauses", "sat_calls"];
    for backend in ["native", "sat"] {
        let out = cagey(&["count", "--format", "json", "--backend", backend, SEED]);
        let expected: Vec<&str> =
            [&["type", "source", "line", "size", "backend"][..], &stats, &["elapsed_ms"]].concat();
        assert_eq!(keys(stdout(&out).trim()), expected, "{backend}");
    }
    let out = cagey(&["unique", "--format", "json", SEED]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!((record["verdict"].as_str(), record["count"].as_u64()), (Some("multiple"), Some(2)));
    assert_eq!(record["complete"], true, "a settled verdict is complete");
    assert!(record["certificate"].is_null() && record["timed_out"] == false, "{record}");
    let out = cagey(&["unique", "--format", "json", "puzzles/kenken/kenny-4x4.txt"]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(record["differ"], serde_json::json!([]), "{record}");
    let out = cagey(&["analyze", "--format", "json", SEED]);
    let analysis = keys(stdout(&out).trim());
    assert_eq!(&analysis[..5], ["type", "source", "line", "size", "count"], "written order, not sorted");
}

#[test]
fn issue_74_keep_going_keeps_a_line_for_every_puzzle() {
    let input = "# 3\n+ 6 A1 A2 A3\n# 3\n+ 0 A1 A2\n# 2\n! 1 A1\n";
    let out = cagey_with_input(&["count", "--keep-going", "-"], input);
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "<stdin>:1: 12");
    assert!(lines[1].starts_with("<stdin>:4: skipped: bad target '0'"), "{lines:?}");
    assert_eq!(lines[2], "<stdin>:5: 1");
    let json = cagey_with_input(&["unique", "--keep-going", "--format", "json", "-"], input);
    assert_eq!(stdout(&json).lines().count(), 3, "{}", stdout(&json));
    assert!(stdout(&json).lines().nth(1).unwrap().starts_with(r#"{"type":"skipped","source":"<stdin>","line":4"#));
    let converted = cagey_with_input(&["convert", "--keep-going", "--to", "kenken", "-"], input);
    assert!(stdout(&converted).contains("# <stdin>:4: skipped:"), "{}", stdout(&converted));
}
