//! One WebSocket connection: requests in, replies out. Each request's work
//! runs on a thread of its own, so that one client's long count never
//! holds up another's quick check; a new request on the connection stops
//! the work still running for the last one and starts once it has
//! stopped, and the connection's end stops it too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::ws::{Message, WebSocket};
use serde_json::{Value, json};
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use super::reply::Reply;
use super::server::Server;
use super::{protocol, study};

/// Serves one connection until it closes; `_permit` holds its place among
/// the `--max-clients`.
pub async fn connection(mut socket: WebSocket, server: Arc<Server>, _permit: OwnedSemaphorePermit) {
    let (sender, mut replies) = unbounded_channel::<String>();
    // The last request's stop flag and work: one request at a time works
    // for a connection, however fast requests come.
    let mut running: Option<(Arc<AtomicBool>, JoinHandle<()>)> = None;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(_))) => String::new(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    // Closed, or a broken frame (one past the size limit, say).
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                if let Some((stop, work)) = running.take() {
                    stop.store(true, Ordering::Relaxed);
                    let _ = work.await;
                }
                let stop = Arc::new(AtomicBool::new(false));
                let (server, sender, flag) = (Arc::clone(&server), sender.clone(), Arc::clone(&stop));
                server.jobs.fetch_add(1, Ordering::Relaxed);
                let work = tokio::task::spawn_blocking(move || {
                    answer(&server, &text, flag, sender);
                    server.jobs.fetch_sub(1, Ordering::Relaxed);
                    server.answered.fetch_add(1, Ordering::Relaxed);
                });
                running = Some((stop, work));
            }
            Some(reply) = replies.recv() => {
                if socket.send(Message::text(reply)).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some((stop, _)) = running {
        stop.store(true, Ordering::Relaxed);
    }
}

/// Answers one request (a text message; empty for a binary one).
fn answer(server: &Server, text: &str, stop: Arc<AtomicBool>, sender: UnboundedSender<String>) {
    let request = serde_json::from_str::<Value>(text).ok().filter(Value::is_object);
    let nonce = request.as_ref().map_or(Value::Null, |r| r["nonce"].clone());
    let reply = Reply::new(sender, nonce, stop);
    let Some(request) = request else {
        let message = "expected a JSON object like {\"nonce\": 1, \"command\": \"check\", \"dataType\": \"fpuzzles\", \"data\": \"…\"}";
        return reply.invalid(message);
    };
    match request["command"].as_str() {
        Some("cancel") => reply.send("canceled", json!({})),
        Some("study") => study::study(server, &request, &reply),
        Some(command) => protocol::answer(server, command, &request, &reply),
        None => reply.invalid("the request names no command: expected \"command\": \"truecandidates\", \"solve\", \"check\", \"count\", \"cancel\" or \"study\""),
    }
}
