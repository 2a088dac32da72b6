//! The solve driver (`cheversi solve`) against the search's own exact `go`,
//! timed: random positions, one thread.
//!
//! `cargo run --release --example solve_driver -- <variant> <plies left> [count] [frontier] [exact|wdl] [hash MiB]`
//!
//! Prints per position the driver's value, nodes and time, and `go depth
//! <left>`'s; `go` is skipped with `NOGO=1`. `FENS=1` prints the positions only.

mod common;
use cheversi::Variant;
use cheversi::search::{Control, Event, Limits, Options, SCALE, Searcher};
use cheversi::solve::{Config, Mode, Solver, Store};
use common::random_position;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or_default();
    let left: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let count: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10);
    let frontier: u8 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(left - 1);
    let mode = if args.get(4).is_some_and(|m| m == "wdl") {
        Mode::Wdl
    } else {
        Mode::Exact
    };
    let hash: usize = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(256);
    let nogo = std::env::var("NOGO").is_ok();
    let mut go = Searcher::new(Options {
        hash_mb: hash,
        ..Options::default()
    });
    let (mut tn, mut ts, mut gn, mut gs) = (0u64, 0.0, 0u64, 0.0);
    for seed in 1..=count {
        let pos = random_position(variant, left, seed);
        if std::env::var("FENS").is_ok() {
            println!("{}", pos.fen());
            continue;
        }
        let t = Instant::now();
        let mut quiet = |_: &cheversi::solve::Event| {};
        let config = Config {
            frontier,
            threads: 1,
            hash_mb: hash,
        };
        let store = Store::memory(variant, mode).unwrap();
        let mut solver = Solver::new(mode, config, store, &mut quiet);
        let s = solver.solve(&pos).unwrap();
        let secs = t.elapsed().as_secs_f64();
        drop(solver);
        (tn, ts) = (tn + s.nodes, ts + secs);
        let mut line = format!(
            "{} solve {:+} nodes {} time {:.3} s",
            pos.fen(),
            s.value,
            s.nodes,
            secs
        );
        if !nogo {
            go.clear();
            let t = Instant::now();
            let limits = Limits {
                depth: Some(left as u32),
                ..Limits::default()
            };
            let mut score = 0;
            let out = go.go(&pos, &limits, &Control::default(), &mut |e| {
                if let Event::Info(i) = e {
                    score = i.score;
                }
            });
            let secs = t.elapsed().as_secs_f64();
            (gn, gs) = (gn + out.nodes, gs + secs);
            let v = score / SCALE;
            let agree = match mode {
                Mode::Exact => v == s.value,
                Mode::Wdl => v.signum() == s.value.signum(),
            };
            line += &format!(
                " | go {v:+} nodes {} time {secs:.3} s{}",
                out.nodes,
                if agree { "" } else { " DISAGREE" }
            );
        }
        println!("{line}");
    }
    println!(
        "{count} positions, {variant} {left} left, frontier {frontier}, {}: solve {tn} nodes {ts:.2} s; go {gn} nodes {gs:.2} s",
        mode.name()
    );
}
