//! Time management: how long a search may run, from the clocks and limits.

use super::{Limits, Options};
use crate::position::Position;
use std::time::{Duration, Instant};

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// When the search began.
    pub start: Instant,
    /// Do not start a new iteration after this (None: no limit).
    pub soft: Option<Duration>,
    /// Stop at once after this (None: no limit).
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget for `pos` under `limits`. Infinite and ponder searches get
    /// the clock budget too; the search ignores it until `ponderhit`.
    pub fn new(pos: &Position, limits: &Limits, options: &Options, start: Instant) -> Budget {
        let overhead = options.move_overhead;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return Budget {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let us = pos.side_to_move().index();
        let Some(clock) = limits.time[us] else {
            return Budget {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = limits.inc[us].unwrap_or_default();
        // Our placements left in the game, capped by the moves to the control.
        // Our last two are solved in no time, so the clock is shared by the
        // others.
        let ours = (pos.plies_left() as u32)
            .div_ceil(2)
            .saturating_sub(2)
            .max(1);
        let moves = limits.movestogo.map_or(ours, |m| m.clamp(1, ours));
        let usable = clock.saturating_sub(overhead);
        let soft = usable / moves + inc * 3 / 4;
        let hard = (soft * 3).min(usable * 3 / 4).max(Duration::from_millis(1));
        Budget {
            start,
            soft: Some(soft.min(hard)),
            hard: Some(hard),
        }
    }

    /// Time since the start.
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Is the hard limit past?
    #[inline]
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Should no new iteration start? (An iteration usually costs several
    /// times the last one, so stop early rather than waste a partial one.)
    #[inline]
    pub fn soft_passed(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn budgets_stay_within_the_clock() {
        let pos = Position::new(Variant::Standard);
        let o = Options::default();
        let now = Instant::now();
        let l = Limits {
            time: [Some(Duration::from_secs(8)), Some(Duration::from_secs(8))],
            ..Limits::default()
        };
        let b = Budget::new(&pos, &l, &o, now);
        assert!(b.soft.unwrap() <= b.hard.unwrap());
        assert!(b.hard.unwrap() < Duration::from_secs(8));
        assert!(b.soft.unwrap() >= Duration::from_millis(500));
        let l = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(
            Budget::new(&pos, &l, &o, now).hard,
            Some(Duration::from_millis(90))
        );
        let tiny = Limits {
            time: [Some(Duration::from_millis(5)), None],
            ..Limits::default()
        };
        assert!(Budget::new(&pos, &tiny, &o, now).hard.unwrap() >= Duration::from_millis(1));
        assert_eq!(Budget::new(&pos, &Limits::default(), &o, now).hard, None);
    }
}
