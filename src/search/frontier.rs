//! The frontier: nodes one ply above the evaluation horizon. A child's
//! evaluation follows from the parent and the placement's square delta
//! ([`Horizon`]), so no child is played; the children are scanned like
//! the endgame's last ply ([`Best::scan`]).

use super::Value;
use super::eval::Horizon;
use super::scan::Best;
use super::worker::Worker;
use crate::types::Placement;

/// The best child value of the current position (at least two plies left)
/// with the children evaluated, stopping once a value reaches `beta`;
/// records the best line at `ply` and returns the best placement.
pub fn search(
    w: &mut Worker,
    beta: Value,
    ply: usize,
    tt_move: Option<Placement>,
) -> (Value, Option<Placement>) {
    let horizon = Horizon::new(&w.pos, w.shared.tuned);
    let moves = w.pos.legal_moves();
    let mut best = Best::NONE;
    // The table's move first: most nodes here cut on it, before any scan.
    let first = tt_move.filter(|&m| moves.contains(m));
    if let Some(m) = first {
        best.offer(
            m,
            horizon.child(m.piece, m.square, &w.pos.square_delta(m.square)),
        );
    }
    best.scan(w, &moves, moves.targets(), first, beta, |piece, sq, sd| {
        horizon.child(piece, sq, sd)
    });
    best.finish(w, ply)
}
