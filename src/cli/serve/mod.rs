//! `cagey serve`: the setters' page and the f-puzzles solver protocol, on
//! one local port.
//!
//! `GET /` is the page (with `/page.js` and `/page.css`, built in); a
//! WebSocket upgrade on `/` is the protocol, which answers the f-puzzles
//! userscript's commands ([`protocol`]) and the page's own ([`study`]).
//! Every WebSocket and API request passes the [`origin`] check first.

mod origin;
mod protocol;
mod reply;
mod server;
mod socket;
mod study;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{WebSocketUpgrade, rejection::WebSocketUpgradeRejection};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::Semaphore;

use super::args::ServeArgs;
use super::exit::{Answer, RunError};
use super::input::{CliError, INPUT_SHARE};
use origin::Origins;
use server::Server;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const STYLE: &str = include_str!("page/page.css");

/// Serves until Ctrl-C, after printing the page's address to `out`.
pub fn serve(args: &ServeArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let memory = args.tuples.budget();
    let message_limit = usize::try_from(memory / INPUT_SHARE).unwrap_or(usize::MAX).max(1_000_000);
    let address = SocketAddr::new(args.host, args.port);
    let unfit = |message: String| CliError::Unfit { place: format!("cagey serve on {address}"), message };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| unfit(format!("cannot start: {e}")))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .map_err(|e| unfit(format!("cannot listen: {e} (is another server on this port? try --port)")))?;
    let bound = listener.local_addr()?;
    let server = Arc::new(Server {
        backend: args.backend,
        tuple_limit: args.tuples.tuple_limit,
        memory,
        timeout: args.timeout,
        message_limit,
        origins: Origins::new(bound, &args.allow_origin).map_err(unfit)?,
        clients: Arc::new(Semaphore::new(args.max_clients as usize)),
        max_clients: args.max_clients as usize,
        jobs: AtomicUsize::new(0),
        answered: AtomicU64::new(0),
    });
    let page = match bound.ip() {
        ip if ip.is_unspecified() => format!("http://127.0.0.1:{}/", bound.port()),
        _ => format!("http://{bound}/"),
    };
    writeln!(out, "cagey serve: the page is at {page}")?;
    writeln!(out, "cagey serve: f-puzzles solver protocol at ws://{}:{}", bound.ip(), bound.port())?;
    out.flush()?;
    if !args.host.is_loopback() {
        eprintln!(
            "cagey: warning: listening on {} beyond this machine: anyone who can reach it may use this machine's CPU",
            args.host
        );
    }
    if args.open {
        open_browser(&page);
    }
    let app = Router::new()
        .route("/", get(root))
        .route("/page.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT) }))
        .route("/page.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }))
        .route("/api/status", get(status))
        .with_state(server)
        .into_make_service_with_connect_info::<SocketAddr>();
    // Ctrl-C ends the server at once, open pages and running work with it.
    let served = runtime.block_on(async {
        tokio::select! {
            served = axum::serve(listener, app) => served,
            () = until_interrupted() => Ok(()),
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
    served.map_err(|e| unfit(format!("stopped: {e}")))?;
    Ok(Answer::Positive)
}

/// Resolves once Ctrl-C is pressed.
async fn until_interrupted() {
    while !super::stop::interrupted() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The page, or on a WebSocket upgrade the protocol.
async fn root(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Ok(upgrade) = upgrade else {
        return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response();
    };
    if let Err(refusal) = server.origins.check(&headers) {
        eprintln!("cagey serve: refused a connection from {peer}: {refusal}");
        return (StatusCode::FORBIDDEN, refusal).into_response();
    }
    let Ok(permit) = Arc::clone(&server.clients).try_acquire_owned() else {
        let message = format!("{} connections are open, the most --max-clients allows", server.max_clients);
        return (StatusCode::SERVICE_UNAVAILABLE, message).into_response();
    };
    let limit = server.message_limit;
    upgrade
        .max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| socket::connection(socket, server, permit))
}

/// Connections and requests, as JSON, for monitoring and for the tests.
async fn status(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    if let Err(refusal) = server.origins.check(&headers) {
        return (StatusCode::FORBIDDEN, refusal).into_response();
    }
    let record = serde_json::json!({
        "clients": server.max_clients - server.clients.available_permits(),
        "jobs": server.jobs.load(Ordering::Relaxed),
        "answered": server.answered.load(Ordering::Relaxed),
    });
    ([(header::CONTENT_TYPE, "application/json")], record.to_string()).into_response()
}

/// Opens `page` with the desktop's opener; a failure is only a warning.
fn open_browser(page: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let opened = std::process::Command::new(opener)
        .arg(page)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = opened {
        eprintln!("cagey: warning: cannot open a browser with {opener} ({error}): open {page} yourself");
    }
}
