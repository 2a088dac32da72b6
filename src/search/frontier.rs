//! The frontier: nodes one ply above the evaluation horizon. A child's
//! evaluation follows from the parent and the placement's square delta
//! ([`Horizon`]), so no child is played; like the endgame's last ply, the
//! scan stops at the first placement reaching beta. Every child evaluated
//! counts as a node, as if it had been visited.

use super::eval::Horizon;
use super::worker::Worker;
use super::{INFINITE, SCALE, Value};
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
    let mut best = -INFINITE;
    let mut best_move = None;
    let mut seen = 0;
    // The table's move first: most nodes here cut on it, before any scan.
    let first = tt_move.filter(|&m| moves.contains(m));
    if let Some(m) = first {
        seen += 1;
        best = horizon.child(m.piece, m.square, &w.pos.square_delta(m.square));
        best_move = first;
    }
    'squares: for sq in moves.targets() {
        if best >= beta {
            break;
        }
        let sd = w.pos.square_delta(sq);
        for (piece, b) in moves.groups() {
            if !b.has(sq) || first == Some(Placement::new(piece, sq)) {
                continue;
            }
            seen += 1;
            let v = horizon.child(piece, sq, &sd);
            if v > best {
                best = v;
                best_move = Some(Placement::new(piece, sq));
                if v >= beta {
                    break 'squares;
                }
            }
        }
    }
    w.count(seen);
    match best_move {
        Some(m) => {
            w.leaf_line(ply, m);
            (best.clamp(-INFINITE + 1, INFINITE - 1), best_move)
        }
        None => (w.pos.diff() * SCALE, None),
    }
}
