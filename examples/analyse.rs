//! Analyses one position and prints every progress line: for the deep
//! empty-board search and for time-to-depth with more threads.
//!
//! `cargo run --release --example analyse -- <fen|start> [seconds] [threads] [multipv] [depth] [hash MiB]`

use cheversi::search::{Control, Event, Limits, Options, Searcher};
use cheversi::{Position, Variant};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let pos = match args.first().map(String::as_str) {
        None | Some("start") => Position::new(Variant::Standard),
        Some(fen) => match Position::from_fen(fen, Variant::Standard) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
    };
    let mut s = Searcher::new(Options {
        threads: arg(2).unwrap_or(1) as usize,
        multipv: arg(3).unwrap_or(1) as usize,
        hash_mb: arg(5).unwrap_or(256) as usize,
        ..Options::default()
    });
    let limits = Limits {
        movetime: arg(1).map(Duration::from_secs),
        depth: arg(4).map(|d| d as u32),
        ..Limits::default()
    };
    let t = Instant::now();
    let out = s.go(&pos, &limits, &Control::default(), &mut |e| {
        if let Event::Info(i) = e {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            println!(
                "depth {} multipv {} score {:+.2}{} nodes {} time {:.3} hashfull {} pv {}",
                i.depth,
                i.multipv,
                i.score as f64 / 100.0,
                if i.exact { " (exact)" } else { "" },
                i.nodes,
                i.time.as_secs_f64(),
                i.hashfull,
                pv.join(" ")
            );
        }
    });
    println!(
        "bestmove {} nodes {} time {:.3} s",
        out.best.map_or("(none)".into(), |m| m.to_string()),
        out.nodes,
        t.elapsed().as_secs_f64()
    );
}
