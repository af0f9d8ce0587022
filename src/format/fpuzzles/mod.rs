//! f-puzzles puzzles, as the links setters share: an f-puzzles link
//! (`https://f-puzzles.com/?load=…`), a SudokuPad link that carries an
//! f-puzzles payload (`https://sudokupad.app/fpuzzles…`) or its own
//! (`…/scl…`, see `sudokupad.rs`), the bare payload (LZ-String base64 of a
//! JSON object), or the JSON itself, one puzzle a line (the JSON may span
//! lines).
//!
//! Every constraint the model holds is read: givens, regions (default
//! boxes unless cells say otherwise; cells in no region), Killer cages
//! (distinct, with or without a sum), KenKen labels in cage values (`12x`,
//! `3-`, `2÷`, `6+`: then every cage is a KenKen cage, a bare number a
//! no-op one), little-killer sums, extra regions, both diagonals,
//! anti-knight, anti-king, disjoint groups, Kropki `difference` and
//! `ratio` dots and `xv` pairs. Any other constraint is an error that
//! names it; drawings and pencil marks are ignored. A `solution` in the
//! payload must solve the puzzle as read.

mod link;
mod read;
mod rules;
mod sudokupad;
mod write;

use crate::format::error::ParseErrorKind;

use super::fields::fields;
use super::reader::{Item, LineReader};
#[cfg(test)]
use link::compress;
use link::{bad, decompress, payload_start, shorten};
use read::{Read, read_json};
pub use write::{fpuzzles_link, sudokupad_link};

/// The JSON text of a bare f-puzzles payload (LZ-String base64), as the
/// f-puzzles solver protocol sends it; `None` if it is not one.
///
/// ```
/// assert_eq!(cagey::format::fpuzzles::payload_json("N4IgHiBcDMC+Q===").as_deref(), Some(r#"{"x":3}"#));
/// ```
pub fn payload_json(payload: &str) -> Option<String> {
    decompress(payload.trim())
}

/// Whether `field` is an f-puzzles or SudokuPad link, a bare payload, or
/// the start of the JSON.
pub(super) fn looks_like(field: &str) -> bool {
    let lower = field.to_ascii_lowercase();
    let bare = lower.trim_start_matches("http://").trim_start_matches("https://").trim_start_matches("www.");
    field.starts_with('{')
        || ["f-puzzles.com", "sudokupad.app", "app.crackingthecryptic.com"].iter().any(|host| bare.starts_with(host))
        || ["fpuzzles", "fpuz", "scl", "ctc"].iter().any(|prefix| field.strip_prefix(prefix).is_some_and(payload_start))
        || field.starts_with("N4Ig")
}

/// Reads f-puzzles links, payloads and JSON, one puzzle a line or a JSON
/// object over several.
#[derive(Default)]
pub(super) struct Reader {
    /// A JSON object being read: its first line and column, its text, and
    /// where its scan stands.
    json: Option<(usize, usize, String, Scan)>,
}

impl LineReader for Reader {
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item)) {
        let (first, column, mut text, mut scan) = match self.json.take() {
            Some((first, column, mut text, scan)) => {
                text.push('\n');
                (first, column, text, scan)
            }
            None => {
                let Some(&(column, field)) = fields(line).first() else { return };
                if field.starts_with('#') {
                    return;
                }
                if !field.starts_with('{') {
                    let read = read_link(field);
                    out(read.map(|read| read.parsed(line_no)).map_err(|kind| (line_no, column, kind)));
                    return;
                }
                (line_no, column, String::new(), Scan::default())
            }
        };
        let line = if text.is_empty() { line.trim_start() } else { line };
        text.push_str(line);
        scan.feed(line);
        if scan.closed() {
            out(read_json(&text).map(|read| read.parsed(first)).map_err(|kind| (first, column, kind)));
        } else {
            self.json = Some((first, column, text, scan));
        }
    }

    fn finish(&mut self, out: &mut dyn FnMut(Item)) {
        if let Some((first, column, ..)) = self.json.take() {
            let reason = "the JSON object does not end: expected a closing '}'".to_string();
            out(Err((first, column, ParseErrorKind::BadLink { reason })));
        }
    }

    fn held(&self) -> usize {
        self.json.as_ref().map_or(0, |(_, _, text, _)| text.len())
    }
}

/// Where a scan of JSON text stands: how deep in braces and brackets, and
/// whether inside a string (and just after a backslash there).
#[derive(Default)]
struct Scan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    opened: bool,
}

impl Scan {
    fn feed(&mut self, text: &str) {
        for c in text.chars() {
            match (self.in_string, self.escaped, c) {
                (true, true, _) => self.escaped = false,
                (true, false, '\\') => self.escaped = true,
                (true, false, '"') => self.in_string = false,
                (true, ..) => {}
                (false, _, '"') => self.in_string = true,
                (false, _, '{' | '[') => {
                    self.depth += 1;
                    self.opened = true;
                }
                (false, _, '}' | ']') => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    fn closed(&self) -> bool {
        self.opened && self.depth == 0
    }
}

/// The puzzle of a link or a bare payload.
fn read_link(field: &str) -> Result<Read, ParseErrorKind> {
    let lower = field.to_ascii_lowercase();
    let bare = lower.trim_start_matches("http://").trim_start_matches("https://").trim_start_matches("www.");
    let skipped = field.len() - bare.len();
    let payload = if bare.starts_with("f-puzzles.com") {
        let at = lower
            .find("load=")
            .ok_or_else(|| bad("an f-puzzles link without '?load=': expected the puzzle's full link"))?;
        &field[at + "load=".len()..]
    } else if bare.starts_with("sudokupad.app") || bare.starts_with("app.crackingthecryptic.com") {
        // The path after the host, past `?puzzleid=` or the app's `sudoku/`
        // if there; a payload holds '/' of its own.
        let path = field[skipped..].split_once('/').map_or("", |(_, path)| path);
        let path = path.find("puzzleid=").map_or(path, |at| &path[at + "puzzleid=".len()..]);
        let path = path.strip_prefix("sudoku/").unwrap_or(path);
        path.split(['&', '#']).next().unwrap_or(path)
    } else {
        field
    };
    let payload = percent_encoding::percent_decode_str(payload).decode_utf8_lossy();
    let payload = payload.trim();
    let (kind, data) = if let Some(data) = payload.strip_prefix("fpuzzles").or_else(|| payload.strip_prefix("fpuz")) {
        ("f-puzzles", data)
    } else if let Some(data) = payload.strip_prefix("scl").or_else(|| payload.strip_prefix("ctc")) {
        ("SudokuPad", data)
    } else {
        ("f-puzzles", payload)
    };
    if !payload_start(data) {
        return Err(bad(format!(
            "'{}' is no puzzle payload (a SudokuPad short name needs the site's server): \
             expected a link that holds the puzzle, like https://f-puzzles.com/?load=N4Ig…",
            shorten(payload)
        )));
    }
    let json =
        decompress(data).ok_or_else(|| bad("the payload is not LZ-String base64 text: is the link cut short?"))?;
    if kind == "SudokuPad" {
        let (puzzle, solution) = sudokupad::read(&json)?;
        return Read::new(puzzle, solution);
    }
    read_json(&json)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::crosscheck::generate::{KenKenOptions, kenken, rng};
    use crate::format::{Format, ParseOptions, parse};
    use crate::puzzle::verify::verify;
    use crate::puzzle::{BoxShape, Cage, Cell, Op, Puzzle};

    /// The puzzles of `text` read as f-puzzles, or the first error's text.
    fn read(text: &str) -> Result<Vec<Puzzle>, String> {
        let options = ParseOptions { format: Some(Format::FPuzzles), ..ParseOptions::default() };
        parse(text, "t", &options)
            .map(|parsed| parsed.into_iter().map(|p| p.puzzle).collect())
            .map_err(|e| e.to_string())
    }

    /// A cage as a key: op, target, sorted cells, distinct.
    type CageKey = (char, String, Vec<Cell>, bool);

    /// A puzzle as a set: its size, groups beyond rows and columns (and
    /// other than them), and cages, each sorted, with repeated givens once.
    fn canonical(puzzle: &Puzzle) -> (usize, Vec<Vec<Cell>>, Vec<CageKey>) {
        let sorted = |cells: &[Cell]| {
            let mut cells = cells.to_vec();
            cells.sort_by_key(|c| (c.row, c.col));
            cells
        };
        // A row or a column again as a group adds nothing.
        let n = puzzle.size();
        let line =
            |g: &[Cell]| g.len() == n && (g.iter().all(|c| c.row == g[0].row) || g.iter().all(|c| c.col == g[0].col));
        let mut groups: Vec<Vec<Cell>> =
            puzzle.extra_groups().iter().map(|g| sorted(g.cells())).filter(|g| g.len() > 1 && !line(g)).collect();
        groups.sort_by_key(|g| g.iter().map(|c| (c.row, c.col)).collect::<Vec<_>>());
        let mut cages: Vec<_> = puzzle
            .cages()
            .iter()
            .map(|c| (c.op().symbol(), c.target().digits().to_string(), sorted(c.cells()), c.is_distinct()))
            .collect();
        cages.sort_by_key(|(op, target, cells, distinct)| {
            (*op, target.clone(), cells.iter().map(|c| (c.row, c.col)).collect::<Vec<_>>(), *distinct)
        });
        cages.dedup();
        (puzzle.size(), groups, cages)
    }

    #[test]
    fn lz_string_matches_the_javascript_encoder() {
        // lisudoku/sudoku_formats' tests: this payload "contains the json {"x":3}".
        assert_eq!(compress("{\"x\":3}"), "N4IgHiBcDMC+Q===");
        assert_eq!(decompress("N4IgHiBcDMC+Q===").as_deref(), Some("{\"x\":3}"));
        assert_eq!(decompress("N4IgHiBcDMC Q==="), Some("{\"x\":3}".to_string()), "a '+' turned into a space");
        assert_eq!(decompress("not base64 at all"), None);
    }

    #[test]
    fn links_in_every_wrapping_read_the_same_puzzle() {
        let cage = Cage::new(Op::Add, 3u64, vec![Cell::new(0, 0), Cell::new(0, 1)]).unwrap().with_distinct(true);
        let puzzle = Puzzle::new(4, BoxShape::default_for(4).unwrap().groups(4), vec![cage]).unwrap();
        let json = write::json(&puzzle, None).unwrap();
        let payload = compress(&json);
        let encoded = percent_encoding::utf8_percent_encode(&payload, percent_encoding::NON_ALPHANUMERIC).to_string();
        let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap();
        for text in [
            format!("https://f-puzzles.com/?load={payload}"),
            format!("https://www.f-puzzles.com/?load={encoded}"),
            format!("f-puzzles.com/?load={payload} a name after it"),
            format!("https://sudokupad.app/fpuzzles{payload}"),
            format!("https://sudokupad.app/fpuz{encoded}"),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{payload}"),
            payload.clone(),
            json.clone(),
            format!("# a comment\n\n{pretty}\n"),
        ] {
            assert!(super::super::detect(&text) == Some(Format::FPuzzles), "{text}");
            let read = read(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(read.len(), 1, "{text}");
            assert_eq!(canonical(&read[0]), canonical(&puzzle), "{text}");
        }
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let cut = &compress("{\"size\":4,\"grid\":[]}")[..10];
        let cases = [
            (format!("https://f-puzzles.com/?load={cut}"), "not LZ-String"),
            ("https://f-puzzles.com/?id=abc".to_string(), "without '?load='"),
            ("https://sudokupad.app/someone/short-name".to_string(), "short name"),
            ("{\"size\": 4,".to_string(), "does not end"),
            ("{\"size\": 30, \"grid\": []}".to_string(), "bad size '30'"),
            ("{\"size\": 2, \"grid\": [[{}, {}]]}".to_string(), "2 rows of 2 cells"),
            ("{\"size\": 1, \"grid\": [[{\"given\": true, \"value\": 2}]]}".to_string(), "bad given '2'"),
            ("{\"size\": 1, \"grid\": [[{}]], \"killercage\": [{\"cells\": [\"R1C2\"]}]}".to_string(), "bad cell"),
        ];
        for (text, expected) in cases {
            let options = ParseOptions { format: Some(Format::FPuzzles), ..ParseOptions::default() };
            let error = parse(&text, "t", &options).unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    /// f-puzzles JSON of a 4×4 with `extra` keys and values.
    fn four(extra: &str) -> String {
        let row = "[{},{},{},{}]";
        format!("{{\"size\":4,\"grid\":[{row},{row},{row},{row}]{extra}}}")
    }

    #[test]
    fn every_constraint_the_model_holds_comes_across() {
        let text = four(
            ",\"diagonal+\":true,\"diagonal-\":true,\"antiking\":true,\"antiknight\":false,\
             \"killercage\":[{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":\"3\"},{\"cells\":[\"R3C3\",\"R4C3\"]}],\
             \"littlekillersum\":[{\"cell\":\"R0C2\",\"cells\":[\"R1C3\",\"R2C4\"],\"direction\":\"DR\",\"value\":\"5\"}],\
             \"difference\":[{\"cells\":[\"R2C1\",\"R2C2\"]}],\"ratio\":[{\"cells\":[\"R3C1\",\"R3C2\"],\"value\":\"3\"}],\
             \"xv\":[{\"cells\":[\"R4C1\",\"R4C2\"],\"value\":\"V\"}],\"extraregion\":[{\"cells\":[\"R1C4\",\"R4C4\"]}],\
             \"title\":\"t\",\"negative\":[]",
        );
        let puzzle = &read(&text).unwrap()[0];
        let cages = canonical(puzzle).2;
        let cell = |name: &str| Cell::parse(name).unwrap();
        let has = |op: char, target: &str, cells: &[&str], distinct: bool| {
            let cells: Vec<Cell> = cells.iter().map(|c| cell(c)).collect();
            assert!(cages.contains(&(op, target.to_string(), cells.clone(), distinct)), "{op} {target} {cells:?}");
        };
        has('+', "3", &["A1", "A2"], true);
        has('+', "5", &["A3", "B4"], false);
        has('-', "1", &["B1", "B2"], false);
        has('/', "3", &["C1", "C2"], false);
        has('+', "5", &["D1", "D2"], false);
        assert_eq!(cages.len(), 5);
        let groups = canonical(puzzle).1;
        let group = |cells: &[&str]| cells.iter().map(|c| cell(c)).collect::<Vec<_>>();
        for expected in [
            group(&["A1", "B2", "C3", "D4"]),
            group(&["A4", "B3", "C2", "D1"]),
            group(&["C3", "D3"]),
            group(&["A4", "D4"]),
            group(&["A1", "A2", "B1", "B2"]),
            group(&["B1", "C2"]),
        ] {
            assert!(groups.contains(&expected), "{expected:?} in {groups:?}");
        }
        // 4 boxes, 2 diagonals, a cage without a sum, an extra region, and
        // a king's diagonal step for each of 9 2×2 squares, two each.
        assert_eq!(groups.len(), 4 + 2 + 1 + 1 + 18);
    }

    #[test]
    fn kenken_labels_make_kenken_cages() {
        let text = four(
            ",\"killercage\":[{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":\"12x\"},{\"cells\":[\"R2C1\",\"R2C2\"],\"value\":\"3-\"},\
             {\"cells\":[\"R3C1\",\"R3C2\"],\"value\":\"2÷\"},{\"cells\":[\"R4C1\",\"R4C2\"],\"value\":\"/2\"},\
             {\"cells\":[\"R1C3\",\"R2C3\"],\"value\":\"6+\"},{\"cells\":[\"R3C3\",\"R4C3\"],\"value\":\"7\"}]",
        );
        let cages = canonical(&read(&text).unwrap()[0]).2;
        let ops: Vec<(char, &str, bool)> = cages.iter().map(|(op, t, _, d)| (*op, t.as_str(), *d)).collect();
        for expected in [('*', "12", false), ('-', "3", false), ('/', "2", false), ('+', "6", false), ('?', "7", false)]
        {
            assert!(ops.contains(&expected), "{expected:?} in {ops:?}");
        }
        let bad = four(",\"killercage\":[{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":\"12y\"}]");
        assert!(read(&bad).unwrap_err().contains("bad value '12y'"));
    }

    #[test]
    fn what_cannot_be_solved_is_named_and_counted() {
        let text = four(
            ",\"thermometer\":[{\"lines\":[[\"R1C1\",\"R1C2\"]]},{\"lines\":[[\"R2C1\",\"R2C2\"]]}],\
             \"arrow\":[{\"cells\":[\"R1C1\"]}],\"nonconsecutive\":true,\"negative\":[\"ratio\"],\"sandwichsum\":[]",
        );
        let error = read(&text).unwrap_err();
        assert!(
            error.ends_with("f-puzzles constraints cagey cannot solve: arrow (1), negative constraint (1), nonconsecutive (1), thermometer (2)"),
            "{error}"
        );
        let pencil = four("").replacen("{}", "{\"value\":3,\"centerPencilMarks\":[1],\"c\":\"#FF0000\"}", 1);
        assert!(read(&pencil).unwrap()[0].cages().is_empty(), "a value without 'given' is the solver's, not a clue");
    }

    #[test]
    fn a_solution_that_does_not_solve_the_puzzle_is_caught() {
        let givens = four("").replacen("{}", "{\"value\":1,\"given\":true}", 1);
        let with = |solution: &str| format!("{},\"solution\":{solution}}}", &givens[..givens.len() - 1]);
        assert!(read(&with("[1,2,3,4,3,4,1,2,2,1,4,3,4,3,2,1]")).is_ok());
        assert!(read(&with("\"1234341221434321\"")).is_ok());
        let error = read(&with("[2,1,3,4,3,4,1,2,1,2,4,3,4,3,2,1]")).unwrap_err();
        assert!(error.contains("does not solve the puzzle as read"), "{error}");
        // A partial solution is a setter's work in progress: not checked.
        assert!(read(&with("[2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]")).is_ok());
    }

    #[test]
    fn global_rules_and_regions_are_written_as_rules() {
        // Irregular regions: 0 0 0 1 / 0 2 1 1 / 2 2 3 1 / 2 3 3 3.
        let row = |regions: [u8; 4]| {
            let cells: Vec<String> = regions.iter().map(|r| format!("{{\"region\":{r}}}")).collect();
            format!("[{}]", cells.join(","))
        };
        let rows = [row([0, 0, 0, 1]), row([0, 2, 1, 1]), row([2, 2, 3, 1]), row([2, 3, 3, 3])].join(",");
        let text = format!(
            "{{\"size\":4,\"grid\":[{rows}],\"diagonal+\":true,\"antiknight\":true,\"disjointgroups\":true,\
             \"xv\":[{{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":\"X\"}}]}}"
        );
        let puzzle = read(&text).unwrap().remove(0);
        let json: serde_json::Value = serde_json::from_str(&write::json(&puzzle, None).unwrap()).unwrap();
        for rule in ["diagonal+", "antiknight", "disjointgroups"] {
            assert_eq!(json[rule], true, "{rule}: {json}");
        }
        assert!(json.get("extraregion").is_none() && json.get("diagonal-").is_none(), "{json}");
        assert_eq!(json["grid"][3][0]["region"], 2, "{json}");
        assert_eq!(json["xv"][0]["value"], "X");
        let again = read(&json.to_string()).unwrap().remove(0);
        assert_eq!(canonical(&again), canonical(&puzzle));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Generated puzzles of every kind the model holds, written as a
        /// link and read back: the same puzzle, and the planted solution,
        /// embedded, still solves it.
        #[test]
        fn links_read_back_as_the_puzzle_written(seed in any::<u64>()) {
            let mut rng = rng(seed, 0);
            let options = KenKenOptions::random(1..=9, &mut rng);
            let generated = kenken(&options, &mut rng);
            let solution = verify(&generated.puzzle, &generated.planted).is_ok().then_some(&generated.planted);
            let Ok(link) = fpuzzles_link(&generated.puzzle, solution) else { return Ok(()) };
            let read = read(&link).map_err(|e| TestCaseError::fail(format!("{link}: {e}")))?;
            prop_assert_eq!(canonical(&read[0]), canonical(&generated.puzzle));
        }
    }

    /// Any JSON value of a few levels, from keys and leaves f-puzzles uses.
    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::{Value, json};
        let leaves =
            ["R1C1", "R2C3", "R9C9", "R0C1", "RxCy", "12x", "3-", "X", "V", "", "1", "-4", "99999999999999999999999"];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..30).prop_map(|n| json!(n)),
            prop::sample::select(leaves.to_vec()).prop_map(|s| json!(s)),
        ];
        let keys = [
            "size",
            "grid",
            "killercage",
            "cells",
            "value",
            "given",
            "region",
            "littlekillersum",
            "difference",
            "ratio",
            "xv",
            "diagonal+",
            "antiking",
            "disjointgroups",
            "solution",
            "negative",
            "extraregion",
            "arrow",
        ];
        leaf.prop_recursive(3, 32, 5, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(keys.to_vec()), inner), 0..6).prop_map(|entries| {
                    Value::Object(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                }),
            ]
        })
    }

    proptest! {
        /// Hostile JSON, with a well-formed grid or not: a puzzle or an
        /// error, never a panic.
        #[test]
        fn any_json_reads_or_is_refused(
            size in 0usize..5,
            cells in prop::collection::vec(json_value(), 16),
            extra in prop::collection::vec(json_value(), 0..4),
            grid_ok in any::<bool>(),
        ) {
            let n = size.max(1);
            let grid: Vec<serde_json::Value> = (0..n)
                .map(|r| serde_json::Value::Array((0..n).map(|c| cells[(r * n + c) % 16].clone()).collect()))
                .collect();
            let mut object = serde_json::Map::new();
            object.insert("size".into(), serde_json::json!(size));
            object.insert("grid".into(), if grid_ok { serde_json::Value::Array(grid) } else { cells[0].clone() });
            for value in extra {
                if let serde_json::Value::Object(entries) = value {
                    object.extend(entries);
                }
            }
            let text = serde_json::Value::Object(object).to_string();
            let _ = read(&text);
            let _ = read(&format!("https://f-puzzles.com/?load={}", compress(&text)));
        }
    }

    #[test]
    fn most_generated_puzzles_can_be_written() {
        let written = (0..200)
            .filter(|&seed| {
                let mut rng = rng(seed, 0);
                let options = KenKenOptions::random(1..=9, &mut rng);
                fpuzzles_link(&kenken(&options, &mut rng).puzzle, None).is_ok()
            })
            .count();
        assert!(written >= 100, "{written} of 200");
    }
}
