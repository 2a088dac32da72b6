//! The protocols' plumbing, below both sessions (UCI's and CECP's): bounded
//! input lines on their own thread (`reader.rs`), whole responses written
//! under one lock (`output.rs`), and the limits both sessions apply.

pub mod output;
pub mod reader;

use std::time::Duration;

/// How long `quit` waits for a running search to end (and write its
/// `bestmove` or `move`) before the engine exits without it: with many
/// threads on a few cores, every thread must be scheduled to see the stop
/// (100 ms was too short for even one thread on 2 loaded cores: a test of
/// end of input during `go infinite` then missed the `bestmove`).
pub const QUIT_WAIT: Duration = Duration::from_millis(500);

/// The most search threads.
pub const MAX_THREADS: i64 = 64;

/// The largest transposition table, in MiB: the machine's physical memory
/// (see [`crate::search::tt::max_mb`]).
pub fn max_hash_mb() -> i64 {
    crate::search::tt::max_mb() as i64
}
