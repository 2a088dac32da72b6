//! A bounded load test of `cheversi-web` over loopback (not in the test
//! suite): 20 pages playing engine-against-engine games and 200 WebSocket
//! clients connecting and leaving, for 60 s; prints p50/p95 answer times and
//! whether anything leaked (the server's engine processes, file descriptors
//! and memory before and after).
//!
//! ```sh
//! cargo build --release -p cheversi -p cheversi-web --examples
//! target/release/examples/loadtest [--seconds 60] [--pages 20] [--clients 200] [--rounds 1]
//! ```
//!
//! With `--rounds N` the load runs N times on the same server, the
//! footprint printed after each: memory that grows round after round is a
//! leak, memory that stays is the allocator's high-water mark.

use futures_util::{SinkExt, StreamExt};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Default)]
struct Stats {
    connect: Vec<f64>,
    request: Vec<f64>,
    engine_move: Vec<f64>,
    refused: u64,
    games: u64,
    errors: u64,
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn beside(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("this program's path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    dir.join(name)
}

/// Engine processes (children), open file descriptors, resident KiB.
fn footprint(pid: u32) -> (usize, usize, u64) {
    let children = std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
                .filter(|stat| {
                    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
                    after.split_whitespace().nth(1) == Some(pid.to_string().as_str())
                })
                .count()
        })
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count());
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0);
    (children, fds, rss)
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * p).round() as usize]
}

async fn connect(url: &str) -> Option<Ws> {
    let req =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url).ok()?;
    tokio_tungstenite::connect_async(req)
        .await
        .ok()
        .map(|(ws, _)| ws)
}

/// The next JSON message of `ws`, within `secs`.
async fn next(ws: &mut Ws, secs: u64) -> Option<serde_json::Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(secs), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

async fn send(ws: &mut Ws, v: serde_json::Value) -> bool {
    ws.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// A page whose two engines play game after game; every 500 ms it asks for
/// the PGN and times the answer.
async fn page(url: String, until: Instant, stats: Arc<Mutex<Stats>>) {
    let Some(mut ws) = connect(&url).await else {
        stats.lock().await.errors += 1;
        return;
    };
    let settings = serde_json::json!({"type":"settings","limit":"depth","value":3,"threads":1,"hash":1,"multipv":1,"delay":0});
    send(&mut ws, settings).await;
    send(
        &mut ws,
        serde_json::json!({"type":"players","white":"engine","black":"engine"}),
    )
    .await;
    let mut last_move = Instant::now();
    let mut asked: Option<Instant> = None;
    let mut next_ask = Instant::now() + Duration::from_millis(500);
    let mut plies = 0usize;
    while Instant::now() < until {
        if asked.is_none() && Instant::now() >= next_ask {
            send(&mut ws, serde_json::json!({"type":"export_pgn"})).await;
            asked = Some(Instant::now());
        }
        let Some(msg) = next(&mut ws, 1).await else {
            continue;
        };
        match msg["type"].as_str() {
            Some("pgn") => {
                if let Some(t) = asked.take() {
                    stats
                        .lock()
                        .await
                        .request
                        .push(t.elapsed().as_secs_f64() * 1000.0);
                }
                next_ask = Instant::now() + Duration::from_millis(500);
            }
            Some("state") => {
                let n = msg["moves"].as_array().map_or(0, Vec::len);
                if n == plies + 1 {
                    stats
                        .lock()
                        .await
                        .engine_move
                        .push(last_move.elapsed().as_secs_f64() * 1000.0);
                }
                if n != plies {
                    last_move = Instant::now();
                }
                plies = n;
                if !msg["position"]["result"].is_null() {
                    stats.lock().await.games += 1;
                    send(
                        &mut ws,
                        serde_json::json!({"type":"new","variant":"standard"}),
                    )
                    .await;
                }
            }
            Some("full") => {
                stats.lock().await.refused += 1;
                return;
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
}

/// A client that connects, waits for its first answer (a state, or `full`),
/// stays a moment and leaves, again and again.
async fn churn(url: String, seed: u64, until: Instant, stats: Arc<Mutex<Stats>>) {
    let mut r = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut rand = move |n: u64| {
        r = r
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (r >> 33) % n
    };
    while Instant::now() < until {
        let t = Instant::now();
        let Some(mut ws) = connect(&url).await else {
            stats.lock().await.errors += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        loop {
            match next(&mut ws, 10).await {
                Some(m) if m["type"] == "state" => {
                    stats
                        .lock()
                        .await
                        .connect
                        .push(t.elapsed().as_secs_f64() * 1000.0);
                    break;
                }
                Some(m) if m["type"] == "full" => {
                    stats.lock().await.refused += 1;
                    break;
                }
                Some(_) => continue,
                None => {
                    stats.lock().await.errors += 1;
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(200 + rand(800))).await;
        let _ = ws.close(None).await;
        drop(ws);
        tokio::time::sleep(Duration::from_millis(rand(500))).await;
    }
}

#[tokio::main]
async fn main() {
    let seconds = arg("--seconds", 60);
    let pages = arg("--pages", 20);
    let clients = arg("--clients", 200);
    let server = beside("cheversi-web");
    let engine = beside("cheversi");
    assert!(
        server.is_file() && engine.is_file(),
        "build cheversi and cheversi-web first (--release)"
    );
    let mut child = Command::new(&server)
        .arg("--engine")
        .arg(&engine)
        .args([
            "--port",
            "0",
            "--max-sessions",
            "64",
            "--max-threads",
            "1",
            "--max-hash",
            "16",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let http = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    let url = http.replacen("http://", "ws://", 1) + "ws";
    let pid = child.id();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = footprint(pid);
    println!(
        "server {http} (pid {pid}); {pages} pages playing, {clients} clients coming and going, {seconds} s"
    );
    let mut leak = false;
    for round in 1..=arg("--rounds", 1) {
        let stats = Arc::new(Mutex::new(Stats::default()));
        let until = Instant::now() + Duration::from_secs(seconds);
        let mut tasks = Vec::new();
        for _ in 0..pages {
            tasks.push(tokio::spawn(page(url.clone(), until, stats.clone())));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        for i in 0..clients {
            tasks.push(tokio::spawn(churn(url.clone(), i, until, stats.clone())));
        }
        let mut peak = before;
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let now = footprint(pid);
            peak = (peak.0.max(now.0), peak.1.max(now.1), peak.2.max(now.2));
        }
        for t in tasks {
            let _ = t.await;
        }
        // Let the server end the last engines (quit, then kill after 500 ms).
        tokio::time::sleep(Duration::from_secs(3)).await;
        let after = footprint(pid);
        let mut s = stats.lock().await;
        let (c50, c95) = (pct(&mut s.connect, 0.5), pct(&mut s.connect, 0.95));
        let (r50, r95) = (pct(&mut s.request, 0.5), pct(&mut s.request, 0.95));
        let (m50, m95) = (pct(&mut s.engine_move, 0.5), pct(&mut s.engine_move, 0.95));
        println!(
            "connect to first state: {} answers, p50 {c50:.1} ms, p95 {c95:.1} ms",
            s.connect.len()
        );
        println!(
            "export_pgn answered:    {} answers, p50 {r50:.1} ms, p95 {r95:.1} ms",
            s.request.len()
        );
        println!(
            "engine move (depth 3):  {} moves, p50 {m50:.1} ms, p95 {m95:.1} ms; {} games finished",
            s.engine_move.len(),
            s.games
        );
        println!("refused (server full): {}; errors: {}", s.refused, s.errors);
        println!("round {round}:");
        println!(
            "before: {} engines, {} fds, {} KiB resident",
            before.0, before.1, before.2
        );
        println!(
            "peak:   {} engines, {} fds, {} KiB resident",
            peak.0, peak.1, peak.2
        );
        println!(
            "after:  {} engines, {} fds, {} KiB resident",
            after.0, after.1, after.2
        );
        let left = after.0 > before.0 || after.1 > before.1;
        leak |= left;
        println!(
            "{}",
            if left {
                "LEAK: engines or file descriptors left"
            } else {
                "no engine process or file descriptor left behind"
            }
        );
    }
    let _ = child.kill();
    let _ = child.wait();
    if leak {
        std::process::exit(1);
    }
}
