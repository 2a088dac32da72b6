//! Time management: how long a search may run, from the clocks and limits.

use super::limits::{Limits, Options};
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
        // others; but every move, however fast, costs the GUI's latency.
        let all = (pos.plies_left() as u32).div_ceil(2).max(1);
        let all = limits.movestogo.map_or(all, |m| m.clamp(1, all));
        let moves = all.saturating_sub(2).max(1);
        // As Stockfish: the increments to come count, and each move left
        // (and one more) keeps `Move Overhead` back, so a tiny clock (100 ms
        // + 1 ms) is not spent before its last moves on a busy machine.
        let reserve = overhead.saturating_mul(all + 1);
        let left = (clock + inc * (all - 1)).saturating_sub(reserve);
        let floor = Duration::from_millis(1);
        let hard = (left / moves * 3).min(left).max(floor);
        Budget {
            start,
            soft: Some((left / moves).clamp(floor, hard)),
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
            Some(Duration::from_millis(80))
        );
        let tiny = Limits {
            time: [Some(Duration::from_millis(5)), None],
            ..Limits::default()
        };
        assert!(Budget::new(&pos, &tiny, &o, now).hard.unwrap() >= Duration::from_millis(1));
        assert_eq!(Budget::new(&pos, &Limits::default(), &o, now).hard, None);
    }

    /// Issue 23: at 100 ms + 1 ms, with 10 ms of latency per move, what the
    /// budgets of a whole game may spend fits the clock (with the default
    /// `Move Overhead` and with 10 ms).
    #[test]
    fn a_tiny_clock_lasts_the_game() {
        let latency = Duration::from_millis(10);
        for overhead in [latency, Options::default().move_overhead] {
            let o = Options {
                move_overhead: overhead,
                ..Options::default()
            };
            let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
            let mut pos = Position::new(Variant::Standard);
            let (mut clock, inc) = (Duration::from_millis(100), Duration::from_millis(1));
            while !pos.is_over() {
                if pos.side_to_move() == crate::types::Color::White {
                    let l = Limits {
                        time: [Some(clock), Some(clock)],
                        inc: [Some(inc), Some(inc)],
                        ..Limits::default()
                    };
                    let b = Budget::new(&pos, &l, &o, Instant::now());
                    let spent = b.hard.unwrap() + latency;
                    assert!(spent < clock, "ply {}: {spent:?} of {clock:?}", pos.ply());
                    clock = clock - spent + inc;
                }
                rng.play(&mut pos);
            }
        }
    }
}
