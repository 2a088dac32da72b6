//! The HTTP side: the page's files, compiled into the binary, and the
//! WebSocket that each page opens. Who may use them is `crate::access`'s.

use crate::access::Access;
use crate::engine::EngineCommand;
use crate::explore::Explorer;
use crate::session::{PageLimits, Session, Timeouts};
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
use std::net::{IpAddr, SocketAddr};
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
    /// The addresses the server is reached at through a reverse proxy
    /// (`https://chess.example.org`), parsed by `access::parse_origin`.
    pub public_origins: Vec<String>,
    /// Pages one client address may hold open (0: no limit of its own).
    pub max_per_address: usize,
    /// Each page's engine caps and idle time.
    pub page: PageLimits,
}

/// The client's address, as the connection came.
#[derive(Clone, Copy, Debug)]
struct Peer(IpAddr);

struct AppState {
    config: Config,
    access: Access,
    sessions: Arc<Semaphore>,
    explorer: Explorer,
}

/// The page's files: name, content type, content.
const ASSETS: [(&str, &str, &str); 11] = [
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
    ("explorer.js", JS, include_str!("../assets/explorer.js")),
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
        access: Access::new(
            config.bind,
            config.public_origins.clone(),
            config.max_per_address,
        ),
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
        let (stream, peer): (_, SocketAddr) = match listener.accept().await {
            Ok(c) => c,
            // Out of file descriptors, a connection reset before it was
            // accepted: wait a moment (no busy loop) and go on serving.
            Err(e) => {
                log::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let app = app.clone().layer(axum::Extension(Peer(peer.ip())));
        let service = TowerToHyperService::new(app);
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
    if !st.access.host_allowed(headers) {
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
    if !st.access.host_allowed(&headers) {
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
    axum::Extension(Peer(peer)): axum::Extension<Peer>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !st.access.host_allowed(&headers) {
        return unknown_host();
    }
    if !st.access.origin_allowed(&headers) {
        return (StatusCode::FORBIDDEN, "a WebSocket from another origin").into_response();
    }
    let client = st.access.client(peer, &headers);
    let admitted = st.access.admit(client);
    let permit = st.sessions.clone().try_acquire_owned();
    let config = st.config.clone();
    let per_address = st.access.per_address();
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            match (admitted, permit) {
                (Some(_admitted), Ok(_permit)) => {
                    Session::new(socket, config.engine, config.timeouts, config.page)
                        .run()
                        .await
                }
                (None, _) => {
                    let why = format!(
                        "too many pages from your address (at most {per_address}); \
                         close one and try again"
                    );
                    refuse(socket, why).await
                }
                (_, Err(_)) => {
                    let limit = config.max_sessions;
                    let why = format!(
                        "too many pages are open (at most {limit}); close one and try again"
                    );
                    refuse(socket, why).await
                }
            }
        })
}

async fn refuse(mut socket: WebSocket, message: String) {
    let msg = crate::message::ServerMsg::Full { message };
    if let Ok(text) = serde_json::to_string(&msg) {
        let _ = socket.send(Message::Text(text.into())).await;
    }
    let _ = socket.send(Message::Close(None)).await;
}

fn unknown_host() -> Response {
    (StatusCode::FORBIDDEN, "unknown host").into_response()
}
