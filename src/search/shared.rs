//! What all threads of one search share: the table, the limits and flags,
//! the node count, and the deepest iteration any thread completed.

use super::busy::Busy;
use super::root::RootMove;
use super::time::Budget;
use super::tt::Tt;
use crate::search::Control;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

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
