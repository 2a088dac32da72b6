//! Valuing placements square by square without playing them: one square
//! delta serves every piece that may land on a square, and the scan stops at
//! the first value reaching beta. The last ply, the horizon and `open`'s
//! final replies all work this way; every placement valued counts as a node
//! (Edax's convention), though none is played.

use crate::bitboard::Bitboard;
use crate::position::SquareDelta;
use crate::search::endgame::node::Thread;
use crate::types::{Piece, Placement, Square};
use crate::value::{INFINITE, SCALE, Value};
use crate::variant::Moves;

/// The best placement a scan has found so far.
#[derive(Clone, Copy, Debug)]
pub struct Best {
    /// Its value (-INFINITE before any).
    pub value: Value,
    /// The placement.
    pub placement: Option<Placement>,
    /// Placements valued.
    pub seen: u64,
}

impl Best {
    /// Nothing found yet.
    pub const NONE: Best = Best {
        value: -INFINITE,
        placement: None,
        seen: 0,
    };

    /// Counts `placement`, valued `value`, keeping it if it is the best.
    #[inline]
    pub fn offer(&mut self, placement: Placement, value: Value) {
        self.seen += 1;
        if value > self.value {
            self.value = value;
            self.placement = Some(placement);
        }
    }

    /// Values the placements of `moves` on `squares`, square by square,
    /// `skip` excepted, until one reaches `beta`.
    #[inline]
    pub fn scan(
        &mut self,
        w: &impl Thread,
        moves: &Moves,
        squares: Bitboard,
        skip: Option<Placement>,
        beta: Value,
        value: impl Fn(Piece, Square, &SquareDelta) -> Value,
    ) {
        for sq in squares {
            if self.value >= beta {
                return;
            }
            let sd = w.pos().square_delta(sq);
            for (piece, b) in moves.groups() {
                let pl = Placement::new(piece, sq);
                if b.has(sq) && skip != Some(pl) {
                    self.offer(pl, value(piece, sq, &sd));
                    if self.value >= beta {
                        return;
                    }
                }
            }
        }
    }

    /// Counts the nodes, records the line at `ply` and returns the value
    /// (the current difference if nothing was valued) and the placement.
    pub fn finish(self, w: &mut impl Thread, ply: usize) -> (Value, Option<Placement>) {
        w.count(self.seen);
        match self.placement {
            Some(m) => {
                w.leaf_line(ply, m);
                (
                    self.value.clamp(-INFINITE + 1, INFINITE - 1),
                    self.placement,
                )
            }
            None => (w.pos().diff() * SCALE, None),
        }
    }
}
