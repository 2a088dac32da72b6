//! Nodes that some thread is searching now, by key (after ABDADA): a thread
//! about to enter a sibling that another thread is already in puts it off
//! until its other siblings are done, so threads spread over the tree
//! instead of all searching the same subtree. Advisory: a lost race costs
//! only duplicated work, never a wrong value.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Nodes with at least this much depth left mark themselves. Fewer marks
/// than at 3 spread two threads as well and cost fewer atomic writes:
/// LOCKSTEP=1 analyse ttd 11 32 2 14, by nodes on the sums: 4: 1.80x-1.90x
/// (six runs, mean 1.85x), 3: 1.70x-1.93x (seven, 1.79x), 2: 1.71x-1.80x
/// (three, 1.77x).
pub const MIN_DEPTH: u8 = 4;

/// Slots of the table (a power of two).
const SLOTS: usize = 4096;

/// The table of nodes being searched.
pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// A table for `threads` threads; with one thread it holds nothing and
    /// every call is a no-op.
    pub fn new(threads: usize) -> Busy {
        let n = if threads > 1 { SLOTS } else { 0 };
        Busy {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Is the table in use (more than one thread)?
    #[inline]
    pub fn active(&self) -> bool {
        !self.slots.is_empty()
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (self.slots.len() - 1)]
    }

    /// Marks `key` as being searched; false if its slot was taken (then
    /// nothing is marked and [`Busy::leave`] must not be called).
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        self.active()
            && key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Relaxed, Relaxed)
                .is_ok()
    }

    /// Clears the mark [`Busy::enter`] set.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Is some thread searching `key`?
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.active() && key != 0 && self.slot(key).load(Relaxed) == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_and_cleared() {
        let b = Busy::new(2);
        assert!(!b.contains(42));
        assert!(b.enter(42));
        assert!(b.contains(42));
        // Same slot, other key: not marked, not seen.
        assert!(!b.enter(42 + SLOTS as u64));
        assert!(!b.contains(42 + SLOTS as u64));
        b.leave(42);
        assert!(!b.contains(42));
    }

    #[test]
    fn one_thread_marks_nothing() {
        let b = Busy::new(1);
        assert!(!b.enter(42));
        assert!(!b.contains(42));
    }
}
