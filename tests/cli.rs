//! The built `cagey` binary: output, exit codes and error messages.

#![cfg(feature = "cli")]

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

const SEED: &str = "puzzles/kenken/seed-5x5-three-solutions.txt";

fn cagey(args: &[&str]) -> Output {
    cagey_with_input(args, "")
}

/// cagey running with its standard streams piped.
fn spawn(args: &[&str]) -> std::process::Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cagey"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command.spawn().unwrap()
}

fn cagey_with_input(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args);
    // cagey reads as it solves, and may stop reading at an error.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
    }
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn code(output: &Output) -> i32 {
    output.status.code().unwrap()
}

/// The three solutions of the seeds' 5×5 KenKen, as the seed prints them.
const SEED_GRIDS: [&str; 3] = [
    "3 | 5 | 2 | 1 | 4\n--+---+---+---+--\n4 | 2 | 5 | 3 | 1\n--+---+---+---+--\n\
     5 | 3 | 1 | 4 | 2\n--+---+---+---+--\n2 | 1 | 4 | 5 | 3\n--+---+---+---+--\n1 | 4 | 3 | 2 | 5\n",
    "5 | 3 | 2 | 1 | 4\n--+---+---+---+--\n4 | 2 | 5 | 3 | 1\n--+---+---+---+--\n\
     3 | 5 | 1 | 4 | 2\n--+---+---+---+--\n2 | 1 | 4 | 5 | 3\n--+---+---+---+--\n1 | 4 | 3 | 2 | 5\n",
    "3 | 2 | 5 | 1 | 4\n--+---+---+---+--\n4 | 5 | 2 | 3 | 1\n--+---+---+---+--\n\
     5 | 3 | 1 | 4 | 2\n--+---+---+---+--\n2 | 1 | 4 | 5 | 3\n--+---+---+---+--\n1 | 4 | 3 | 2 | 5\n",
];

#[test]
fn solve_prints_the_first_solution_in_the_seed_style() {
    let out = cagey(&["solve", SEED]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(SEED_GRIDS.iter().any(|grid| text == format!("{grid}\n")), "{text}");
}

#[test]
fn solve_all_and_limit() {
    let out = cagey(&["solve", "--all", SEED]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for grid in SEED_GRIDS {
        assert!(text.contains(grid), "{text}");
    }
    assert!(text.ends_with("\n# 3 solutions\n"), "{text}");

    let out = cagey(&["solve", "--limit", "2", SEED]);
    let text = stdout(&out);
    assert_eq!(text.matches("1 | 4 | 3 | 2 | 5").count(), 2);
    assert!(text.ends_with("\n# 2 solutions (stopped at the limit; there may be more)\n"), "{text}");
}

#[test]
fn solve_without_solution_exits_1() {
    let out = cagey_with_input(&["solve", "-"], "# 2\n! 1 A1\n! 1 A2\n");
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "# no solution\n");
}

#[test]
fn solve_json_streams_a_line_per_solution_then_a_result_per_puzzle() {
    let out = cagey(&["solve", "--all", "--format", "json", SEED, "puzzles/sudoku/empty-4x4.txt"]);
    assert_eq!(code(&out), 0);
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3 + 1 + 288 + 1);
    let (seed, rest) = lines.split_at(4);
    for solution in &seed[..3] {
        assert_eq!(
            (&solution["type"], &solution["source"], &solution["line"]),
            (&"solution".into(), &SEED.into(), &1.into())
        );
    }
    let first_rows: Vec<&serde_json::Value> = seed[..3].iter().map(|s| &s["grid"][0]).collect();
    assert!(first_rows.contains(&&serde_json::json!([3, 5, 2, 1, 4])), "{first_rows:?}");
    assert_eq!(seed[0]["grid"][4], serde_json::json!([1, 4, 3, 2, 5]));
    let result = &seed[3];
    assert_eq!(result["type"], "result");
    assert_eq!(result["count"], 3);
    assert_eq!(result["complete"], true);
    assert_eq!((&result["backend"], &result["answered_by"]), (&"auto".into(), &"native".into()));
    assert_eq!(result["source"], SEED);
    assert!(result["nodes"].as_u64().unwrap() >= 1);
    assert!(result["sat_calls"].is_null(), "a counter the backend does not keep is left out");
    let elapsed = result["elapsed_ms"].to_string();
    assert!(elapsed.split('.').nth(1).is_none_or(|digits| digits.len() <= 3), "whole microseconds: {elapsed}");
    assert!(rest[..288].iter().all(|s| s["type"] == "solution" && s["grid"].as_array().unwrap().len() == 4));
    assert_eq!((&rest[288]["type"], &rest[288]["count"]), (&"result".into(), &288.into()));
}

#[test]
fn count_prints_one_line_per_puzzle_in_order() {
    let out = cagey(&["count", "puzzles/sudoku/sixteen-clue-5.txt"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "388\n730\n234\n451\n468\n");

    let out = cagey(&["count", "--jobs", "1", "puzzles/kenken/kenny-w4-all.txt"]);
    assert_eq!(stdout(&out), "1\n".repeat(200));
}

#[test]
fn count_with_a_limit_marks_a_cut_count() {
    let out = cagey(&["count", "--limit", "1000", "puzzles/sudoku/empty-5x5.txt"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "1000+\n");
    let out = cagey(&["count", "--limit", "1000", "puzzles/sudoku/empty-4x4.txt"]);
    assert_eq!(stdout(&out), "288\n");
}

#[test]
fn count_names_puzzles_when_given_several_files() {
    let out = cagey(&["count", SEED, "puzzles/sudoku/empty-4x4.txt"]);
    assert_eq!(stdout(&out), format!("{SEED}:1: 3\npuzzles/sudoku/empty-4x4.txt:2: 288\n"));
}

#[test]
fn count_json() {
    let out = cagey(&["count", "--format", "json", "--limit", "10", "puzzles/sudoku/empty-4x4.txt"]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["count"], 10);
    assert_eq!(record["complete"], false);
    assert_eq!(record["size"], 4);
    assert_eq!(record["line"], 2);
}

#[test]
fn count_of_zero_exits_1() {
    let out = cagey_with_input(&["count", "-"], "11..............\n");
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "0\n");
}

#[test]
fn unique_verdicts_and_exit_codes() {
    let out = cagey(&["unique", "puzzles/sudoku/hardest-unique.txt"]);
    assert_eq!((code(&out), stdout(&out)), (0, "unique\n".to_string()));

    let out = cagey(&["unique", SEED]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("multiple\n\n"), "{text}");
    assert_eq!(text.matches("1 | 4 | 3 | 2 | 5").count(), 2, "two solutions follow");
    assert!(text.ends_with("\n# they differ at A2 A3 B2 B3\n"), "{text}");
    // Sudoku cells by row and column.
    let out = cagey_with_input(&["unique", "-"], "1...............\n");
    assert!(stdout(&out).contains("# they differ at r"), "{}", stdout(&out));

    let out = cagey_with_input(&["unique", "-"], "# 2\n! 1 A1\n! 1 A2\n");
    assert_eq!((code(&out), stdout(&out)), (1, "none\n".to_string()));

    let out = cagey(&["unique", "--format", "json", SEED]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["verdict"], "multiple");
    assert_eq!(record["solutions"].as_array().unwrap().len(), 2);
    assert_eq!(record["differ"], serde_json::json!(["A2", "A3", "B2", "B3"]));
}

#[test]
fn unique_exits_0_only_if_every_puzzle_is_unique() {
    let out = cagey(&["unique", "puzzles/sudoku/magictour-20.txt"]);
    assert_eq!((code(&out), stdout(&out)), (0, "unique\n".repeat(20)));
    let out = cagey(&["unique", "puzzles/sudoku/magictour-20.txt", SEED]);
    assert_eq!(code(&out), 1);
}

#[test]
fn standard_input_and_forced_format() {
    let out = cagey_with_input(&["count", "--input-format", "sudoku", "-"], "1...\n");
    assert_eq!(stdout(&out), "1\n");
    // The old name still works, unlisted.
    let out = cagey_with_input(&["count", "--input", "kenken", "-"], "1...\n");
    assert_eq!(code(&out), 2);
    let help = stdout(&cagey(&["count", "--help"]));
    assert!(
        help.contains("--input-format <kenken|sudoku|keen|killer|fpuzzles>") && !help.contains("--input <"),
        "{help}"
    );
    assert!(stderr(&out).contains("<stdin>:1:1: expected a size line"), "{}", stderr(&out));
}

#[test]
fn boxes_flag() {
    let empty6 = ".".repeat(36);
    let out = cagey_with_input(&["count", "--limit", "5", "--boxes", "3x2", "-"], &empty6);
    assert_eq!(stdout(&out), "5+\n");
    let out = cagey_with_input(&["count", "--boxes", "none", "-"], "................\n");
    assert_eq!(stdout(&out), "576\n");
    let out = cagey_with_input(&["count", "--boxes", "4x2", "-"], &empty6);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("boxes of 4x2 do not tile a 6x6 grid"), "{}", stderr(&out));
}

#[test]
fn uncaged_cells_are_named_in_a_warning() {
    let out = cagey(&["count", "puzzles/kenken/seed-4x4-noop.txt"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "3\n");
    let lines: Vec<String> = stderr(&out).lines().map(String::from).collect();
    assert_eq!(lines[0], "cagey: warning: puzzles/kenken/seed-4x4-noop.txt:1: 1 cell in no cage: C1");
    assert!(lines[1].contains("2>/dev/null silences"), "{lines:?}");
    // A large grid with one cage: the count and the first few, and the note once.
    let empty =
        cagey_with_input(&["count", "--limit", "1", "puzzles/kenken/seed-4x4-noop.txt", "-"], "# 25\n+ 3 A1 A2\n");
    let text = stderr(&empty);
    assert!(text.contains("<stdin>:1: 623 cells in no cage: A3 A4 A5 A6 A7 A8 A9 A10 and 615 more\n"), "{text}");
    assert_eq!(text.matches("cagey: note:").count(), 1, "{text}");
}

/// Each bad input: the text, and what the message must contain.
const BAD_INPUTS: &[(&str, &str)] = &[
    ("# 4\n% 3 A1 A2\n", "<stdin>:2:1: unknown op '%'"),
    ("# 4\n+ 0 A1 A2\n", "<stdin>:2:3: bad target '0': expected a positive whole number"),
    ("# 4\n+ x A1 A2\n", "<stdin>:2:3: bad target 'x'"),
    ("# 4\n+ 3 A1 E2\n", "<stdin>:2:8: bad cell 'E2': expected a row A-D and a column 1-4"),
    ("# 4\n+ 3 A1 A9\n", "<stdin>:2:8: bad cell 'A9'"),
    ("# 4\n+ 3 A1 A1\n", "<stdin>:2:8: cell A1 is named twice in this cage"),
    (
        "# 4\n+ 3 A1 A2\n+ 2 A2\n",
        "<stdin>:3:5: cell A2 is already in the cage on line 2: start the line with 'overlap'",
    ),
    ("# 4\n! 1 A2\n+ 3 A1 A2\n! 2 A2\n", "<stdin>:4:5: cell A2 is already given 1 on line 2"),
    ("# 4\ndistinct overlap distinct + 3 A1\n", "<stdin>:2:18: unexpected 'distinct'"),
    ("# 4 killer killer\n+ 3 A1\n", "<stdin>:1:12: bad header '# 4 killer killer'"),
    (
        "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>>\n",
        "<stdin>:1:81: bad killer string at '>': expected an arrow to a cell inside the grid",
    ),
    (
        "><<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^\n",
        "<stdin>:1:1: bad killer string at '>': expected arrows that lead to a sum, not round in a loop",
    ),
    ("# 4\n- 3 A1 A2 A3\n", "<stdin>:2:1: a '-' cage needs exactly 2 cells, found 3"),
    ("# 4\n/ 2 A1\n", "<stdin>:2:1: a '/' cage needs exactly 2 cells, found 1"),
    ("# 4\n! 2 A1 A2\n", "<stdin>:2:1: a '!' cage needs exactly 1 cell, found 2"),
    ("# 4\n+ 3\n", "<stdin>:2:4: line ends early: expected one or more cells"),
    ("+ 3 A1 A2\n", "<stdin>:1:1: expected a size line '# N'"),
    ("# 30\n", "<stdin>:1:3: bad size '30': expected a whole number from 1 to 25"),
    ("# 4\n! 5 A1\n", "<stdin>:2:3: bad given '5': a '!' cage holds a value from 1 to 4"),
    ("# 4\n! 99999999999999999999 A1\n", "<stdin>:2:3: bad given '99999999999999999999'"),
    ("# 4 boxes 3x3\n", "<stdin>:1:11: bad boxes '3x3': expected RxC with R times C = 4"),
    ("# 0\n", "<stdin>:1:3: bad size '0'"),
    ("", "<stdin>:1:1: no puzzle found"),
    ("\n# just a comment\n\n", "<stdin>:1:1: no puzzle found"),
    ("5...............\n", "<stdin>:1:1: bad character '5': expected '.' or '0' for an empty cell, or a value 1-4"),
    ("..........x.....\n", "<stdin>:1:11: bad character 'x'"),
    ("...............\n", "<stdin>:1:1: expected N² characters for an N×N grid"),
    ("1 2 . .\n. . 1 2\n. . .\n. . . .\n", "<stdin>:3:1: expected 4 cells in this row"),
    // A line of the wrong length with a stray character: the character is named.
    (
        ".......................................................................x........\n",
        "<stdin>:1:72: bad character 'x': expected '.' or '0' for an empty cell, or a value 1-9",
    ),
    // The example cell is one of the grid's.
    ("# 2\n+ 3 A1 C1\n", "<stdin>:2:8: bad cell 'C1': expected a row A-B and a column 1-2, like B2"),
    // A repeated size line is not a second puzzle to count.
    ("# 4\n# 4\n+ 3 A1 A2\n", "<stdin>:1:1: this size line starts a puzzle with no cages"),
    // Control characters are escaped, long tokens cut short.
    ("# 4\n\u{1} 3 A1 A2\n", "<stdin>:2:1: unknown op '\\u{1}'"),
    // A NUL byte ends the reading: no text holds one.
    ("# 4\n+ 3 A1\u{0} A2\n", "<stdin>:2:7: a NUL byte: expected a puzzle in a text file"),
    ("1.\u{1}.\n", "<stdin>:1:3: bad character '\\u{1}'"),
    (
        "# 4\n+ 99999999999999999999999999999999999999999999x A1 A2\n",
        "bad target '9999999999999999999999999999999999999999…'",
    ),
];

#[test]
fn bad_input_exits_2_naming_line_column_and_expectation() {
    for &(input, message) in BAD_INPUTS {
        for command in ["solve", "count", "unique"] {
            let out = cagey_with_input(&[command, "-"], input);
            assert_eq!(code(&out), 2, "{command} on {input:?}");
            assert!(stderr(&out).contains(message), "{command} on {input:?}: {}", stderr(&out));
            assert!(!stderr(&out).contains("panicked"));
            assert!(stdout(&out).is_empty(), "a puzzle that cannot be read whole is not solved");
        }
    }
}

#[test]
fn unreadable_files_exit_2() {
    let out = cagey(&["count", "no/such/file.txt"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no/such/file.txt: cannot read"), "{}", stderr(&out));

    let dir = std::env::temp_dir().join(format!("cagey-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"# 4\n+ 3 A1 \xff\n").unwrap();
    let out = cagey(&["count", binary.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("binary.txt:2:8: not UTF-8 text"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(code(&cagey(&["solve"])), 2);
    assert_eq!(code(&cagey(&["solve", "--backend", "magic", SEED])), 2);
    assert_eq!(code(&cagey(&["solve", "--all", "--limit", "3", SEED])), 2);
    assert_eq!(code(&cagey(&["frobnicate"])), 2);
    assert_eq!(code(&cagey(&["solve", "--limit", "0", SEED])), 2);
    assert_eq!(code(&cagey(&["count", "--limit", "0", SEED])), 2);
}

#[test]
fn every_command_has_help_with_an_example() {
    for command in ["solve", "count", "unique", "cnf", "check", "generate", "fuzz"] {
        let out = cagey(&[command, "--help"]);
        assert_eq!(code(&out), 0);
        assert!(stdout(&out).contains("Examples:"), "{command}");
    }
    assert!(stdout(&cagey(&["--help"])).contains("Exit status"));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cagey"))
        .args(["solve", "--all", "puzzles/sudoku/empty-5x5.txt"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn solve_output_reads_back_as_sudoku_grids() {
    let out = cagey(&["solve", "--all", "puzzles/sudoku/empty-4x4.txt"]);
    let back = cagey_with_input(&["count", "--input", "sudoku", "-"], &stdout(&out));
    assert_eq!(code(&back), 0, "{}", stderr(&back));
    assert_eq!(stdout(&back), "1\n".repeat(288), "each printed grid is a full grid with one solution");
}

#[test]
fn sat_backend_names_itself_and_its_counters() {
    let out = cagey(&["count", "--backend", "sat", "--format", "json", SEED]);
    assert_eq!(code(&out), 0);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["backend"], "sat");
    assert_eq!(record["count"], 3);
    assert_eq!(record["sat_calls"], 4, "three solutions, then unsatisfiable");
    assert!(record["variables"].as_u64().unwrap() > 125);
    assert!(record["clauses"].as_u64().unwrap() > 0);
    let out = cagey(&["solve", "--all", "--backend", "sat", SEED]);
    assert!(stdout(&out).ends_with("\n# 3 solutions\n"));
    let out = cagey(&["unique", "--backend", "sat", "puzzles/sudoku/hardest-unique.txt"]);
    assert_eq!((code(&out), stdout(&out)), (0, "unique\n".to_string()));
}

#[test]
fn a_cage_over_the_tuple_limit_is_refused_with_exit_2() {
    let big = "# 9\n+ 90 A1 A2 B1 B2 C1 C2 D1 D2 E1 E2 F1 F2 G1 G2 H1 H2 I1 I2\n";
    let out = cagey_with_input(&["count", "--backend", "sat", "--tuple-limit", "1000", "-"], big);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out)
            .contains("<stdin>:1: cage 1 (the one at A1, 18 cells) has too many allowed tuples: more than 1000 arcs"),
        "{}",
        stderr(&out)
    );
    let out = cagey_with_input(&["solve", "--format", "json", "--backend", "sat", "--tuple-limit", "1000", "-"], big);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).is_empty(), "no half-written record: {}", stdout(&out));
    let out = cagey_with_input(&["cnf", "--tuple-limit", "1000", "-"], big);
    assert_eq!(code(&out), 2);
}

#[test]
fn cnf_prints_dimacs_with_the_numbering_and_blocks_given_solutions() {
    let out = cagey(&["cnf", SEED]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.starts_with("c cagey: CNF of a 5x5 puzzle\nc variable (r*5 + c)*5 + v is true"), "{text}");
    let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());

    let dir = std::env::temp_dir().join(format!("cagey-cnf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let found = dir.join("found.txt");
    std::fs::write(&found, stdout(&cagey(&["solve", "--all", SEED]))).unwrap();
    let out = cagey(&["cnf", "--block", found.to_str().unwrap(), SEED]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let formula = varisat::dimacs::DimacsParser::parse(&out.stdout[..]).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    assert!(!solver.solve().unwrap(), "all three solutions blocked: nothing is left");

    std::fs::write(&found, "1234341221434321\n").unwrap();
    let out = cagey(&["cnf", "--block", found.to_str().unwrap(), SEED]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("found.txt:1: expected a full 5x5 grid"), "{}", stderr(&out));
    // A full grid that is no solution (here, not even a Latin square).
    std::fs::write(&found, "1234512345345124512351234\n").unwrap();
    let out = cagey(&["cnf", "--block", found.to_str().unwrap(), SEED]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("found.txt:1: not a solution of the puzzle"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();

    let out = cagey(&["cnf", "puzzles/sudoku/magictour-20.txt"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("holds 20 puzzles: choose one with --puzzle K"), "{}", stderr(&out));
    assert_eq!(code(&cagey(&["cnf", "--puzzle", "20", "puzzles/sudoku/magictour-20.txt"])), 0);
    assert_eq!(code(&cagey(&["cnf", "--puzzle", "21", "puzzles/sudoku/magictour-20.txt"])), 2);
}

#[test]
fn generate_is_deterministic_and_reads_back() {
    let args = ["generate", "--size", "5", "--count", "4", "--seed", "42"];
    let first = stdout(&cagey(&args));
    assert_eq!(first, stdout(&cagey(&args)), "same seed, same puzzles");
    assert_ne!(first, stdout(&cagey(&["generate", "--size", "5", "--count", "4", "--seed", "43"])));
    assert_eq!(first.matches("# 5\n").count(), 4);
    let out = cagey_with_input(&["count", "-"], &first);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 4);

    let unique = stdout(&cagey(&["generate", "--kind", "sudoku", "--size", "6", "--unique", "--count", "5"]));
    assert_eq!(unique.lines().count(), 5);
    let out = cagey_with_input(&["unique", "-"], &unique);
    assert_eq!((code(&out), stdout(&out)), (0, "unique\n".repeat(5)));

    let noop = stdout(&cagey(&["generate", "--size", "6", "--noop", "--unique", "--count", "3", "--seed", "1"]));
    assert!(!noop.lines().any(|l| l.starts_with(['+', '-', '*', '/'])), "{noop}");
    assert_eq!(stdout(&cagey_with_input(&["unique", "-"], &noop)), "unique\n".repeat(3));
}

#[test]
fn generate_refuses_bad_options() {
    let out = cagey(&["generate", "--size", "5", "--perturb", "1.5"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--perturb 1.5 is out of range"), "{}", stderr(&out));
    assert_eq!(code(&cagey(&["generate", "--size", "26"])), 2);
    assert_eq!(code(&cagey(&["generate", "--size", "5", "--unique", "--perturb", "0.1"])), 2);
    let out = cagey(&["generate", "--kind", "sudoku", "--size", "6", "--boxes", "2x2"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("boxes of 2x2 do not tile a 6x6 grid"), "{}", stderr(&out));
}

#[test]
fn check_prints_a_table_and_exits_0_when_backends_agree() {
    let out = cagey(&["check", SEED, "puzzles/sudoku/sixteen-clue-5.txt"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    assert!(lines[0].starts_with("puzzle") && lines[0].contains("native ms") && lines[0].contains("auto ms"));
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&row[..5], [&format!("{SEED}:1"), "3", "3", "3", "yes"]);
    assert_eq!(row[row.len() - 3], "native", "auto answers the seed's puzzle with native");
    assert_eq!(row[row.len() - 2], "multiple", "the unique verdicts agree");
    assert!(lines[3].contains(" 730 ") && lines[3].contains(" yes "), "{}", lines[3]);

    // Digests: count, sum and squares, the same on both backends.
    let digest = row.last().unwrap();
    assert!(digest.starts_with("3:") && digest.len() == 2 + 32 + 1 + 32, "{digest}");

    let out = cagey(&["check", "--limit", "100", "puzzles/sudoku/empty-5x5.txt"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("100+       100+       100+  yes"), "{}", stdout(&out));
    assert!(stdout(&out).trim_end().ends_with(" -"), "no digest of a set cut short: {}", stdout(&out));

    // Past --store, the sets are compared by digest.
    let out = cagey(&["check", "--store", "10", "puzzles/sudoku/empty-4x4.txt"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains(" 288:"), "{}", stdout(&out));
}

#[test]
fn targets_of_any_length_are_read_and_computed_exactly() {
    // 25! is the product of a full row of a 25x25 grid; 25! + 1 is out of reach.
    let row: Vec<String> = (1..=25).map(|c| format!("A{c}")).collect();
    let text = |target: &str| format!("# 25\n* {target} {}\n", row.join(" "));
    let count = |backend: &str, target: &str| {
        let out = cagey_with_input(&["count", "--limit", "1000", "--backend", backend, "-"], &text(target));
        (code(&out), stdout(&out).trim().to_string(), stderr(&out))
    };
    assert_eq!(count("native", "15511210043330985984000000").1, "1000+");
    assert_eq!(count("native", "15511210043330985984000001").1, "0");
    assert_eq!(count("sat", "15511210043330985984000001").1, "0");
    // 25! tuples, and a diagram node for each set of values in the row
    // (2^25), are too many to encode: a bounded, explained refusal.
    let (status, _, message) = count("sat", "15511210043330985984000000");
    assert_eq!(status, 2);
    assert!(message.contains("allowed tuples") && message.contains("raise --tuple-limit"), "{message}");
    let out = cagey(&["check", "puzzles/kenken/regression-saturating-product.txt"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
}

/// Issue 75: a Killer cage's digits never repeat, though its cells share
/// no row, column or box; a KenKen cage's may.
#[test]
fn killer_cages_forbid_repeats_and_kenken_cages_do_not() {
    for (text, count) in [
        ("# 4 boxes 2x2\n+ 4 B2 B3 C3\n", "6\n"),
        ("# 4 boxes 2x2 killer\n+ 4 B2 B3 C3\n", "0\n"),
        ("# 4 boxes 2x2\ndistinct + 4 B2 B3 C3\n", "0\n"),
        ("# 4 boxes 2x2 killer\noverlap + 4 B2 B3 C3\n", "6\n"),
    ] {
        let out = cagey_with_input(&["count", "-"], text);
        assert_eq!(stdout(&out), count, "{text}");
        let sat = cagey_with_input(&["count", "--backend", "sat", "-"], text);
        assert_eq!(stdout(&sat), count, "{text}");
    }
}

#[test]
fn generate_covers_killer_groups_and_wild_targets() {
    let args = ["generate", "--size", "6", "--killer", "--extra-groups", "1", "--scatter", "0.5", "--wild", "0.3"];
    let text = stdout(&cagey(&[&args[..], &["--seed", "4"]].concat()));
    assert!(text.starts_with("# 6 boxes 2x3 killer\ndistinct "), "{text}");
    let out = cagey_with_input(&["check", "-"], &text);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = cagey(&["generate", "--size", "7", "--killer"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("a 7x7 grid has none"), "{}", stderr(&out));
    let unique = stdout(&cagey(&["generate", "--size", "9", "--killer", "--unique", "--seed", "1"]));
    assert!(unique.starts_with("# 9 boxes 3x3 killer\n"), "{unique}");
    assert_eq!(stdout(&cagey_with_input(&["unique", "-"], &unique)), "unique\n");
    let line = stdout(&cagey_with_input(&["convert", "--to", "killer", "-"], &unique));
    assert_eq!(stdout(&cagey_with_input(&["unique", "-"], &line)), "unique\n", "{line}");
    let mixed = stdout(&cagey(&["generate", "--size", "7", "--mix", "--count", "20", "--seed", "2"]));
    let out = cagey_with_input(&["check", "-"], &mixed);
    assert_eq!(code(&out), 0, "every mixed puzzle reads back and both backends agree: {}", stdout(&out));
    assert_eq!(stdout(&out).lines().count(), 21);
}

#[test]
fn fuzz_replays_the_same_cases_from_the_same_seed() {
    let args = ["fuzz", "--cases", "60", "--seed", "5", "--size", "3..5", "--out", "target/fuzz-test"];
    let out = cagey(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let summary = stdout(&out);
    assert!(summary.starts_with("60 cases, all agree: "), "{summary}");
    let tally = |s: &str| s.split(';').next().unwrap().to_string();
    assert_eq!(tally(&summary), tally(&stdout(&cagey(&args))));

    let out = cagey(&["fuzz", "--cases", "20", "--kind", "sudoku", "--size", "4", "--out", "target/fuzz-test"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(code(&cagey(&["fuzz", "--size", "7..3"])), 2);
}

#[test]
fn fuzz_sets_a_slow_case_aside_instead_of_waiting_for_it() {
    // With a microsecond a case, no backend finishes anything.
    let dir = "target/fuzz-slow-test";
    let _ = std::fs::remove_dir_all(dir);
    let out = cagey(&["fuzz", "--cases", "3", "--seed", "8", "--size", "4", "--timeout", "0.000001", "--out", dir]);
    assert_eq!(code(&out), 3, "a timeout cut searches short: {}", stderr(&out));
    let summary = stdout(&out);
    assert!(summary.starts_with("0 cases, all agree: "), "{summary}");
    assert!(
        summary.contains("3 cases not compared: a backend did not finish within 0.000001 s (--timeout)"),
        "{summary}"
    );
    for case in 0..3 {
        let path = format!("{dir}/slow-8-{case}.txt");
        let counted = cagey(&["count", &path]);
        assert!([0, 1].contains(&code(&counted)), "{path} reads back as a puzzle: {}", stderr(&counted));
    }
}

#[test]
fn generated_sudoku_with_other_boxes_reads_back_with_the_same_flag() {
    let out = cagey(&["generate", "--kind", "sudoku", "--size", "6", "--boxes", "3x2", "--unique", "--count", "3"]);
    assert_eq!(code(&out), 0);
    assert!(stderr(&out).contains("read these puzzles back with --boxes 3x2"), "{}", stderr(&out));
    let back = cagey_with_input(&["unique", "--boxes", "3x2", "-"], &stdout(&out));
    assert_eq!(stdout(&back), "unique\n".repeat(3));
}

#[test]
fn shard_counts_add_up_to_the_whole() {
    let file = "puzzles/sudoku/empty-4x4.txt";
    let part = |shard: &str| stdout(&cagey(&["count", "--shard", shard, file])).trim().parse::<u64>().unwrap();
    assert_eq!(part("1/3") + part("2/3") + part("3/3"), 288);
    for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
        let out = cagey(&["count", "--shard", bad, file]);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("expected I/N with 1 <= I <= N"), "{}", stderr(&out));
    }
    // One puzzle on two threads: split across them, the same count.
    assert_eq!(stdout(&cagey(&["count", "--jobs", "2", "puzzles/sudoku/empty-5x5.txt"])).trim(), "161280");
}

#[test]
fn a_count_that_ends_at_the_limit_is_exact() {
    let count = |limit: &str, file: &str, jobs: &str| {
        stdout(&cagey(&["count", "--limit", limit, "--jobs", jobs, file])).trim().to_string()
    };
    for jobs in ["1", "2"] {
        assert_eq!(count("288", "puzzles/sudoku/empty-4x4.txt", jobs), "288");
        assert_eq!(count("287", "puzzles/sudoku/empty-4x4.txt", jobs), "287+");
        assert_eq!(count("1", "puzzles/sudoku/hardest-unique.txt", jobs), "1");
    }
    let out = cagey(&["count", "--limit", "3", "--format", "json", SEED]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!((&record["count"], &record["complete"]), (&3.into(), &true.into()));
}

#[test]
fn a_byte_order_mark_does_not_change_the_format() {
    let kenken = std::fs::read_to_string(SEED).unwrap();
    let out = cagey_with_input(&["count", "-"], &format!("\u{feff}{kenken}"));
    assert_eq!((code(&out), stdout(&out)), (0, "3\n".to_string()), "{}", stderr(&out));
}

#[test]
fn jobs_are_capped_at_the_cores_with_a_warning() {
    let out = cagey(&["count", "--jobs", "3000", SEED]);
    assert_eq!((code(&out), stdout(&out)), (0, "3\n".to_string()));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(stderr(&out).contains(&format!("--jobs 3000 is more than the {cores} cores here")), "{}", stderr(&out));
}

#[test]
fn a_negative_share_is_read_and_refused_as_out_of_range() {
    for (flag, value) in [("--perturb", "-0.5"), ("--uncaged", "-1"), ("--scatter", "-0.1"), ("--wild", "-2")] {
        let out = cagey(&["generate", "--size", "4", flag, value]);
        assert_eq!(code(&out), 2);
        assert!(
            stderr(&out).contains(&format!("{flag} {value} is out of range: expected a share from 0 to 1")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    let Ok(full) = std::fs::File::create("/dev/full") else { return };
    let status = Command::new(env!("CARGO_BIN_EXE_cagey")).arg("--help").stdout(full).stderr(Stdio::null()).status();
    assert_eq!(status.unwrap().code(), Some(2));
    assert_eq!(code(&cagey(&["--help"])), 0);
    assert_eq!(code(&cagey(&["count", "--bogus"])), 2);
}

#[test]
fn a_refused_cage_gets_advice_that_fits_the_command() {
    let cnf = cagey(&["cnf", "--tuple-limit", "1", SEED]);
    assert_eq!(code(&cnf), 2);
    assert!(stderr(&cnf).trim_end().ends_with("raise --tuple-limit to encode it anyway"), "{}", stderr(&cnf));
    let count = cagey(&["count", "--backend", "sat", "--tuple-limit", "1", SEED]);
    assert_eq!(code(&count), 2);
    assert!(stderr(&count).contains("or use --backend native or auto"), "{}", stderr(&count));
    // auto, the default, goes on with native when SAT refuses.
    assert_eq!(stdout(&cagey(&["count", "--tuple-limit", "1", SEED])), "3\n");
}

#[test]
fn boxes_on_a_kenken_file_are_not_silently_ignored() {
    let out = cagey(&["count", "--boxes", "2x2", SEED]);
    assert_eq!(stdout(&out), "3\n");
    assert!(stderr(&out).contains("--boxes applies to Sudoku input"), "{}", stderr(&out));
    assert!(!stderr(&cagey(&["count", SEED])).contains("--boxes"));
}

#[test]
fn kenken_comments_and_sudoku_behind_a_number_line() {
    // Comments in KenKen files, before and between puzzles.
    let text = "# generated by hand\n# 2\n+ 3 A1 A2\n# the next\n# 2\n! 2 A1\n";
    assert_eq!(stdout(&cagey_with_input(&["count", "-"], text)), "2\n1\n");
    // A Sudoku file whose first line is '# 2024' reads as KenKen: the
    // message says how to read it as Sudoku, and that works.
    let sudoku = "# 2024\n4...........3...\n";
    let out = cagey_with_input(&["count", "-"], sudoku);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("bad size '2024'") && stderr(&out).contains("use --input-format sudoku"));
    assert_eq!(stdout(&cagey_with_input(&["count", "--input-format", "sudoku", "-"], sudoku)), "24\n");
    // A size of any length is a size, too large.
    let out = cagey_with_input(&["count", "-"], "# 99999999999999999999\n");
    assert!(stderr(&out).contains("1:3: bad size '99999999999999999999': expected a whole number from 1 to 25"));
}

#[test]
fn check_writes_a_json_line_per_puzzle() {
    let out = cagey(&["check", "--format", "json", SEED, "puzzles/sudoku/empty-4x4.txt"]);
    assert_eq!(code(&out), 0);
    let records: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 2);
    let seed = &records[0];
    assert_eq!((&seed["type"], &seed["agree"], &seed["line"]), (&"check".into(), &true.into(), &1.into()));
    assert!(seed["digest"].as_str().unwrap().starts_with("3:"));
    let backends: Vec<&str> = seed["runs"].as_array().unwrap().iter().map(|r| r["backend"].as_str().unwrap()).collect();
    assert_eq!(backends, ["native", "sat", "auto"]);
    assert!(seed["runs"].as_array().unwrap().iter().all(|r| r["count"] == 3 && r["complete"] == true));
    assert_eq!(seed["runs"][2]["answered_by"], "native");
    assert_eq!((&seed["verdicts_agree"], &seed["runs"][1]["verdict"]), (&true.into(), &"multiple".into()));
    assert_eq!(records[1]["runs"][1]["count"], 288);
}

#[test]
fn a_timeout_prints_what_it_found_and_exits_3() {
    let out = cagey(&["count", "--timeout", "0.05", "--jobs", "1", "-"]);
    assert_eq!(code(&out), 2, "no puzzle on standard input");
    let seven = format!("{}\n", ".".repeat(49));
    let out = cagey_with_input(&["count", "--timeout", "0.05", "-"], &seven);
    assert_eq!(code(&out), 3);
    assert!(stdout(&out).trim_end().ends_with('+'), "{}", stdout(&out));
    let out = cagey_with_input(&["count", "--timeout", "0.05", "--format", "json", "-"], &seven);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!((&record["timed_out"], &record["complete"]), (&true.into(), &false.into()));
    let out = cagey_with_input(&["unique", "--timeout", "0.000001", "-"], &seven);
    assert_eq!((code(&out), stdout(&out)), (3, "unknown\n".to_string()));
    let out = cagey(&["count", "--timeout", "-1", SEED]);
    assert!(stderr(&out).contains("bad timeout '-1': expected a positive number of seconds"), "{}", stderr(&out));
    // In time, nothing changes.
    assert_eq!(code(&cagey(&["count", "--timeout", "60", SEED])), 0);
    // A total timeout: the puzzle it cuts short says so, those after it are left.
    let three = format!("{}\n{}\n{}\n", ".".repeat(25), ".".repeat(49), ".".repeat(25));
    let out = cagey_with_input(&["count", "--total-timeout", "0.3", "-"], &three);
    assert_eq!(code(&out), 3);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "161280");
    assert!(lines[1].ends_with('+'), "{text}");
}

#[test]
fn ctrl_c_prints_the_count_so_far_and_exits_130() {
    let mut child = spawn(&["count", "puzzles/sudoku/empty-5x5.txt", "-"]);
    // The second puzzle, an empty 7x7, takes forever to count.
    child.stdin.take().unwrap().write_all(format!("{}\n", ".".repeat(49)).as_bytes()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    if !sent.is_ok_and(|s| s.success()) {
        // No kill(1) here: nothing to test with.
        child.kill().unwrap();
        child.wait().unwrap();
        return;
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "puzzles/sudoku/empty-5x5.txt:2: 161280", "{text}");
    assert!(lines[1].starts_with("<stdin>:1: ") && lines[1].ends_with('+'), "{text}");
    assert!(stderr(&out).contains("cagey: interrupted after "), "{}", stderr(&out));
}

#[test]
fn endless_or_binary_input_is_refused_at_its_first_bad_byte() {
    for (file, message) in
        [("/dev/zero", "/dev/zero:1:1: a NUL byte"), ("/dev/urandom", ": expected a puzzle in a text file")]
    {
        if !std::path::Path::new(file).exists() {
            continue;
        }
        let out = cagey(&["count", file]);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
    let mut out = spawn(&["count", "-"]);
    out.stdin.take().unwrap().write_all(b"# 4\n+ 3 A1 A2\n\xff\n").unwrap();
    let out = out.wait_with_output().unwrap();
    assert!(stderr(&out).contains("<stdin>:3:1: not UTF-8 text"), "{}", stderr(&out));
}

#[test]
fn keep_going_answers_the_readable_puzzles_and_exits_2() {
    let kenken = "# 4\n+ 3 A1 A2\n# 4\n% 3 A1 A2\n# 2\n+ 3 A1 A2\n";
    let out = cagey_with_input(&["count", "--keep-going", "-"], kenken);
    let expected =
        "<stdin>:1: 96\n<stdin>:4: skipped: unknown op '%': expected one of + - * / ! ? (or x × ÷ − =)\n<stdin>:5: 2\n";
    assert_eq!((code(&out), stdout(&out).as_str()), (2, expected), "{}", stderr(&out));
    assert!(stderr(&out).contains("<stdin>:4:1: unknown op '%'"), "{}", stderr(&out));
    // Without it, the bad puzzle ends the run: the input is read as it is
    // solved, so the puzzles before it are answered.
    let out = cagey_with_input(&["count", "-"], kenken);
    assert_eq!((code(&out), stdout(&out)), (2, "96\n".to_string()));
    // Sudoku lines: the bad line alone is skipped, with its own line number.
    let sudoku = "1...............\n..x.\n.2..............\n";
    let out = cagey_with_input(&["count", "--keep-going", "--format", "json", "-"], sudoku);
    assert_eq!(code(&out), 2);
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().map(|r| r["line"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(lines[1]["type"], "skipped");
    assert!(stderr(&out).contains("<stdin>:2:3: bad character 'x'"), "{}", stderr(&out));
}

#[test]
fn the_memory_budget_refuses_a_large_encoding_and_auto_goes_on() {
    let out = cagey(&["count", "--backend", "sat", "--memory", "1K", SEED]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("more than the memory budget of 0 MB; raise --memory"), "{}", stderr(&out));
    assert_eq!(stdout(&cagey(&["count", "--memory", "1K", SEED])), "3\n");
    assert_eq!(stdout(&cagey(&["count", "--backend", "sat", "--memory", "1.5G", SEED])), "3\n");
    for bad in ["0", "-1", "12Q", "lots"] {
        let out = cagey(&["count", "--memory", bad, SEED]);
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("expected a number of bytes, like 500M or 8G"), "{}", stderr(&out));
    }
}

#[test]
fn input_is_read_as_it_is_solved() {
    let mut child = spawn(&["count", "-"]);
    let mut input = child.stdin.take().unwrap();
    input.write_all("1...............\n".repeat(100).as_bytes()).unwrap();
    input.flush().unwrap();
    // The first answers come while the input is still open.
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut output, &mut line).unwrap();
        sender.send(line).unwrap();
    });
    let first = receiver.recv_timeout(std::time::Duration::from_secs(60));
    drop(input);
    assert_eq!(first.as_deref(), Ok("72\n"));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_puzzle_text_past_its_share_of_the_memory_budget_is_refused() {
    // 1/64 of the budget, and never less than 1 MB.
    let long = format!("1...............{}\n", " x".repeat(600_000));
    let out = cagey_with_input(&["count", "--memory", "1M", "-"], &long);
    assert_eq!(code(&out), 2);
    let message =
        "<stdin>:1: one puzzle's text passes 1 MB, 1/64 of the memory budget: if this is a puzzle, raise --memory";
    assert!(stderr(&out).contains(message), "{}", stderr(&out));
    let out = cagey_with_input(&["count", "--memory", "100M", "-"], &long);
    assert_eq!((code(&out), stdout(&out)), (0, "72\n".to_string()), "{}", stderr(&out));
    // Lines of a puzzle count together: a KenKen puzzle of endless groups.
    let groups = format!("# 4\n+ 3 A1 A2\n{}", "distinct A1 B2\n".repeat(80_000));
    let out = cagey_with_input(&["count", "--memory", "1M", "-"], &groups);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("one puzzle's text passes 1 MB"), "{}", stderr(&out));
}

#[test]
fn analyze_shows_fixed_and_open_cells_and_suggests_givens() {
    let out = cagey(&["analyze", "--suggest", SEED]);
    assert_eq!(code(&out), 1, "not unique");
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("{SEED}:1: 3 solutions; 18 cells fixed, 7 open\n35  | 235 | 25  |  1  |  4\n")),
        "{text}"
    );
    assert!(text.contains("open: A1 3/5, A2 2/3/5, A3 2/5, B2 2/5, B3 2/5, C1 3/5, C2 3/5\n"), "{text}");
    assert!(text.contains("suggest 1 given (no fewer will do): "), "{text}");
    let out = cagey(&["analyze", "puzzles/sudoku/hardest-unique.txt"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains(": 1 solution; 81 cells fixed, 0 open\n"), "{}", stdout(&out));
    let out = cagey_with_input(&["analyze", "-"], "# 2\n! 1 A1\n! 1 A2\n");
    assert_eq!((code(&out), stdout(&out)), (1, "<stdin>:1: no solution\n\n".to_string()));
}

/// Issue 75: the suggested given goes into a caged cell of a KenKen, as
/// the line analyze prints, and the puzzle is then unique.
#[test]
fn a_suggested_given_in_a_caged_cell_is_written_as_printed() {
    let text = stdout(&cagey(&["analyze", "--suggest", SEED]));
    let lines = text.lines().find_map(|l| l.strip_prefix("  (as lines of the puzzle: ")).expect("the lines to add");
    let given = lines.strip_suffix(')').unwrap().replace(" | ", "\n");
    assert!(given.starts_with("! "), "{given}");
    let edited = format!("{}{given}\n", std::fs::read_to_string(SEED).unwrap());
    let out = cagey_with_input(&["unique", "-"], &edited);
    assert_eq!((code(&out), stdout(&out)), (0, "unique\n".to_string()), "{edited}");
}

#[test]
fn analyze_suggestions_applied_make_a_sudoku_unique() {
    let out = cagey(&["analyze", "--suggest", "--format", "json", "puzzles/sudoku/sixteen-clue-5.txt"]);
    let lines = std::fs::read_to_string("puzzles/sudoku/sixteen-clue-5.txt").unwrap();
    let puzzles: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    let records: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), puzzles.len());
    for (record, puzzle) in records.iter().zip(&puzzles) {
        assert!(record["count"].as_u64().unwrap() > 1 && record["checked_against_solutions"] == true);
        assert_eq!(record["open"].as_array().unwrap().len() + record["fixed"].as_array().unwrap().len(), 81);
        let mut cells: Vec<char> = puzzle.split_whitespace().next().unwrap().chars().collect();
        for given in record["suggestion"].as_array().unwrap() {
            let name = given["cell"].as_str().unwrap();
            let (r, c) = name[1..].split_once('c').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            cells[(r - 1) * 9 + c - 1] = char::from(b'0' + given["value"].as_u64().unwrap() as u8);
        }
        let fixed: String = cells.into_iter().collect();
        let again = cagey_with_input(&["unique", "-"], &format!("{fixed}\n"));
        assert_eq!(stdout(&again), "unique\n", "{puzzle} with {}", record["suggestion"]);
    }
}

#[test]
fn analyze_keeps_the_solution_asked_for() {
    let dir = std::env::temp_dir().join(format!("cagey-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let solutions = stdout(&cagey(&["solve", "--all", SEED]));
    let second: String = solutions.split("\n\n").nth(1).unwrap().to_string();
    let keep = dir.join("keep.txt");
    std::fs::write(&keep, format!("{second}\n")).unwrap();
    let out = cagey(&["analyze", "--suggest", "--format", "json", "--keep", keep.to_str().unwrap(), SEED]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let rows: Vec<Vec<u64>> = second
        .lines()
        .filter(|l| !l.starts_with('-'))
        .map(|l| l.split(" | ").map(|v| v.trim().parse().unwrap()).collect())
        .collect();
    for given in record["suggestion"].as_array().unwrap() {
        let name = given["cell"].as_str().unwrap().as_bytes();
        let (r, c) = (usize::from(name[0] - b'A'), usize::from(name[1] - b'1'));
        assert_eq!(given["value"].as_u64().unwrap(), rows[r][c], "{record}");
    }
    // A grid that is not a solution is refused.
    std::fs::write(&keep, "12345\n23451\n34512\n45123\n51234\n").unwrap();
    let out = cagey(&["analyze", "--suggest", "--keep", keep.to_str().unwrap(), SEED]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("is not a solution of"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unique_proof_writes_a_certificate_that_check_proof_checks_again() {
    let dir = std::env::temp_dir().join(format!("cagey-proof-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().unwrap();
    let out = cagey(&["unique", "--proof", path, "puzzles/kenken/generated-9x9.txt"]);
    assert_eq!((code(&out), stdout(&out)), (0, "unique (certified)\n".to_string()), "{}", stderr(&out));
    for file in ["puzzle.cnf", "puzzle.drat", "puzzle.varisat", "puzzle.txt", "solution.txt"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    let out = cagey(&["check-proof", path]);
    assert_eq!((code(&out), stdout(&out)), (0, format!("{path}: certified unique\n")));
    // A DRAT line altered, then a solution with two cells swapped.
    let drat = std::fs::read_to_string(dir.join("puzzle.drat")).unwrap();
    std::fs::write(dir.join("puzzle.drat"), drat.replacen(" 0\n", " 1 0\n", 1)).unwrap();
    let out = cagey(&["check-proof", path]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("rejected: the DRAT proof is not the proof that was checked"), "{}", stdout(&out));
    std::fs::write(dir.join("puzzle.drat"), drat).unwrap();
    let solution = std::fs::read_to_string(dir.join("solution.txt")).unwrap();
    let first: Vec<&str> = solution.lines().next().unwrap().split(" | ").collect();
    let swapped = solution.replacen(&first.join(" | "), &[&[first[1], first[0]], &first[2..]].concat().join(" | "), 1);
    std::fs::write(dir.join("solution.txt"), swapped).unwrap();
    let out = cagey(&["check-proof", path]);
    assert!(stdout(&out).contains("rejected: the solution is not one"), "{}", stdout(&out));
    // Several puzzles: one directory each; those not unique get none.
    std::fs::remove_dir_all(&dir).unwrap();
    let out = cagey(&["unique", "--proof", path, "--format", "json", "puzzles/kenken/generated-9x9.txt", SEED]);
    let records: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["certificate"], format!("{path}/1"));
    assert!(records[1]["certificate"].is_null(), "{}", records[1]);
    assert!(dir.join("1/puzzle.drat").is_file() && !dir.join("2").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keen_game_ids_are_read_written_and_converted() {
    let id = "4de:a3_3a__a__a_ba,d2a9s1m4m48d2s2";
    // Detected as Keen, and solved.
    let out = cagey_with_input(&["count", "-"], &format!("# from Keen\n{id}\n"));
    assert_eq!((code(&out), stdout(&out)), (0, "1\n".to_string()), "{}", stderr(&out));
    let out = cagey_with_input(&["convert", "--to", "kenken", "-"], id);
    assert!(stdout(&out).starts_with("# 4\n/ 2 A1 A2\n+ 9 A3 A4 B4\n"), "{}", stdout(&out));
    let kenken = stdout(&out);
    let out = cagey_with_input(&["convert", "--to", "keen", "-"], &kenken);
    assert_eq!(stdout(&out), "4:a3_3a__a__a_ba,d2a9s1m4m48d2s2\n");
    // What a Keen ID cannot hold is refused, naming the puzzle.
    let out = cagey(&["convert", "--to", "keen", "puzzles/kenken/seed-4x4-noop.txt"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("seed-4x4-noop.txt:1: a Keen game ID cannot hold"), "{}", stderr(&out));
    let out = cagey(&["generate", "--size", "6", "--count", "3", "--emit", "keen", "--seed", "5"]);
    let ids = stdout(&out);
    assert_eq!(ids.lines().count(), 3, "{ids}");
    assert!(ids.lines().all(|l| l.starts_with("6:")), "{ids}");
    // The same puzzles as generated in KenKen text: the same counts.
    let again = stdout(&cagey(&["generate", "--size", "6", "--count", "3", "--seed", "5"]));
    let counts = |text: &str| stdout(&cagey_with_input(&["count", "-"], text));
    assert_eq!(counts(&ids), counts(&again));
    // A bad ID says where.
    let out = cagey_with_input(&["count", "--input-format", "keen", "-"], "4:_3,a1\n");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("<stdin>:1:5: bad Keen game ID ',a1': expected a block structure"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sudoku_lines_and_grids_convert_both_ways() {
    let out = cagey(&["convert", "--to", "grid", "puzzles/sudoku/hardest-unique.txt"]);
    let grid = stdout(&out);
    assert_eq!(grid.lines().count(), 11, "{grid}");
    let out = cagey_with_input(&["convert", "--to", "sudoku", "-"], &grid);
    let line = stdout(&cagey(&["convert", "--to", "sudoku", "puzzles/sudoku/hardest-unique.txt"]));
    assert_eq!(stdout(&out), line);
    assert_eq!(line.trim().len(), 81);
}

#[test]
fn render_writes_svg_png_and_a_file_a_puzzle() {
    let dir = std::env::temp_dir().join(format!("cagey-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let svg = dir.join("seed.svg");
    let out = cagey(&["render", SEED, "-o", svg.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("14+"), "{}", &text[..200]);
    let png = dir.join("seed.png");
    let out = cagey(&["render", "--solution", "--index", "3", SEED, "-o", png.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let out = cagey(&["render", "--solution", "--index", "4", SEED, "-o", png.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("the puzzle has 3 solutions: there is no solution 4"), "{}", stderr(&out));
    // Several puzzles: a directory, one file each, numbered.
    let many = dir.join("many");
    let out = cagey(&["render", "--png", "puzzles/sudoku/sixteen-clue-5.txt", "-o", many.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 5);
    assert!(many.join("5.png").is_file() && !many.join("6.png").exists());
    let out = cagey(&["render", "puzzles/sudoku/sixteen-clue-5.txt", "-o", svg.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("give -o a directory"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
