//! Analyses one position and prints every progress line: for the deep
//! empty-board search and for time-to-depth with more threads.
//!
//! `cargo run --release --example analyse -- <fen|start> [seconds] [threads] [multipv] [depth] [hash MiB]`
//!
//! `analyse ttd <depth> [count] [threads] [plies left] [hash MiB]`: time to
//! `depth` of one thread against `threads` (default 2), in turn, on `count`
//! random `standard` positions with `plies left` (default 14), each search
//! on a cleared table; prints each pair and the sums. The times are
//! meaningful only on an otherwise idle machine with at least `threads`
//! cores; the node figure, one thread's nodes over the nodes per thread of
//! the others, is the speedup if all threads ran at the same speed, and
//! holds on a busy machine when `LOCKSTEP` is set in the environment (the
//! threads then keep pace in nodes, see `Options::lockstep`); the nodes per
//! CPU second of each side show what the threads cost one another (without
//! `LOCKSTEP`, which spends CPU time waiting).

mod common;
use cheversi::search::{Control, Event, Limits, Options, Searcher};
use cheversi::{Position, Variant};
use common::random_position;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "ttd") {
        return time_to_depth(&args[1..]);
    }
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
        lockstep: lockstep(),
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

/// CPU seconds this process has used, all threads together.
#[cfg(target_os = "linux")]
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is handed.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(not(target_os = "linux"))]
fn cpu_seconds() -> f64 {
    0.0
}

/// Wall seconds, nodes and CPU seconds of `go depth` on `pos`, the table
/// cleared first.
fn timed(s: &mut Searcher, pos: &Position, depth: u32) -> (f64, u64, f64) {
    s.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let out = s.go(pos, &limits, &Control::default(), &mut |_| {});
    (t.elapsed().as_secs_f64(), out.nodes, cpu_seconds() - cpu)
}

/// `ttd`: one thread against several, to the same depth, in turn (which
/// goes first alternates, so that a drifting load falls on both alike).
fn time_to_depth(args: &[String]) {
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (depth, count, threads) = (arg(0, 10) as u32, arg(1, 8), arg(2, 2) as usize);
    let (left, hash) = (arg(3, 14) as u8, arg(4, 64) as usize);
    let lockstep = lockstep();
    let searcher = |threads| {
        Searcher::new(Options {
            threads,
            hash_mb: hash,
            lockstep,
            ..Options::default()
        })
    };
    let (mut one, mut many) = (searcher(1), searcher(threads));
    let (mut sum1, mut sum_n, mut ratios) = (0.0, 0.0, Vec::new());
    let (mut nodes1, mut nodes_n, mut by_nodes) = (0, 0, Vec::new());
    let (mut cpu1, mut cpu_n) = (0.0, 0.0);
    for seed in 1..=count {
        let pos = random_position(Variant::Standard, left, seed);
        let ((t1, n1, c1), (tn, nn, cn)) = if seed % 2 == 1 {
            let a = timed(&mut one, &pos, depth);
            (a, timed(&mut many, &pos, depth))
        } else {
            let b = timed(&mut many, &pos, depth);
            (timed(&mut one, &pos, depth), b)
        };
        let per_thread = |n1: u64, nn: u64| n1 as f64 * threads as f64 / nn.max(1) as f64;
        println!(
            "{} 1 thread {t1:.3} s {n1} nodes, {threads} threads {tn:.3} s {nn} nodes: \
             {:.2}x, by nodes {:.2}x",
            pos.fen(),
            t1 / tn,
            per_thread(n1, nn)
        );
        sum1 += t1;
        sum_n += tn;
        ratios.push(t1 / tn);
        nodes1 += n1;
        nodes_n += nn;
        by_nodes.push(per_thread(n1, nn));
        cpu1 += c1;
        cpu_n += cn;
    }
    println!(
        "{count} positions, depth {depth}: 1 thread {sum1:.3} s, {threads} threads {sum_n:.3} s: \
         {:.2}x on the sums, median {:.2}x",
        sum1 / sum_n,
        median(&mut ratios)
    );
    println!(
        "by nodes: 1 thread {nodes1}, {threads} threads {nodes_n}: {:.2}x on the sums, \
         median {:.2}x",
        nodes1 as f64 * threads as f64 / nodes_n.max(1) as f64,
        median(&mut by_nodes)
    );
    println!(
        "nodes per CPU second: 1 thread {:.2} M, {threads} threads {:.2} M",
        nodes1 as f64 / cpu1 * 1e-6,
        nodes_n as f64 / cpu_n * 1e-6
    );
}

/// Is `LOCKSTEP` set in the environment (threads keep pace in nodes, see
/// `Options::lockstep`)?
fn lockstep() -> bool {
    std::env::var_os("LOCKSTEP").is_some()
}

/// The median of `xs` (the upper one of an even count).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
