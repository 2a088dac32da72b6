//! `bench`, position by position: nodes and time of each, one thread.
//!
//! `cargo run --release --example bench_split -- [depth]`

use cheversi::search::{Control, Limits, Options, Searcher, bench};
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    for pos in bench::positions() {
        let mut s = Searcher::new(Options::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let n = s.go(&pos, &limits, &Control::default(), &mut |_| {}).nodes;
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{} {}: {n} nodes, {secs:.3} s, {:.2} M nodes/s",
            pos.variant(),
            pos.fen(),
            n as f64 / secs / 1e6
        );
    }
}
