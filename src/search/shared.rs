//! What all threads of one search share: the table, the limits and flags,
//! the node count, and the deepest iteration any thread completed.

use super::in_flight::Busy;
use super::limits::Control;
use super::time::Budget;
use super::tt::Tt;
use crate::types::Placement;
use crate::value::Value;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The placement.
    pub mv: Placement,
    /// Its score in the last search that reached it (-INFINITE if not).
    pub score: Value,
    /// Its principal variation, starting with `mv`.
    pub pv: Vec<Placement>,
}

/// How far, in nodes, a thread may run ahead of another in lockstep.
pub const PACE: u64 = 4096;

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// The engine's stop and ponderhit flags.
    pub control: &'a Control,
    /// Set when every thread must return at once.
    pub abort: AtomicBool,
    /// The time budget.
    pub budget: Budget,
    /// Wait for `ponderhit` before the clock counts.
    pub pondering: bool,
    /// Search until stopped, whatever the clock says.
    pub infinite: bool,
    /// Stop after this many nodes (all threads).
    pub node_limit: u64,
    /// Asked for the game's value: deepen straight from a full-width guess
    /// to the exact search (see `root::Worker::next_depth`).
    pub solve: bool,
    /// Nodes published by all threads.
    pub nodes: AtomicU64,
    /// Nodes some thread is searching now.
    pub busy: Busy,
    /// Use the fitted evaluation.
    pub tuned: bool,
    /// The deepest iteration any thread completed.
    pub completed: AtomicU8,
    /// That iteration's root moves, best first.
    pub deepest: Mutex<Vec<RootMove>>,
    /// Keep the threads at the same pace in nodes (see `Options::lockstep`).
    pub lockstep: bool,
    /// Each thread's nodes while pacing; `u64::MAX` once it is done.
    pub paces: Vec<AtomicU64>,
}

impl<'a> Shared<'a> {
    /// The state of a search by `threads` threads within `budget`, with no
    /// node limit, neither pondering nor infinite.
    pub fn new(
        tt: &'a Tt,
        control: &'a Control,
        budget: Budget,
        threads: usize,
        tuned: bool,
    ) -> Shared<'a> {
        Shared {
            tt,
            control,
            abort: AtomicBool::new(false),
            budget,
            pondering: false,
            infinite: false,
            node_limit: u64::MAX,
            solve: false,
            nodes: AtomicU64::new(0),
            busy: Busy::new(threads),
            tuned,
            completed: AtomicU8::new(0),
            deepest: Mutex::new(Vec::new()),
            lockstep: false,
            paces: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Is the clock allowed to stop the search now?
    pub fn clock_counts(&self) -> bool {
        !self.infinite && (!self.pondering || self.control.pondering_over())
    }

    /// Records `roots` as the result of iteration `depth` if no thread
    /// completed one as deep; the threads still on it give it up.
    pub fn publish(&self, depth: u8, roots: &[RootMove]) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if depth > self.completed.load(Relaxed) {
            deepest.clear();
            deepest.extend_from_slice(roots);
            self.completed.store(depth, Relaxed);
        }
    }

    /// With `lockstep`, records that thread `id` has visited `nodes` and
    /// waits while it is more than [`PACE`] nodes ahead of another thread
    /// (or the search is aborted).
    pub fn pace(&self, id: usize, nodes: u64) {
        if !self.lockstep {
            return;
        }
        self.paces[id].store(nodes, Relaxed);
        let slowest = || self.paces.iter().map(|p| p.load(Relaxed)).min();
        while slowest().is_some_and(|m| nodes > m.saturating_add(PACE)) && !self.abort.load(Relaxed)
        {
            std::thread::yield_now();
        }
    }

    /// Thread `id` has returned: the others no longer keep pace with it.
    pub fn done(&self, id: usize) {
        self.paces[id].store(u64::MAX, Relaxed);
    }

    /// Copies the deepest completed iteration's root moves into `roots`;
    /// returns its depth.
    pub fn adopt(&self, roots: &mut [RootMove]) -> u8 {
        let deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if deepest.len() == roots.len() {
            roots.clone_from_slice(&deepest);
        }
        self.completed.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::{Limits, Options};
    use crate::variant::Variant;
    use std::time::Instant;

    /// A thread more than [`PACE`] nodes ahead waits for the slowest one,
    /// and no longer once that one is done.
    #[test]
    fn lockstep_holds_the_leader_back_until_the_other_is_done() {
        let (tt, control) = (Tt::new(1), Control::default());
        let pos = Position::new(Variant::Standard);
        let budget = Budget::new(
            &pos,
            &Limits::default(),
            &Options::default(),
            Instant::now(),
        );
        let shared = Shared {
            lockstep: true,
            ..Shared::new(&tt, &control, budget, 2, false)
        };
        shared.pace(0, PACE);
        let waited = std::thread::scope(|scope| {
            let leader = scope.spawn(|| {
                shared.pace(0, 3 * PACE);
                shared.paces[1].load(Relaxed)
            });
            std::thread::sleep(std::time::Duration::from_millis(20));
            shared.pace(1, PACE);
            shared.done(1);
            leader.join().unwrap()
        });
        assert_eq!(waited, u64::MAX);
    }
}
