//! Measures, over pipes, how fast the engine answers `isready` during a
//! search and how fast `bestmove` follows `stop`. A measurement, not a test.
//!
//! `cargo build --release && cargo run --release --example latency [-- BINARY [TRIALS]]`
//!
//! It also times `Engine::stop` in-process (no pipes, no input thread), which
//! separates the search's reaction to the stop flag from the I/O path.

use cheversi::engine::{Engine, Sink};
use cheversi::search::{Limits, Options};
use cheversi::{Placement, Position, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Output lines with the time they arrived.
fn lines(stdout: std::process::ChildStdout) -> Receiver<(Instant, String)> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send((Instant::now(), line)).is_err() {
                return;
            }
        }
    });
    rx
}

/// Sends `cmd` and returns the time until a line starting with `reply`.
fn time_to(
    stdin: &mut ChildStdin,
    rx: &Receiver<(Instant, String)>,
    cmd: &str,
    reply: &str,
) -> Duration {
    let t0 = Instant::now();
    writeln!(stdin, "{cmd}").expect("engine reads");
    stdin.flush().expect("engine reads");
    loop {
        let (t, line) = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("engine answers");
        if line.starts_with(reply) {
            return t - t0;
        }
    }
}

fn report(what: &str, mut d: Vec<Duration>) {
    d.sort();
    let ms = |x: Duration| x.as_secs_f64() * 1e3;
    println!(
        "{what}: n={} min {:.3} ms, median {:.3} ms, p95 {:.3} ms, max {:.3} ms",
        d.len(),
        ms(d[0]),
        ms(d[d.len() / 2]),
        ms(d[d.len() * 95 / 100]),
        ms(d[d.len() - 1])
    );
}

/// `Engine::stop` on a running infinite search: flag, join, final report.
fn in_process(trials: usize) -> Vec<Duration> {
    let sink: Sink = std::sync::Arc::new(|_| {});
    let mut engine = Engine::new(Options::default(), sink);
    let mut pos = Position::new(Variant::Standard);
    for m in ["K@d4", "Q@e5"] {
        pos.play(m.parse::<Placement>().expect("a placement"));
    }
    let limits = Limits {
        infinite: true,
        ..Default::default()
    };
    (0..trials)
        .map(|_| {
            engine.go(&pos, limits.clone()).expect("idle");
            thread::sleep(Duration::from_millis(20));
            let t0 = Instant::now();
            engine.stop();
            t0.elapsed()
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let binary = args.next().unwrap_or("target/release/cheversi".into());
    let trials: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(50);
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("piped");
    let rx = lines(child.stdout.take().expect("piped"));
    let (mut ready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..trials {
        writeln!(stdin, "position startpos moves K@d4 Q@e5\ngo infinite").expect("engine reads");
        thread::sleep(Duration::from_millis(20));
        for _ in 0..3 {
            ready.push(time_to(&mut stdin, &rx, "isready", "readyok"));
        }
        stop.push(time_to(&mut stdin, &rx, "stop", "bestmove"));
    }
    writeln!(stdin, "quit").expect("engine reads");
    let _ = child.wait();
    println!("{binary}, {trials} searches (go infinite, 20 ms in):");
    report("isready -> readyok during a search", ready);
    report("stop -> bestmove", stop);
    report(
        "in-process Engine::stop -> final report",
        in_process(trials),
    );
}
