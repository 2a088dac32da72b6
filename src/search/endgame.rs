//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.

use super::moves::MAX_MOVES;
use super::worker::Worker;
use super::{INFINITE, SCALE, Value};
use crate::types::{Piece, Placement, Square};

const NULL: Placement = Placement::new(Piece::King, Square::from_index(0));

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
/// the value reaches `beta`.
fn last(w: &mut Worker, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos.diff();
    let mut best = -INFINITE;
    let mut best_move = None;
    for m in w.pos.legal_moves().iter() {
        w.count(1);
        let v = (base + w.pos.gain(m)) * SCALE;
        if v > best {
            best = v;
            best_move = Some(m);
            if v >= beta {
                break;
            }
        }
    }
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
    let mut list = [(0, NULL); MAX_MOVES];
    let mut n = 0;
    for m in w.pos.legal_moves().iter() {
        list[n] = (w.pos.gain(m), m);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut best = -INFINITE;
    for &(_, m) in list.iter() {
        let u = w.pos.play(m);
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
