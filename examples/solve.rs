//! Solve-time benchmark: exact (or win/draw/loss) solves of random `standard`
//! positions with N plies left, one thread.
//!
//! `cargo run --release --example solve -- <plies left> [count] [exact|wdl|win|loss|go|deepen] [hash MiB]`
//!
//! `SOLVE_SEEDS=7,10` solves only those of the `count` positions;
//! `SOLVE_VARIANT=original` (or `open`) plays that variant instead;
//! `SOLVE_DEPTH=6` makes `go` and `deepen` stop at that depth.
//!
//! `win` and `loss` search one null window only: does White win (the
//! window 0..1), does White lose (-1..0)? Each proves one side's bound, where
//! `wdl` (-1..1) proves both for a draw.
//!
//! `go` asks the engine's `go` for the depth to the end; `deepen` too, with
//! a node limit that never binds, so that it deepens through every depth as
//! under a clock.
//!
//! One searcher serves every position, cleared before each clock starts: the
//! time is the solve alone, not the allocation of the table nor the page
//! faults of its first touch (a fresh table is lazily zeroed memory).

mod common;
use cheversi::Variant;
use cheversi::search::{Control, INFINITE, Limits, Options, Searcher};
use common::random_position;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let left: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(8);
    let count: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let mode = args.get(2).map_or("exact", String::as_str);
    let hash: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(64);
    let (mut total, mut worst, mut nodes) = (0.0, 0.0f64, 0u64);
    let mut s = Searcher::new(Options {
        hash_mb: hash,
        ..Options::default()
    });
    let only: Option<Vec<u64>> = std::env::var("SOLVE_SEEDS")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    let seeds: Vec<u64> = (1..=count)
        .filter(|s| only.as_ref().is_none_or(|o| o.contains(s)))
        .collect();
    let count = seeds.len() as u64;
    let variant = std::env::var("SOLVE_VARIANT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(Variant::Standard);
    let depth: Option<u32> = std::env::var("SOLVE_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok());
    for seed in seeds {
        let pos = random_position(variant, left, seed);
        // Off the clock: writing every slot faults the table's pages in.
        s.clear();
        let t = Instant::now();
        let (alpha, beta) = window(mode);
        let (v, n) = if mode == "go" || mode == "deepen" {
            let limits = Limits {
                depth: Some(depth.unwrap_or(left as u32)),
                nodes: (mode == "deepen").then_some(u64::MAX),
                ..Limits::default()
            };
            let mut score = 0;
            let out = s.go(&pos, &limits, &Control::default(), &mut |e| {
                if let cheversi::search::Event::Info(i) = e {
                    score = i.score;
                }
            });
            (score, out.nodes)
        } else {
            s.solve(&pos, alpha, beta)
        };
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{} value {:+} nodes {} time {:.3} s ({:.1} M nodes/s)",
            pos.fen(),
            v as f64 / 100.0,
            n,
            secs,
            n as f64 / secs / 1e6
        );
        total += secs;
        worst = worst.max(secs);
        nodes += n;
    }
    println!(
        "{count} positions, {left} plies left, {}: mean {:.3} s, max {:.3} s, {:.1} M nodes/s, {nodes} nodes",
        label(mode),
        total / count as f64,
        worst,
        nodes as f64 / total / 1e6
    );
}

/// The root window of `mode`.
fn window(mode: &str) -> (i32, i32) {
    match mode {
        "wdl" => (-1, 1),
        "win" => (0, 1),
        "loss" => (-1, 0),
        _ => (-INFINITE, INFINITE),
    }
}

/// What `mode` solves, for the summary line.
fn label(mode: &str) -> &'static str {
    match mode {
        "wdl" => "win/draw/loss",
        "win" => "win or not",
        "loss" => "loss or not",
        _ => "exact",
    }
}
