//! The HTTP side: the page's three files, compiled into the binary, and the
//! WebSocket that each page opens. Requests for another host (DNS
//! rebinding) or a WebSocket from another origin are refused.

use crate::engine::EngineCommand;
use crate::explore::Explorer;
use crate::session::{Session, Timeouts};
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Largest WebSocket message (and frame) a page may send: room for a PGN.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// How the server runs, from its command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine every page gets.
    pub engine: EngineCommand,
    /// The address bound; only a loopback one restricts the `Host` header.
    pub bind: IpAddr,
    /// Pages open at once.
    pub max_sessions: usize,
    /// Deadlines on the engine.
    pub timeouts: Timeouts,
    /// How long a connection has to send a request's headers (also the
    /// first request's); a slower one is closed.
    pub request_timeout: Duration,
    /// The bounds of `/api/explore`.
    pub explore: crate::explore::Limits,
}

struct AppState {
    config: Config,
    sessions: Arc<Semaphore>,
    explorer: Explorer,
}

/// The page's files: name, content type, content.
const ASSETS: [(&str, &str, &str); 10] = [
    ("index.html", HTML, include_str!("../assets/index.html")),
    ("style.css", CSS, include_str!("../assets/style.css")),
    ("app.js", JS, include_str!("../assets/app.js")),
    ("common.js", JS, include_str!("../assets/common.js")),
    ("board.js", JS, include_str!("../assets/board.js")),
    ("moves.js", JS, include_str!("../assets/moves.js")),
    ("graph.js", JS, include_str!("../assets/graph.js")),
    ("analysis.js", JS, include_str!("../assets/analysis.js")),
    ("settings.js", JS, include_str!("../assets/settings.js")),
    ("address.js", JS, include_str!("../assets/address.js")),
];
const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Serves forever. Each connection is HTTP/1.1 with a
/// deadline on every request's headers (hyper's `header_read_timeout`,
/// which `axum::serve` leaves off), so half-open requests do not pile up.
pub async fn serve(config: Config, listener: TcpListener) -> std::io::Result<()> {
    let timeout = config.request_timeout;
    let state = Arc::new(AppState {
        sessions: Arc::new(Semaphore::new(config.max_sessions)),
        explorer: Explorer::new(config.engine.clone(), config.explore.clone()),
        config,
    });
    let app = Router::new()
        .route("/", get(index))
        .route("/ws", get(websocket))
        .route("/api/explore", get(explore))
        .route("/{file}", get(asset))
        .with_state(state);
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(c) => c,
            // Out of file descriptors, a connection reset before it was
            // accepted: wait a moment (no busy loop) and go on serving.
            Err(e) => {
                log::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(e) = conn.await {
                log::debug!("connection: {e}");
            }
        });
    }
}

async fn index(State(st): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    file(&st, &headers, "index.html")
}

async fn asset(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response {
    file(&st, &headers, &name)
}

fn file(st: &AppState, headers: &HeaderMap, name: &str) -> Response {
    if !host_allowed(st, headers) {
        return unknown_host();
    }
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'self'; connect-src 'self'; frame-ancestors 'none'",
                ),
            ],
            *body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// `GET /api/explore` (`crate::explore`); any site's scripts may read it.
async fn explore(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    if !host_allowed(&st, &headers) {
        return unknown_host();
    }
    let mut r = st.explorer.handle(query).await;
    let any = header::HeaderValue::from_static("*");
    r.headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any);
    r
}

async fn websocket(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !host_allowed(&st, &headers) {
        return unknown_host();
    }
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "a WebSocket from another origin").into_response();
    }
    let permit = st.sessions.clone().try_acquire_owned();
    let config = st.config.clone();
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            match permit {
                Ok(_permit) => {
                    Session::new(socket, config.engine, config.timeouts)
                        .run()
                        .await
                }
                Err(_) => refuse(socket, config.max_sessions).await,
            }
        })
}

async fn refuse(mut socket: WebSocket, limit: usize) {
    let msg = crate::message::ServerMsg::Full {
        message: format!("too many pages are open (at most {limit}); close one and try again"),
    };
    if let Ok(text) = serde_json::to_string(&msg) {
        let _ = socket.send(Message::Text(text.into())).await;
    }
    let _ = socket.send(Message::Close(None)).await;
}

/// On a loopback address, only loopback host names are served.
fn host_allowed(st: &AppState, headers: &HeaderMap) -> bool {
    if !st.config.bind.is_loopback() {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    is_loopback_host(host)
}

fn unknown_host() -> Response {
    (StatusCode::FORBIDDEN, "unknown host").into_response()
}

/// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A browser's WebSocket names the page's origin; it must be this server.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true; // not a browser: nothing to protect against
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str().ok(), host) {
        (Some(o), Some(h)) => o
            .strip_prefix("http://")
            .is_some_and(|rest| rest.eq_ignore_ascii_case(h)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in ["evil.example:8080", "10.0.0.1:8080", "", "[::2]:80"] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&h));
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&h));
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!same_origin(&h));
    }
}
