//! Perft speed: leaves per second of perft 5 from the start of `standard`,
//! single-threaded, with bulk counting at the last ply. Run with
//! `cargo bench --bench perft`; prints each run and the best.

use cheversi::perft::perft;
use cheversi::{Position, Variant};
use std::time::Instant;

fn main() {
    let runs = 5;
    let mut best = f64::MAX;
    let mut leaves = 0;
    for run in 1..=runs {
        let mut pos = Position::new(Variant::Standard);
        let start = Instant::now();
        leaves = perft(&mut pos, 5);
        let secs = start.elapsed().as_secs_f64();
        best = best.min(secs);
        println!(
            "run {run}: {leaves} leaves in {secs:.3} s = {:.1} M leaves/s",
            leaves as f64 / secs / 1e6
        );
    }
    println!(
        "best: {:.1} M leaves/s (perft 5 = {leaves})",
        leaves as f64 / best / 1e6
    );
}
