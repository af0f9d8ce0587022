//! `cagey serve` with real WebSocket clients: the f-puzzles solver protocol
//! as the userscript speaks it (answers compared with the command line),
//! the page's own request, cancelling, origins, sizes and many clients.
//! Run with `--nocapture` for the figures.

#![cfg(feature = "cli")]

#[path = "support/server.rs"]
mod server;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{Serve, Socket, ask, final_answer, next_reply, own_origin, replies, send};
use tungstenite::Message;

const F_PUZZLES: &str = "https://www.f-puzzles.com";

fn cagey(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cagey"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

/// The public f-puzzles links of `tests/fpuzzles/links.txt`.
fn links() -> Vec<String> {
    let text = std::fs::read_to_string("tests/fpuzzles/links.txt").unwrap();
    text.lines().filter(|l| l.starts_with("http")).map(String::from).collect()
}

/// The payload of an f-puzzles link, as the userscript sends it.
fn payload(link: &str) -> String {
    let (_, load) = link.split_once("load=").unwrap();
    percent_encoding::percent_decode_str(load).decode_utf8().unwrap().into_owned()
}

/// A payload of f-puzzles JSON, with a true-candidates cap when `cap > 1`.
fn payload_of(mut json: Value, cap: u64) -> String {
    if cap > 1 {
        json["truecandidatesoptions"] = json!([format!("truecandidatesnumsolutions={cap}")]);
    }
    lz_str::compress_to_base64(&json.to_string())
}

fn json_of(payload: &str) -> Value {
    let text = String::from_utf16(&lz_str::decompress_from_base64(payload).unwrap()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// An f-puzzles grid of `n`×`n` with `givens` (row, column, value) from 0.
fn grid(n: usize, givens: &[(usize, usize, u8)]) -> Value {
    let mut rows = vec![vec![json!({}); n]; n];
    for &(r, c, v) in givens {
        rows[r][c] = json!({ "value": v, "given": true });
    }
    json!({ "size": n, "grid": rows })
}

fn request(nonce: u64, command: &str, data: &str) -> Value {
    json!({ "nonce": nonce, "command": command, "dataType": "fpuzzles", "data": data })
}

fn last(replies: &[Value]) -> &Value {
    replies.last().unwrap()
}

/// `cagey analyze --true-candidates CAP` of `text`.
fn true_candidates_of(text: &str, cap: u64) -> Value {
    let out = cagey(&["analyze", "--format", "json", "--true-candidates", &cap.to_string(), "-"], text);
    let record: Value = serde_json::from_str(out.trim()).unwrap();
    record["solutionsPerCandidate"].clone()
}

#[test]
fn protocol_answers_match_the_command_line() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    let seed = cagey(&["convert", "--to", "fpuzzles", "puzzles/kenken/seed-5x5-three-solutions.txt"], "");
    let mut cases: Vec<(String, String)> = links().into_iter().map(|link| (payload(&link), link)).collect();
    cases.push((payload(seed.trim()), seed.trim().to_string()));
    let mut nonce = 0;
    for (data, link) in &cases {
        let count = cagey(&["count", "--limit", "2", "-"], link);
        let count: u64 = count.trim().trim_end_matches('+').parse().unwrap();
        for cap in [1, 3] {
            nonce += 1;
            let data = payload_of(json_of(data), cap);
            let answer = ask(&mut socket, request(nonce, "truecandidates", &data));
            assert_eq!(last(&answer)["type"], "truecandidates", "{answer:?}");
            let expected = true_candidates_of(link, cap);
            assert_eq!(last(&answer)["solutionsPerCandidate"], expected, "{link} cap {cap}");
        }
        nonce += 1;
        let check = ask(&mut socket, request(nonce, "check", data));
        assert_eq!(last(&check)["count"], count, "{link}");
        assert_eq!(last(&check)["inProgress"], false);
        nonce += 1;
        let solved = ask(&mut socket, request(nonce, "solve", data));
        assert_eq!(last(&solved)["type"], "solved", "{solved:?}");
        let solution: Vec<u8> = serde_json::from_value(last(&solved)["solution"].clone()).unwrap();
        let puzzle = cagey::format::parse(link, "link", &Default::default()).unwrap().remove(0).puzzle;
        let n = puzzle.size();
        cagey::verify(&puzzle, &cagey::Grid::new(n, solution).unwrap()).unwrap();
        println!("{}: check {count}, truecandidates agree with cagey analyze, solve verified", &link[..48]);
    }
}

#[test]
fn count_streams_its_progress_then_the_total() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    // Every 6x6 Sudoku grid: 28,200,960 (a published figure).
    let answer = ask(&mut socket, request(7, "count", &payload_of(grid(6, &[]), 1)));
    let (progress, total) = answer.split_at(answer.len() - 1);
    assert_eq!(total[0], json!({ "nonce": 7, "type": "count", "count": 28_200_960u64, "inProgress": false }));
    assert!(!progress.is_empty(), "updates while it counts");
    let counts: Vec<u64> = progress.iter().map(|r| r["count"].as_u64().unwrap()).collect();
    assert!(progress.iter().all(|r| r["inProgress"] == true));
    assert!(counts.windows(2).all(|w| w[0] < w[1]) && counts[0] > 0 && *counts.last().unwrap() <= 28_200_960);
    println!("count of the 6x6 grids: {} updates before the total", progress.len());
}

/// Starts counting the 9x9 Sudoku grids (which takes ages), and waits for
/// its first update.
fn start_long_count(socket: &mut Socket, nonce: u64) {
    send(socket, &request(nonce, "count", &payload_of(grid(9, &[]), 1)));
    let first = replies(socket, &json!(nonce), |_| true);
    assert_eq!(first[0]["inProgress"], true, "{first:?}");
}

#[test]
fn cancel_and_newer_requests_stop_the_work() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    start_long_count(&mut socket, 1);
    send(&mut socket, &json!({ "nonce": 2, "command": "cancel" }));
    let mut finals = Vec::new();
    while finals.len() < 2 {
        let reply = next_reply(&mut socket);
        if final_answer(&reply) {
            finals.push(reply);
        }
    }
    finals.sort_by_key(|reply| reply["nonce"].as_u64());
    let canceled = |nonce| json!({ "nonce": nonce, "type": "canceled" });
    assert_eq!(finals, [canceled(1), canceled(2)], "the count and the cancel both answer");
    let stopped = serve.idle_within(Duration::from_secs(5)).expect("the count stops");

    start_long_count(&mut socket, 3);
    let unique = payload(&links()[0]);
    let check = ask(&mut socket, request(4, "check", &unique));
    assert_eq!(last(&check)["count"], 1);
    assert!(serve.idle_within(Duration::from_secs(5)).is_some(), "the newer request stopped the count");

    // A flood of requests: one works at a time, and the last is answered.
    let empty = payload_of(grid(9, &[]), 1);
    for nonce in 100..150 {
        send(&mut socket, &request(nonce, "count", &empty));
        assert!(serve.status()["jobs"].as_u64().unwrap() <= 1);
    }
    send(&mut socket, &request(150, "check", &unique));
    assert_eq!(last(&replies(&mut socket, &json!(150), final_answer))["count"], 1);
    println!("cancel: the count stopped within {stopped:?}");
}

#[test]
fn a_client_that_leaves_mid_count_stops_its_work() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    start_long_count(&mut socket, 1);
    assert_eq!(serve.status()["jobs"], 1);
    drop(socket);
    let stopped = serve.idle_within(Duration::from_secs(5)).expect("the count stops when its client leaves");
    assert_eq!(serve.status()["clients"], 0);
    println!("a client left mid-count: its work stopped within {stopped:?}");
}

#[test]
fn bad_requests_get_invalid_with_a_reason() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    let unique = payload(&links()[0]);
    let frost = std::fs::read_to_string("tests/fpuzzles/frost.json").unwrap();
    let frost = lz_str::compress_to_base64(&frost);
    // Two 1s in the first row.
    let none = payload_of(grid(4, &[(0, 0, 1), (0, 3, 1)]), 1);
    let cases = [
        (json!({ "nonce": 1, "command": "solve", "dataType": "text", "data": "x" }), "dataType 'text' is not read"),
        (request(2, "solve", "not a payload"), "not an f-puzzles payload"),
        (request(3, "solve", &frost), "f-puzzles constraints cagey cannot solve: thermometer (5)"),
        (request(4, "estimate", &unique), "cagey does not estimate"),
        (request(5, "step", &unique), "no human-style logical solver"),
        (request(6, "solvepath", &unique), "no human-style logical solver"),
        (request(7, "fly", &unique), "unknown command 'fly'"),
        (json!({ "nonce": 8 }), "names no command"),
        (request(9, "solve", &none), "No solutions found."),
        (request(10, "truecandidates", &none), "No solutions found."),
    ];
    for (request, expected) in cases {
        let answer = ask(&mut socket, request.clone());
        assert_eq!(answer.len(), 1);
        assert_eq!(answer[0]["type"], "invalid", "{request}");
        assert_eq!(answer[0]["nonce"], request["nonce"]);
        let message = answer[0]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{request}: {message}");
    }
    assert_eq!(last(&ask(&mut socket, request(11, "check", &none)))["count"], 0);
    for junk in [Message::text("{not json"), Message::text("[1, 2]"), Message::binary(vec![1u8, 2, 3])] {
        socket.send(junk).unwrap();
        let answer = replies(&mut socket, &Value::Null, |_| true);
        assert!(answer[0]["message"].as_str().unwrap().starts_with("expected a JSON object"), "{answer:?}");
    }
    // The connection still answers.
    assert_eq!(last(&ask(&mut socket, request(12, "check", &unique)))["count"], 1);
    // The solution f-puzzles keeps (the setter's, maybe from before an edit) is not held against the puzzle.
    let mut edited = json_of(&unique);
    edited["solution"] = json!(vec![1; 81]);
    assert_eq!(last(&ask(&mut socket, request(13, "check", &payload_of(edited, 1))))["count"], 1);
    let answer = ask(&mut socket, request(14, "check", &lz_str::compress_to_base64("[1, 2]")));
    assert_eq!(answer[0]["message"], "the payload is not f-puzzles JSON");
}

#[test]
fn only_the_page_f_puzzles_and_sudokupad_get_in() {
    let serve = Serve::start(&[]);
    let own = own_origin(&serve);
    for origin in [None, Some(own.as_str()), Some(F_PUZZLES), Some("https://sudokupad.app")] {
        serve.connect(origin).unwrap_or_else(|e| panic!("{origin:?}: {e}"));
    }
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1", "http://rebound.example"] {
        match serve.connect(Some(origin)) {
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403, "{origin}");
                let body = String::from_utf8(response.body().clone().unwrap_or_default()).unwrap();
                assert!(body.contains("is not this server's page"), "{body}");
                println!("origin {origin}: refused with 403 ({body})");
            }
            other => panic!("{origin}: {:?}", other.map(|_| "let in")),
        }
    }
    assert_eq!(serve.get("/api/status", Some("https://evil.example")).0, 403);
    assert_eq!(serve.get("/api/status", Some(&own)).0, 200);
    // The page itself is no secret.
    let (code, page) = serve.get("/", Some("https://evil.example"));
    assert!(code == 200 && page.contains("<textarea"));
}

#[test]
fn messages_past_the_budget_close_the_connection_and_others_go_on() {
    // --memory 64M: one message may take 1 MB, as one puzzle's text may in the CLI.
    let serve = Serve::start(&["--memory", "64M"]);
    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
    let near = request(1, "solve", &"A".repeat(900_000));
    assert!(ask(&mut socket, near)[0]["message"].as_str().unwrap().contains("not an f-puzzles payload"));
    let oversized = Message::text(request(2, "solve", &"A".repeat(1_100_000)).to_string());
    // The server may close the connection before the whole message is sent.
    let ended = match socket.send(oversized).map(|()| socket.read()) {
        Ok(Ok(Message::Close(frame))) => format!("closed ({frame:?})"),
        Ok(Ok(other)) => panic!("a reply to an oversized message: {other:?}"),
        Ok(Err(error)) | Err(error) => format!("dropped ({error})"),
    };
    println!("a 1.1 MB message under a 1 MB budget: the connection was {ended}");
    let mut other = serve.connect(Some(F_PUZZLES)).unwrap();
    assert_eq!(last(&ask(&mut other, request(3, "check", &payload(&links()[0]))))["count"], 1);
}

#[test]
fn connections_past_max_clients_are_turned_away() {
    let serve = Serve::start(&["--max-clients", "2"]);
    let first = serve.connect(None).unwrap();
    let _second = serve.connect(None).unwrap();
    match serve.connect(None) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("{:?}", other.map(|_| "let in")),
    }
    drop(first);
    let started = Instant::now();
    while serve.connect(None).is_err() {
        assert!(started.elapsed() < Duration::from_secs(5), "a place frees when a client leaves");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn many_clients_at_once_each_get_their_answers() {
    const CLIENTS: usize = 32;
    const REQUESTS: usize = 6;
    let serve = Serve::start(&["--max-clients", "64"]);
    let unique = payload(&links()[0]);
    // One client counts the 9x9 grids all along.
    let mut counting = serve.connect(Some(F_PUZZLES)).unwrap();
    start_long_count(&mut counting, 1);
    let mut quick = serve.connect(Some(F_PUZZLES)).unwrap();
    let asked = Instant::now();
    assert_eq!(last(&ask(&mut quick, request(1, "check", &unique)))["count"], 1);
    let beside = asked.elapsed();
    println!("a check beside a long count: answered in {beside:?}");
    assert!(beside < Duration::from_secs(5));
    let started = Instant::now();
    let worst = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let (serve, unique) = (&serve, &unique);
                scope.spawn(move || {
                    let mut socket = serve.connect(Some(F_PUZZLES)).unwrap();
                    let mut worst = Duration::ZERO;
                    for k in 0..REQUESTS {
                        let nonce = (client * REQUESTS + k) as u64;
                        let command = ["check", "solve", "truecandidates"][k % 3];
                        let asked = Instant::now();
                        let answer = ask(&mut socket, request(nonce, command, unique));
                        worst = worst.max(asked.elapsed());
                        let expected = ["count", "solved", "truecandidates"][k % 3];
                        assert_eq!(last(&answer)["type"], expected, "client {client}: {answer:?}");
                    }
                    worst
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).max().unwrap()
    });
    let total = started.elapsed();
    assert!(serve.jobs_within(1, Duration::from_secs(5)).is_some());
    assert_eq!(serve.status()["jobs"], 1, "the long count still runs");
    println!(
        "{CLIENTS} clients x {REQUESTS} requests beside a running count: all answered in {total:?}, worst latency {worst:?}"
    );
    assert!(worst < Duration::from_secs(30), "worst latency {worst:?}");
}

/// The page's request, `study`, over a WebSocket: what the page shows.
#[test]
fn study_sends_the_picture_verdict_count_analysis_and_suggestions() {
    let serve = Serve::start(&[]);
    let mut socket = serve.connect(Some(&own_origin(&serve))).unwrap();
    let done = |r: &Value| ["done", "error", "empty", "canceled", "invalid"].contains(&r["type"].as_str().unwrap());
    let text = std::fs::read_to_string("puzzles/kenken/seed-5x5-three-solutions.txt").unwrap();
    send(&mut socket, &json!({ "nonce": 1, "command": "study", "text": text }));
    let answer = replies(&mut socket, &json!(1), done);
    let kinds: Vec<&str> = answer.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["puzzle", "verdict", "count", "analysis", "suggestions", "done"]);
    assert!(answer[0]["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(answer[0]["warnings"], json!([]));
    assert_eq!(answer[1]["verdict"], "multiple");
    assert!(!answer[1]["differ"].as_array().unwrap().is_empty());
    assert_eq!((answer[2]["count"].clone(), answer[2]["complete"].clone()), (json!(3), json!(true)));
    let analyzed: Value = serde_json::from_str(cagey(&["analyze", "--format", "json", "-"], &text).trim()).unwrap();
    assert_eq!(answer[3]["open"], analyzed["open"]);
    let items = answer[4]["items"].as_array().unwrap();
    assert!(items.len() >= 2, "givens and cage changes: {items:?}");
    for (k, item) in items.iter().enumerate() {
        let nonce = json!(10 + k);
        send(&mut socket, &json!({ "nonce": nonce, "command": "study", "text": item["text"] }));
        let applied = replies(&mut socket, &nonce, done);
        assert_eq!(applied[1]["verdict"], "unique", "{}: {applied:?}", item["label"]);
    }
    // A mistake is shown as the command line shows it.
    let bad = "# 4\n+ 3 A1 Z9\n";
    send(&mut socket, &json!({ "nonce": 2, "command": "study", "text": bad }));
    let answer = replies(&mut socket, &json!(2), done);
    let message = "puzzle:2:8: bad cell 'Z9': expected a row A-D and a column 1-4, like B3";
    assert_eq!(answer, [json!({ "nonce": 2, "type": "error", "message": message, "line": 2, "column": 8 })]);
    // Slips the command line warns of, as it words them.
    let slips = "# 4\n+ 3 A1 A2\n+ 5 B1 C2\n";
    send(&mut socket, &json!({ "nonce": 4, "command": "study", "text": slips }));
    let warnings = json!([
        "12 cells in no cage: A3 A4 B2 B3 B4 C1 C3 C4 and 4 more",
        "1 cage is not in one piece: '+ 5 B1 C2' (allowed; is a cell mistyped?)"
    ]);
    assert_eq!(replies(&mut socket, &json!(4), done)[0]["warnings"], warnings);
    send(&mut socket, &json!({ "nonce": 3, "command": "study", "text": "\n# only a comment\n" }));
    assert_eq!(replies(&mut socket, &json!(3), done)[0]["type"], "empty");
}

#[test]
fn listening_beyond_loopback_is_warned_of() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cagey"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut warning = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut warning).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        warning,
        "cagey: warning: listening on 0.0.0.0 beyond this machine: anyone who can reach it may use this machine's CPU\n"
    );
}
