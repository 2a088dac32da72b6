//! What every exact node needs of the search thread that runs it
//! ([`Thread`]: the position, the node count, the lines, the last ply's
//! killers and the kept loss map) and the running result of its move
//! loop. The worker implements [`Thread`]; the nodes are generic over it.
//!
//! May use: the lower layers only (position, gains, value, types).

use crate::gains::kept_loss_map::KeptLosses;
use crate::position::Position;
use crate::types::{Placement, Square};
use crate::value::{INFINITE, SCALE, Value};

/// What the exact nodes need of the search thread that runs them.
pub trait Thread {
    /// The position searched.
    fn pos(&self) -> &Position;
    /// The position, to play and undo placements on.
    fn pos_mut(&mut self) -> &mut Position;
    /// Counts `n` nodes.
    fn count(&mut self, n: u64);
    /// Records `m` alone (the game ends after it) as the best line at `ply`.
    fn leaf_line(&mut self, ply: usize, m: Placement);
    /// Records `m` followed by the line below it as the best line at `ply`.
    fn best_line(&mut self, ply: usize, m: Placement);
    /// The squares of the last placements that cut a node with two plies
    /// left, the latest first.
    fn killers(&self) -> [Option<Square>; 2];
    /// Replaces [`Thread::killers`].
    fn set_killers(&mut self, killers: [Option<Square>; 2]);
    /// The position, and the loss map kept from the last `standard` node
    /// with two plies left.
    fn losses(&mut self) -> (&Position, &mut KeptLosses);
}

/// The running result of a move loop in the window (alpha, beta).
pub struct Running {
    /// The best value so far (-INFINITE before any).
    pub best: Value,
    /// The raised lower bound.
    pub alpha: Value,
    beta: Value,
}

impl Running {
    /// Nothing searched yet.
    pub fn new(alpha: Value, beta: Value) -> Running {
        Running {
            best: -INFINITE,
            alpha,
            beta,
        }
    }

    /// Takes `v`, the value of `m` (played at `ply`, its line below it);
    /// true when it reaches beta and the loop can stop.
    #[inline]
    pub fn take(&mut self, w: &mut impl Thread, ply: usize, m: Placement, v: Value) -> bool {
        if v > self.best {
            self.best = v;
            if v > self.alpha {
                self.alpha = v;
                w.best_line(ply, m);
                return v >= self.beta;
            }
        }
        false
    }

    /// The node's value: the best, or the current difference if nothing
    /// was legal.
    pub fn value(&self, w: &impl Thread) -> Value {
        if self.best == -INFINITE {
            w.pos().diff() * SCALE
        } else {
            self.best
        }
    }
}
