//! `GET /api/explore`: every legal move of a position with its proven
//! value, from the engine's `explore` command (protocol.md, "Exploring"),
//! as JSON for scripts and for the page's explorer panel.
//!
//! The position is checked with the rules library before any engine runs
//! (a refused one is a 400 naming the rule). Each request gets an engine
//! process of its own (the server's `--engine`), killed when the answer is
//! sent or the client goes away; at most `max_engines` run at once, each
//! for at most `max_ms`. `stream=1` sends the answer as it narrows (one
//! JSON object a line, the last one with `"done": true`).

use crate::engine::{Engine, EngineCommand};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use cheversi::{Position, Variant};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

/// The explorer's bounds, from the command line.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Engines exploring at once.
    pub max_engines: usize,
    /// The largest time budget a request gets, in milliseconds.
    pub max_ms: u64,
    /// The budget when a request names none.
    pub default_ms: u64,
}

/// What the handler needs.
pub struct Explorer {
    engine: EngineCommand,
    limits: Limits,
    slots: Arc<Semaphore>,
    /// The last probe: when, and why the engine does not explore (`None`:
    /// it does).
    probed: Arc<tokio::sync::Mutex<Probed>>,
}

/// When the engine was last probed, and why it does not explore (`None`:
/// it does).
type Probed = Option<(Instant, Option<String>)>;

/// How long a request waits for a free engine before it is refused.
const QUEUE_WAIT: Duration = Duration::from_secs(3);
/// Past the budget, the time the engine has to start and send its last line.
const GRACE: Duration = Duration::from_secs(10);
/// The stream's pace: at most one object per this interval (and the last).
const PACE: Duration = Duration::from_millis(150);
/// The probe's patience: an engine that has not explored the empty board
/// from its book (`explore movetime 0`) in this time does not explore.
const PROBE: Duration = Duration::from_secs(2);
/// How long a failed probe stands before the next request probes again.
const FORGET_REFUSAL: Duration = Duration::from_secs(60);

/// One move and what is proven of it (points, the mover's view).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveValue {
    /// The placement.
    #[serde(rename = "move")]
    pub mv: String,
    /// The value is at least this (`null`: nothing proven).
    pub lo: Option<i32>,
    /// The value is at most this.
    pub hi: Option<i32>,
    /// What proved it last: `book`, `search` or `none`.
    pub by: String,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The variant.
    pub variant: String,
    /// The position string.
    pub fen: String,
    /// The side to move, `w` or `b`.
    pub side: &'static str,
    /// Every move exact.
    pub complete: bool,
    /// The engine has finished (always true but in a stream's earlier objects).
    pub done: bool,
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
    /// The moves proven best.
    pub best: Vec<String>,
    /// Moves with an exact value.
    pub exact: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the engine spent.
    pub time_ms: u64,
    /// The request's time budget: its `ms`, at most `--explore-max-ms`.
    pub budget_ms: u64,
}

impl Explorer {
    /// An explorer running `engine`, within `limits`.
    pub fn new(engine: EngineCommand, limits: Limits) -> Explorer {
        Explorer {
            slots: Arc::new(Semaphore::new(limits.max_engines.max(1))),
            engine,
            limits,
            probed: Arc::new(tokio::sync::Mutex::new(None)),
        }
    }

    /// Answers one request.
    pub async fn handle(
        &self,
        query: Result<Query<HashMap<String, String>>, QueryRejection>,
    ) -> Response {
        let params = match query {
            Ok(Query(p)) => p,
            Err(e) => return error(StatusCode::BAD_REQUEST, e.body_text()),
        };
        let request = match Request::parse(&params, &self.limits) {
            Ok(r) => r,
            Err(why) => return error(StatusCode::BAD_REQUEST, why),
        };
        if let Err(why) = self.explores().await {
            return error(StatusCode::NOT_IMPLEMENTED, why);
        }
        let permit =
            match tokio::time::timeout(QUEUE_WAIT, self.slots.clone().acquire_owned()).await {
                Ok(Ok(p)) => p,
                _ => {
                    let n = self.limits.max_engines;
                    let why =
                        format!("the server is busy: {n} explorations at once at most; try again");
                    return error(StatusCode::SERVICE_UNAVAILABLE, why);
                }
            };
        let engine = match Engine::spawn(&self.engine) {
            Ok(e) => e,
            Err(e) => {
                return error(
                    StatusCode::BAD_GATEWAY,
                    format!("cannot start the engine: {e}"),
                );
            }
        };
        if request.stream {
            return stream(engine, request, permit);
        }
        let mut run = Run::new(request);
        let result = run.drive(engine, &mut |_| {}).await;
        drop(permit);
        match result {
            Ok(()) => Json(run.answer(true)).into_response(),
            Err((code, why)) => error(code, why),
        }
    }

    /// Whether the engine explores, by a probe (once, or again a while
    /// after a failed one), so that an engine that does not speak `explore`
    /// is not started for every request and left to time out.
    async fn explores(&self) -> Result<(), String> {
        // On a task of its own: a client that goes away (the page moved
        // on) does not cut the probe short, so its answer is kept.
        let (probed, engine) = (self.probed.clone(), self.engine.clone());
        let task = tokio::spawn(async move {
            let mut probed = probed.lock().await;
            if let Some((at, why)) = &*probed {
                match why {
                    None => return Ok(()),
                    Some(why) if at.elapsed() < FORGET_REFUSAL => return Err(why.clone()),
                    Some(_) => {}
                }
            }
            let why = probe(&engine).await.err();
            *probed = Some((Instant::now(), why.clone()));
            why.map_or(Ok(()), Err)
        });
        task.await
            .unwrap_or_else(|e| Err(format!("the probe failed: {e}")))
    }
}

/// `explore movetime 0` on the empty board: an engine that explores
/// answers `explored` at once (from its book).
async fn probe(cmd: &EngineCommand) -> Result<(), String> {
    let mut engine = Engine::spawn(cmd).map_err(|e| format!("cannot start the engine: {e}"))?;
    let answer = async {
        engine.send("position startpos").await?;
        engine.send("explore movetime 0").await?;
        while let Some(line) = engine.recv().await {
            match parse(&line) {
                Line::End { .. } => return Ok(()),
                Line::Error(e) => return Err(format!("the engine does not explore: {e}")),
                _ => {}
            }
        }
        Err("the engine exited when asked to explore".to_string())
    };
    let result = match tokio::time::timeout(PROBE, answer).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "the engine does not explore: no answer to 'explore' within {} s",
            PROBE.as_secs()
        )),
    };
    engine.quit().await;
    result
}

/// A JSON error: `{"error": "<why>"}`.
fn error(code: StatusCode, why: String) -> Response {
    (code, Json(serde_json::json!({ "error": why }))).into_response()
}

/// A checked request.
#[derive(Debug)]
struct Request {
    pos: Position,
    ms: u64,
    stream: bool,
}

impl Request {
    fn parse(p: &HashMap<String, String>, limits: &Limits) -> Result<Request, String> {
        const KNOWN: [&str; 5] = ["variant", "moves", "fen", "ms", "stream"];
        if let Some(k) = p.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(format!(
                "unknown parameter '{}' (known: {})",
                clip(k),
                KNOWN.join(", ")
            ));
        }
        let variant: Variant = match p.get("variant").map(String::as_str) {
            None | Some("") => Variant::Standard,
            Some(v) => v
                .parse()
                .map_err(|_| format!("unknown variant '{}' (standard, open, original)", clip(v)))?,
        };
        let mut pos = match p.get("fen").map(|f| f.trim()) {
            None | Some("") => Position::new(variant),
            Some(f) => Position::from_fen(f, variant).map_err(|e| format!("fen: {e}"))?,
        };
        let moves = p.get("moves").map(String::as_str).unwrap_or("");
        for (i, m) in moves
            .split([',', ' '])
            .filter(|m| !m.is_empty())
            .enumerate()
        {
            let pl = m
                .parse()
                .map_err(|e| format!("moves: move {} ('{}'): {e}", i + 1, clip(m)))?;
            pos.play_checked(pl)
                .map_err(|e| format!("moves: move {} ({m}): {e}", i + 1))?;
        }
        let ms = match p.get("ms") {
            None => limits.default_ms,
            Some(v) => v
                .parse::<u64>()
                .map_err(|_| format!("ms: a whole number of milliseconds, not '{}'", clip(v)))?,
        };
        let stream = match p.get("stream").map(String::as_str) {
            None | Some("0") | Some("false") => false,
            Some("1") | Some("true") => true,
            Some(v) => return Err(format!("stream: 1 or 0, not '{}'", clip(v))),
        };
        Ok(Request {
            pos,
            ms: ms.min(limits.max_ms),
            stream,
        })
    }
}

/// User text in an error, cut short.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// What one engine has proven of one position so far.
struct Run {
    request: Request,
    moves: Vec<MoveValue>,
    /// The legal moves the engine counts (`exact E of M`; 0 if it does not say).
    legal: usize,
    best: Vec<String>,
    complete: bool,
    nodes: u64,
    time_ms: u64,
}

impl Run {
    fn new(request: Request) -> Run {
        Run {
            request,
            moves: Vec::new(),
            legal: 0,
            best: Vec::new(),
            complete: false,
            nodes: 0,
            time_ms: 0,
        }
    }

    /// Drives `engine` to its `explored` line, calling `on_change` after
    /// each move line; the engine is ended either way (and killed if this
    /// future is dropped first: the client went away).
    async fn drive(
        &mut self,
        mut engine: Engine,
        on_change: &mut (dyn FnMut(&Run) + Send),
    ) -> Result<(), (StatusCode, String)> {
        let deadline = Instant::now() + Duration::from_millis(self.request.ms) + GRACE;
        let result = match self.start(&mut engine).await {
            Ok(()) => self.read(&mut engine, deadline, on_change).await,
            Err(e) => Err(e),
        };
        engine.quit().await;
        result
    }

    async fn start(&mut self, engine: &mut Engine) -> Result<(), (StatusCode, String)> {
        let pos = &self.request.pos;
        let lines = [
            format!("setoption name UCI_Variant value {}", pos.variant()),
            format!("position fen {}", pos.fen()),
            format!("explore movetime {}", self.request.ms),
        ];
        for l in lines {
            engine
                .send(&l)
                .await
                .map_err(|e| (StatusCode::BAD_GATEWAY, e))?;
        }
        Ok(())
    }

    async fn read(
        &mut self,
        engine: &mut Engine,
        deadline: Instant,
        on_change: &mut (dyn FnMut(&Run) + Send),
    ) -> Result<(), (StatusCode, String)> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match tokio::time::timeout(left, engine.recv()).await {
                Ok(Some(l)) => l,
                Ok(None) => return Err((StatusCode::BAD_GATEWAY, "the engine exited".into())),
                Err(_) => {
                    let why = "the engine did not finish its exploration in time";
                    return Err((StatusCode::GATEWAY_TIMEOUT, why.into()));
                }
            };
            match parse(&line) {
                Line::Move(v, nodes, time, legal) => {
                    self.nodes = nodes;
                    self.time_ms = time;
                    self.legal = legal;
                    match self.moves.iter_mut().find(|m| m.mv == v.mv) {
                        Some(m) => *m = v,
                        None => self.moves.push(v),
                    }
                    on_change(self);
                }
                Line::End {
                    complete,
                    nodes,
                    time,
                    best,
                } => {
                    (self.complete, self.nodes, self.time_ms, self.best) =
                        (complete, nodes, time, best);
                    return Ok(());
                }
                Line::Error(e) => {
                    let why = format!("the engine refused to explore: {e}");
                    return Err((StatusCode::NOT_IMPLEMENTED, why));
                }
                Line::Other => {}
            }
        }
    }

    /// Has the engine listed every legal move yet? (It lists them all
    /// first, then narrows; an engine that does not count them: yes.)
    fn listed(&self) -> bool {
        self.moves.len() >= self.legal
    }

    /// The answer as far as it goes, moves best first.
    fn answer(&self, done: bool) -> Answer {
        let pos = &self.request.pos;
        let mut moves = self.moves.clone();
        // Best first: by the lower end, then the upper (a stable sort keeps
        // the engine's order among equals).
        moves.sort_by_key(|m| {
            std::cmp::Reverse((m.lo.unwrap_or(i32::MIN), m.hi.unwrap_or(i32::MAX)))
        });
        Answer {
            variant: pos.variant().to_string(),
            fen: pos.fen(),
            side: if pos.side_to_move() == cheversi::Color::White {
                "w"
            } else {
                "b"
            },
            complete: done && self.complete,
            done,
            exact: moves
                .iter()
                .filter(|m| m.lo.is_some() && m.lo == m.hi)
                .count(),
            moves,
            best: self.best.clone(),
            nodes: self.nodes,
            time_ms: self.time_ms,
            budget_ms: self.request.ms,
        }
    }
}

/// The streamed answer: an object a line as the values narrow (at most
/// one per [`PACE`]), then the final one, or `{"error": ...}`.
fn stream(engine: Engine, request: Request, permit: OwnedSemaphorePermit) -> Response {
    let (tx, rx) = mpsc::channel::<String>(16);
    tokio::spawn(async move {
        let _permit = permit;
        let mut run = Run::new(request);
        // The latest snapshot, sent on the next tick of the pace: one that
        // came too soon after the last is sent late, not dropped (the
        // engine may say nothing more for minutes).
        let pending = std::sync::Mutex::new(None::<Answer>);
        let mut on_change = |r: &Run| {
            // No snapshot of a half-made list ("0 of 1 moves settled" on
            // the page while the engine was still listing 63).
            if r.listed() {
                *pending.lock().unwrap() = Some(r.answer(false));
            }
        };
        let result = {
            let drive = run.drive(engine, &mut on_change);
            tokio::pin!(drive);
            let mut pace = tokio::time::interval(PACE);
            loop {
                tokio::select! {
                    r = &mut drive => break r,
                    _ = pace.tick() => {
                        if let Some(a) = pending.lock().unwrap().take() {
                            // A slow reader misses a snapshot, not the last one.
                            let _ = tx.try_send(ndjson(&a));
                        }
                    }
                    // The client went away: dropping the run kills its engine.
                    () = tx.closed() => return,
                }
            }
        };
        let last = match result {
            Ok(()) => ndjson(&run.answer(true)),
            Err((_, why)) => ndjson(&serde_json::json!({ "error": why })),
        };
        let _ = tx.send(last).await;
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|s| (Ok::<_, std::convert::Infallible>(Bytes::from(s)), rx))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(body),
    )
        .into_response()
}

fn ndjson<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string(v).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// One engine line, as the explorer reads it.
#[derive(Debug, PartialEq)]
enum Line {
    /// `info explore move ...`: the move, nodes, time, the legal moves.
    Move(MoveValue, u64, u64, usize),
    /// `explored ...`.
    End {
        complete: bool,
        nodes: u64,
        time: u64,
        best: Vec<String>,
    },
    /// `info string error: ...`.
    Error(String),
    Other,
}

fn parse(line: &str) -> Line {
    if let Some(e) = line.strip_prefix("info string error: ") {
        return Line::Error(e.to_string());
    }
    let w: Vec<&str> = line.split_whitespace().collect();
    let field = |k: &str| {
        w.iter()
            .position(|x| *x == k)
            .and_then(|i| w.get(i + 1))
            .copied()
    };
    let num = |k: &str| field(k).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let bound = |k: &str| field(k).and_then(|v| v.parse::<i32>().ok());
    match w.first() {
        Some(&"info") if w.get(1) == Some(&"explore") => match field("move") {
            Some(mv) => Line::Move(
                MoveValue {
                    mv: mv.to_string(),
                    lo: bound("lo"),
                    hi: bound("hi"),
                    by: field("by").unwrap_or("none").to_string(),
                },
                num("nodes"),
                num("time"),
                num("of") as usize,
            ),
            None => Line::Other,
        },
        Some(&"explored") => Line::End {
            complete: w.get(1) == Some(&"complete"),
            nodes: num("nodes"),
            time: num("time"),
            best: match w.iter().position(|x| *x == "best") {
                Some(i) => w[i + 1..].iter().map(|s| s.to_string()).collect(),
                None => Vec::new(),
            },
        },
        _ => Line::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_engines: 1,
            max_ms: 5000,
            default_ms: 1000,
        }
    }

    fn req(pairs: &[(&str, &str)]) -> Result<Request, String> {
        let p = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Request::parse(&p, &limits())
    }

    #[test]
    fn requests_are_checked_with_the_rules() {
        let r = req(&[("moves", "K@b2,R@a1"), ("ms", "99999")]).unwrap();
        assert_eq!(r.pos.fen(), "8/8/8/8/8/8/1K6/r7 w a1");
        assert_eq!((r.ms, r.stream), (5000, false));
        let r = req(&[("variant", "open"), ("fen", "8/8/8/4q3/3K4/8/8/8 w e5")]).unwrap();
        assert_eq!((r.pos.variant(), r.ms), (Variant::Open, 1000));
        let e = req(&[("moves", "K@b2,K@a1")]).unwrap_err();
        assert!(e.starts_with("moves: move 2 (K@a1): "), "{e}");
        let e = req(&[("variant", "original"), ("fen", "8/8/8/8/3K4/8/8/7q w h1")]).unwrap_err();
        assert!(e.contains("(rule 2)"), "{e}");
        assert!(
            req(&[("variant", "chess")])
                .unwrap_err()
                .contains("unknown variant")
        );
        assert!(req(&[("ms", "soon")]).unwrap_err().starts_with("ms: "));
        assert!(
            req(&[("depth", "3")])
                .unwrap_err()
                .contains("unknown parameter 'depth'")
        );
        assert!(
            req(&[("moves", "X@z9")])
                .unwrap_err()
                .starts_with("moves: move 1 ('X@z9')")
        );
    }

    #[test]
    fn engine_lines_are_read() {
        let l = parse("info explore move K@b2 lo -1 hi -1 by book exact 12 of 64 nodes 5 time 7");
        let v = MoveValue {
            mv: "K@b2".into(),
            lo: Some(-1),
            hi: Some(-1),
            by: "book".into(),
        };
        assert_eq!(l, Line::Move(v, 5, 7, 64));
        let Line::Move(v, ..) =
            parse("info explore move K@a1 lo none hi -1 by book exact 0 of 64 nodes 0 time 0")
        else {
            panic!()
        };
        assert_eq!((v.lo, v.hi), (None, Some(-1)));
        assert_eq!(
            parse("explored incomplete exact 12 of 64 nodes 9 time 100 best K@b2 K@c2"),
            Line::End {
                complete: false,
                nodes: 9,
                time: 100,
                best: vec!["K@b2".into(), "K@c2".into()]
            }
        );
        assert_eq!(
            parse("info string error: unknown command 'explore'"),
            Line::Error("unknown command 'explore'".into())
        );
        assert_eq!(parse("info depth 3"), Line::Other);
    }

    #[test]
    fn a_run_is_listed_once_every_legal_move_is_in() {
        let pos = Position::new(Variant::Standard);
        let request = Request {
            pos,
            ms: 0,
            stream: true,
        };
        let mut run = Run::new(request);
        assert!(
            run.listed(),
            "nothing counted yet: an engine that does not count"
        );
        let mv = |m: &str| MoveValue {
            mv: m.into(),
            lo: None,
            hi: None,
            by: "none".into(),
        };
        run.legal = 2;
        run.moves.push(mv("K@a1"));
        assert!(!run.listed());
        run.moves.push(mv("K@b2"));
        assert!(run.listed());
    }
}
