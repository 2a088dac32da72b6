//! `bench`: a fixed set of searches with a deterministic node count.

use super::{Control, Limits, Options, Searcher};
use crate::position::Position;
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes over all positions (deterministic at one thread).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// Fixed positions (standard unless the string says otherwise).
const POSITIONS: &[&str] = &[
    "8/8/8/8/8/8/8/8 w -",
    "8/8/8/4q3/3K4/8/8/8 w e5",
    "8/8/8/3Q4/3Kq3/8/8/8 b d5",
];

/// Runs the bench at `depth` plies per position.
pub fn run(depth: u32) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    let control = Control::default();
    for fen in POSITIONS {
        let pos = Position::from_fen(fen, Variant::Standard).expect("bench positions are valid");
        let mut s = Searcher::new(Options::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        nodes += s.go(&pos, &limits, &control, &mut |_| {}).nodes;
    }
    BenchReport {
        nodes,
        elapsed: start.elapsed(),
    }
}
