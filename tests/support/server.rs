//! A `cagey serve` started for a test, and plain clients for it: HTTP by
//! hand, WebSocket by tungstenite.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::client::IntoClientRequest;
use tungstenite::http::HeaderValue;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A WebSocket connection to the server.
pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// The page's own origin, as a browser sends it.
pub fn own_origin(server: &Serve) -> String {
    format!("http://{}", server.address)
}

/// A running `cagey serve --port 0 ARGS`, stopped when dropped.
pub struct Serve {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Serve {
    pub fn start(args: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cagey"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cagey starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let address = line
            .trim()
            .strip_prefix("cagey serve: the page is at http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line names the page: {line:?}"))
            .to_string();
        Serve { child, address }
    }

    /// `GET path` with an optional `Origin`: the status code and body.
    pub fn get(&self, path: &str, origin: Option<&str>) -> (u16, String) {
        http_get(&self.address, path, origin)
    }

    /// The server's `/api/status`.
    pub fn status(&self) -> Value {
        let (code, body) = self.get("/api/status", None);
        assert_eq!(code, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Waits up to `within` for the server to have no work running.
    pub fn idle_within(&self, within: Duration) -> Option<Duration> {
        self.jobs_within(0, within)
    }

    /// Waits up to `within` for the server to have at most `jobs` requests
    /// working (a reply goes out just before its work is counted done).
    pub fn jobs_within(&self, jobs: u64, within: Duration) -> Option<Duration> {
        let started = Instant::now();
        while started.elapsed() < within {
            if self.status()["jobs"].as_u64().unwrap() <= jobs {
                return Some(started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// A WebSocket connection sending `origin`, if any.
    pub fn connect(&self, origin: Option<&str>) -> Result<Socket, tungstenite::Error> {
        let mut request = format!("ws://{}/", self.address).into_client_request()?;
        if let Some(origin) = origin {
            request.headers_mut().insert("Origin", HeaderValue::from_str(origin).unwrap());
        }
        let (socket, _) = tungstenite::connect(request)?;
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        }
        Ok(socket)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` from `address` (`HOST:PORT`) with an optional `Origin`: the
/// status code and body.
pub fn http_get(address: &str, path: &str, origin: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n{origin}\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    // Read to the end of the body its Content-Length gives (Chromium keeps
    // the connection open), or to the end of the stream.
    let (mut response, mut chunk) = (Vec::new(), [0u8; 4096]);
    loop {
        let text = String::from_utf8_lossy(&response).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length =
                head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:")?.trim().parse().ok());
            if length.is_some_and(|length: usize| body.len() >= length) {
                break;
            }
        }
        match stream.read(&mut chunk).unwrap() {
            0 => break,
            n => response.extend_from_slice(&chunk[..n]),
        }
    }
    let response = String::from_utf8(response).unwrap();
    let code = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_string();
    (code, body)
}

/// Sends `request` as JSON.
pub fn send(socket: &mut Socket, request: &Value) {
    socket.send(Message::text(request.to_string())).unwrap();
}

/// The next reply, to any request.
pub fn next_reply(socket: &mut Socket) -> Value {
    loop {
        let message = socket.read().unwrap_or_else(|e| panic!("a reply: {e}"));
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

/// The replies to the request with `nonce`, up to the first that `last`
/// accepts; replies to other requests are left out.
pub fn replies(socket: &mut Socket, nonce: &Value, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut got = Vec::new();
    loop {
        let message = socket.read().unwrap_or_else(|e| panic!("a reply to {nonce} (after {got:?}): {e}"));
        let Message::Text(text) = message else { continue };
        let reply: Value = serde_json::from_str(text.as_str()).unwrap();
        if &reply["nonce"] != nonce {
            continue;
        }
        let done = last(&reply);
        got.push(reply);
        if done {
            return got;
        }
    }
}

/// Whether a reply of the f-puzzles protocol is the request's last.
pub fn final_answer(reply: &Value) -> bool {
    reply["type"] != "count" || reply["inProgress"] == false
}

/// Sends a request and returns its replies, the last one last.
pub fn ask(socket: &mut Socket, request: Value) -> Vec<Value> {
    send(socket, &request);
    replies(socket, &request["nonce"], final_answer)
}
