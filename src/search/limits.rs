//! What a search is given: the limits of one `go`, the settings that
//! outlive it, and the flags the engine sets while it runs. Plain data,
//! re-exported by `search` (`crate::search::Limits`, ...); it imports
//! nothing of the driver, which imports it.

use crate::types::Placement;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What a `go` asks for. Every limit is optional; none means "until stopped"
/// only with `infinite` (otherwise the search picks a sensible default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies (clamped to the plies left in the game).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Spend this long.
    pub movetime: Option<Duration>,
    /// White's and Black's clocks.
    pub time: [Option<Duration>; 2],
    /// White's and Black's increments.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `stop` or `ponderhit`.
    pub ponder: bool,
    /// Only consider these root placements (all if empty).
    pub searchmoves: Vec<Placement>,
}

/// Engine settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
    /// Use the fitted evaluation (false: the current difference alone, kept
    /// to measure what the fitting is worth).
    pub tuned_eval: bool,
    /// Play from the committed solution data where it settles the position
    /// (`OwnBook`; the engine's, `crate::solve::book`: the search ignores it).
    pub own_book: bool,
    /// A measuring aid: the threads keep pace in nodes, as if each had a
    /// core to itself, so that node counts compare lazy SMP fairly on a
    /// busy machine (`analyse ttd`). Slower; never for play.
    pub lockstep: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(20),
            tuned_eval: true,
            own_book: true,
            lockstep: false,
        }
    }
}

/// Flags the engine sets from other threads while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    ponderhit: AtomicBool,
}

impl Control {
    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Has a stop been asked for?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the pondered move: switch to normal time use.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }
    /// Has `ponderhit` arrived?
    pub fn pondering_over(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
    /// Clears both flags for a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.ponderhit.store(false, Ordering::Relaxed);
    }
}
