//! The horizon: nodes one ply above the evaluation horizon. A child's
//! evaluation follows from the parent and what its square offers
//! ([`Horizon::at_square`]), so no child is played; the children are
//! scanned like the endgame's last ply, square by square, stopping at beta.
//! It takes the search thread as the exact nodes do ([`Thread`]), never
//! the worker itself, which calls it.

use crate::eval::Horizon;
use crate::search::endgame::Thread;
use crate::search::endgame::square_scan::Best;
use crate::types::Placement;
use crate::value::Value;

/// The best child value of the current position (at least two plies left)
/// with the children evaluated, stopping once a value reaches `beta`;
/// records the best line at `ply` and returns the best placement;
/// `tuned` chooses the evaluation's weights ([`Horizon::new`]).
pub fn search(
    w: &mut impl Thread,
    tuned: bool,
    beta: Value,
    ply: usize,
    tt_move: Option<Placement>,
) -> (Value, Option<Placement>) {
    let horizon = Horizon::new(w.pos(), tuned);
    let moves = w.pos().legal_moves();
    let mut best = Best::NONE;
    // The table's move first: most nodes here cut on it, before any scan.
    let first = tt_move.filter(|&m| moves.contains(m));
    if let Some(m) = first {
        let at = horizon.at_square(m.square);
        best.offer(m, at.child(&horizon, m.piece));
    }
    // `Best::scan`'s order and stops, with the square's terms taken once.
    'squares: for sq in moves.targets() {
        if best.value >= beta {
            break;
        }
        let at = horizon.at_square(sq);
        for (piece, b) in moves.groups() {
            let pl = Placement::new(piece, sq);
            if b.has(sq) && first != Some(pl) {
                best.offer(pl, at.child(&horizon, piece));
                if best.value >= beta {
                    break 'squares;
                }
            }
        }
    }
    best.finish(w, ply)
}
