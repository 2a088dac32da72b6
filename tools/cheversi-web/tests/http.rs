//! The server's safety rules over raw HTTP, no browser needed: the page is
//! served from the binary, other hosts and origins are refused, and the
//! number of pages is bounded.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;
use support::*;

/// The engine for these tests: any program will do until a page connects,
/// and `cat` is there on every Unix; the real engine when built.
fn engine() -> std::path::PathBuf {
    built("cheversi").unwrap_or_else(|| "/bin/cat".into())
}

fn host_port(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Sends a request and returns what came back within a moment.
fn request(addr: &str, text: &str) -> (TcpStream, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
    s.write_all(text.as_bytes()).unwrap();
    let mut buf = vec![0; 64 * 1024];
    let mut got = Vec::new();
    while !String::from_utf8_lossy(&got).contains("\r\n\r\n") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    (s, String::from_utf8_lossy(&got).into_owned())
}

fn get(addr: &str, path: &str, host: &str) -> String {
    let (_, r) = request(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
    );
    r
}

fn upgrade(addr: &str, origin: &str) -> (TcpStream, String) {
    request(
        addr,
        &format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ),
    )
}

/// The text of the server's WebSocket frames read within a moment.
fn frames(s: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if got.len() > 256 * 1024 {
            break;
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn the_page_is_served_to_loopback_hosts_only() {
    let srv = server(&engine(), &[], &[]);
    let addr = host_port(&srv.url);
    let page = get(&addr, "/", &addr);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("text/html"), "{page}");
    let js = get(&addr, "/app.js", "localhost");
    assert!(
        js.starts_with("HTTP/1.1 200") && js.contains("text/javascript"),
        "{js}"
    );
    assert!(get(&addr, "/../Cargo.toml", &addr).starts_with("HTTP/1.1 404"));
    assert!(get(&addr, "/secret", &addr).starts_with("HTTP/1.1 404"));
    let evil = get(&addr, "/", "evil.example:8080");
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
}

#[test]
fn a_websocket_from_another_origin_is_refused() {
    let srv = server(&engine(), &[], &[]);
    let addr = host_port(&srv.url);
    let (_, r) = upgrade(&addr, "http://evil.example");
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
    let (_, r) = upgrade(&addr, &format!("http://{addr}"));
    assert!(r.starts_with("HTTP/1.1 101"), "{r}");
}

#[test]
fn pages_beyond_the_limit_are_told_and_closed() {
    let srv = server(&engine(), &[], &["--max-sessions", "1"]);
    let addr = host_port(&srv.url);
    let origin = format!("http://{addr}");
    let (_first, r) = upgrade(&addr, &origin);
    assert!(r.starts_with("HTTP/1.1 101"), "{r}");
    let (mut second, r) = upgrade(&addr, &origin);
    assert!(r.starts_with("HTTP/1.1 101"), "{r}");
    let text = r + &frames(&mut second);
    assert!(
        text.contains("too many pages are open (at most 1)"),
        "{text}"
    );
}

#[test]
fn without_an_engine_beside_it_the_server_runs_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("cheversi-web");
    std::fs::copy(env!("CARGO_BIN_EXE_cheversi-web"), &exe).unwrap();
    let mut child = std::process::Command::new(&exe)
        .args(["--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _proc = Proc(child);
    assert!(line.contains("--run-engine"), "{line}");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap();
    let addr = host_port(url);
    let (mut ws, r) = upgrade(&addr, &format!("http://{addr}"));
    let text = r + &frames(&mut ws);
    assert!(
        text.contains("Cheversi") && text.contains("is ready"),
        "{text}"
    );
}

#[test]
fn half_open_requests_are_closed_after_the_request_timeout() {
    let srv = server(&engine(), &[], &["--request-timeout", "500"]);
    let addr = host_port(&srv.url);
    // 40 connections: half send nothing, half an unfinished request.
    let mut conns: Vec<TcpStream> = (0..40)
        .map(|i| {
            let mut s = TcpStream::connect(&addr).unwrap();
            if i % 2 == 1 {
                s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    .unwrap();
            }
            s
        })
        .collect();
    let started = std::time::Instant::now();
    for s in &mut conns {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0; 1024];
        // The server answers 408 or just closes; either way the read ends.
        loop {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) => panic!(
                    "a half-open request still open after {:?}: {e}",
                    started.elapsed()
                ),
            }
        }
    }
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "closed only after {took:?}");
    // And the server still serves.
    assert!(get(&addr, "/", &addr).starts_with("HTTP/1.1 200"));
}

#[test]
fn behind_a_proxy_public_origins_and_per_address_limits_hold() {
    let srv = server(
        &engine(),
        &[],
        &[
            "--public-origin",
            "https://chess.example.org",
            "--max-per-address",
            "2",
        ],
    );
    let addr = host_port(&srv.url);
    let through_proxy = |client: &str, origin: &str, host: &str| {
        request(
            &addr,
            &format!(
                "GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nX-Forwarded-For: {client}\r\n\
                 Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            ),
        )
    };
    let public = "https://chess.example.org";
    // The public host is served; another is not.
    assert!(get(&addr, "/", "chess.example.org").starts_with("HTTP/1.1 200"));
    assert!(get(&addr, "/", "evil.example").starts_with("HTTP/1.1 403"));
    let (_, r) = through_proxy("198.51.100.7", "https://evil.example", "chess.example.org");
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
    // Two pages of one client; the third is told; another client still gets one.
    let (_a, r) = through_proxy("198.51.100.7", public, "chess.example.org");
    assert!(r.starts_with("HTTP/1.1 101"), "{r}");
    let (_b, r) = through_proxy("198.51.100.7", public, "127.0.0.1");
    assert!(r.starts_with("HTTP/1.1 101"), "{r}");
    let (mut third, r) = through_proxy("198.51.100.7", public, "chess.example.org");
    let text = r + &frames(&mut third);
    assert!(
        text.contains("too many pages from your address (at most 2)"),
        "{text}"
    );
    let (mut other, r) = through_proxy("203.0.113.5", public, "chess.example.org");
    let text = r + &frames(&mut other);
    assert!(text.contains("\"type\":\"state\""), "{text}");
}
