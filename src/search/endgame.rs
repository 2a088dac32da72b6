//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.
//!
//! Both plies go square by square: one `square_delta` serves every piece
//! that may land on the square (and, on the second to last ply, the `play`).

use super::moves::{MAX_MOVES, decode, encode};
use super::worker::Worker;
use super::{INFINITE, SCALE, Value};
use crate::position::SquareDelta;
use crate::types::Placement;

const NO_DELTA: SquareDelta = SquareDelta {
    own: [0; 5],
    loss: [0; 2],
};

/// The exact value of a position with at most two plies left.
#[inline]
pub fn solve(w: &mut Worker, alpha: Value, beta: Value, ply: usize) -> Value {
    match w.pos.plies_left() {
        0 => w.pos.diff() * SCALE,
        1 => last(w, beta, ply).0,
        _ => two(w, alpha, beta, ply),
    }
}

/// The best final placement's value and the placement, stopping early once
/// the value reaches `beta`. Every final placement whose value is computed
/// counts as a node (Edax's convention), though none is played.
fn last(w: &mut Worker, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos.diff();
    let us = w.pos.side_to_move().index();
    let moves = w.pos.legal_moves();
    let mut best = -INFINITE;
    let mut best_move = None;
    let mut seen = 0;
    'squares: for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        for (piece, b) in moves.groups() {
            if !b.has(sq) {
                continue;
            }
            seen += 1;
            let v = (base + sd.gain(piece, us)) * SCALE;
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
            (best, best_move)
        }
        None => (base * SCALE, None),
    }
}

/// Two plies left: each placement answered by the best final one, placements
/// tried by decreasing gain.
fn two(w: &mut Worker, mut alpha: Value, beta: Value, ply: usize) -> Value {
    let us = w.pos.side_to_move().index();
    let moves = w.pos.legal_moves();
    let mut deltas = [NO_DELTA; 64];
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        deltas[sq.index()] = sd;
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                list[n] = (sd.gain(piece, us), encode(Placement::new(piece, sq)));
                n += 1;
            }
        }
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut best = -INFINITE;
    for &(_, code) in list.iter() {
        let Some(m) = decode(code) else { continue };
        let sd = deltas[m.square.index()];
        let u = w.pos.play_with(m, &sd);
        w.count(1);
        let v = -last(w, -alpha, ply + 1).0;
        w.pos.undo(m, u);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                w.best_line(ply, m);
                if v >= beta {
                    break;
                }
            }
        }
    }
    if best == -INFINITE {
        return w.pos.diff() * SCALE;
    }
    best
}
