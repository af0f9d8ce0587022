//! How one request's replies go out, each with its nonce.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

/// How one request's replies go out, each with its nonce.
pub struct Reply {
    sender: UnboundedSender<String>,
    nonce: Value,
    /// Set when a newer request, a cancel or the connection's end stops
    /// this request's work.
    pub stop: Arc<AtomicBool>,
}

impl Reply {
    /// Replies to the request with `nonce` through `sender`; its work
    /// watches `stop`.
    pub fn new(sender: UnboundedSender<String>, nonce: Value, stop: Arc<AtomicBool>) -> Reply {
        Reply { sender, nonce, stop }
    }

    /// Sends `fields` with the request's nonce and `type` set to `kind`.
    pub fn send(&self, kind: &str, mut fields: Value) {
        fields["nonce"] = self.nonce.clone();
        fields["type"] = kind.into();
        // A closed connection takes no more replies; its work is stopping.
        let _ = self.sender.send(fields.to_string());
    }

    /// `invalid`, with a message for the user.
    pub fn invalid(&self, message: impl Into<String>) {
        self.send("invalid", json!({ "message": message.into() }));
    }

    /// Whether the work was stopped by a newer request or a closed connection.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs `work` while a helper thread reports `tally` through `report`
    /// every [`PROGRESS`] whenever it has passed what was last reported.
    pub fn with_progress<T>(&self, tally: &AtomicU64, report: impl Fn(u64) + Sync, work: impl FnOnce() -> T) -> T {
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut last = 0;
                let step = Duration::from_millis(20);
                let mut waited = Duration::ZERO;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(step);
                    waited += step;
                    if waited >= PROGRESS {
                        waited = Duration::ZERO;
                        let now = tally.load(Ordering::Relaxed);
                        if now > last && !self.stopped() && !done.load(Ordering::Relaxed) {
                            report(now);
                            last = now;
                        }
                    }
                }
            });
            let result = work();
            done.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// How often a long count reports how far it has got.
pub const PROGRESS: Duration = Duration::from_millis(250);
