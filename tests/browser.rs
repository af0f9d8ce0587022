//! The page of `cagey serve` used as a person uses it, in headless Chromium
//! driven over its remote-debugging protocol: paste a puzzle, wait for the
//! verdict and the analysis, click a suggestion, see "unique".
//!
//! Needs Debian's `chromium` (or CAGEY_CHROMIUM naming a Chromium binary);
//! without one the test says so and passes, unless CAGEY_BROWSER_TESTS is
//! `require` (as in `.ci/run`, which installs it). The screenshot goes to
//! CAGEY_SCREENSHOT, or `target/cagey-serve.png`.

#![cfg(feature = "cli")]

#[path = "support/server.rs"]
mod server;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{Serve, http_get};
use tungstenite::Message;

/// The Chromium to drive, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CAGEY_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
}

/// A headless Chromium and a connection to its one page's debugger.
struct Browser {
    child: Child,
    profile: PathBuf,
    page: server::Socket,
    next_id: u64,
}

impl Browser {
    fn launch(binary: &PathBuf) -> Browser {
        let profile = std::env::temp_dir().join(format!("cagey-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1200,860",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", binary.display()));
        // Chromium writes the port it took into the profile.
        let started = Instant::now();
        let port = loop {
            let written = std::fs::read_to_string(profile.join("DevToolsActivePort")).unwrap_or_default();
            if let Some(port) = written.lines().next().filter(|_| written.contains('\n')) {
                break port.to_string();
            }
            assert!(started.elapsed() < Duration::from_secs(30), "Chromium opens its debugging port");
            std::thread::sleep(Duration::from_millis(50));
        };
        let (_, targets) = http_get(&format!("127.0.0.1:{port}"), "/json/list", None);
        let targets: Vec<Value> = serde_json::from_str(&targets).unwrap();
        let target = targets.iter().find(|t| t["type"] == "page").expect("a page");
        let url = target["webSocketDebuggerUrl"].as_str().unwrap();
        let (page, _) = tungstenite::connect(url).unwrap();
        Browser { child, profile, page, next_id: 0 }
    }

    /// Calls a method of the debugging protocol and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "id": id, "method": method, "params": params });
        self.page.send(Message::text(message.to_string())).unwrap();
        loop {
            let Message::Text(text) = self.page.read().unwrap() else { continue };
            let reply: Value = serde_json::from_str(text.as_str()).unwrap();
            if reply["id"] == id {
                assert!(reply["error"].is_null(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression on the page.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        assert!(result["exceptionDetails"].is_null(), "{expression}: {result}");
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true; how long that took.
    fn wait_for(&mut self, expression: &str, within: Duration) -> Duration {
        let started = Instant::now();
        while self.eval(expression) != true {
            let page = self.eval("document.body.innerText");
            assert!(started.elapsed() < within, "waited {within:?} for {expression}; the page says:\n{page}");
            std::thread::sleep(Duration::from_millis(10));
        }
        started.elapsed()
    }

    /// Replaces the text in the puzzle box as typing does (one edit).
    fn type_in(&mut self, text: &str) {
        self.eval("document.getElementById('text').focus(); document.getElementById('text').select(); true");
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Replaces the text in the puzzle box as a paste does: the new text,
    /// and an `input` event that says it was pasted.
    fn paste(&mut self, text: &str) {
        let text = serde_json::to_string(text).unwrap();
        self.eval(&format!(
            "(() => {{ const box = document.getElementById('text'); box.value = {text}; \
             box.dispatchEvent(new InputEvent('input', {{ inputType: 'insertFromPaste', bubbles: true }})); \
             return true; }})()"
        ));
    }

    /// Drops `text` on the puzzle box, as a text dragged from another window.
    fn drop_text(&mut self, text: &str) {
        let (x, y) = self.centre("#text");
        let data = json!({ "items": [{ "mimeType": "text/plain", "data": text }], "dragOperationsMask": 1 });
        for kind in ["dragEnter", "dragOver", "drop"] {
            self.call("Input.dispatchDragEvent", json!({ "type": kind, "x": x, "y": y, "data": data }));
        }
    }

    /// Clicks the middle of the element `selector` names, with the mouse.
    fn click(&mut self, selector: &str) {
        let (x, y) = self.centre(selector);
        for kind in ["mousePressed", "mouseReleased"] {
            let event = json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 });
            self.call("Input.dispatchMouseEvent", event);
        }
    }

    /// The middle of the element `selector` names, scrolled into view.
    fn centre(&mut self, selector: &str) -> (f64, f64) {
        let centre = self.eval(&format!(
            "(() => {{ const e = document.querySelector('{selector}'); e.scrollIntoView({{ block: 'center' }}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        (centre[0].as_f64().unwrap(), centre[1].as_f64().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64, as the debugging protocol sends screenshots.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut bytes = Vec::new();
    for chunk in digits.chunks(4) {
        let word = chunk.iter().enumerate().fold(0u32, |w, (i, &d)| w | u32::from(d) << (18 - 6 * i));
        bytes.extend(&word.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}

/// Cells shaded as open in the analysis picture.
const SHADED: &str = "document.querySelectorAll('#analysis rect[fill=\"#fde9a6\"]').length";

#[test]
fn a_setter_pastes_a_killer_applies_a_suggestion_and_sees_it_unique() {
    let Some(binary) = chromium() else {
        assert_ne!(std::env::var("CAGEY_BROWSER_TESTS").as_deref(), Ok("require"), "no Chromium to drive");
        eprintln!("skipped: no Chromium (apt-get install chromium, or set CAGEY_CHROMIUM)");
        return;
    };
    let serve = Serve::start(&[]);
    let mut browser = Browser::launch(&binary);
    let screen = json!({ "width": 1280, "height": 940, "deviceScaleFactor": 1, "mobile": false });
    browser.call("Emulation.setDeviceMetricsOverride", screen);
    browser.call("Page.navigate", json!({ "url": format!("http://{}/", serve.address) }));
    browser.wait_for("document.body && document.body.dataset.connection === 'open'", Duration::from_secs(20));

    // A forum 9x9 Killer, pasted as a killer string: unique.
    let killer = std::fs::read_to_string("puzzles/killer/forum-tarek-two.txt").unwrap();
    let killer = killer.lines().next().unwrap();
    browser.paste(killer);
    let to_verdict = browser.wait_for("document.getElementById('verdict').dataset.verdict === 'unique'", WAIT);
    browser.wait_for("document.body.dataset.busy === 'no'", WAIT);
    assert_eq!(browser.eval(SHADED), 0, "no open cells");
    assert_eq!(browser.eval("document.querySelectorAll('#puzzle svg').length"), 1);
    println!("a 9x9 Killer pasted: its verdict showed {to_verdict:?} later");

    // The same kind of puzzle with four cages left out, typed over it: two solutions.
    let unique = std::fs::read_to_string("puzzles/kenken/killer-9x9-unique.txt").unwrap();
    let lines: Vec<&str> = unique.lines().collect();
    let ambiguous = lines[..lines.len() - 4].join("\n") + "\n";
    browser.type_in(&ambiguous);
    browser.wait_for("document.getElementById('verdict').dataset.verdict === 'multiple'", WAIT);
    browser.wait_for("document.querySelector('#suggestions:not([hidden]) button') !== null", WAIT);
    browser.wait_for("document.body.dataset.busy === 'no'", WAIT);
    assert_eq!(browser.eval("document.getElementById('count').textContent"), "2 solutions.");
    let notes = browser.eval("document.getElementById('notes').textContent");
    assert_eq!(notes, "9×9, read as KenKen text\nwarning: 8 cells in no cage: C7 E7 E8 F7 F8 G5 G6 G7");
    let open = browser.eval("Number(document.getElementById('analysis').dataset.open)");
    assert!(open.as_u64().unwrap() > 0);
    assert_eq!(browser.eval(SHADED), open, "each open cell is shaded");
    let differ = browser.eval("document.getElementById('verdict').textContent");
    println!("with four cages left out: {}", differ.as_str().unwrap());

    let shot = browser.call("Page.captureScreenshot", json!({ "format": "png" }));
    let png = base64(shot["data"].as_str().unwrap());
    assert_eq!(&png[1..4], b"PNG");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 1280, "the screen's width");
    let path = std::env::var("CAGEY_SCREENSHOT").unwrap_or_else(|_| "target/cagey-serve.png".into());
    std::fs::write(&path, &png).unwrap();

    browser.click("#suggestions button");
    let to_unique = browser.wait_for("document.getElementById('verdict').dataset.verdict === 'unique'", WAIT);
    browser.wait_for("document.body.dataset.busy === 'no'", WAIT);
    assert_eq!(browser.eval(SHADED), 0, "no open cells once unique");
    let text = browser.eval("document.getElementById('text').value");
    assert!(text.as_str().unwrap().lines().count() > lines.len() - 4, "the givens were written in: {text}");
    println!("a suggestion clicked: unique {to_unique:?} later; screenshot in {path}");

    // A long count shows its progress, and Cancel stops it.
    browser.eval("document.getElementById('limit').value = 1000000000");
    browser.paste(&".".repeat(81));
    browser.wait_for("/so far/.test(document.getElementById('count').textContent)", WAIT);
    browser.click("#cancel");
    browser.wait_for("document.getElementById('status').textContent === 'stopped'", WAIT);
    assert!(serve.idle_within(WAIT).is_some(), "the count stopped");

    // A puzzle dropped on the box is read at once.
    browser.drop_text("# 3\n+ 6 A1 A2 A3\n! 1 A1\n");
    browser.wait_for("document.getElementById('verdict').dataset.verdict === 'multiple'", WAIT);
    assert_eq!(browser.eval("document.getElementById('text').value"), "# 3\n+ 6 A1 A2 A3\n! 1 A1\n");

    // A mistake is shown under the text as the command line shows it.
    browser.type_in("# 4\n+ 3 A1 Z9\n");
    let shown = "!document.getElementById('error').hidden && document.getElementById('error').textContent";
    let message = "puzzle:2:8: bad cell 'Z9': expected a row A-D and a column 1-4, like B3";
    let pointed = format!("{message}\n2 | + 3 A1 Z9\n  |        ^");
    browser.wait_for(&format!("({shown}) === {}", serde_json::to_string(&pointed).unwrap()), WAIT);
    // A click on it selects the place in the text.
    browser.click("#error");
    let selected =
        "(() => { const t = document.getElementById('text'); return [t.selectionStart, t.selectionEnd]; })()";
    assert_eq!(browser.eval(selected), json!([11, 12]), "the Z of Z9");
}

/// The longest any step may take.
const WAIT: Duration = Duration::from_secs(30);
