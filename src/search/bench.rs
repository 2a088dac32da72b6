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
    /// Wall time spent searching (setup excluded).
    pub elapsed: Duration,
}

/// Fixed positions: every stage of a `standard` game (the last two solved
/// exactly at depth 5 and above) and one position of each other variant
/// (`open` late: its branching factor is near 250 earlier).
const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Standard, "8/8/8/8/8/8/8/8 w -"),
    (Variant::Standard, "8/8/8/4q3/3K4/8/8/8 w e5"),
    (Variant::Standard, "8/8/8/3Q4/3Kq3/8/8/8 b d5"),
    (Variant::Standard, "8/8/8/2r1R3/3K4/1Qq5/2r5/8 w c2"),
    (Variant::Standard, "3R4/3bn3/K1N1R3/1r2q3/8/8/8/8 w e5"),
    (Variant::Standard, "8/8/8/8/8/5Q1q/6Bb/4KrBr w h1"),
    (Variant::Open, "k6n/6r1/2R2b2/4q3/3K4/2R5/1B6/N7 w a8"),
    (Variant::Original, "8/8/3n4/5R1b/3Q4/8/8/8 w h5"),
];

/// The bench positions.
pub fn positions() -> impl Iterator<Item = Position> {
    POSITIONS
        .iter()
        .filter_map(|&(v, fen)| Position::from_fen(fen, v).ok())
}

/// Runs the bench: each position searched `depth` plies deep (clamped to
/// the plies left) by a one-thread searcher cleared before each, so each
/// count is that of a new game. The time is the searches' alone: making and
/// clearing the table are setup, as Stockfish's bench restarts its clock
/// after `ucinewgame` (they were about a tenth of the run, mostly the kernel
/// zeroing the table's pages).
pub fn run(depth: u32) -> BenchReport {
    let control = Control::default();
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut report = BenchReport {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for pos in positions() {
        s.clear();
        let start = Instant::now();
        report.nodes += s.go(&pos, &limits, &control, &mut |_| {}).nodes;
        report.elapsed += start.elapsed();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid() {
        assert_eq!(positions().count(), POSITIONS.len());
    }

    #[test]
    fn bench_is_deterministic() {
        assert_eq!(run(2).nodes, run(2).nodes);
    }
}
